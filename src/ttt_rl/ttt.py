"""`ttt-rl` (and `python -m ttt_rl`): the original program in one command.

Ports main of antirez's ttt.c: train against a random player, then play
you, learning from every game you finish. No file is read or written
unless --init or --save asks for one. Before the first game it says how
strong the net is (the exact verdict, as ttt-eval computes it).
"""

import sys

from .game import opponent
from .nn import HIDDEN_SIZE, init_neural_network
from .weights import from_bytes
from .play import play_session
from .lab.args import rl_parser
from .lab.cli import EXIT_CTRL_C, EXIT_FAILURE, Output, command, invoked_as, on_stop
from .lab.exact import evaluate_network
from .lab.human import LEGEND, colour_wanted
from .lab.interrupt import first_ctrl_c_stops
from .lab.progress import Reporter
from .lab.save import conclude, end_session
from .lab.start import check_paths, choose_seed, learner, make_rng, read_init, settings_from, \
    trainer
from .lab.text import next_step, plural, summary_lines


@command("ttt-rl")
def main(argv=None):
    """Entry point of `ttt-rl` (C: main of ttt.c); returns the exit status:
    0; 1 if something failed; 2 for a bad command line; 128 + N when
    stopped by signal N (after saving, with --save, what was learned)."""
    args = rl_parser().parse_args(argv)
    out = Output(sys.stdout, "stdout", "ttt-rl")
    target, init_data = check_paths(args, args.save), read_init(args)   # before any work
    rng = make_rng(choose_seed(args, out))
    # C: init_neural_network (or the --init file's weights).
    net = init_neural_network(rng, args.hidden or HIDDEN_SIZE) if init_data is None \
        else from_bytes(init_data, args.init)
    on_stop("; %s was not written" % args.save if target else "")
    reporter = Reporter(out, args.games, args.side)
    with first_ctrl_c_stops(reporter):
        # C: train_against_random (or Q-learning, with --method q-learning).
        out.line("Training neural network against %d random games..." % args.games)
        games = trainer(args)(net, args.games, rng, args.side, settings_from(args),
                              report=reporter.report, report_every=1)
        out.line("\nTraining complete!" if games == args.games else
                 "\nStopped by Ctrl-C after %d of %d games." % (games, args.games))
        result = evaluate_network(net, args.side)
        out.line("\n".join(summary_lines(result)))
        # Before you play it: can it be beaten, and what would make it unbeatable.
        conclude(result, out, next_step(invoked_as("ttt-rl"), args.games), "This net")
        stopped = games < args.games or reporter.stop_requested
    status, learned, stop = EXIT_CTRL_C, 0, None
    if not stopped:   # (after a first Ctrl-C: keep what was trained, no play)
        out.line("You are %s. Type q to quit." % opponent(args.side))
        out.line(LEGEND)
        stdin = getattr(sys.stdin, "buffer", sys.stdin)
        # C: the play-again loop of main, learning from every game.
        learned, stop = play_session(net, stdin, out, args.side, learner(args),
                                     colour_wanted(sys.stdout))
        status = 0
    what = "from %s" % plural(games, "training game") + (" and %d of yours" % learned
                                                         if learned else "")
    status = end_session(net, target, args.save, args.side, "ttt-rl", out, what) or status
    if stop is not None and status != EXIT_FAILURE:
        raise stop   # said by @command, with what became of the file
    return status


if __name__ == "__main__":
    sys.exit(main())
