"""The lab: what antirez's C program does not have, kept apart so that the algorithm reads on
its own. One job per module, in the order they import each other:

  exact.py     the strength of a net: exact for tic-tac-toe, measured for connect four
  files.py     reading a weights file for a command; the one way a file is written
  cli.py       the command lines: flags, each rule's loop, Ctrl-C, one line for a mistake
  curve.py     the progress line, the learning curve's rows and CSV
  runs.py      worker processes: --runs, and expert iteration's self-play
  ttt_eval.py  the lab's command, ttt-eval: the strength of weights files

The algorithm and weights.py never import the lab; the lab never imports a command.
"""
