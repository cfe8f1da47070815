"""The two learning rules side by side: `make curve` draws docs/curve.svg.

Trains one run of the C's rule and one of Q-learning on the same seed and
number of games, each in a process of its own, with the learning curve of
`ttt-train --curve`, and writes both charts in one picture, left the C's
rule, right Q-learning. Prints each saved net's verdict. No C counterpart.

    python3 -m ttt_rl.lab.compare GAMES OUT.svg [--seed S]
"""

import sys
from concurrent.futures import ProcessPoolExecutor

from .args import DEFAULT_METHOD, Q_LEARNING, train_parser
from .cli import command
from .curve import strip_for_transfer
from .exact import evaluate_network
from .files import replace_file
from .paths import check_output
from .progress import Reporter
from .start import settings_from, start_network, trainer
from .svg import WIDTH, chart
from .text import verdict

TITLES = {DEFAULT_METHOD: "The C's rule (monte-carlo), seed %d",
          Q_LEARNING: "Q-learning, seed %d"}


def curve_of(method, games, seed):
    """Train one run of `method`; return (its curve rows, final evaluation)."""
    args = train_parser().parse_args([str(games), "--seed", str(seed), "--method", method])
    net, rng = start_network(args, seed)
    reporter = Reporter(None, games, curve=True)
    reporter.progress_line = lambda *line: None   # quiet: the parent prints
    reporter.begin(net)
    trainer(args)(net, games, rng, args.side, settings_from(args),
                  report=reporter.report, report_every=1)
    return [strip_for_transfer(r) for r in reporter.rows], evaluate_network(net)


def side_by_side(charts):
    """Return one SVG picture holding the chart SVG texts `charts` side by
    side, each as drawn by chart()."""
    inner = [c.replace('<svg xmlns="http://www.w3.org/2000/svg"', '<svg x="%d"' % (i * WIDTH), 1)
             for i, c in enumerate(charts)]
    height = max(int(c.split('height="', 1)[1].split('"', 1)[0]) for c in charts)
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d">\n%s</svg>\n'
            % (WIDTH * len(charts), height, "".join(inner)))


@command("compare")
def main(argv=None):
    """Train both rules and write the picture; returns the exit status."""
    parser = train_parser()
    parser.prog = "python3 -m ttt_rl.lab.compare"
    args = parser.parse_args(argv)
    check_output(args.output)
    seed = args.seed if args.seed is not None else 1
    methods = (DEFAULT_METHOD, Q_LEARNING)
    with ProcessPoolExecutor(len(methods)) as pool:
        done = [pool.submit(curve_of, m, args.games, seed) for m in methods]
        results = [d.result() for d in done]
    charts = []
    for method, (rows, final) in zip(methods, results):
        print("%s, seed %d, %d games: %s" % (method, seed, args.games, verdict(final)))
        charts.append(chart({seed: rows}, "O", heading=TITLES[method] % seed))
    replace_file(args.output, side_by_side(charts).encode("utf-8"), keep_backup=False)
    print("Picture written to %s" % args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
