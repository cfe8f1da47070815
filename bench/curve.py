"""The picture in the README, docs/curve.svg: `make curve`.

Trains the C's rule and Q-learning on one seed, in two worker processes
(lab/runs.py, as `ttt-train --runs`), and draws both learning curves
(lab/svg.py, as `ttt-train --curve`) side by side. A maintainer's tool
beside the other measurements, not a command of the package.

    PYTHONPATH=src python3 bench/curve.py GAMES OUT.svg [--seed S]
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "src"))

from ttt_rl.game import O  # noqa: E402
from ttt_rl.lab.args import RULES, ArgumentParser, count, file_name, seed  # noqa: E402
from ttt_rl.lab.cli import EXIT_FAILURE, Output, command, first_ctrl_c_stops, \
    signals_held  # noqa: E402
from ttt_rl.lab.files import check_output, save  # noqa: E402
from ttt_rl.lab.runs import run_all  # noqa: E402
from ttt_rl.lab.svg import HEIGHT, WIDTH, chart  # noqa: E402
from ttt_rl.lab.text import verdict  # noqa: E402

TITLES = {"monte-carlo": "The C's rule (monte-carlo), seed %d", "q-learning": "Q-learning, seed %d"}


def side_by_side(charts):
    """Return one SVG picture of the chart() texts `charts` (as O), side by side."""
    inner = [c.replace('<svg xmlns="http://www.w3.org/2000/svg"', '<svg x="%d"' % (i * WIDTH), 1)
             for i, c in enumerate(charts)]
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d">\n%s</svg>\n'
            % (WIDTH * len(charts), HEIGHT, "".join(inner)))


@command("make curve")
def main(argv=None):
    """make curve: GAMES OUT.svg [--seed S]; returns the exit status."""
    parser = ArgumentParser(prog="make curve", description="Train the C's rule and Q-learning on "
                            "one seed side by side and draw both learning curves in OUT.svg (an "
                            "old one is kept as OUT.svg.bak).")
    parser.add_argument("games", type=count, metavar="GAMES", help="games of each rule")
    parser.add_argument("output", type=file_name, metavar="OUT.svg", help="the picture")
    parser.add_argument("--seed", type=seed, default=1, help="random seed (default 1)")
    args, out = parser.parse_args(argv), Output(sys.stdout, "make curve")
    if not args.output.lower().endswith(".svg"):
        parser.error("OUT.svg must end in .svg: it is an SVG picture")
    check_output(args.output, weights=False)
    tasks = [(argparse.Namespace(games=args.games, method=rule, side=O, hidden=None, init=None,
                                 curve=True, **RULES[rule][0]._asdict()), args.seed, None)
             for rule in RULES]
    with first_ctrl_c_stops() as ctrl_c:
        runs, failed = run_all(tasks, len(tasks), out, ctrl_c)
    if ctrl_c.stop_requested or failed:
        return ctrl_c.status or EXIT_FAILURE
    for rule, run in zip(RULES, runs):
        out.line("%s, seed %d, %d games: %s" % (rule, args.seed, args.games,
                                                verdict(run["result"])))
    charts = [chart({args.seed: run["rows"]}, O, heading=TITLES[rule] % args.seed)
              for rule, run in zip(RULES, runs)]
    with signals_held():
        save(args.output, side_by_side(charts).encode("utf-8"))
        out.line("Picture written to %s" % args.output)
    return EXIT_FAILURE if out.failed else 0


if __name__ == "__main__":
    sys.exit(main())
