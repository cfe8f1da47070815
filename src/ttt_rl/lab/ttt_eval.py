"""The lab's two commands: `ttt-eval`, the exact strength of trained
networks (every game each net can play, walked by exact.py, and what the
C's reward asks for at best), and `make curve`, both learning rules side
by side in one picture. The C has nothing like either: it only samples.
"""

import argparse
import sys

from ..game import BOTH, O, X
from ..learn import DEFAULT_SETTINGS
from ..weights import FileError, load
from .args import RULES, ArgumentParser, count, file_name, seed, side_or_both
from .cli import EXIT_FAILURE, EXIT_USAGE, Output, command, first_ctrl_c_stops, printable, \
    say, signals_held
from .exact import complete_share, evaluate_network, net_policy, optimum
from .files import check_output, save
from .svg import chart, side_by_side
from .text import format_line, json_line, optimum_sentence, side_warning, summary_lines, verdict

TITLES = {"monte-carlo": "The C's rule (monte-carlo), seed %d", "q-learning": "Q-learning, seed %d"}


def eval_parser():
    """Return the ArgumentParser of ttt-eval."""
    parser = ArgumentParser(prog="ttt-eval", epilog="""\
examples:
  ttt-eval ttt_nn.bin                       exact strength of the net as O
  ttt-eval a.bin b.bin --json               one JSON object per file
  ttt-eval x.bin --side X --show-losses     as X, with every lost game
  ttt-eval both.bin --side both             both sides of a --side both net
  ttt-eval --check ttt_nn.bin && echo ok    for scripts and CI: 0 unbeatable

Exit status: 0; 1 with --check if a net can be beaten; 2 if a file could
not be read (so not checked) or for a bad command line, as grep and diff.
""", description="Compute the exact strength of trained networks by walking "
                 "every game they can play.")
    parser.add_argument("weights", nargs="+", metavar="WEIGHTS", type=file_name,
                        help="weights file(s) written by ttt-train or the C train")
    parser.add_argument("--side", type=side_or_both, default=O, metavar="{O,X,both}",
                        help="the side the net plays (default O; X moves first; both: "
                             "each side in turn)")
    parser.add_argument("--check", action="store_true",
                        help="exit with status 1 if any net can be beaten")
    # Losing lines are text for a human; they would break the JSON stream.
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true",
                        help="print one JSON object per file, one per line")
    output.add_argument("--show-losses", action="store_true",
                        help="print the moves of every game the net loses, "
                             "to replay in ttt-play")
    return parser


@command("ttt-eval")
def main(argv=None):
    """Entry point of `ttt-eval`; returns the exit status: 0; 1 with --check
    if any net can be beaten; 2 if a file could not be read, or for a bad
    command line. `argv` is the argument list (default sys.argv[1:])."""
    args = eval_parser().parse_args(argv)
    status, read = 0, 0
    for path in args.weights:
        try:
            net = load(path)
        except FileError as e:
            say("ttt-eval", "error: %s" % e)
            status = EXIT_USAGE   # could not check: not the same as beatable
            continue
        read += 1
        result = evaluate_network(net, args.side)
        result["complete_kept"], result["complete_positions"] = complete_share(net_policy(net), args.side)
        if args.check and not result["unbeatable"]:
            status = status or EXIT_FAILURE
        warning = args.side != BOTH and side_warning(net, args.side, result)
        if warning:
            say("ttt-eval", "%s: %s" % (path, warning))
        lines = [json_line(path, result)] if args.json else \
            [printable(path)] + ["  " + line for line in summary_lines(result)] + [
                "  Under any play: keeps the minimax value in %d of %d positions (%.1f%%)" % (
                    result["complete_kept"], result["complete_positions"],
                    100 * result["complete_kept"] / result["complete_positions"])]
        if args.show_losses:
            lines += ["  lost: " + format_line(moves) for moves in result["losing_lines"]]
        print("\n".join(lines))
    if read and not args.json:
        # What the reward asks for: the best any learner can do with it.
        for side in (O, X) if args.side == BOTH else (args.side,):
            print("Limit: " + optimum_sentence(optimum(DEFAULT_SETTINGS[1:], side),
                                               "the C's reward"))
    return status


@command("make curve")
def compare(argv=None):
    """make curve: COMPARE GAMES OUT.svg [--seed S]; returns the exit status."""
    parser = ArgumentParser(prog="make curve", description="Train the C's "
                            "rule and Q-learning on one seed side by side and draw both "
                            "learning curves in OUT.svg (an old one is kept as OUT.svg.bak).")
    parser.add_argument("games", type=count, metavar="GAMES", help="games of each rule")
    parser.add_argument("output", type=file_name, metavar="OUT.svg", help="the picture")
    parser.add_argument("--seed", type=seed, default=1, help="random seed (default 1)")
    args, out = parser.parse_args(argv), Output(sys.stdout, "make curve")
    if not args.output.lower().endswith(".svg"):
        parser.error("OUT.svg must end in .svg: it is an SVG picture")
    check_output(args.output, weights=False)
    tasks = [(argparse.Namespace(games=args.games, method=method, side=O, hidden=None, init=None,
                                 curve=True, **RULES[method][0]._asdict()), args.seed, None)
             for method in RULES]
    # Imported here: ttt-eval needs no processes, and multiprocessing's import
    # of socket fails in a deleted current folder on Python 3.13.0.
    from .runs import run_all
    with first_ctrl_c_stops() as ctrl_c:
        runs, failed = run_all(tasks, len(tasks), out, ctrl_c)
    if ctrl_c.stop_requested or failed:
        return ctrl_c.status or EXIT_FAILURE
    charts = []
    for method, run in zip(RULES, runs):
        out.line("%s, seed %d, %d games: %s" % (method, args.seed, args.games,
                                                verdict(run["result"])))
        charts.append(chart({args.seed: run["rows"]}, O, heading=TITLES[method] % args.seed))
    with signals_held():
        save(args.output, side_by_side(charts).encode("utf-8"))
        out.line("Picture written to %s" % args.output)
    return EXIT_FAILURE if out.failed else 0


if __name__ == "__main__":
    sys.exit(main())
