"""Many training runs at once, the best one kept: `ttt-train --runs K`.

Whether a trained net can be beaten depends on the luck of its seed (see
the README). antirez's advice is to run the program again; this does it
for you: K runs with seeds S, S+1, ..., each trained exactly as a single
`ttt-train --seed S+i` run, each in a process of its own, each measured
exactly (evaluate.py). The best is saved. Ranking: unbeatable first, then
the highest exact win rate against the random player, then the fewest
lines lost, then the lowest seed. No C counterpart.

A run cannot be lost silently: the parent waits on every worker's pipe and
process at once (multiprocessing.connection.wait), so a worker that dies is
a failed run, said in one line, and any way out stops every worker.
"""

import multiprocessing
import os
import signal
import sys
import time
from multiprocessing.connection import wait

from ..learn import train_against_random
from ..weights import as_saved, from_bytes, to_bytes
from .cli import EXIT_FAILURE, EXIT_USAGE, Output, on_stop, say, stop_signals
from .curve import strip_for_transfer
from .evaluate import evaluate_network
from .files import STOP_SIGNALS, signals_held
from .progress import Reporter, format_seconds, progress_interval
from .session import (check_paths, choose_seed, read_init, repeat_command, save_and_report,
                      settings_from, start_network, write_curve)

MAX_JOBS = 64          # worker processes at most, whatever --jobs says
MAX_RUNS = 10000
GRACE_SECONDS = 2.0    # how long a stopped worker may take before SIGKILL


class PipeReporter(Reporter):
    """A worker's reporter: sends its progress to the parent."""

    def __init__(self, args, conn):
        super().__init__(None, args.games, args.side, curve=bool(args.curve))
        self.conn = conn

    def progress_line(self, games, wins, losses, ties):
        """Send the games done to the parent, which prints one line for all runs."""
        self.conn.send(("progress", games))


def worker(args, index, init_data, conn):
    """Train run `index` (seed args.seed + index) in a worker process and
    send ("done", result) back: seed, data (the weights file's bytes),
    result (the exact evaluation of the saved net) and rows (the curve);
    or ("failed", reason) before exiting with status 1."""
    # Ctrl-C is the parent's to handle (the terminal sends it to every
    # process); SIGTERM and SIGHUP end the worker, unless they were ignored
    # (nohup). The parent blocked them around the fork; now they may come.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in stop_signals():
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    try:
        seed = args.seed + index
        net, rng = start_network(args, seed, init_data)
        reporter = PipeReporter(args, conn)
        reporter.begin(net)
        train_against_random(net, args.games, rng, args.side, settings_from(args),
                             report=reporter.report, report_every=1)
        result = evaluate_network(as_saved(net), args.side)
        del result["losing_lines"]
        conn.send(("done", {"seed": seed, "data": to_bytes(net), "result": result,
                            "rows": [strip_for_transfer(r) for r in reporter.rows]}))
        conn.close()
    except BaseException as e:   # noqa: BLE001 (the parent says it in one line)
        try:
            conn.send(("failed", str(e).splitlines()[0] if str(e) else type(e).__name__))
        finally:
            os._exit(EXIT_FAILURE)


def rank_key(run):
    """Sort key: unbeatable first, then highest win rate, fewest lines lost, lowest seed."""
    r = run["result"]
    return (not r["unbeatable"], -r["win"], r["lines_lost"], run["seed"])


def train_runs(args):
    """ttt-train with --runs K > 1; returns the exit status."""
    if args.eval_every:
        say("ttt-train", "error: --eval-every prints one run's numbers; use --curve with --runs")
        return EXIT_USAGE
    if args.runs > MAX_RUNS:
        say("ttt-train", "error: --runs %d: at most %d runs" % (args.runs, MAX_RUNS))
        return EXIT_USAGE
    out = Output(sys.stdout, "stdout", "ttt-train")
    target = check_paths(args, args.output)
    init_data = read_init(args)   # read once: it may be a pipe
    args.seed = choose_seed(args, out)
    jobs = min(args.jobs or os.cpu_count() or 1, args.runs, MAX_JOBS)
    out.line("Training %d runs of %d games (seeds %d to %d) in %d processes..." % (
        args.runs, args.games, args.seed, args.seed + args.runs - 1, jobs))
    on_stop("; %s was not written (--runs keeps nothing of unfinished runs)" % args.output)
    runs = run_all(args, init_data, jobs, out)
    if not runs:
        say("ttt-train", "error: every run failed; %s was not written" % args.output)
        return EXIT_FAILURE
    runs.sort(key=rank_key)
    best = runs[0]
    out.line("\nBest of %d runs (seed %d):" % (len(runs), best["seed"]))
    if not save_and_report(from_bytes(best["data"]), target, args.output, args.side,
                           "ttt-train", out):
        return EXIT_FAILURE
    for line in ranked_table(runs):
        out.line(line)
    out.line("Repeat the saved run: " + repeat_command(args, best["seed"]))
    curve_ok = not args.curve or write_curve(
        args.curve, {run["seed"]: run["rows"] for run in runs}, args.side, "ttt-train",
        best["seed"])
    failed = len(runs) < args.runs
    return EXIT_FAILURE if out.failed or not curve_ok or failed else 0


def run_all(args, init_data, jobs, out):
    """Run the K trainings, at most `jobs` at a time, printing one combined
    progress line per interval; returns the results of the runs that
    finished (a dead worker is said in one line and left out)."""
    context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    waiting, active, results = list(range(args.runs)), {}, []
    done = [0] * args.runs   # games played by each run
    progress = CombinedProgress(out, args)
    try:
        while waiting or active:
            while waiting and len(active) < jobs:
                index = waiting.pop(0)
                active[index] = _start(context, args, index, init_data)
            # Sleep until some worker sends a message or ends.
            wait([handle for process, conn in active.values()
                  for handle in (conn, process.sentinel)])
            for index, (process, conn) in list(active.items()):
                message = _receive(conn)
                if message is None and process.exitcode is None:
                    continue   # still training, nothing new
                if message is not None and message[0] == "progress":
                    done[index] = message[1]
                    continue
                del active[index]
                _end(process, conn)
                if message is None:   # the process ended without its result
                    say("ttt-train", "run with seed %d failed: its process ended (%s)"
                        % (args.seed + index, _how(process)))
                elif message[0] == "failed":
                    say("ttt-train", "run with seed %d failed: %s" % (args.seed + index,
                                                                      message[1]))
                else:
                    results.append(message[1])
                    done[index] = args.games
            progress.show(sum(done))
    finally:
        with signals_held():   # on any way out, even a second Ctrl-C: no worker left
            for process, conn in active.values():
                _stop(process)
                conn.close()
    return results


class CombinedProgress:
    """One progress line for all runs, each time the games of all runs
    together pass a multiple of (one run's progress interval) x K."""

    def __init__(self, out, args):
        self.out, self.runs, self.total = out, args.runs, args.runs * args.games
        self.step = progress_interval(args.games) * args.runs
        self.shown, self.start = 0, time.perf_counter()

    def show(self, games):
        """Print the line if `games` (all runs together) passed a step."""
        if games == self.shown or (games // self.step == self.shown // self.step
                                   and games != self.total):
            return
        self.shown = games
        elapsed = time.perf_counter() - self.start
        rate = games / max(elapsed, 1e-9)
        self.out.line("Games: %d of %d in %d runs [%s, %.0f games/s, ETA %s]" % (
            games, self.total, self.runs, format_seconds(elapsed), rate,
            format_seconds((self.total - games) / max(rate, 1e-9))))


def _start(context, args, index, init_data):
    """Start run `index` in a new process; returns (process, parent's pipe
    end). Stop signals are blocked across the fork, so none is lost before
    the worker has set its handlers."""
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=worker, args=(args, index, init_data, sender),
                              daemon=True)
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        process.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
        sender.close()
    return process, receiver


def _receive(conn):
    """Return the next message on `conn`, or None if the worker is gone."""
    try:
        return conn.recv() if conn.poll() else None
    except (EOFError, OSError):
        return None


def _end(process, conn):
    conn.close()
    process.join(GRACE_SECONDS)
    if process.is_alive():
        _stop(process)


def _stop(process):
    """Stop a worker: SIGTERM, then SIGKILL after the grace period."""
    if process.is_alive():
        process.terminate()
        process.join(GRACE_SECONDS)
    if process.is_alive():
        process.kill()
    process.join()


def _how(process):
    code = process.exitcode
    if code is not None and code < 0:
        return "killed by signal %d" % -code
    return "exit status %s" % code


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
