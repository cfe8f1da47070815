"""Worker processes (the standard library's ProcessPoolExecutor): `ttt-train --runs K`, K
seeds in parallel and the best one saved (antirez's advice for a beatable net: run it
again), and expert iteration's self-play games. Added to the pool: one shared number, `limit`,
that stops work after the current game (all of it after a Ctrl-C; with --until-unbeatable,
the runs after the first unbeatable seed), and a thread in each worker that ends it when the
command is gone, even killed with SIGKILL. No C counterpart.
"""

import concurrent.futures
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures.process import BrokenProcessPool

from ..expert_iteration import self_play_game, train_expert_iteration
from ..weights import from_bytes, to_bytes
from .cli import SELF, SIMULATIONS, settings_from, start_network, train
from .curve import Reporter, format_seconds
from .exact import evaluate_network, verdict

_limit = None   # in a worker: runs with a higher index stop after their game


def _start_worker(limit, parent):
    """Set up a worker process: `limit`, the shared number (see above); `parent`, the pid of
    the command. Ctrl-C is the command's to handle; the worker ends when the command is gone."""
    global _limit
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _limit = limit

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)   # the command is gone: nobody will read this run
    threading.Thread(target=watch, daemon=True).start()


def train_run(args, index):
    """In a worker: train run `index` (seed args.seed + index) as ttt-train would; return a dict
    of its seed, index, data (the file's bytes), result (exact verdict), rows (curve) and
    stopped (True if cut short)."""
    args.seed += index
    net, rng = start_network(args)
    reporter = Reporter(args.games, args.side, curve=bool(args.curve), quiet=True,
                        stop=lambda: index > _limit.value, self_play=args.opponent == SELF)
    reporter.begin(net)
    games = train(net, rng, args, reporter.report)
    reporter.finish(net)
    data = to_bytes(net)
    result = evaluate_network(from_bytes(data), args.side)   # as the file holds it
    return {"seed": args.seed, "data": data, "result": result, "rows": reporter.rows,
            "stopped": games < args.games, "index": index}


def train_runs(args, stopped):
    """Run args.runs runs, args.jobs (or one per core) at a time, all stopped after their game
    once stopped() (cli.first_ctrl_c's) is True. Returns (runs, error): the runs to rank, best
    first; None, or the one line that says why some runs are lost (a worker died)."""
    jobs = min(args.jobs or os.cpu_count() or 1, args.runs)
    print("Training %s%d runs of %d games (seeds %d to %d, %s) in %d processes..." % (
        "up to " * args.until_unbeatable, args.runs, args.games, args.seed,
        args.seed + args.runs - 1, args.method, jobs), flush=True)
    limit = multiprocessing.Value("i", args.runs)
    runs, error, first, start = [], None, args.runs, time.monotonic()
    pool = concurrent.futures.ProcessPoolExecutor(jobs, initializer=_start_worker,
                                                  initargs=(limit, os.getpid()))
    try:
        pending = {pool.submit(train_run, args, i) for i in range(args.runs)}
        while pending:
            done, pending = concurrent.futures.wait(pending, 0.2, "FIRST_COMPLETED")
            if stopped():
                limit.value = -1
            for future in done:
                try:
                    run = future.result()
                except Exception as e:   # noqa: BLE001 (one line, never a traceback)
                    # A dead worker fails every unfinished run: the first error says it.
                    error = error or ("a worker process died: the runs not yet finished "
                                      "are lost" if isinstance(e, BrokenProcessPool) else e)
                    continue
                runs.append(run)
                print("Run with seed %d%s: %s [%d done, %s]" % (
                    run["seed"], " (stopped early)" * run["stopped"], verdict(run["result"]),
                    len(runs), format_seconds(time.monotonic() - start)), flush=True)
                if args.until_unbeatable and run["result"]["unbeatable"]:
                    first = limit.value = min(first, run["index"])
    finally:
        limit.value = -1   # whatever ends this, every run stops after its game
        pool.shutdown(wait=True, cancel_futures=True)
    # With --until-unbeatable, the runs after the first unbeatable seed were cut short.
    runs = [r for r in runs if r["index"] <= first]
    # Strongest first: unbeatable, fewest lines lost, most wins; then the lowest seed.
    return sorted(runs, key=lambda r: (not r["result"]["unbeatable"], r["result"]["lines_lost"],
                                       -r["result"]["win"], r["seed"])), error


def self_play_game_unless_stopped(net, seed, simulations):
    """In a worker: expert_iteration.self_play_game, or None once the limit is below 0."""
    return None if _limit.value < 0 else self_play_game(net, seed, simulations)


def train_expert_iteration_in_workers(net, rng, args, report, stopped):
    """expert_iteration.train_expert_iteration, each round's self-play games in args.jobs
    worker processes (default: one per core). Once stopped() (cli.first_ctrl_c's), the round
    is dropped: the net is the last whole round's. Returns (games learned, error): None, or
    the line that says a worker died (training stopped there)."""
    jobs, simulations = args.jobs or os.cpu_count() or 1, args.playouts or SIMULATIONS
    limit, error = multiprocessing.Value("i", 0), []

    def play_games(net, seeds):
        futures = [pool.submit(self_play_game_unless_stopped, net, seed, simulations)
                   for seed in seeds]
        while concurrent.futures.wait(futures, 0.2)[1]:
            if stopped():
                limit.value = -1
        try:
            played = [future.result() for future in futures]
        except BrokenProcessPool:
            error.append("a worker process died: the round it was playing is lost")
            return None
        return None if stopped() or None in played else played

    with concurrent.futures.ProcessPoolExecutor(jobs, initializer=_start_worker,
                                                initargs=(limit, os.getpid())) as pool:
        games = train_expert_iteration(net, args.games, rng, simulations,
                                       settings_from(args).learning_rate, report, play_games)
    return games, error[0] if error else None
