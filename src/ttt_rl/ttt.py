"""`ttt-rl` (and `python -m ttt_rl`): the original program in one command.

Ports main of antirez's ttt.c: train against a random player, then play
you, learning from every game you finish. No file is read or written
unless --init or --save asks for one. Before the first game it says how
strong the net is (the exact verdict, as ttt-eval computes it).
"""

import sys

from .game import opponent
from .learn import train_against_random
from .play import play_session
from .lab.args import rl_parser
from .lab.cli import EXIT_CTRL_C, EXIT_FAILURE, Output, command, on_stop
from .lab.evaluate import evaluate_network, summary_lines
from .lab.human import LEGEND, colour_wanted
from .lab.progress import Reporter, first_ctrl_c_stops
from .lab.session import save_and_report, settings_from, start_run


@command("ttt-rl")
def main(argv=None):
    """Entry point of `ttt-rl` (C: main of ttt.c); returns the exit status."""
    args = rl_parser().parse_args(argv)
    out = Output(sys.stdout, "stdout", "ttt-rl")
    # A new net (C: init_neural_network); no file unless --init or --save.
    target, seed, net, rng = start_run(args, args.save, out)
    on_stop("; %s was not written" % args.save if target else "")
    reporter = Reporter(out, args.games, args.side)
    with first_ctrl_c_stops(reporter):
        out.line("Training neural network against %d random games..." % args.games)
        games = train_against_random(net, args.games, rng, args.side, settings_from(args),
                                     report=reporter.report, report_every=1)
        out.line("\nTraining complete!" if games == args.games else
                 "\nStopped by Ctrl-C after %d of %d games." % (games, args.games))
        for line in summary_lines(evaluate_network(net, args.side)):
            out.line(line)
        if games < args.games:   # a first Ctrl-C: keep what was trained, no play
            saved = target is None or save_and_report(net, target, args.save, args.side,
                                                      "ttt-rl", out)
            return EXIT_CTRL_C if saved else EXIT_FAILURE
    out.line("You are %s. Type q to quit." % opponent(args.side))
    out.line(LEGEND)
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    play_session(net, stdin, out, args.side, settings_from(args), colour_wanted(sys.stdout))
    if target is not None and not save_and_report(net, target, args.save, args.side,
                                                  "ttt-rl", out):
        return EXIT_FAILURE
    return EXIT_FAILURE if out.failed else 0


if __name__ == "__main__":
    sys.exit(main())
