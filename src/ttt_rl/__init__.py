"""ttt_rl: antirez's ttt-rl in pure Python.

A tiny neural network learns tic-tac-toe by reinforcement learning, playing
O against a random X. Modules, each importing only those above it:

    game.py      the board, the rules, the 18-input encoding
    nn.py        the 18-100-9 network, backprop, the weights file
    evaluate.py  exact strength of a network (`ttt-eval`)
    train.py     the learning loop (`ttt-train`)
    play.py      a human against the trained network (`ttt-play`)

This file holds what the three commands share.
"""

import argparse
import functools
import os
import sys

__version__ = "1.0.0"

EXIT_INTERRUPTED = 130  # the shell's status for a Ctrl-C (128 + SIGINT)


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit status 2)."""

    def error(self, message):
        self.exit(2, "%s: error: %s (try --help)\n" % (self.prog, message))


def command(main):
    """Wrap a command's main(argv) so that it never ends in a traceback
    when its output is closed early (`ttt-eval ... | head`) or on Ctrl-C.
    """
    @functools.wraps(main)
    def wrapper(argv=None):
        try:
            status = main(argv)
            sys.stdout.flush()   # a closed pipe shows here, not at exit
            return status
        except BrokenPipeError:
            # Send further output nowhere, so the exit-time flush cannot
            # fail again (the recipe of the Python signal docs).
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 1
        except KeyboardInterrupt:
            sys.stderr.write("\n")
            return EXIT_INTERRUPTED
    return wrapper
