"""Training speed benchmark: `make bench`.

Times `ttt-train` in-process (ttt_rl.train.main) on a fixed seed and game
count, several times, and reports the median games/s, the projected time of
150k and 2M games, and peak memory. Where they exist it also times, in the
same run, PyPy (this script under pypy3) and the C reference built from
../shared/reference, and prints the C/Python ratio.

    python3 bench/train_speed.py [--games N] [--repeat K] [--json]
"""

import argparse
import contextlib
import io
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "src"))
sys.path.insert(0, ROOT)

from ttt_rl.train import main as train_main  # noqa: E402

SEED = "1"
C_GAMES = 1000000      # the C is fast: time more games for a stable number
MEMORY_GAMES = (20000, 200000)  # RSS after short and long runs: flat?


def time_training(games, repeat):
    """Return the list of games/s of `repeat` in-process training runs."""
    rates = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "bench.bin")
        for _ in range(repeat):
            start = time.perf_counter()
            with contextlib.redirect_stdout(io.StringIO()):
                status = train_main([str(games), out, "--seed", SEED])
            elapsed = time.perf_counter() - start
            if status != 0:
                sys.exit("bench: training failed")
            rates.append(games / elapsed)
    return rates


def peak_rss_mb(command):
    """Run `command`; return its peak resident memory in MB (Linux: KB units)."""
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                            env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src")))
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        sys.exit("bench: %s failed" % command)
    return usage.ru_maxrss / 1024


def interpreter_name():
    impl = platform.python_implementation()
    if impl == "PyPy":
        return "PyPy %d.%d.%d (Python %s)" % (sys.pypy_version_info[:3]
                                               + (platform.python_version(),))
    return "%s %s" % (impl, platform.python_version())


def inner(args):
    """Time this interpreter; return a dict of results."""
    rates = time_training(args.games, args.repeat)
    result = {"interpreter": interpreter_name(), "games": args.games,
              "runs": [round(r) for r in rates], "games_per_s": statistics.median(rates)}
    if not args.no_memory:
        with tempfile.TemporaryDirectory() as tmp:
            result["peak_rss_mb"] = {
                str(n): round(peak_rss_mb([sys.executable, "-m", "ttt_rl.train", str(n),
                                           os.path.join(tmp, "m.bin"), "--seed", SEED]), 1)
                for n in MEMORY_GAMES}
        result["bench_process_rss_mb"] = round(
            resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return result


def time_c():
    """Build and time the C reference; return games/s or None if unavailable."""
    from tests.reference import build_reference
    with tempfile.TemporaryDirectory() as tmp:
        tools = build_reference(tmp)
        if tools is None:
            return None
        start = time.perf_counter()
        subprocess.run([tools[0], str(C_GAMES), os.path.join(tmp, "c.bin"), SEED],
                       stdout=subprocess.DEVNULL, check=True)
        return C_GAMES / (time.perf_counter() - start)


def duration(seconds):
    if seconds < 120:
        return "%.0f s" % seconds
    return "%.1f min" % (seconds / 60)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20000,
                        help="games per timed run (default 20000)")
    parser.add_argument("--repeat", type=int, default=5,
                        help="timed runs; the median is reported (default 5)")
    parser.add_argument("--json", action="store_true",
                        help="print this interpreter's result as JSON and stop")
    parser.add_argument("--no-memory", action="store_true",
                        help="skip the memory measurement")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(inner(args)))
        return
    rows = [inner(args)]
    pypy = shutil.which("pypy3")
    if pypy and platform.python_implementation() != "PyPy":
        # PyPy's JIT needs warming up: give it 5x the games per run.
        out = subprocess.run([pypy, __file__, "--json", "--games", str(args.games * 5),
                              "--repeat", str(args.repeat)],
                             capture_output=True, text=True, check=True).stdout
        rows.append(json.loads(out))
    c_rate = time_c()
    print("Training speed, seed %s, median of %d runs (%s, %d cores)"
          % (SEED, args.repeat, platform.machine(), os.cpu_count()))
    print("%-30s %10s %9s %9s %8s" % ("", "games/s", "150k", "2M", "C/this"))
    for row in rows:
        rate = row["games_per_s"]
        ratio = "%.1f" % (c_rate / rate) if c_rate else "-"
        print("%-30s %10.0f %9s %9s %8s" % (row["interpreter"], rate,
                                            duration(150000 / rate),
                                            duration(2000000 / rate), ratio))
    if c_rate:
        print("%-30s %10.0f %9s %9s %8s" % ("C reference (cc -O3)", c_rate,
                                            duration(150000 / c_rate),
                                            duration(2000000 / c_rate), "1.0"))
    else:
        print("C reference: not available (needs cc and ../shared/reference)")
    for row in rows:
        print("%s: runs %s games/s (%d games each)"
              % (row["interpreter"], row["runs"], row["games"]))
        if "peak_rss_mb" in row:
            print("  peak RSS of ttt-train: %s" % ", ".join(
                "%s MB after %s games" % (mb, n) for n, mb in row["peak_rss_mb"].items()))


if __name__ == "__main__":
    main()
