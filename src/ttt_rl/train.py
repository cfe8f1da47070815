"""`ttt-train`: train the network against a random player, then save it.

Ports main of the C `train` program (ttt.c split in two by ArthurChiao): a
new network, train_against_random, save_neural_network. Around that, what
a command owes its user (lab/): paths checked before the first game, the
progress line and a learning curve, a backup of the old file, and a first
Ctrl-C that stops after the current game and keeps the work.
"""

import sys
import time

from .learn import train_against_random
from .lab.args import train_parser
from .lab.cli import EXIT_CTRL_C, EXIT_FAILURE, Output, command, on_stop
from .lab.evaluate import summary_lines
from .lab.progress import Reporter, first_ctrl_c_stops, format_seconds
from .lab.runs import train_runs
from .lab.session import save_and_report, settings_from, start_run, write_curve


@command("ttt-train")
def main(argv=None):
    """Entry point of `ttt-train` (C: main of train.c); returns the exit
    status: 0; 1 if something failed (the weights are still saved if
    training finished); 2 for a bad command line; 128 + N when stopped by
    signal N (130 after a Ctrl-C that saved the net trained so far).
    """
    args = train_parser().parse_args(argv)
    if args.runs > 1:
        return train_runs(args)
    out = Output(sys.stdout, "stdout", "ttt-train")
    # A new net (C: init_neural_network), after every path is checked.
    target, seed, net, rng = start_run(args, args.output, out)
    on_stop("; %s was not written" % args.output)
    reporter = Reporter(out, args.games, args.side, args.eval_every, curve=bool(args.curve))
    out.line("Training neural network with %d games" % args.games)
    out.line("Training neural network against %d random games..." % args.games)
    with first_ctrl_c_stops(reporter):
        reporter.begin(net)
        # The lab's reporter sees every game: it decides what to print.
        games = train_against_random(net, args.games, rng, args.side, settings_from(args),
                                     report=reporter.report, report_every=1)
        elapsed = time.perf_counter() - reporter.start
        reporter.finish(net)
        out.line("\nTraining complete!" if games == args.games else
                 "\nStopped by Ctrl-C after %d of %d games." % (games, args.games))
        # C: save_neural_network. The exact strength of the saved net comes back.
        result = save_and_report(net, target, args.output, args.side, "ttt-train", out)
    if result is None:
        return EXIT_FAILURE
    out.line("Training time: %s (%.1f s, %.0f games/s)" % (
        format_seconds(elapsed), elapsed, games / max(elapsed, 1e-9)))
    for line in summary_lines(result):
        out.line(line)
    curve_ok = not args.curve or write_curve(args.curve, {seed: reporter.rows}, args.side,
                                             "ttt-train")
    if games < args.games:
        return EXIT_CTRL_C
    return 0 if curve_ok and not out.failed else EXIT_FAILURE


if __name__ == "__main__":
    sys.exit(main())
