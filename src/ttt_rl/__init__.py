"""ttt_rl: antirez's ttt-rl in pure Python.

A tiny neural network learns tic-tac-toe by reinforcement learning, playing
O against a random X. Modules, each importing only those above it:

    game.py      the board, the rules, the 18-input encoding
    nn.py        the 18-100-9 network, backprop, the weights file
    evaluate.py  exact strength of a network (`ttt-eval`)
    train.py     the learning loop (`ttt-train`)
    play.py      a human against the trained network (`ttt-play`)
"""

import argparse

__version__ = "1.0.0"


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit status 2)."""

    def error(self, message):
        self.exit(2, "%s: error: %s (try --help)\n" % (self.prog, message))
