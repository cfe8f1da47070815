"""The command lines of ttt-train, ttt-rl, ttt-play and ttt-eval.

The C reads one number with atoi (so `abc` trains 0 games); here every
argument is checked, and a bad one is one line on stderr with exit status 2.
"""

import argparse
import os

from .. import __version__
from ..game import O, X
from ..learn import LEARNING_RATE, REWARD_LOSS, REWARD_TIE, REWARD_WIN
from ..nn import HIDDEN_SIZE

DEFAULT_GAMES = 150000
DEFAULT_WEIGHTS = "ttt_nn.bin"
MAX_DIGITS = 18         # game counts stay below 10**18
MAX_SEED_DIGITS = 60    # any seed that is printed can be typed back
MAX_HIDDEN = 10000      # hidden units
CURVE_TYPES = (".svg", ".csv")


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit status 2),
    positionals may follow options, and the epilog keeps its line breaks."""

    def __init__(self, needs=(), **kwargs):
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(**kwargs)
        self.needs = needs   # (flag, flag it needs) pairs
        self.add_argument("--version", action="version", version="%(prog)s " + __version__)

    def error(self, message):
        """Exit with status 2 and one line: PROG: error: MESSAGE (try --help)."""
        self.exit(2, "%s: error: %s (try --help)\n" % (self.prog, message))

    def parse_args(self, args=None, namespace=None):
        """Parse `args` with options and positionals in any order; return the
        Namespace, or exit with one line for a bad command line."""
        result = self.parse_intermixed_args(args, namespace)
        for flag, needed in self.needs:
            if getattr(result, flag) and not getattr(result, needed):
                self.error("--%s needs --%s" % (flag, needed))
        # Python < 3.13 reads `--seed=--` as an empty list, not as '--'.
        for action in self._actions:
            if action.nargs is None and isinstance(getattr(result, action.dest, None), list):
                self.error("argument %s: expected one value" % "/".join(action.option_strings))
        return result


def count(text, digits=MAX_DIGITS):
    """argparse type: a non-negative integer written in ASCII digits only.

    Returns the int; raises argparse.ArgumentTypeError for anything else,
    including ' 7', '1_0', '1e6' and non-ASCII digits, which int() takes.
    """
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError("%r is not a non-negative integer" % text[:40])
    if len(text) > digits:
        raise argparse.ArgumentTypeError("%s... is too large" % text[:20])
    return int(text)


def at_least_one(text):
    """argparse type: a count of 1 or more (--runs)."""
    value = count(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def seed(text):
    """argparse type: an integer seed, negative or not, of up to 60 digits."""
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()):
        raise argparse.ArgumentTypeError("%r is not an integer" % text[:40])
    value = count(digits, MAX_SEED_DIGITS)
    return -value if text.startswith("-") else value


def hidden_units(text):
    """argparse type: a number of hidden units from 1 to MAX_HIDDEN."""
    value = count(text)
    if not 1 <= value <= MAX_HIDDEN:
        raise argparse.ArgumentTypeError("%s is not from 1 to %d" % (text, MAX_HIDDEN))
    return value


def finite_float(text):
    """argparse type: a finite float, such as a reward."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number" % text[:40]) from None
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError("%r is not a finite number" % text[:40])
    return value


def positive_float(text):
    """argparse type: a finite float > 0 (a learning rate)."""
    value = finite_float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("%r is not greater than 0" % text)
    return value


def side(text):
    """argparse type: X or O, in either case."""
    if text.upper() not in (O, X):
        raise argparse.ArgumentTypeError("%r is not a side: use X or O" % text[:20])
    return text.upper()


def curve_file(text):
    """argparse type: a file name ending in .svg or .csv."""
    if os.path.splitext(text)[1].lower() not in CURVE_TYPES:
        raise argparse.ArgumentTypeError("%r must end in .svg (a chart) or .csv (rows)"
                                         % text[:80])
    return text


def add_side(parser, what):
    """Add --side (X or O, either case); `what` says what the net does."""
    parser.add_argument("--side", type=side, default=O, metavar="{O,X}",
                        help="the side the net %s (default O; X moves first); "
                             "the weights file does not record it" % what)


def add_training_flags(parser, what):
    """Add GAMES and the flags that ttt-train and ttt-rl share."""
    parser.add_argument("games", nargs="?", type=count, default=DEFAULT_GAMES,
                        metavar="GAMES", help="%s (default %d)" % (what, DEFAULT_GAMES))
    add_side(parser, "learns to play")
    parser.add_argument("--init", metavar="FILE",
                        help="start from this weights file instead of random weights")
    parser.add_argument("--seed", type=seed,
                        help="random seed: the same seed gives the same file "
                             "(default: drawn and printed)")
    parser.add_argument("--hidden", type=hidden_units, metavar="N",
                        help="hidden units (default %d, or the --init file's); "
                             "the file's size follows" % HIDDEN_SIZE)
    parser.add_argument("--learning-rate", type=positive_float, default=LEARNING_RATE,
                        metavar="R", help="backprop step size (default %g)" % LEARNING_RATE)
    for name, value, what in (("win", REWARD_WIN, "a win"), ("tie", REWARD_TIE, "a tie"),
                              ("loss", REWARD_LOSS, "a loss")):
        parser.add_argument("--reward-" + name, type=finite_float, default=value,
                            metavar="R", help="reward for %s (default %g)" % (what, value))


def train_parser():
    """Return the ArgumentParser of ttt-train."""
    parser = ArgumentParser(prog="ttt-train", epilog="""\
examples:
  ttt-train 20000 --runs 4               4 runs in parallel, the best one saved
  ttt-train 2000000 big.bin --seed 7     the C's run; the same seed, the same file
  ttt-train 50000 --curve c.svg          draw how it learns

An existing OUTPUT is kept as OUTPUT.bak. Ctrl-C stops after the current
game and saves the net trained so far; press it again to save nothing.
""", description="Train the tic-tac-toe network by playing against a random "
                 "player, then save its weights.")
    add_training_flags(parser, "number of training games")
    parser.add_argument("output", nargs="?", default=DEFAULT_WEIGHTS, metavar="OUTPUT",
                        help="weights file to write (default %s)" % DEFAULT_WEIGHTS)
    parser.add_argument("--eval-every", type=count, default=0, metavar="N",
                        help="every N games, print the exact strength (as ttt-eval "
                             "computes it); default 0: only at the end")
    parser.add_argument("--curve", type=curve_file, metavar="FILE",
                        help="write the learning curve: FILE.svg a chart with heat maps, "
                             "FILE.csv rows (default: no curve)")
    parser.add_argument("--runs", type=at_least_one, default=1, metavar="K",
                        help="train K runs with seeds S, S+1, ... in parallel and save "
                             "the strongest (default 1)")
    parser.add_argument("--jobs", type=count, default=0, metavar="N",
                        help="worker processes for --runs (default: one per core, "
                             "at most K)")
    return parser


def rl_parser():
    """Return the ArgumentParser of ttt-rl."""
    parser = ArgumentParser(prog="ttt-rl", epilog="""\
examples:
  ttt-rl                        train 150000 games, then play (as ./ttt does)
  ttt-rl 20000 --seed 1         a quick, repeatable net
  ttt-rl --side X --save me.bin the net plays X; keep what it learned
""", description="Train the network against a random player, then play it; "
                 "it learns from every game you finish, as antirez's ttt.c.")
    add_training_flags(parser, "training games before play")
    parser.add_argument("--save", metavar="FILE",
                        help="save the weights to FILE when the session ends "
                             "(default: nothing is written)")
    return parser


def play_parser():
    """Return the ArgumentParser of ttt-play."""
    parser = ArgumentParser(prog="ttt-play", needs=[("save", "learn")], epilog="""\
examples:
  ttt-play                        play X against ttt_nn.bin
  ttt-play net.bin --side X       the net plays X and moves first
  ttt-play net.bin --learn        the net learns from your games (saved on exit)

In the probability grid, * marks the cell the net likes best overall (even
an occupied one) and # the move it plays: its best empty cell.
Type q to quit.
""", description="Play tic-tac-toe against a trained network.")
    parser.add_argument("weights", nargs="?", default=DEFAULT_WEIGHTS, metavar="WEIGHTS",
                        help="weights file from ttt-train or the C train "
                             "(default %s)" % DEFAULT_WEIGHTS)
    add_side(parser, "plays")
    parser.add_argument("--learn", action="store_true",
                        help="learn from each finished game, as ttt.c does, and "
                             "save the weights back when the session ends")
    parser.add_argument("--save", metavar="FILE",
                        help="with --learn, save to FILE instead of WEIGHTS")
    return parser
