"""ttt_rl: antirez's ttt-rl in pure Python.

A tiny neural network learns tic-tac-toe by reinforcement learning: by
antirez's rule, playing a random opponent, or by three others; and connect
four, by the C's rule or by expert iteration. Read it in this order:

  the algorithm (these import only the standard library and each other)
    game.py      the board, the rules, the 18-input encoding, the random player
    connect4.py  connect four's rules and 84-input encoding (the C README's first question)
    nn.py        the 18-100-9 network (84-H-7 for connect four, 84-H-8 with a value
                 head): forward pass, softmax, backprop
    learn.py     the C's learning rule: learn_from_game, play_random_game,
                 train_against_random
    qlearn.py    a second rule, Q-learning, with the same network and file
    mcts.py      Monte Carlo tree search: UCT, an opponent to train against; PUCT, guided
                 by a net's policy and judged by its value
    selfplay.py  self-play: one net learns both sides against itself
    policy_iteration.py  policy iteration, each policy evaluated exactly by backward
                 induction over the game tree: a complete player, both sides
    expert_iteration.py  connect four: the net learns the moves of a search that the net
                 guides (expert iteration)
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

__version__ = "1.7.0"
