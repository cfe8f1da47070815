"""Training runs in worker processes: `ttt-train --runs K` keeps the best of K seeds (antirez's
advice for a beatable net: run it again), make curve trains both rules side by side. No C
counterpart. Added to multiprocessing: a first Ctrl-C asks every run to stop after its game,
a worker whose parent is gone stops by itself, and no worker outlives the command.
"""

import multiprocessing
import os
import signal
import time
from multiprocessing.connection import wait

from ..weights import from_bytes, to_bytes
from .args import settings_from, trainer
from .cli import EXIT_FAILURE, EXIT_USAGE, STOP_SIGNALS, first_ctrl_c_stops, printable, say, \
    signals_held
from .curve import Reporter
from .exact import evaluate_network, rank
from .session import choose_seed, conclude, repeatable, save_and_report, start_network, \
    write_curve
from .text import command_line, format_seconds, next_step, plural, ranked_table

GRACE_SECONDS = 2.0   # how long a stopped worker may take before SIGKILL
MAX_JOBS = 64         # worker processes at most, whatever --jobs says


def rank_key(run):
    """Sort key of a run, best first: exact.rank, then the lowest seed."""
    return rank(run["result"]) + (run["seed"],)


def _worker(args, seed, init_data, index, conn, asked, done, parent):
    """Train the task `index` of run_all until `asked` is set or the parent is gone; send a dict
    (seed, data: the file's bytes, result: its exact verdict, rows: its curve, stopped) or a
    one-line failure."""
    # Ctrl-C and a closed terminal are the parent's to handle; SIGTERM ends a worker.
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_DFL if sig == signal.SIGTERM else signal.SIG_IGN)
    try:
        net, rng = start_network(args, seed, init_data)
        reporter = Reporter(None, args.games, args.side, curve=bool(args.curve))

        def report(net, games, counts):
            done[index] = games   # for the parent's progress line
            return reporter.report(net, games, counts) or asked.value or os.getppid() != parent
        reporter.begin(net)
        games = trainer(args)(net, args.games, rng, args.side, settings_from(args),
                              report=report, report_every=1)
        reporter.finish(net)
        data = to_bytes(net)
        result = evaluate_network(from_bytes(data), args.side)   # as the file holds it
        del result["losing_lines"]
        message = {"seed": seed, "data": data, "result": result, "rows": reporter.rows,
                   "stopped": games < args.games}
    except BaseException as e:   # noqa: BLE001 (the parent says it in one line)
        message = (str(e).splitlines() or [type(e).__name__])[0]
    if os.getppid() == parent:   # nobody reads a pipe whose parent is gone
        conn.send(message)


def run_all(tasks, jobs, out, ctrl_c, until_unbeatable=False):
    """Run `tasks` ((args, seed, init_data) each) in processes, `jobs` at a time, with one
    progress line; `ctrl_c` (cli.first_ctrl_c_stops) asks them to stop after their game.
    Returns (runs, failed): the finished runs in task order, how many failed (each said)."""
    context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    # Shared without a lock: a worker frozen (SIGSTOP) while holding one would block the parent.
    asked, done = context.RawValue("b", 0), context.RawArray("q", len(tasks))
    waiting, active, results, failed = list(range(len(tasks))), {}, {}, 0
    total, shown, start = sum(t[0].games for t in tasks), -1, time.monotonic()
    step = max(total // 20, 1)   # a progress line every twentieth of the games
    try:
        while waiting or active:
            while waiting and len(active) < jobs and not ctrl_c.stop_requested:
                receiver, sender = context.Pipe(duplex=False)
                process = context.Process(target=_worker, daemon=True, args=(
                    *tasks[waiting[0]], waiting[0], sender, asked, done, os.getpid()))
                try:
                    process.start()
                    active[waiting.pop(0)] = process, receiver
                except OSError as e:   # a limit on processes: keep what is running
                    receiver.close()
                    say(out.prog, "cannot start a process for %s: %s (try --jobs 1)"
                        % (plural(len(waiting), "more run"), e.strerror))
                    failed, waiting = failed + len(waiting), []
                finally:
                    sender.close()
            if ctrl_c.stop_requested and not asked.value:
                asked.value = 1
                waiting = []
                out.line("Ctrl-C: each run stops after its current game, then the best is "
                         "saved (press Ctrl-C again to save nothing)")
            wait([h for p, c in active.values() for h in (c, p.sentinel)], 0.2)
            for i, (process, conn) in list(active.items()):
                if conn.poll() or not process.is_alive():   # a message, or the pipe's end
                    try:
                        message = conn.recv()
                    except (EOFError, OSError):   # the pipe closed: the worker died
                        message = None
                    process.join()
                    conn.close()
                    del active[i]
                    if isinstance(message, dict):
                        results[i] = message
                        continue
                    failed += 1
                    code = process.exitcode
                    say(out.prog, "run with seed %d failed: %s" % (tasks[i][1], message or
                        "its process ended (%s)" % ("killed by signal %d" % -code if code < 0
                                                    else "exit status %d" % code)))
            if until_unbeatable:   # no run after the first unbeatable one matters
                first = min((i for i, r in results.items() if r["result"]["unbeatable"]),
                            default=len(tasks))
                waiting = [i for i in waiting if i < first]
                _stop([active.pop(i)[0] for i in list(active) if i > first])
                results = {i: r for i, r in results.items() if i <= first}
            games = sum(done)
            if games != shown and (games // step != shown // step or games == total):
                shown, elapsed = games, time.monotonic() - start
                rate = games / max(elapsed, 1e-9)
                eta = format_seconds((total - games) / rate) if elapsed >= 1 else "?"   # warming up
                out.line("Games: %d of %d in %d runs [%s, %.0f games/s, ETA %s%s]" % (
                    games, total, len(tasks), format_seconds(elapsed), rate,
                    "at most " * until_unbeatable, eta))
    finally:
        with signals_held():   # on any way out, even a second Ctrl-C: no worker left
            _stop([process for process, _ in active.values()])
    return [results[i] for i in sorted(results)], failed


def _stop(processes):
    """SIGTERM to every worker, SIGKILL to those alive after a shared grace."""
    for process in processes:
        process.terminate()
    deadline = time.monotonic() + GRACE_SECONDS
    for process in processes:
        process.join(max(deadline - time.monotonic(), 0))
        process.kill()   # (nothing happens to a process that has ended)
        process.join()


def train_runs(args, out, init_data, words):
    """ttt-train --runs K (K >= 1), paths checked; `words` run the command again."""
    if args.eval_every:
        say("ttt-train", "error: --eval-every prints one run's numbers; use --curve with --runs")
        return EXIT_USAGE
    args.seed = choose_seed(args, out)
    jobs = min(args.jobs or os.cpu_count() or 1, args.runs, MAX_JOBS)
    out.line("Training %s%s of %d games (seeds %d to %d, %s) in %s..." % (
        "up to " if args.until_unbeatable else "", plural(args.runs, "run"), args.games,
        args.seed, args.seed + args.runs - 1, args.method, plural(jobs, "process", "es")))
    with first_ctrl_c_stops() as ctrl_c:   # until the best is saved: a first Ctrl-C keeps it
        try:
            runs, failed = run_all([(args, args.seed + i, init_data) for i in range(args.runs)],
                                   jobs, out, ctrl_c, args.until_unbeatable)
        except KeyboardInterrupt as stop:
            stop.note = "%s was not written" % printable(args.output)
            raise
        if not runs:
            say("ttt-train", "error: no run finished; %s was not written" % args.output)
            return ctrl_c.status or EXIT_FAILURE
        runs.sort(key=rank_key)
        best = runs[0]
        stopped = ctrl_c.stop_requested and "Stopped by %s; best" % ctrl_c.cause
        out.line("\n%s of %s (seed %d):" % (stopped or "Best", plural(len(runs), "run"),
                                            best["seed"]))
        saved = save_and_report(from_bytes(best["data"]), args.output, args.side, "ttt-train",
                                out)
        if not saved:
            return EXIT_FAILURE
        out.line("\n".join(ranked_table(runs)))
        conclude(saved, out, next_step(words, args, args.output))
        if not best["stopped"] and repeatable(args):
            out.line("Repeat the saved run: " + command_line(words, args, args.games,
                                                             args.output, seed=best["seed"]))
        curve_ok = not args.curve or write_curve(args.curve, {r["seed"]: r["rows"] for r in runs},
                                                 args.side, "ttt-train", out, best["seed"])
    return ctrl_c.status or (EXIT_FAILURE if out.failed or not curve_ok or failed else 0)
