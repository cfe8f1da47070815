"""The complete player over many seeds: `ttt-train 200 --method policy-iteration` (make net).

For each seed S, runs `ttt-train 200 FILE --seed S --method policy-iteration` (in process,
several seeds at once) and measures the file it writes:
  - the sweeps it took, and the wall time of the command (training, save and verdict);
  - complete: in every position reachable under any play (2,097 with O to move, 2,423 with X)
    the net's move keeps the minimax value (lab.exact.complete_share);
  - its exact win rates against a random player, as O and as X, and whether it is unbeatable;
  - the lowest percentage ttt-play's grid (the C's softmax over all 9 cells, printed as the C
    prints it) shows for the move the net plays, over all 4,520 positions of both sides.
Prints one line per seed as it ends, then a summary. A seeded file is the same on every
interpreter, so long sweeps can run under PyPy:

    nice -n 10 pypy3 bench/complete.py --seeds 1-12,100-147 --jobs 2
"""

import argparse
import contextlib
import io
import multiprocessing
import os
import re
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))

from ttt_rl.game import O, X  # noqa: E402
from ttt_rl.lab.exact import complete_share, evaluate_network, net_policy  # noqa: E402
from ttt_rl.nn import get_computer_move  # noqa: E402
from ttt_rl.policy_iteration import positions  # noqa: E402
from ttt_rl.train import main as train_main  # noqa: E402
from ttt_rl.weights import load, to_float32  # noqa: E402

FLOOR = 1.0   # the floor, in percent: the move played reads at least this in the grid


def grid_percent(p):
    """A probability as ttt-play's grid prints it (play.format_probabilities): a float."""
    return float("%.1f" % to_float32(to_float32(p) * 100))


def lowest_grid_percent(net):
    """Return (the lowest grid percentage of the move played, its position) over all 4,520."""
    lowest = None
    for position in positions():
        move = get_computer_move(net, list(position))
        shown = grid_percent(net.outputs[move])
        if lowest is None or shown < lowest[0]:
            lowest = (shown, position)
    return lowest


def one_seed(seed, max_sweeps=200):
    """Train and measure one seed; return a dict of what the module docstring lists."""
    with tempfile.TemporaryDirectory() as tmp:
        path, out = os.path.join(tmp, "w.bin"), io.StringIO()
        start = time.perf_counter()
        with contextlib.redirect_stdout(out):
            status = train_main([str(max_sweeps), path, "--seed", str(seed),
                                 "--method", "policy-iteration"])
        seconds = time.perf_counter() - start
        if status != 0:
            sys.exit("complete: ttt-train failed for seed %d" % seed)
        net = load(path)
    found = re.search(r"\((\d+) sweeps", out.getvalue())
    policy = net_policy(net)
    as_o, as_x = evaluate_network(net, O), evaluate_network(net, X)
    return {"seed": seed, "sweeps": int(found.group(1)) if found else None, "seconds": seconds,
            "complete": complete_share(policy, O) == (2097, 2097)
            and complete_share(policy, X) == (2423, 2423),
            "unbeatable": as_o["unbeatable"] and as_x["unbeatable"],
            "win_o": as_o["win"], "win_x": as_x["win"], "grid": lowest_grid_percent(net)}


def seed_list(text):
    """'1-12,100-147' -> [1, ..., 12, 100, ..., 147]."""
    seeds = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        seeds += range(int(first), int(last or first) + 1)
    return seeds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", default="1-12,100-147", help="e.g. 1-12,100-147 (default)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    seeds, rows = seed_list(args.seeds), []
    print("policy iteration, seeds %s, %d at a time; %s" % (
        args.seeds, args.jobs, sys.version.split("\n")[0]), flush=True)
    with multiprocessing.Pool(args.jobs) as pool:
        for row in pool.imap(one_seed, seeds):
            rows.append(row)
            print("seed %d: %s sweeps, %.1f s, %s, %s, win %.3f%% as O / %.3f%% as X, "
                  "move played at least %.1f%% in the grid (%s)" % (
                      row["seed"], row["sweeps"], row["seconds"],
                      "complete" if row["complete"] else "NOT complete",
                      "unbeatable" if row["unbeatable"] else "BEATABLE",
                      100 * row["win_o"], 100 * row["win_x"], *row["grid"]), flush=True)
    sweeps, seconds = [r["sweeps"] for r in rows], [r["seconds"] for r in rows]
    print("%d of %d complete, %d unbeatable on both sides; sweeps %d to %d (median %g); "
          "%.1f to %.1f s a run (median %.1f); lowest grid percentage of a move played %.1f%% "
          "(%d seeds below %.1f%%)" % (
              sum(r["complete"] for r in rows), len(rows), sum(r["unbeatable"] for r in rows),
              min(sweeps), max(sweeps), statistics.median(sweeps), min(seconds), max(seconds),
              statistics.median(seconds), min(r["grid"][0] for r in rows),
              sum(r["grid"][0] < FLOOR for r in rows), FLOOR))


if __name__ == "__main__":
    main()
