"""The end of a run: the weights saved (the old file kept as a backup),
with one sentence on how the saved net plays, and the learning curve
written.

Stop signals wait while a file is replaced and the lines about it are
printed, so a stop never contradicts them. No C counterpart: the C's
save is a plain fopen and fwrite.
"""

import os

from ..weights import from_bytes, load, read, to_bytes
from .cli import EXIT_FAILURE, on_stop, printable, say
from .curve import csv_text
from .exact import evaluate_network
from .files import FileError, replace_file, signals_held
from .svg import chart
from .text import saved_sentence, verdict


def as_saved(net):
    """Return a copy of `net` with every parameter rounded to float32: the
    network a file holds after it is saved."""
    return from_bytes(to_bytes(net))


def contents(path):
    """Return the bytes of weights file `path` (weights.read), or None if it
    cannot be read."""
    try:
        return read(path)
    except FileError:
        return None


def save_and_report(net, target, shown, side, prog, out, expect=False):
    """Save `net` to `target` (named `shown` in messages), keeping the old
    file as a backup, and say so with both nets' exact verdicts. With
    `expect` (the bytes the file
    held when it was loaded, or None for no file), a file that changed
    since then is not replaced: another session saved it.

    Returns the exact evaluation of the saved net (a dict), or says the
    error in one line (old file untouched) and returns None.
    """
    if expect is not False and contents(target) != expect:
        say(prog, "error: %s changed since it was loaded (another session saved it?); it "
                  "was not replaced, and this session's net is not saved: use --save FILE "
                  "to keep sessions apart" % shown)
        return None
    result = evaluate_network(as_saved(net), side)   # the net as the file holds it
    try:
        was = verdict(evaluate_network(load(target), side)) if os.path.exists(target) else None
    except FileError:
        was = "not a weights file"
    with signals_held():
        try:
            backup = replace_file(target, to_bytes(net))
        except FileError as e:
            say(prog, "error: %s" % e)
            return None
        out.line("Neural network saved to %s" % printable(shown))
        on_stop("; %s was saved" % shown)   # a stop that waited must not deny it
        if backup:
            out.line("Replaced %s (was: %s; now: %s); the old file is %s"
                     % (shown, was, verdict(result), backup))
    return result


def conclude(result, out, next_step=None, subject="The saved net"):
    """Say in one sentence how the net named `subject` plays (`result` is
    its exact evaluation); if it can be beaten, `next_step` (what to run)
    follows."""
    out.line(saved_sentence(result, subject))
    if next_step and not result["unbeatable"]:
        out.line(next_step)


def write_curve(path, runs, side, prog, out, best=None):
    """Write the curve of `runs` (seed -> rows) to `path`: a chart for .svg,
    CSV rows otherwise, replaced whole, and say where on `out`. Returns
    True, or says why not in one line and returns False."""
    text = chart(runs, side, best) if path.lower().endswith(".svg") else csv_text(runs, side)
    try:
        replace_file(path, text.encode("utf-8"), keep_backup=False)
    except FileError as e:
        say(prog, "error: %s" % e)
        return False
    out.line("Learning curve written to %s" % printable(path))
    return True


def end_session(net, target, shown, side, prog, out, learned, expect=False):
    """At the end of ttt-rl or ttt-play --learn: save `net` to `target`
    (named `shown`) if the session asked for a save (target is not None),
    or say in one line that what it learned is not kept. `learned` says
    what it learned (such as "from 1 game"), empty for nothing new; `expect` is
    as in save_and_report. Returns the exit status: 0, or EXIT_FAILURE if
    saving or printing failed."""
    if learned:
        out.line("Learned %s." % learned)
    if learned and target is None:
        out.line("Not kept: run again with --save FILE to keep what it learned.")
    elif learned and save_and_report(net, target, shown, side, prog, out,
                                     expect=expect) is None:
        return EXIT_FAILURE
    return EXIT_FAILURE if out.failed else 0
