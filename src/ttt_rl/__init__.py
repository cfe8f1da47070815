"""ttt_rl: antirez's ttt-rl in pure Python.

A tiny neural network learns tic-tac-toe by reinforcement learning, playing
against a random opponent. Read it in this order:

  the algorithm (these import only the standard library and each other)
    game.py      the board, the rules, the 18-input encoding, the random player
    nn.py        the 18-100-9 network: forward pass, softmax, backprop
    learn.py     learning from games: learn_from_game, play_random_game,
                 train_against_random
  the C's programs and file
    weights.py   the ttt_nn.bin file
    train.py     ttt-train (train.c's main)
    play.py      ttt-play (play.c's main)
    ttt.py       ttt-rl: train, then play, as ttt.c's main
  lab/           what the C does not have: exact evaluation (ttt-eval),
                 parallel runs, learning curves and pictures, and what keeps
                 the commands' promises when something fails

Each module imports only modules above it in this list, and the commands
(and weights.py, for its safe save) use the lab; the lab never imports a
command. Importing the package does no work.
"""

__version__ = "1.2.0"
