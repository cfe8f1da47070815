"""The command lines of ttt-train, ttt-rl and ttt-play (ttt-eval's is in
ttt_eval.py).

The C reads one number with atoi (so `abc` trains 0 games); here every
argument is checked, and a bad one is one line on stderr with exit status 2.
"""

import argparse

from .. import __version__
from ..game import O
from ..learn import DEFAULT_SETTINGS
from ..nn import HIDDEN_SIZE
from ..qlearn import DEFAULT_Q_SETTINGS, EPSILON_DECAY
from .argtypes import (at_least_one, count, curve_file, file_name, finite_float, hidden_units,
                       positive_float, probability, seed, shield_after_dashes, side, unshield)

DEFAULT_GAMES = 150000
DEFAULT_WEIGHTS = "ttt_nn.bin"
# The learning rules: the C's (a Monte Carlo, REINFORCE-style update) and Q-learning.
DEFAULT_METHOD, Q_LEARNING = "monte-carlo", "q-learning"
METHOD_SETTINGS = {DEFAULT_METHOD: DEFAULT_SETTINGS, Q_LEARNING: DEFAULT_Q_SETTINGS}
Q_ONLY = ("epsilon", "gamma")   # flags that only Q-learning reads


def method_defaults(method):
    """Return {setting name: default} of a learning rule (a METHODS key)."""
    return METHOD_SETTINGS[method]._asdict()


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit status 2),
    positionals may follow options, the epilog keeps its line breaks, and
    each learning rule gets its own defaults."""

    def __init__(self, needs=(), late_defaults=None, **kwargs):
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(**kwargs)
        self.needs = needs   # (flag, flag it needs) pairs
        # Defaults set after the needs are checked: a flag left out is None
        # until then, so that "--jobs needs --runs" can tell it was not given.
        self.late_defaults = late_defaults or {}
        self.add_argument("--version", action="version", version="%(prog)s " + __version__)

    def error(self, message):
        """Exit with status 2 and one line: PROG: error: MESSAGE (try --help)."""
        self.exit(2, "%s: error: %s (try --help)\n" % (self.prog, message))

    def parse_args(self, args=None, namespace=None):
        """Parse `args` with options and positionals in any order; return the
        Namespace, or exit with one line for a bad command line."""
        args, typed = shield_after_dashes(args, self._negative_number_matcher.match)
        result = self.parse_intermixed_args(args, namespace)
        unshield(result, self._get_positional_actions(), typed)
        for flag, needed in self.needs:
            if getattr(result, flag) is not None and getattr(result, flag) is not False \
                    and not getattr(result, needed):
                self.error("--%s needs --%s" % (flag.replace("_", "-"), needed))
        for name, default in self.late_defaults.items():
            if getattr(result, name) is None:
                setattr(result, name, default)
        if hasattr(result, "method"):
            # Each rule has its own defaults (a learning rate for each).
            method = result.method or DEFAULT_METHOD
            for name in Q_ONLY:
                if getattr(result, name, None) is not None and method != Q_LEARNING:
                    self.error("--%s is for --method %s" % (name, Q_LEARNING))
            for name, default in method_defaults(method).items():
                if getattr(result, name, None) is None:
                    setattr(result, name, default)
        # Python < 3.13 reads `--seed=--` as an empty list, not as '--'.
        for action in self._actions:
            if action.nargs is None and isinstance(getattr(result, action.dest, None), list):
                self.error("argument %s: expected one value" % "/".join(action.option_strings))
        return result


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
    parser.add_argument("--method", choices=tuple(METHOD_SETTINGS), default=DEFAULT_METHOD,
                        help="the learning rule: monte-carlo, the C's (default), or "
                             "q-learning (README: Two ways to learn)")
    parser.add_argument("--init", metavar="FILE", type=file_name,
                        help="start from this weights file instead of random weights")
    parser.add_argument("--seed", type=seed,
                        help="random seed: the same seed gives the same file "
                             "(default: drawn and printed)")
    parser.add_argument("--hidden", type=hidden_units, metavar="N",
                        help="hidden units (default %d, or the --init file's); "
                             "the file's size follows" % HIDDEN_SIZE)
    mc, q = DEFAULT_SETTINGS, DEFAULT_Q_SETTINGS
    parser.add_argument("--learning-rate", type=positive_float, metavar="R",
                        help="backprop step size (default %g; %g with q-learning, "
                             "falling to a tenth over the last %d%%%% of the games)"
                             % (mc.learning_rate, q.learning_rate, round(100 - 100 * EPSILON_DECAY)))
    for name, what in (("win", "a win"), ("tie", "a tie"), ("loss", "a loss")):
        value = getattr(mc, "reward_" + name)
        parser.add_argument("--reward-" + name, type=finite_float, metavar="R",
                            help="reward for %s (default %g)" % (what, value))
    parser.add_argument("--epsilon", type=probability, metavar="E",
                        help="q-learning: the chance of a random move at the start, "
                             "falling linearly to 0 over the first %d%%%% of the games "
                             "(default %g)" % (100 * EPSILON_DECAY, q.epsilon))
    parser.add_argument("--gamma", type=probability, metavar="G",
                        help="q-learning: the discount of a later reward (default %g: "
                             "none)" % q.gamma)


def train_parser():
    """Return the ArgumentParser of ttt-train."""
    parser = ArgumentParser(prog="ttt-train", needs=[("until_unbeatable", "runs"),
                                                     ("jobs", "runs")],
                            late_defaults={"runs": 1, "jobs": 0}, epilog="""\
examples:
  ttt-train 20000 --runs 16 --until-unbeatable   the first unbeatable seed, saved
  ttt-train 200000 q.bin --method q-learning     Q-learning: unbeatable for 59 of 60 seeds
  ttt-train 2000000 big.bin --seed 7     the C README's run; the same seed, the same file
  ttt-train 50000 c.bin --curve c.svg    draw how it learns

An existing OUTPUT is kept as OUTPUT.bak. Ctrl-C stops after the current
game and saves the net trained so far; press it again to save nothing.
""", description="Train the tic-tac-toe network by playing against a random "
                 "player, then save its weights.")
    add_training_flags(parser, "number of training games")
    parser.add_argument("output", nargs="?", default=DEFAULT_WEIGHTS, metavar="OUTPUT",
                        type=file_name,
                        help="weights file to write (default %s)" % DEFAULT_WEIGHTS)
    parser.add_argument("--eval-every", type=count, default=0, metavar="N",
                        help="every N games, print the exact strength (as ttt-eval "
                             "computes it); default 0: only at the end")
    parser.add_argument("--curve", type=curve_file, metavar="FILE",
                        help="write the learning curve: FILE.svg a chart with heat maps, "
                             "FILE.csv rows (default: no curve)")
    parser.add_argument("--runs", type=at_least_one, metavar="K",
                        help="train K runs with seeds S, S+1, ... in parallel and save "
                             "the strongest (default 1)")
    parser.add_argument("--until-unbeatable", action="store_true",
                        help="with --runs K: stop at the first seed, in order, whose net "
                             "is unbeatable, and save it (K runs at most)")
    parser.add_argument("--jobs", type=count, metavar="N",
                        help="worker processes for --runs (default, or 0: one per "
                             "core, at most K)")
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
    parser.add_argument("--save", metavar="FILE", type=file_name,
                        help="save the weights to FILE when the session ends "
                             "(default: nothing is written)")
    return parser


def play_parser():
    """Return the ArgumentParser of ttt-play."""
    parser = ArgumentParser(prog="ttt-play", needs=[("save", "learn"), ("method", "learn")],
                            epilog="""\
examples:
  ttt-play                        play X against ttt_nn.bin
  ttt-play net.bin --side X       the net plays X and moves first
  ttt-play net.bin --learn        the net learns from your games (saved on exit)

In the probability grid, * marks the cell the net likes best overall (even
an occupied one) and # the move it plays: its best empty cell.
Type q to quit.
""", description="Play tic-tac-toe against a trained network.")
    parser.add_argument("weights", nargs="?", default=DEFAULT_WEIGHTS, metavar="WEIGHTS",
                        type=file_name,
                        help="weights file from ttt-train or the C train "
                             "(default %s)" % DEFAULT_WEIGHTS)
    add_side(parser, "plays")
    parser.add_argument("--learn", action="store_true",
                        help="learn from each finished game, as ttt.c does, and "
                             "save the weights back when the session ends")
    parser.add_argument("--save", metavar="FILE", type=file_name,
                        help="with --learn, save to FILE instead of WEIGHTS")
    parser.add_argument("--method", choices=tuple(METHOD_SETTINGS), default=None,
                        help="with --learn, the learning rule (default monte-carlo, "
                             "the C's)")
    return parser
