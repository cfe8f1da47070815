"""`ttt-rl` (and `python -m ttt_rl`): the original program in one command.

Ports main of antirez's ttt.c: train against a random player, say how
strong the net is (exactly, as ttt-eval), then play you, learning from
every game you finish. Files only with --init or --save.
"""

import sys

from .game import opponent
from .play import play_session
from .lab.args import ArgumentParser, add_training_flags, file_name, learner, settings_from, trainer
from .lab.cli import EXIT_FAILURE, Output, command, first_ctrl_c_stops, printable
from .lab.curve import Reporter, ending
from .lab.exact import evaluate_network
from .lab.human import LEGEND, colour_wanted
from .lab.session import check_paths, choose_seed, conclude, end_session, read_init, start_network
from .lab.text import invoked_as, next_step, plural, summary_lines

EXAMPLES = """\
examples:
  ttt-rl                          train 150000 games, then play (as ./ttt does)
  ttt-rl 20000 --seed 1           a quick, repeatable net
  ttt-rl --side X --save me.bin   the net plays X; keep what it learned
"""


def rl_parser():
    """Return the ArgumentParser of ttt-rl."""
    parser = ArgumentParser(prog="ttt-rl", epilog=EXAMPLES, description="Train the network "
                            "against a random player, then play it; it learns from every "
                            "game you finish, as antirez's ttt.c.")
    add_training_flags(parser, "training games before play")
    parser.add_argument("--save", metavar="FILE", type=file_name, help="save the weights to "
                        "FILE when the session ends (default: nothing is written)")
    return parser


@command("ttt-rl")
def main(argv=None):
    """ttt-rl on `argv` (default sys.argv[1:]; C: main of ttt.c); returns 0, 1 for a failure,
    2 for a bad command line, 128 + N for signal N (with --save, what it learned saved)."""
    args = rl_parser().parse_args(argv)
    out = Output(sys.stdout, "ttt-rl")
    check_paths(args, args.save)   # before any work
    net, rng = start_network(args, choose_seed(args, out), read_init(args))
    with first_ctrl_c_stops() as ctrl_c:
        try:
            # C: train_against_random (or Q-learning, with --method q-learning).
            out.line("Training neural network against %d random games..." % args.games)
            reporter = Reporter(out, args.games, args.side, stop=ctrl_c)
            games = trainer(args)(net, args.games, rng, args.side, settings_from(args),
                                  report=reporter.report, report_every=1)
            out.line(ending(games, args.games, ctrl_c))
            # Before you play it: can it be beaten, and what would make it unbeatable.
            result = evaluate_network(net, args.side)
            out.line("\n".join(summary_lines(result)))
            conclude(result, out, games and next_step(invoked_as("ttt"), args), "This net")
        except KeyboardInterrupt as stop:
            stop.note = "%s was not written" % printable(args.save) if args.save else ""
            raise
        stopped = games < args.games or ctrl_c.stop_requested
    learned, stop = 0, None
    if not stopped:   # after a first Ctrl-C: keep what was trained, no play
        out.line("You are %s. Type q to quit." % opponent(args.side))
        out.line(LEGEND)
        stdin = getattr(sys.stdin, "buffer", sys.stdin)
        # C: the play-again loop of main, learning from every game.
        learned, stop = play_session(net, stdin, out, args.side, learner(args),
                                     colour_wanted(sys.stdout))
    what = (games or learned) and "from %s" % plural(games, "training game") + (
        " and %d of yours" % learned if learned else "")
    status = end_session(net, args.save, args.side, "ttt-rl", out, what)
    if stop is not None and status != EXIT_FAILURE:
        stop.note = "%s was saved" % printable(args.save) if args.save else ""
        raise stop   # said by @command
    return status or ctrl_c.status


if __name__ == "__main__":
    sys.exit(main())
