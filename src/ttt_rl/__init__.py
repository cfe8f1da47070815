"""ttt_rl: antirez's ttt-rl in pure Python.

A tiny neural network learns tic-tac-toe by reinforcement learning, playing
against a random opponent. Read the modules in this order; each imports
only modules above it:

    game.py      the board, the rules, the 18-input encoding
    nn.py        the 18-100-9 network: forward pass, softmax, backprop
    weights.py   the ttt_nn.bin file: bytes, atomic save, checked load
    cli.py       what the commands share: arguments, output, signals
    evaluate.py  exact strength of a network (`ttt-eval`)
    svg.py       the learning curve as a chart
    report.py    progress lines and the curve file of a training run
    train.py     the learning loop (`ttt-train`)
    runs.py      many runs in parallel, the best kept (`ttt-train --runs`)
    play.py      a human against the network (`ttt-play`)
    rl.py        train then play, as the original (`ttt-rl`)
"""

__version__ = "1.1.0"
