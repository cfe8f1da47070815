"""How often a learning rule ends unbeatable: `ttt-train` over many seeds.

For each seed S, runs `ttt-train GAMES FILE --seed S --method M` (in
process, several seeds at once) and measures the file as `ttt-eval` does.
Prints one line per seed and a summary: seeds unbeatable, mean and best
exact win rate against a random X. A seeded file is the same on every
interpreter, so long sweeps can run under PyPy:

    pypy3 bench/unbeatable.py 200000 --method q-learning --seeds 1-60
"""

import argparse
import contextlib
import io
import multiprocessing
import os
import statistics
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))

from ttt_rl.lab.exact import evaluate_network  # noqa: E402
from ttt_rl.train import main as train_main  # noqa: E402
from ttt_rl.weights import load  # noqa: E402

OPTIMUM = 0.9164   # the best never-losing O (lab/exact.py), to 4 places


def one_seed(job):
    """Train and measure one seed; return (seed, unbeatable, win, lines lost)."""
    games, method, seed = job
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "w.bin")
        with contextlib.redirect_stdout(io.StringIO()):
            status = train_main([str(games), path, "--seed", str(seed), "--method", method])
        if status != 0:
            sys.exit("unbeatable: ttt-train failed for seed %d" % seed)
        result = evaluate_network(load(path))
    return seed, result["unbeatable"], result["win"], result["lines_lost"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", type=int)
    parser.add_argument("--method", default="monte-carlo")
    parser.add_argument("--seeds", default="1-40", help="FIRST-LAST (default 1-40)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    first, last = map(int, args.seeds.split("-"))
    jobs = [(args.games, args.method, s) for s in range(first, last + 1)]
    with multiprocessing.Pool(args.jobs) as pool:
        rows = pool.map(one_seed, jobs, chunksize=1)
    for seed, unbeatable, win, lost in rows:
        verdict = "unbeatable" if unbeatable else "loses %d line%s" % (lost, "s" * (lost != 1))
        print("seed %d: %s, %.3f%% wins" % (seed, verdict, 100 * win))
    safe = [r for r in rows if r[1]]
    print("%s, %d games, seeds %s: %d of %d unbeatable (%.1f%%); mean exact win %.3f%%, "
          "best unbeatable %.3f%%; %d at the optimum 91.64%%" % (
              args.method, args.games, args.seeds, len(safe), len(rows),
              100 * len(safe) / len(rows), 100 * statistics.mean(r[2] for r in rows),
              100 * max([r[2] for r in safe] or [0]),
              sum(1 for r in safe if r[2] > OPTIMUM - 1e-4)))


if __name__ == "__main__":
    main()
