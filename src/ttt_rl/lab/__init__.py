"""The lab: what antirez's C program does not have, kept apart so that the
algorithm (game.py, nn.py, learn.py) reads on its own.

  files.py     weights and curve files replaced atomically, with a backup;
               output paths checked before any work
  cli.py       the @command wrapper: one line on stderr, never a traceback
  args.py      the command lines
  evaluate.py  exact strength by walking the game tree
  ttt_eval.py  the ttt-eval command
  curve.py     the curve's points: exact strength and probabilities
  svg.py       the learning curve and heat maps as a picture
  progress.py  the progress line, and a first Ctrl-C that keeps the work
  session.py   a run's start (seed, net, checked paths) and end (save)
  human.py     the probability grid, a person's input, colour on a terminal
  runs.py      many runs in parallel, the best kept (ttt-train --runs)

Each imports only those above it, the algorithm and weights.py; the
algorithm never imports the lab, and weights.py only files.py.
"""
