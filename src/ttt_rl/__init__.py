"""ttt_rl: antirez's ttt-rl in pure Python.

A tiny neural network learns tic-tac-toe by reinforcement learning: by
antirez's rule, playing a random opponent, or by three others. Read it in
this order:

  the algorithm (these import only the standard library and each other)
    game.py      the board, the rules, the 18-input encoding, the random player
    nn.py        the 18-100-9 network: forward pass, softmax, backprop
    learn.py     the C's learning rule: learn_from_game, play_random_game,
                 train_against_random
    qlearn.py    a second rule, Q-learning, with the same network and file
    mcts.py      Monte Carlo tree search (UCT): an opponent to train against
    selfplay.py  self-play: one net learns both sides against itself
    policy_iteration.py  policy iteration with exploring starts: a complete
                 player, both sides, from every position at once
  the C's file and programs
    weights.py   the ttt_nn.bin file (imports only the algorithm)
    train.py     ttt-train (train.c's main)
    play.py      ttt-play (play.c's main)
    ttt.py       ttt-rl: train, then play, as ttt.c's main
    __main__.py  `python -m ttt_rl` runs ttt-rl
    web.py       ttt-web: play and train in the browser (web.html)
  lab/           what the C does not have (exact evaluation, ttt-eval,
                 parallel runs, learning curves) and what keeps the
                 commands' short promises (docs/failures.md); its
                 __init__.py lists its modules

The commands import the modules above them and the lab; the lab imports
the algorithm, weights.py and itself, never a command. Importing the
package does no work.
"""

__version__ = "1.5.0"
