"""The picture in the README, docs/curve.svg: `make curve`.

Trains the C's rule and Q-learning on one seed, as `ttt-train GAMES --seed S --method M
--curve` would, in two worker processes, and draws both learning curves (bench/svg.py) side by
side. A maintainer's tool beside the other measurements, not a command of the package.

    PYTHONPATH=src python3 bench/curve.py GAMES OUT.svg [--seed S]
"""

import argparse
import multiprocessing
import os
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(os.path.dirname(HERE), "src"), HERE]

from svg import HEIGHT, WIDTH, chart  # noqa: E402
from ttt_rl.game import O  # noqa: E402
from ttt_rl.lab.cli import MONTE_CARLO, Q_LEARNING, RULES, command  # noqa: E402
from ttt_rl.lab.cli import number, start_network  # noqa: E402
from ttt_rl.lab.curve import Reporter  # noqa: E402
from ttt_rl.lab.exact import evaluate_network, verdict  # noqa: E402
from ttt_rl.lab.files import saving  # noqa: E402
from ttt_rl.weights import from_bytes, to_bytes  # noqa: E402

TITLES = {MONTE_CARLO: "The C's rule (monte-carlo), seed %d", Q_LEARNING: "Q-learning, seed %d"}
PROGRESS_SECONDS = 10   # each worker says how far it is at least this often (on stderr)


def with_progress(report, rule, games):
    """Return `report`, printing to stderr, every PROGRESS_SECONDS, how far `rule` is."""
    start = last = time.perf_counter()

    def report_and_say(net, played, winner, side):
        nonlocal last
        now = time.perf_counter()
        if now - last >= PROGRESS_SECONDS or played == games:
            last = now
            print("make curve: %s, %d of %d games, %.0f s" % (rule, played, games, now - start),
                  file=sys.stderr, flush=True)
        return report(net, played, winner, side)
    return report_and_say


def train(rule, games, seed):
    """In a worker: train `rule` as `ttt-train GAMES --seed SEED --method RULE`; return its
    curve (lab.curve.Reporter's rows) and the verdict on the net as a file holds it."""
    net, rng = start_network(argparse.Namespace(seed=seed, hidden=None, game="tic-tac-toe"))
    reporter = Reporter(games, O, curve=True, quiet=True)
    reporter.begin(net)   # the point at 0 games: the untrained net
    settings, loop, _ = RULES[rule]
    loop(net, games, rng, O, settings, with_progress(reporter.report, rule, games))
    reporter.finish(net)
    return reporter.rows, verdict(evaluate_network(from_bytes(to_bytes(net)), O))


def side_by_side(charts):
    """Return one SVG picture of the chart() texts `charts` (as O), side by side."""
    inner = [c.replace('<svg xmlns="http://www.w3.org/2000/svg"', '<svg x="%d"' % (i * WIDTH), 1)
             for i, c in enumerate(charts)]
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d">\n%s</svg>\n'
            % (WIDTH * len(charts), HEIGHT, "".join(inner)))


@command("make curve")
def main(argv=None):
    """make curve: GAMES OUT.svg [--seed S]; returns the exit status (130 after Ctrl-C)."""
    parser = argparse.ArgumentParser(
        prog="make curve", description="Train the C's rule and Q-learning on one seed side by "
        "side and draw both learning curves in OUT.svg.")
    parser.add_argument("games", type=number(int, 0), metavar="GAMES", help="games of each rule")
    parser.add_argument("output", metavar="OUT.svg", help="the picture to write")
    parser.add_argument("--seed", type=number(int), default=1, help="random seed (default 1)")
    args = parser.parse_args(argv)
    if not args.output.lower().endswith(".svg"):
        parser.error("OUT.svg must end in .svg: it is an SVG picture")
    with saving(args.output, weights=False) as save:   # a bad folder fails before training
        print("make curve: %s, %d games each on seed %d, in %d processes; progress every %d s"
              % (" and ".join(TITLES), args.games, args.seed, len(TITLES), PROGRESS_SECONDS),
              file=sys.stderr, flush=True)
        # Workers ignore Ctrl-C: the pool's exit ends them, and the command says it once.
        with multiprocessing.Pool(len(TITLES), signal.signal, (signal.SIGINT,
                                                               signal.SIG_IGN)) as pool:
            runs = pool.starmap(train, [(rule, args.games, args.seed) for rule in TITLES])
        for rule, (_, result) in zip(TITLES, runs):
            print("%s, seed %d, %d games: %s" % (rule, args.seed, args.games, result))
        save(side_by_side([chart({args.seed: rows}, O, heading=TITLES[rule] % args.seed)
                           for rule, (rows, _) in zip(TITLES, runs)]).encode("utf-8"))
    print("Picture written to %s" % args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
