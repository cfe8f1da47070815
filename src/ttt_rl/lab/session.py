"""The start and the end of a run: the --init net and the paths checked
before the first game; at the end the save, then the verdicts (the save
waits for none: whatever stops the command then, the net is on disk).
"""

import os
import random
import signal

from ..nn import HIDDEN_SIZE, init_neural_network
from ..weights import FileError, from_bytes, load, read, to_bytes
from .cli import EXIT_FAILURE, printable, say, signals_held
from .curve import csv_text
from .exact import evaluate_network, rank
from .files import check_output, save
from .svg import chart
from .text import saved_sentence, shell_word, side_warning, verdict

MAX_INIT_WEIGHT = 1e6   # a parameter this large was not learned: learning overflows


def check_paths(args, output):
    """Check `output` (or None) and --curve; return the bytes `output` holds
    (None if none). Raises FileError or ValueError."""
    now = check_output(output) if output is not None else None
    if getattr(args, "curve", None):
        check_output(args.curve, weights=False)
        check_distinct(args.curve, ((output, "the weights file"), (args.init, "the --init file"),
                                    (output and output + ".bak", "the weights file's backup")))
    return now


def check_distinct(curve, others):
    """Raise ValueError if `curve` is, or links to, a file of `others` ((name, what) pairs)."""
    for other, what in others:
        if other and (os.path.abspath(curve) == os.path.abspath(other) or os.path.exists(
                other) and os.path.exists(curve) and os.path.samefile(curve, other)):
            raise ValueError("--curve %s is %s itself" % (curve, what))


def read_init(args):
    """Return the --init file's bytes, read once (a pipe), or None. Raises
    FileError or ValueError (a net that does not fit --hidden or cannot learn)."""
    if args.init is None:
        return None
    net = load(args.init)
    if args.hidden not in (None, len(net.b_h)):
        raise ValueError("--hidden %d does not match %s, which has %d hidden units"
                         % (args.hidden, args.init, len(net.b_h)))
    check_trainable(net, args.init)
    return to_bytes(net)


def check_trainable(net, name):
    """Raise ValueError if `net` (file `name`) is too large to learn from."""
    largest = max(abs(w) for row in net.w_ih + net.w_ho + [net.b_h, net.b_o] for w in row)
    if largest > MAX_INIT_WEIGHT:
        raise ValueError("%s cannot be trained further: it has a weight of %.3g (trained "
                         "nets stay far below %g)" % (name, largest, MAX_INIT_WEIGHT))


def choose_seed(args, out):
    """Return --seed, or a seed drawn from the OS and printed, to repeat the
    run (the C seeds with the time: two runs in one second agree)."""
    if args.seed is not None:
        return args.seed
    drawn = random.SystemRandom().randrange(10 ** 9)
    out.line("Seed: %d (repeat with --seed %d)" % (drawn, drawn))
    return drawn


def make_rng(seed):
    """Return the random.Random of a seed. random.seed(n) uses abs(n), so a
    negative seed is seeded from its text: -5 and 5 differ."""
    return random.Random(seed if seed >= 0 else "seed %d" % seed)


def start_network(args, seed, init_data=None):
    """Return (network, rng) (C: init_neural_network): the --init bytes'
    net, or new weights drawn from make_rng(seed)."""
    rng = make_rng(seed)
    if init_data is not None:
        return from_bytes(init_data, args.init), rng
    return init_neural_network(rng, args.hidden or HIDDEN_SIZE), rng


def repeatable(args):
    """False if --init cannot be read again as it was (the output, or a pipe)."""
    return not args.init or os.path.isfile(args.init) and not os.path.samefile(
        args.init, args.output)


def save_and_report(net, path, side, prog, out, expect=False):
    """Save `net` (files.save), then say so with the verdicts of the new net and
    of the backup; return the new net's evaluation, or None after saying the error."""
    try:
        with signals_held():
            try:
                backup = save(path, to_bytes(net), expect)
            except FileError as e:
                say(prog, "error: %s" % e)
                return None
            out.line("Neural network saved to %s" % path)
        result = evaluate_network(from_bytes(to_bytes(net)), side)   # as the file holds it
        if backup:
            try:
                old = evaluate_network(load(backup), side)
            except FileError:
                old = None
            out.line("Replaced %s (was: %s; now: %s); the old file is %s" % (
                path, verdict(old) if old else "not a weights file", verdict(result), backup))
            result["replaced_stronger"] = bool(old) and rank(old) < rank(result)
            if result["replaced_stronger"]:
                out.line("The net it replaced was stronger: %s restores it%s." % (
                    " ".join(shell_word(w) for w in ("cp", "--", backup, path)),
                    " (before the next save replaces the backup)" * backup.endswith(".bak")))
    except KeyboardInterrupt as stop:
        stop.note = "%s was saved" % printable(path)
        raise
    return result


def conclude(result, out, advice=None, subject="The saved net"):
    """Say how the net plays (`result`); if it can be beaten, `advice` follows,
    unless it replaced a stronger net (the advice would save over its backup)."""
    out.line(saved_sentence(result, subject))
    if advice and not result["unbeatable"] and not result.get("replaced_stronger"):
        out.line(advice)


def write_curve(path, runs, side, prog, out, best=None):
    """Write the curve of `runs` (seed -> rows) to `path`, .svg or .csv; return
    True, or False after saying why it could not."""
    text = chart(runs, side, best) if path.lower().endswith(".svg") else csv_text(runs, side)
    with signals_held():
        try:
            save(path, text.encode("utf-8"))
        except FileError as e:
            say(prog, "error: %s" % e)
            return False
        out.line("Learning curve written to %s" % path)
    return True


def end_session(net, path, side, prog, out, learned, expect=False):
    """End ttt-rl or ttt-play --learn: if `learned` ("from 1 game"), save `net`
    to `path` or say it is not kept. Returns the exit status."""
    if learned:
        # A closed terminal (SIGHUP, often sent twice) has nothing left to
        # stop once the session is over: it must not cost the save.
        hangup = getattr(signal, "SIGHUP", None)
        previous = hangup and signal.signal(hangup, signal.SIG_IGN)
        try:
            out.line("Learned %s." % learned)
            if path is None:
                out.line("Not kept: run again with --save FILE to keep what it learned.")
            elif save_and_report(net, path, side, prog, out, expect) is None:
                return EXIT_FAILURE
        finally:
            if hangup:
                signal.signal(hangup, previous)
    return EXIT_FAILURE if out.failed else 0


def load_to_play(path, side, prog, hint):
    """Return (net, its file's bytes), warning if it plays the other side much
    better. Raises FileError, with `hint` if the file is missing."""
    try:
        data = read(path)
    except FileError as e:
        if e.missing:
            raise FileError("%s; train one first: %s" % (e, hint)) from None
        raise
    net = from_bytes(data, path)
    warning = side_warning(net, side)
    if warning:
        say(prog, warning)
    return net, data
