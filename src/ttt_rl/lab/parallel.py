"""Many training runs at once, each in a process of its own (worker.py).

The parent starts at most `jobs` workers and waits on every worker's pipe and process at
once (multiprocessing.connection.wait): a worker that dies is a failed
run, said in one line. The first Ctrl-C asks every worker to stop after
its current game and send what it has; the second, or any other way out,
stops every worker at once. A worker whose parent is gone (killed by a
signal no one can catch) stops by itself after its current game.
No C counterpart.
"""

import multiprocessing
import os
import signal
import time
from multiprocessing.connection import wait

from .cli import say
from .files import signals_held
from .interrupt import first_ctrl_c_stops
from .progress import CombinedProgress
from .worker import BLOCKED, STOP_AFTER_GAME, worker

GRACE_SECONDS = 2.0    # how long a stopped worker may take before SIGKILL
POLL_SECONDS = 0.2     # how often the parent looks at a first Ctrl-C


class RunsStop:
    """What a first Ctrl-C sets in the parent (see first_ctrl_c_stops)."""

    stop_requested = False


def run_all(args, init_data, jobs, out):
    """Run the K trainings, at most `jobs` at a time, printing a combined
    progress line; returns (runs, stopped): the results of the runs that
    finished (a dead worker is said in one line and left out), and whether
    a first Ctrl-C stopped them early."""
    context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    waiting, active, results = list(range(args.runs)), {}, {}
    done = [0] * args.runs   # games played by each run
    progress, stop, asked = CombinedProgress(out, args, jobs), RunsStop(), False
    try:
        with first_ctrl_c_stops(stop):
            while waiting or active:
                while waiting and len(active) < jobs and not stop.stop_requested:
                    index = waiting[0]
                    started = _start(context, args, index, init_data)
                    if started is None:   # no process could be made
                        if not active:
                            raise OSError("cannot start a process for the runs (a limit on "
                                          "processes?); try again with --jobs 1")
                        jobs = len(active)
                        break
                    active[index] = started
                    waiting.pop(0)
                if stop.stop_requested and not asked:
                    asked, waiting = True, []
                    for process, _ in active.values():
                        _ask_to_stop(process)
                    # Each run may need seconds to end its game and measure
                    # its net: say what happens meanwhile.
                    out.line("Ctrl-C: each run stops after its current game, then the "
                             "best is saved (press Ctrl-C again to save nothing)")
                # Sleep until some worker sends a message or ends (or a while).
                wait([handle for process, conn in active.values()
                      for handle in (conn, process.sentinel)], POLL_SECONDS)
                for index in list(active):
                    run = _collect(args, index, active, done)
                    if run is not None:
                        results[index] = run
                        done[index] = args.games
                if args.until_unbeatable:
                    _stop_after_first_unbeatable(results, waiting, active)
                progress.show(sum(done))
    finally:
        with signals_held():   # on any way out, even a second Ctrl-C: no worker left
            _stop(*(process for process, _ in active.values()))
            for _, conn in active.values():
                conn.close()
    return [results[i] for i in sorted(results)], stop.stop_requested


def _collect(args, index, active, done):
    """Read what run `index` sent; return its result if it ended with one,
    else None (a failure is said in one line and the run dropped)."""
    process, conn = active[index]
    message = _receive(conn)
    while message is not None and message[0] == "progress":
        done[index] = message[1]
        message = _receive(conn)
    if message is None and process.exitcode is None:
        return None   # still training, nothing new
    del active[index]
    _end(process, conn)
    if message is None:   # the process ended without its result
        say("ttt-train", "run with seed %d failed: its process ended (%s)"
            % (args.seed + index, _how(process)))
        return None
    if message[0] == "failed":
        say("ttt-train", "run with seed %d failed: %s" % (args.seed + index, message[1]))
        return None
    return message[1]


def _stop_after_first_unbeatable(results, waiting, active):
    """--until-unbeatable: once run i ended unbeatable, no run after i can
    be the first: drop those waiting and stop those running. The runs
    before i go on (one of them may be unbeatable too)."""
    first = min((i for i, run in results.items() if run["result"]["unbeatable"]), default=None)
    if first is None:
        return
    waiting[:] = [i for i in waiting if i < first]
    later = [i for i in active if i > first]
    _stop(*(active[i][0] for i in later))
    for index in later:
        active.pop(index)[1].close()
    for index in [i for i in results if i > first]:
        del results[index]


def _start(context, args, index, init_data):
    """Start run `index` in a new process; returns (process, parent's pipe
    end), or None if the system cannot make another process. Stop signals
    are blocked across the fork, so none is lost before the worker has set
    its handlers."""
    receiver, sender = context.Pipe(duplex=False)
    parent = os.getpid()   # given to the worker: its getppid() may be too late
    process = context.Process(target=worker, args=(args, index, init_data, sender, parent),
                              daemon=True)
    old = signal.pthread_sigmask(signal.SIG_BLOCK, BLOCKED)
    try:
        process.start()
    except OSError:   # EAGAIN: a limit on processes; ENOMEM
        receiver.close()
        return None
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
        sender.close()
    return process, receiver


def _ask_to_stop(process):
    """Ask a worker to stop after its current game (it then sends its net)."""
    try:
        if STOP_AFTER_GAME is not None:
            os.kill(process.pid, STOP_AFTER_GAME)
        else:
            process.terminate()
    except (OSError, TypeError):
        pass   # already gone


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


def _stop(*processes):
    """Stop workers: SIGTERM to all, then SIGKILL to those still alive after
    one grace period (shared: stopping K workers takes no longer than one)."""
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + GRACE_SECONDS
    for process in processes:
        process.join(max(deadline - time.monotonic(), 0))
        if process.is_alive():
            process.kill()
        process.join()


def _how(process):
    code = process.exitcode
    if code is not None and code < 0:
        return "killed by signal %d" % -code
    return "exit status %s" % code
