"""Around a training run: its start (seed, network, checked paths) and its
end (the weights saved with a backup, and both nets' verdicts said).

Everything that can fail is checked before the first game, so a run is not
lost to a path that cannot work. No C counterpart: the C seeds with the
time and saves wherever fopen lets it.
"""

import os
import random
import shlex

from ..game import O
from ..learn import DEFAULT_SETTINGS, Settings
from ..nn import HIDDEN_SIZE, init_neural_network
from ..weights import as_saved, from_bytes, load, save, to_bytes
from .cli import on_stop, say
from .curve import csv_text
from .evaluate import evaluate_network, side_warning, verdict
from .files import FileError, check_output, replace_file, signals_held
from .svg import chart

MAX_DRAWN_SEED = 10 ** 9


def draw_seed():
    """Return a new seed from the OS (the C seeds with the time, so two runs
    in the same second are the same)."""
    return random.SystemRandom().randrange(MAX_DRAWN_SEED)


def choose_seed(args, out):
    """Return --seed, or a drawn seed, printed so that the run can be
    repeated."""
    if args.seed is not None:
        return args.seed
    seed = draw_seed()
    out.line("Seed: %d (repeat with --seed %d)" % (seed, seed))
    return seed


def make_rng(seed):
    """Return the random.Random of a seed. random.seed(n) uses abs(n), so a
    negative seed is seeded from its text instead: -5 and 5 differ."""
    return random.Random(seed if seed >= 0 else "seed %d" % seed)


def settings_from(args):
    """Return the learn.Settings that the parsed flags ask for."""
    return Settings(args.learning_rate, args.reward_win, args.reward_tie, args.reward_loss)


def read_init(args):
    """Return the --init file's bytes (read once), or None; raise FileError."""
    if not args.init:
        return None
    net = load(args.init)   # checks the file
    if args.hidden not in (None, len(net.b_h)):
        raise FileError("--hidden %d does not match %s, which has %d hidden units"
                        % (args.hidden, args.init, len(net.b_h)))
    return to_bytes(net)


def start_network(args, seed, init_data=None):
    """Return (network, rng) for a run: the --init network (from its bytes)
    or random weights drawn from make_rng(seed), which then drives the
    random player."""
    rng = make_rng(seed)
    if init_data is not None:
        return from_bytes(init_data, args.init), rng
    return init_neural_network(rng, args.hidden or HIDDEN_SIZE), rng


def start_run(args, output, out):
    """Start a training run as the flags say: check `output` (None for no
    file) and --curve, draw the seed if none was given (and print it), read
    --init. Returns (target, seed, network, rng); raises FileError before
    any work if a path cannot work."""
    target, init_data = check_paths(args, output), read_init(args)
    seed = choose_seed(args, out)
    net, rng = start_network(args, seed, init_data)
    return target, seed, net, rng


def load_to_play(path, side, prog):
    """Return the network in weights file `path` for play as `side`; warn
    on stderr if it plays the other side much better. Raises FileError,
    with a hint if the file is missing."""
    try:
        net = load(path)
    except FileError as e:
        if e.missing:
            raise FileError("%s; train one first: ttt-train" % e) from None
        raise
    warning = side_warning(net, side)
    if warning:
        say(prog, warning)
    return net


def check_paths(args, output):
    """Check OUTPUT (or None) and --curve before any work; return the
    target to replace, and raise FileError if a path cannot work."""
    target = check_output(output) if output is not None else None
    if getattr(args, "curve", None):
        curve = check_output(args.curve)
        for other, what in ((target, "the weights file"), (args.init, "the --init file")):
            if other and _same_file(curve, other):
                raise FileError("--curve %s is %s itself" % (args.curve, what))
    return target


def _same_file(a, b):
    """True if paths `a` and `b` name one file: the same path, or (for
    files that exist) the same inode, as a hard link is."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def save_and_report(net, target, shown, side, prog, out):
    """Save `net` to `target` (named `shown` in messages), keeping the old
    file as a backup, and say so with both nets' exact verdicts.

    Stop signals wait until the file is replaced and the lines printed, so
    a stop during the save never contradicts them. Returns the exact
    evaluation of the saved net (a dict), or says the error in one line
    (old file untouched) and returns None.
    """
    result = evaluate_network(as_saved(net), side)   # the net as the file holds it
    now = verdict(result)
    try:
        was = verdict(evaluate_network(load(target), side)) if os.path.exists(target) else None
    except FileError:
        was = "not a weights file"
    with signals_held():
        try:
            backup = save(net, target)
        except FileError as e:
            say(prog, "error: %s" % e)
            return None
        out.line("Neural network saved to %s" % shown)
        on_stop("; %s was saved" % shown)   # a stop that waited must not deny it
        if backup:
            out.line("Replaced %s (was: %s; now: %s); the old file is %s"
                     % (shown, was, now, backup))
    return result


def write_curve(path, runs, side, prog, best=None):
    """Write the curve of `runs` (seed -> rows) to `path`: a chart for .svg,
    CSV rows otherwise, replaced whole. Returns True, or says why not in
    one line and returns False."""
    text = chart(runs, side, best) if path.lower().endswith(".svg") else csv_text(runs, side)
    try:
        replace_file(path, text.encode("utf-8"), keep_backup=False)
    except FileError as e:
        say(prog, "error: %s" % e)
        return False
    return True


def repeat_command(args, seed):
    """Return the single-run command line that writes the same file, quoted
    for a POSIX shell."""
    words = ["ttt-train", str(args.games), args.output, "--seed", str(seed)]
    if args.side != O:
        words += ["--side", args.side]
    if args.hidden not in (None, HIDDEN_SIZE):
        words += ["--hidden", str(args.hidden)]
    if args.init:
        words += ["--init", args.init]
    for name, value, default in zip(Settings._fields, settings_from(args), DEFAULT_SETTINGS):
        if value != default:
            words += ["--" + name.replace("_", "-"), repr(value)]
    return " ".join(shlex.quote(w) for w in words)
