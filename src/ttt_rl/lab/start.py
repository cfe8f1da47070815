"""The start of a training run: the seed, the settings of the learning
rule, the --init file, and every output path checked before the first
game, so that a run is not lost to a path that cannot work.

No C counterpart: the C seeds with the time, starts from random weights
and saves wherever fopen lets it.
"""

import os
import random

from ..learn import Settings, learn_from_game, train_against_random
from ..nn import HIDDEN_SIZE, init_neural_network
from ..qlearn import QSettings, q_learn_from_game, train_q_learning
from ..weights import from_bytes, load, read, to_bytes
from .args import Q_LEARNING
from .cli import say
from .paths import BACKUP_SUFFIX, FileError, check_output
from .text import side_warning

MAX_DRAWN_SEED = 10 ** 9
# A weight this large is not one a net learned: training from it overflows.
MAX_INIT_WEIGHT = 1e6


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
    """Return the settings that the parsed flags ask for: a learn.Settings
    for the C's rule, a qlearn.QSettings for --method q-learning."""
    common = (args.learning_rate, args.reward_win, args.reward_tie, args.reward_loss)
    if args.method == Q_LEARNING:
        return QSettings(*common, args.epsilon, args.gamma)
    return Settings(*common)


def trainer(args):
    """Return the training loop of args.method: learn.train_against_random
    (the C's rule) or qlearn.train_q_learning; both take the same
    arguments."""
    return train_q_learning if args.method == Q_LEARNING else train_against_random


def learner(args):
    """Return the learn-from-game function of args.method, with the flags'
    settings bound: (net, move_history, winner, nn_symbol) -> None."""
    rule = q_learn_from_game if args.method == Q_LEARNING else learn_from_game
    settings = settings_from(args)
    return lambda net, moves, winner, side: rule(net, moves, winner, side, settings)


def read_init(args):
    """Return the --init file's bytes (read once: it may be a pipe), or
    None without --init; raise FileError for a file that cannot start a
    run, before any work."""
    if args.init is None:
        return None
    net = load(args.init)   # checks the file
    if args.hidden not in (None, len(net.b_h)):
        raise FileError("--hidden %d does not match %s, which has %d hidden units"
                        % (args.hidden, args.init, len(net.b_h)))
    check_trainable(net, args.init)
    return to_bytes(net)


def check_trainable(net, name):
    """Raise FileError if `net` (from file `name`) has a weight or bias so large
    that learning would overflow float32; before any work."""
    largest = max(abs(w) for row in net.w_ih + net.w_ho + [net.b_h, net.b_o] for w in row)
    if largest > MAX_INIT_WEIGHT:
        raise FileError("%s cannot be trained further: it has a weight of %.3g (trained "
                        "nets stay far below %g), which would overflow"
                        % (name, largest, MAX_INIT_WEIGHT))


def start_network(args, seed, init_data=None):
    """Return (network, rng) for a run of --runs, as train.main starts one:
    the --init network (from its bytes) or random weights drawn from
    make_rng(seed), which then drives the random player."""
    rng = make_rng(seed)
    if init_data is not None:
        return from_bytes(init_data, args.init), rng
    return init_neural_network(rng, args.hidden or HIDDEN_SIZE), rng


def check_paths(args, output):
    """Check OUTPUT (or None) and --curve before any work; return the
    target to replace, and raise FileError if a path cannot work. A file
    that is not a weights file is never replaced, nor kept as the backup
    in place of one: it may be the only copy of something."""
    target = check_output(output) if output is not None else None
    backup = target and target + BACKUP_SUFFIX
    for name in (target, backup):
        if name and os.path.lexists(name) and os.path.getsize(name) and \
                not _is_weights_file(name):
            raise FileError("%s is not a weights file; it is not replaced: choose another "
                            "name, or move it away" % name)
    if getattr(args, "curve", None):
        curve = check_output(args.curve)
        for other, what in ((target, "the weights file"), (args.init, "the --init file"),
                            (backup, "the weights file's backup")):
            if other and _same_file(curve, other):
                raise FileError("--curve %s is %s itself" % (args.curve, what))
    return target


def _is_weights_file(path):
    """True if `path` holds a weights file that loads."""
    try:
        load(path)
    except FileError:
        return False
    return True


def _same_file(a, b):
    """True if paths `a` and `b` name one file: the same path, or (for
    files that exist) the same inode, as a hard link is."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def load_to_play(path, side, prog, hint):
    """Return (net, data): the network in weights file `path` for play as
    `side`, and the bytes it was read from (read once, so that a later save
    can tell whether another session changed the file since). Warns on
    stderr if the net plays the other side much better. Raises FileError,
    ending with `hint` (how to train one) if the file is missing."""
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
