"""Worker processes (ProcessPoolExecutor): `ttt-train --runs K`, K seeds in parallel, the best
saved (antirez's advice for a beatable net: run it again), and expert iteration's games. A
thread in each worker ends it once the command is gone, even by SIGKILL. No C counterpart.
"""

import concurrent.futures
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures.process import BrokenProcessPool

from ..expert_iteration import (GAMES_PER_ROUND, SIMULATIONS, self_play_game,
                                train_expert_iteration)
from ..weights import FileError, from_bytes, to_bytes
from .cli import SELF, settings_from, start_network, train
from .curve import Reporter, csv_text, format_seconds
from .exact import evaluate_network, verdict

_limit = _net = None   # in a worker: --runs' stop signal; expert iteration's net of the round
WORKERS = threading.Lock()   # held while a round's workers live; ttt-web's exit keeps it


def _start_worker(limit, parent, net=None):
    """Set up a worker: `limit`, --runs' number, below 0 after a Ctrl-C (stop after the game);
    `parent`, the pid of the command (Ctrl-C is its); `net`, expert iteration's of the round."""
    global _limit, _net
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _limit, _net = limit, net

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)   # the command is gone: nobody will read this run
    threading.Thread(target=watch, daemon=True).start()


def train_run(args, index):
    """In a worker: train run `index` (seed args.seed + index) as ttt-train would; return a dict
    of its seed, data (the file's bytes), result (exact verdict), rows (curve), stopped (bool)."""
    args.seed += index
    net, rng = start_network(args)
    reporter = Reporter(args.games, args.side, curve=bool(args.curve), quiet=True,
                        stop=lambda: _limit.value < 0, self_play=args.opponent == SELF)
    reporter.begin(net)
    games = train(net, rng, args, reporter.report)
    reporter.finish(net)
    data = to_bytes(net)
    result = evaluate_network(from_bytes(data), args.side)   # as the file holds it
    return {"seed": args.seed, "data": data, "result": result, "rows": reporter.rows,
            "stopped": games < args.games}


def best_of_runs(args, save, save_curve, stopped):
    """ttt-train --runs K: train args.runs runs, args.jobs (or one per core) at a time, all
    stopped after their game once stopped() (cli.first_ctrl_c's) is True; save the best and the
    curves (save, save_curve: files.saving's), print the ranking. Returns (the best net as its
    file holds it, None or the line that says a worker died). Raises FileError if none finished."""
    jobs = min(args.jobs or os.cpu_count() or 1, args.runs)
    print("Training %d runs of %d games (seeds %d to %d, %s) in %d processes..." % (args.runs,
          args.games, args.seed, args.seed + args.runs - 1, args.method, jobs), flush=True)
    limit, runs, error, start = multiprocessing.Value("i", 0), [], None, time.monotonic()
    pool = concurrent.futures.ProcessPoolExecutor(jobs, initializer=_start_worker,
                                                  initargs=(limit, os.getpid()))
    try:
        pending = {pool.submit(train_run, args, i) for i in range(args.runs)}
        while pending:
            done, pending = concurrent.futures.wait(pending, 0.2, "FIRST_COMPLETED")
            if stopped():
                limit.value = -1
            for future in done:
                e = future.exception()   # a dead worker fails every unfinished run
                if e:   # the first error is said in one line, never a traceback
                    error = error or ("a worker process died: the runs not yet finished "
                                      "are lost" if isinstance(e, BrokenProcessPool) else e)
                    continue
                run = future.result()
                runs.append(run)
                print("Run with seed %d%s: %s [%d done, %s]" % (
                    run["seed"], " (stopped early)" * run["stopped"], verdict(run["result"]),
                    len(runs), format_seconds(time.monotonic() - start)), flush=True)
    finally:
        limit.value = -1   # whatever ends this, every run stops after its game
        pool.shutdown(wait=True, cancel_futures=True)
    if not runs:
        raise FileError("%s; no run finished: %s was not written" % (error, args.output))
    # Strongest first: unbeatable, fewest lines lost, most wins; then the lowest seed.
    runs.sort(key=lambda r: (not r["result"]["unbeatable"], r["result"]["lines_lost"],
                             -r["result"]["win"], r["seed"]))
    print("\n%s of %d run%s: seed %d, saved to %s%s" % (
        "Stopped by Ctrl-C; best" if stopped() else "Best", len(runs),
        "s" * (len(runs) > 1), runs[0]["seed"], args.output, save(runs[0]["data"])))
    if args.curve:
        save_curve(csv_text({r["seed"]: r["rows"] for r in runs}, args.side).encode())
        print("Learning curves written to %s" % args.curve)
    for place, run in enumerate(runs, 1):
        print("%4d. seed %d: %s" % (place, run["seed"], verdict(run["result"])))
    return from_bytes(runs[0]["data"]), error


def train_expert_iteration_in_workers(net, rng, args, report, stopped):
    """train_expert_iteration, each round's games in args.jobs processes (default one per core;
    1: here, for a debugger), a round cut by stopped() dropped; returns (games, None or why)."""
    jobs = min(args.jobs or os.cpu_count() or 1, GAMES_PER_ROUND)
    simulations, error = args.simulations or SIMULATIONS, []

    def play_in_workers(net, seeds):
        # Workers for this round alone, given its net as they start: the queue carries seeds,
        # so a killed worker leaves nothing half sent (3.9's pool would hang), none lives on.
        with WORKERS:
            pool = concurrent.futures.ProcessPoolExecutor(jobs, initializer=_start_worker,
                                                          initargs=(None, os.getpid(), net))
            try:
                futures = [pool.submit(_self_play, seed, simulations) for seed in seeds]
                while concurrent.futures.wait(futures, 0.2)[1]:
                    if stopped():
                        return None
                return [future.result() for future in futures]
            except BrokenProcessPool:   # a worker died: the round is lost
                error.append("a worker process died: the net of the last whole round is kept")
                return None
            finally:   # also after a second Ctrl-C: the workers killed, no game is waited for
                for child in multiprocessing.active_children():
                    child.kill()
                pool.shutdown(cancel_futures=True)

    return train_expert_iteration(net, args.games, rng, simulations,
                                  settings_from(args).learning_rate, report,
                                  None if jobs == 1 else play_in_workers,
                                  stopped), error[0] if error else None


def _self_play(seed, simulations):
    """In a worker: one game of expert iteration's self-play by the round's net (_net)."""
    return self_play_game(_net, seed, simulations)
