"""ttt_rl: antirez's ttt-rl in pure Python.

A tiny neural network learns tic-tac-toe by reinforcement learning, playing
against a random opponent. Read it in this order:

  the algorithm (these import only the standard library and each other)
    game.py      the board, the rules, the 18-input encoding, the random player
    nn.py        the 18-100-9 network: forward pass, softmax, backprop
    learn.py     the C's learning rule: learn_from_game, play_random_game,
                 train_against_random
    qlearn.py    a second rule, Q-learning, with the same network and file
  the C's programs and file
    weights.py   the ttt_nn.bin file
    train.py     ttt-train (train.c's main)
    play.py      ttt-play (play.c's main)
    ttt.py       ttt-rl: train, then play, as ttt.c's main
  lab/           what the C does not have: exact evaluation (ttt-eval),
                 the optimum of a reward, parallel runs, learning curves
                 and pictures, and what keeps the commands' promises when
                 something fails

Each module imports only modules above it in this list; the commands use
the lab, which never imports a command; the algorithm and weights.py never
import the lab. Importing the package does no work.
"""

__version__ = "1.3.0"
