"""ttt_rl: antirez's ttt-rl in pure Python.

A tiny neural network learns tic-tac-toe by reinforcement learning, playing
against a random opponent. Read the modules in this order; each imports
only modules above it:

    game.py      the board, the rules, the 18-input encoding
    nn.py        the 18-100-9 network: forward pass, softmax, backprop
    weights.py   the ttt_nn.bin file: bytes, atomic save, checked load
    cli.py       what the commands share: arguments, output, signals
    evaluate.py  exact strength of a network (`ttt-eval`)
    curve.py     the learning-curve file (`ttt-train --curve`)
    train.py     the learning loop (`ttt-train`)
    play.py      a human against the network (`ttt-play`)
"""

__version__ = "1.1.0"
