"""The lab: what antirez's C program does not have, kept apart so that the
algorithm (game.py, nn.py, learn.py, qlearn.py, mcts.py, selfplay.py)
reads on its own. One job per module, in the order they import each other:

  cli.py       the command line's promises: one line for any failure, a
               first Ctrl-C that keeps the work, output that may fail
  args.py      the command lines' flags, each rule's settings and loop
  exact.py     exact strength by walking the game tree; a reward's optimum
  text.py      results in words; the commands a message suggests, quoted
  curve.py     the progress line and the learning curve's rows
  svg.py       the learning curve and heat maps as a picture
  human.py     a person at the keyboard: the probability grid, moves
  files.py     paths checked before a run; the one way a file is written
  session.py   the start and end of a run: seed, --init, the save, its verdict
  runs.py      training runs in worker processes (--runs; bench/curve.py)
  ttt_eval.py  the lab's command, ttt-eval: exact strength of weights files

The algorithm and weights.py never import the lab.
"""
