"""Many training runs at once, the best one kept: `ttt-train --runs K`.

Whether a trained net can be beaten depends on the luck of its seed (see
the README). antirez's advice is to run the program again; this does it
for you: K runs with seeds S, S+1, ..., each trained exactly as a single
`ttt-train --seed S+i` run, spread over worker processes, each measured
exactly (evaluate.py). The best is saved. Ranking: unbeatable first, then
the highest exact win rate against the random player, then the fewest
lines lost, then the lowest seed. No C counterpart.
"""

import multiprocessing
import os
import queue
import signal
import sys
import time

from .cli import EXIT_FAILURE, Output, exit_status_of, save_and_say, say
from .evaluate import evaluate_network
from .game import O, opponent
from .report import (COLUMNS, REPORT_INTERVAL, CurveError, MemoryCurve, Reporter,
                     check_curve_path, create_empty, format_row, format_seconds, write_text)
from .svg import chart
from .train import (DEFAULT_SETTINGS, draw_seed, settings_from, start_network,
                    train_against_random)
from .weights import WeightsFileError, as_saved, from_bytes, load, resolve_output, to_bytes

_progress = None   # a worker's queue to the parent, set by _init_worker


def _init_worker(progress):
    """Runs in each worker: Ctrl-C is the parent's to handle (the terminal
    sends it to every process), and SIGTERM simply ends the worker."""
    global _progress
    _progress = progress
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)


class RunReporter(Reporter):
    """A run's reporter: sends progress to the parent instead of printing."""

    def __init__(self, args, index):
        super().__init__(None, args.games, 0, MemoryCurve() if args.curve else None,
                         args.side)
        self.index = index

    def progress_line(self, games, wins, losses, ties):
        _progress.put((self.index, games))


def train_one(args, index):
    """Train run `index` (seed args.seed + index) in a worker process.

    Returns a dict: seed, data (the weights file's bytes), result (the exact
    evaluation of the saved network) and rows (the curve, if asked for).
    """
    seed = args.seed + index
    nn, rng = start_network(args, seed)
    reporter = RunReporter(args, index)
    train_against_random(nn, args.games, rng, args.side, settings_from(args), reporter)
    _progress.put((index, args.games))
    result = evaluate_network(as_saved(nn), args.side)
    del result["losing_lines"]
    return {"seed": seed, "data": to_bytes(nn), "result": result,
            "rows": reporter.curve.rows if reporter.curve else []}


def rank_key(run):
    """Sort key: unbeatable first, then highest win rate, fewest lines lost, lowest seed."""
    r = run["result"]
    return (not r["unbeatable"], -r["win"], r["lines_lost"], run["seed"])


def train_runs(args):
    """ttt-train with --runs K > 1; returns the exit status."""
    out = Output(sys.stdout, "stdout", "ttt-train")
    try:
        target = resolve_output(args.output)
        if args.curve is not None:
            check_curve_path(args.curve, target)
            create_empty(args.curve)
        if args.init:
            load(args.init)
    except (WeightsFileError, CurveError) as e:
        say("ttt-train", "error: %s" % e)
        return EXIT_FAILURE
    if args.seed is None:
        args.seed = draw_seed()
        out.line("Seed: %d (repeat with --seed %d)" % (args.seed, args.seed))
    jobs = min(args.jobs or os.cpu_count() or 1, args.runs)
    out.line("Training %d runs of %d games (seeds %d to %d) in %d processes..." % (
        args.runs, args.games, args.seed, args.seed + args.runs - 1, jobs))
    try:
        runs = run_pool(args, jobs, out)
    except KeyboardInterrupt as stop:
        say("ttt-train", "interrupted; %s was not written" % args.output)
        return exit_status_of(stop)
    runs.sort(key=rank_key)
    best = runs[0]
    message = "\nBest of %d runs (seed %d) saved to %s" % (args.runs, best["seed"], args.output)
    if not save_and_say(from_bytes(best["data"]), target, "ttt-train", message, out.line):
        return EXIT_FAILURE
    for line in ranked_table(runs):
        out.line(line)
    out.line("Repeat the saved run: " + repeat_command(args, best["seed"]))
    curve_ok = write_curve(args, runs, best["seed"])
    return EXIT_FAILURE if out.failed or not curve_ok else 0


def run_pool(args, jobs, out):
    """Run the K trainings on `jobs` processes, printing one combined
    progress line per report interval; returns their results."""
    progress = multiprocessing.Queue()
    pool = multiprocessing.Pool(jobs, _init_worker, (progress,))
    try:
        pending = [pool.apply_async(train_one, (args, i)) for i in range(args.runs)]
        done = [0] * args.runs
        total, step, start = args.runs * args.games, REPORT_INTERVAL * args.runs, time.perf_counter()
        shown = 0
        while not all(p.ready() for p in pending) or not progress.empty():
            try:
                index, games = progress.get(timeout=0.1)
            except queue.Empty:
                continue
            done[index] = games
            now = sum(done)
            if now != shown and (now // step > shown // step or now == total):
                shown = now
                elapsed = time.perf_counter() - start
                rate = shown / max(elapsed, 1e-9)
                out.line("Games: %d of %d in %d runs [%s, %.0f games/s, ETA %s]" % (
                    shown, total, args.runs, format_seconds(elapsed), rate,
                    format_seconds((total - shown) / max(rate, 1e-9))))
        results = [p.get() for p in pending]
        pool.close()
        return results
    finally:
        pool.terminate()   # on any way out: no worker outlives the command
        pool.join()


def ranked_table(runs):
    """Return the ranked table of the runs, as a list of lines."""
    lines = ["%4s %11s %8s %8s %8s %11s %14s" % ("rank", "seed", "win %", "draw %", "loss %",
                                                  "lines lost", "optimal moves")]
    for rank, run in enumerate(runs, 1):
        r = run["result"]
        line = "%4d %11d %8.3f %8.3f %8.3f %5d of %-3d %6d of %-4d" % (
            rank, run["seed"], 100 * r["win"], 100 * r["draw"], 100 * r["loss"],
            r["lines_lost"], r["lines"], r["optimal_positions"], r["positions"])
        lines.append(line.rstrip())
    return lines


def repeat_command(args, seed):
    """Return the single-run command line that writes the same file."""
    words = ["ttt-train", str(args.games), args.output, "--seed", str(seed)]
    if args.side != O:
        words += ["--side", args.side]
    if args.init:
        words += ["--init", args.init]
    for name, value, default in zip(DEFAULT_SETTINGS._fields, settings_from(args),
                                    DEFAULT_SETTINGS):
        if value != default:
            words += ["--" + name.replace("_", "-"), repr(value)]
    return " ".join(words)


def write_curve(args, runs, best_seed):
    """Write the --curve file for all runs; returns False if it failed."""
    if args.curve is None:
        return True
    if args.curve.lower().endswith(".svg"):
        text = chart({run["seed"]: run["rows"] for run in runs}, best=best_seed,
                     title="Learning curves of %d runs (bold: seed %d, saved)"
                     % (len(runs), best_seed), opponent=opponent(args.side))
    else:
        text = ",".join(("seed",) + COLUMNS) + "\n"
        text += "".join(format_row(dict(row, seed=run["seed"]), with_seed=True)
                        for run in sorted(runs, key=lambda r: r["seed"]) for row in run["rows"])
    return write_text(args.curve, text, "ttt-train")
