"""The lab: what antirez's C program does not have, kept apart so that the algorithm (game.py,
nn.py, learn.py, qlearn.py, mcts.py, selfplay.py, policy_iteration.py) reads on its own. Of
those, policy_iteration.py is policy iteration (Sutton and Barto 4.3): each policy evaluated
exactly by backward induction over the game tree (dynamic programming, no sampling), and the
net learning the improved moves (approximate policy iteration). One job per lab module, in
the order they import each other:

  exact.py     exact strength by walking the game tree, and its words
  files.py     reading a weights file for a command; the one way a file is written
  cli.py       the command lines: flags, each rule's loop, Ctrl-C, one line for a mistake
  curve.py     the progress line, the learning curve's rows and CSV
  runs.py      --runs: training runs in worker processes, the best one saved
  ttt_eval.py  the lab's command, ttt-eval: exact strength of weights files

The algorithm and weights.py never import the lab; the lab never imports a command.
"""
