"""Training speed benchmark: `make bench`.

Times `ttt-train` in-process (ttt_rl.train.main) on a fixed seed and game
count, several times, for the C's rule and Q-learning (and the C's rule on
connect four, half the games, timed in the algorithm), and reports the
median games per CPU second, the
projected time of 150k and 2M games, and the peak memory of a short and a
long run. Where they exist, it also times in the same run the C reference
built from ../shared/reference (one C run after each Python run, so that a
busy moment on a shared machine slows both) and PyPy (this script, under
pypy3), and prints the C/Python ratio.

    python3 bench/train_speed.py [--games N] [--repeat K] [--json]

What was measured with it, to choose the loops in nn.py (CPython 3.11 and
PyPy 7.3, this project's 2-core VM):
- The sparse forward pass and backprop (rows of inputs that are 1, active
  hidden units only) play 6.1 to 6.6 times more games per second than the
  C's dense loops (tests/oracle.py), on CPython 3.11 (docs/measurements.md).
- The logits as a plain double loop over the active units are as fast on
  CPython as a zip(*rows) transposition with sum(), and 30% faster on PyPy.
- Keeping a dense nn.hidden (as the C does) costs about 1 us per forward
  pass when built by filling in the active units, 2 us as a comprehension,
  and 4 us calling a relu() function per unit.
- Version 1.0.0 also updated the hidden sums move by move during a game and
  reused the play-time pass of the first move when learning: 10-15% faster,
  at the cost of extra names and arguments in the network's API. Version
  1.1 dropped both for one readable forward_pass.
"""

import argparse
import contextlib
import io
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))
sys.path.insert(0, ROOT)

from tests.reference import build_reference  # noqa: E402
from ttt_rl import connect4  # noqa: E402
from ttt_rl.game import BOTH  # noqa: E402
from ttt_rl.learn import train_against_random  # noqa: E402
from ttt_rl.nn import init_neural_network  # noqa: E402
from ttt_rl.train import main as train_main  # noqa: E402

SEED = "1"
C_GAMES = 500000                # the C is fast: more games for a stable time
MEMORY_GAMES = (20000, 200000)  # peak RSS after a short and a long run


def cpu_seconds_of(command):
    """Run `command`; return (its user + system CPU seconds, peak RSS in MB)."""
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                            env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src")))
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        sys.exit("bench: %s failed" % " ".join(command))
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024  # KB on Linux


def time_training(games, repeat, c_train=None, method="monte-carlo"):
    """Time `repeat` in-process training runs, each followed by a C run.

    Returns a dict of lists: games per CPU second ("cpu"), per wall-clock
    second ("wall") and, with c_train, the C's games per CPU second ("c").
    CPU time is the main measure: the wall clock also counts time spent
    waiting for a core of a shared machine.
    """
    rates = {"cpu": [], "wall": [], "c": []}
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "bench.bin")
        for _ in range(repeat):
            if os.path.exists(out):   # no old file to judge and back up
                os.remove(out)
            wall, cpu = time.perf_counter(), time.process_time()
            with contextlib.redirect_stdout(io.StringIO()):
                if train_main([str(games), out, "--seed", SEED, "--method", method]) != 0:
                    sys.exit("bench: training failed")
            rates["cpu"].append(games / (time.process_time() - cpu))
            rates["wall"].append(games / (time.perf_counter() - wall))
            if c_train:
                seconds, _ = cpu_seconds_of([c_train, str(C_GAMES), out, SEED])
                rates["c"].append(C_GAMES / seconds)
            # Minutes of work: a line per run, on stderr, so that it is not silent.
            print("bench: %s, %s, run %d of %d: %.0f games/s" % (
                interpreter_name(), method, len(rates["cpu"]), repeat, rates["cpu"][-1]),
                file=sys.stderr, flush=True)
    return rates


def time_connect_four(games, repeat):
    """Return the games per CPU second of `repeat` runs of the C's rule on connect four, a
    new 84-100-7 net playing both sides, timed in the algorithm (ttt-train also measures the
    net at the end: seconds of games that are not training)."""
    rates = []
    for _ in range(repeat):
        rng = random.Random(int(SEED))
        net = init_neural_network(rng, 100, connect4)
        cpu = time.process_time()
        train_against_random(net, games, rng, BOTH, rules=connect4)
        rates.append(games / (time.process_time() - cpu))
        print("bench: %s, connect four, run %d of %d: %.0f games/s" % (
            interpreter_name(), len(rates), repeat, rates[-1]), file=sys.stderr, flush=True)
    return rates


def interpreter_name():
    if platform.python_implementation() == "PyPy":
        return "PyPy %d.%d.%d (Python %s)" % (sys.pypy_version_info[:3]
                                               + (platform.python_version(),))
    return "CPython %s" % platform.python_version()


def measure(games, repeat, c_train=None):
    """Time this interpreter (and the C, if given); return a result dict."""
    rates = time_training(games, repeat, c_train)
    result = {"interpreter": interpreter_name(), "games": games,
              "runs": [round(r) for r in rates["cpu"]],
              "games_per_s": statistics.median(rates["cpu"]),
              "wall_games_per_s": statistics.median(rates["wall"])}
    q_rates = time_training(games, repeat, method="q-learning")["cpu"]
    result["q_games_per_s"] = statistics.median(q_rates)
    result["c4_games_per_s"] = statistics.median(time_connect_four(games // 2, repeat))
    if rates["c"]:
        result["c_games_per_s"] = statistics.median(rates["c"])
        result["c_ratio"] = statistics.median(c / p for c, p in zip(rates["c"], rates["cpu"]))
    with tempfile.TemporaryDirectory() as tmp:
        result["peak_rss_mb"] = {
            n: round(cpu_seconds_of([sys.executable, "-m", "ttt_rl.train", str(n),
                                     os.path.join(tmp, "m.bin"), "--seed", SEED])[1], 1)
            for n in MEMORY_GAMES}
    return result


def duration(seconds):
    return "%.0f s" % seconds if seconds < 120 else "%.1f min" % (seconds / 60)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20000,
                        help="games per timed run (default 20000)")
    parser.add_argument("--repeat", type=int, default=5,
                        help="timed runs; medians are reported (default 5)")
    parser.add_argument("--json", action="store_true",
                        help="time this interpreter only, print JSON (used for PyPy)")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args.games, args.repeat)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        tools = build_reference(tmp)
        rows = [measure(args.games, args.repeat, tools and tools[0])]
    c_rate = rows[0].get("c_games_per_s")
    pypy = shutil.which("pypy3")
    if pypy and platform.python_implementation() != "PyPy":
        # PyPy's JIT needs warming up: give it 5x the games per run.
        out = subprocess.run([pypy, __file__, "--json", "--games", str(args.games * 5),
                              "--repeat", str(args.repeat)],
                             stdout=subprocess.PIPE, text=True, check=True).stdout
        rows.append(json.loads(out))
    print("Training speed in games per CPU second, seed %s, median of %d run%s "
          "(%s, %d cores)" % (SEED, args.repeat, "s" * (args.repeat != 1), platform.machine(),
                              os.cpu_count()))
    print("%-42s %10s %9s %9s %8s" % ("", "games/s", "150k", "2M", "C/this"))
    for row in rows:
        rate = row["games_per_s"]
        ratio = row.get("c_ratio") or (c_rate / rate if c_rate else None)
        print("%-42s %10.0f %9s %9s %8s" % (row["interpreter"], rate,
                                            duration(150000 / rate),
                                            duration(2000000 / rate),
                                            "%.1f" % ratio if ratio else "-"))
    for row in rows:
        rate = row["q_games_per_s"]
        print("%-42s %10.0f %9s %9s %8s" % (row["interpreter"] + ", Q-learning", rate,
                                            duration(150000 / rate), duration(2000000 / rate),
                                            "-"))
        print("  Q-learning costs %.2fx the C's rule per game on %s"
              % (row["games_per_s"] / rate, row["interpreter"]))
    for row in rows:
        rate = row["c4_games_per_s"]
        print("%-42s %10.0f %9s %9s %8s" % (row["interpreter"] + ", connect four", rate,
                                            duration(150000 / rate), duration(2000000 / rate),
                                            "-"))
    if c_rate:
        print("%-42s %10.0f %9s %9s %8s" % ("C reference (cc -O3)", c_rate,
                                            duration(150000 / c_rate),
                                            duration(2000000 / c_rate), "1.0"))
    else:
        print("C reference: not available (needs cc and ../shared/reference)")
    for row in rows:
        print("%s: runs %s games/s (%d games each); wall-clock median %.0f games/s"
              % (row["interpreter"], row["runs"], row["games"], row["wall_games_per_s"]))
        print("  peak RSS of ttt-train: %s" % ", ".join(
            "%s MB after %s games" % (mb, n) for n, mb in row["peak_rss_mb"].items()))
    if rows[0].get("c_ratio"):
        print("C/CPython is the median of %d ratios of back-to-back runs." % args.repeat)


if __name__ == "__main__":
    main()
