"""The lab: what antirez's C program does not have, kept apart so that the
algorithm (game.py, nn.py, learn.py, qlearn.py) reads on its own. One job
per module, in the order they import each other:

  folder.py     an open folder: names used relative to it, inode flags,
                mount points, files created exclusively
  paths.py      where a path leads (as the kernel resolves it), and every
                check before a run
  files.py      a file replaced atomically, with a backup and the old
                file's permissions
  interrupt.py  what stops a command; the first Ctrl-C ends training
                after the current game
  cli.py        the @command wrapper: one line on stderr, never a
                traceback; output that may fail
  argtypes.py   what a valid argument is
  args.py       the command lines, and each learning rule's defaults
  scale.py      round numbers 1, 2, 5, 10, ...
  exact.py      exact strength, by walking the game tree
  optimum.py    the best policy for a reward, by expectimax
  text.py       results in words
  curve.py      the learning curve's points
  svg.py        the learning curve and heat maps as a picture
  progress.py   the progress line
  human.py      a person at the keyboard: the probability grid, moves
  start.py      the start of a run: seed, rule, --init, paths
  save.py       the end of a run: the save and the verdict
  worker.py     one run in a worker process
  parallel.py   runs in worker processes, supervised by the parent
  runs.py       many runs, the best kept (ttt-train --runs)
  ttt_eval.py   the ttt-eval command, the one command the C has no
                counterpart for
  compare.py    both learning rules side by side (make curve)

The algorithm and weights.py never import the lab.
"""
