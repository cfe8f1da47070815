"""Expert iteration on connect four, measured after every round: the maintainers' sweep.

    python3 bench/c4_rounds.py GAMES [--hidden H] [--playouts N] [--round-games G]
                               [--seed S] [--jobs J] [--eval-games E]

Trains as `ttt-train GAMES --game connect4 --method expert-iteration` does (the same worker
processes, lab/runs.py), with the round size as a flag, and after each round prints the net's
wins against the random and the tactical player as X and as O (E seeded games a side, fewer
than ttt-eval's 1,000 so that a round's line comes quickly) and its agreement with perfect play
on the package's 1,000 positions, with the seconds since the start (those measurements
included). The lines of docs/measurements.md ("Connect four") came from it or from its
scratch predecessor; PyPy runs it several times faster than CPython.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "src"))

from ttt_rl import connect4, expert_iteration  # noqa: E402
from ttt_rl.game import O, X  # noqa: E402
from ttt_rl.lab.cli import EXPERT_ITERATION  # noqa: E402
from ttt_rl.lab.exact import c4_results  # noqa: E402
from ttt_rl.lab.runs import train_expert_iteration_in_workers  # noqa: E402
from ttt_rl.nn import init_neural_network  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", type=int)
    parser.add_argument("--hidden", type=int, default=150)
    parser.add_argument("--playouts", type=int, default=expert_iteration.SIMULATIONS)
    parser.add_argument("--round-games", type=int, default=expert_iteration.GAMES_PER_ROUND)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int)
    parser.add_argument("--eval-games", type=int, default=200)
    args = parser.parse_args()
    expert_iteration.GAMES_PER_ROUND = args.round_games   # read at each round
    args.method, args.learning_rate = EXPERT_ITERATION, None
    rng = random.Random(args.seed)
    net, start = init_neural_network(rng, args.hidden, connect4), time.perf_counter()

    def report(net, games, winners):
        results = c4_results(net, args.eval_games)
        print("%6d games %6.0f s  random X %5.1f%% O %5.1f%%  tactical X %5.1f%% O %5.1f%%  "
              "agreement %.1f%%" % ((games, time.perf_counter() - start) + tuple(
                  100 * results[name][side][0] / args.eval_games
                  for name in ("random", "tactical") for side in (X, O))
                  + (100 * results["agreement"],)), flush=True)

    train_expert_iteration_in_workers(net, rng, args, report, lambda: False)


if __name__ == "__main__":
    main()
