"""Many training runs, the best one kept: `ttt-train --runs K`.

Whether a net trained by the C's rule can be beaten depends on the luck of
its seed (see the README). antirez's advice is to run the program again;
this does it for you: K runs with seeds S, S+1, ..., each trained exactly
as a single `ttt-train --seed S+i` run would be (parallel.py), each
measured exactly. The best is saved. Ranking: unbeatable first, then the
highest exact win rate against the random player, then the fewest lines
lost, then the lowest seed. With --until-unbeatable the runs stop at the
first seed (in order) that ends unbeatable. No C counterpart.
"""

import os
import shlex
import sys

from ..game import O
from ..nn import HIDDEN_SIZE
from ..weights import from_bytes
from .args import DEFAULT_METHOD, method_defaults
from .cli import EXIT_CTRL_C, EXIT_FAILURE, EXIT_USAGE, Output, on_stop, say
from .parallel import run_all
from .save import conclude, save_and_report, write_curve
from .start import check_paths, choose_seed, read_init
from .text import ranked_table

MAX_JOBS = 64          # worker processes at most, whatever --jobs says
MAX_RUNS = 10000


def rank_key(run):
    """Sort key: unbeatable first, then highest win rate, fewest lines lost, lowest seed."""
    r = run["result"]
    return (not r["unbeatable"], -r["win"], r["lines_lost"], run["seed"])


def train_runs(args, prog, next_step):
    """ttt-train with --runs K > 1; returns the exit status. `prog` is the
    command as the user ran it; `next_step` what to try after a beatable net."""
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
    out.line("Training %s%d runs of %d games (seeds %d to %d, %s) in %d processes..." % (
        "up to " if args.until_unbeatable else "", args.runs, args.games, args.seed,
        args.seed + args.runs - 1, args.method, jobs))
    on_stop("; %s was not written" % args.output)
    runs, stopped = run_all(args, init_data, jobs, out)
    if not runs:
        say("ttt-train", "error: no run finished; %s was not written" % args.output)
        return EXIT_CTRL_C if stopped else EXIT_FAILURE
    runs.sort(key=rank_key)
    best = runs[0]
    out.line("\n%s of %d runs (seed %d):" % ("Stopped by Ctrl-C; best" if stopped else "Best",
                                             len(runs), best["seed"]))
    saved = save_and_report(from_bytes(best["data"]), target, args.output, args.side,
                            "ttt-train", out)
    if not saved:
        return EXIT_FAILURE
    for line in ranked_table(runs):
        out.line(line)
    conclude(saved, out, next_step)
    if not best.get("stopped"):
        out.line("Repeat the saved run: " + repeat_command(args, best["seed"], prog))
    curve_ok = not args.curve or write_curve(
        args.curve, {run["seed"]: run["rows"] for run in runs}, args.side, "ttt-train", out,
        best["seed"])
    if stopped:
        return EXIT_CTRL_C
    failed = len(runs) < args.runs and not args.until_unbeatable
    return EXIT_FAILURE if out.failed or not curve_ok or failed else 0


def repeat_command(args, seed, prog="ttt-train"):
    """Return the single-run command line that writes the same file, quoted
    for a POSIX shell."""
    words = prog.split() + [str(args.games), args.output, "--seed", str(seed)]
    if args.method != DEFAULT_METHOD:
        words += ["--method", args.method]
    if args.side != O:
        words += ["--side", args.side]
    if args.hidden not in (None, HIDDEN_SIZE):
        words += ["--hidden", str(args.hidden)]
    if args.init:
        words += ["--init", args.init]
    for name, default in method_defaults(args.method).items():
        value = getattr(args, name)
        if value != default:
            words += ["--" + name.replace("_", "-"), repr(value)]
    return " ".join(shlex.quote(w) for w in words)
