"""The command lines' flags and their checks, and each learning rule's
settings and training loop. The C reads one number with atoi (`abc` trains
0 games); here a bad argument is one line on stderr and exit status 2.
"""

import argparse
import functools
import math
import re
import sys

from .. import __version__
from ..game import BOTH, O, X
from ..learn import DEFAULT_SETTINGS, learn_from_game, train_against_random
from ..mcts import PLAYOUTS, mcts_opponent
from ..qlearn import DEFAULT_Q_SETTINGS, EPSILON_DECAY, SOFTMAX, q_learn_from_game, \
    train_q_learning
from ..selfplay import train_self_play
from ..weights import MAX_HIDDEN_SIZE

DEFAULT_GAMES, DEFAULT_WEIGHTS = 150000, "ttt_nn.bin"
MONTE_CARLO, Q_LEARNING = "monte-carlo", "q-learning"   # the C's rule, and Q-learning
RULES = {MONTE_CARLO: (DEFAULT_SETTINGS, train_against_random, learn_from_game),
         Q_LEARNING: (DEFAULT_Q_SETTINGS, train_q_learning, q_learn_from_game)}
RANDOM, SELF, MCTS = "random", "self", "mcts"   # who the net trains against
SELF_REWARDS = "does not apply to --opponent self (zero-sum: win 1, tie 0, loss -1)"
MAX_RUNS = 10000


def _type(check, what):
    """Return an argparse type: check(text), or the error '<text> <what>' for None."""
    def convert(text):
        try:
            value = check(text)
        except (ValueError, OverflowError):
            value = None
        if value is None:   # (as typed: "--" made -5 read ./-5)
            typed = text[2:] if text.startswith("./-") else text
            raise argparse.ArgumentTypeError("%r %s" % (typed[:40], what))
        return value
    return convert


def _integer(text, low=0, high=10 ** 18):
    """int(text) for up to 60 ASCII digits in [low, high], else None (int()
    also takes ' 7', '1_0' and other scripts' digits)."""
    if re.fullmatch("-?[0-9]{1,60}" if low < 0 else "[0-9]{1,60}", text) \
            and low <= int(text) <= high:
        return int(text)
    return None


def _number(text, low=-math.inf, high=math.inf):
    """float(text) if finite and within [low, high]; else None."""
    value = float(text)   # a ValueError for what is not a number
    return value if math.isfinite(value) and low <= value <= high else None


count = _type(_integer, "is not a non-negative integer below 10**18")
at_least_one = _type(lambda t: _integer(t, 1), "is not an integer of at least 1")
run_count = _type(lambda t: _integer(t, 1, MAX_RUNS),
                  "is not a number of runs from 1 to %d" % MAX_RUNS)
seed = _type(lambda t: _integer(t, -10 ** 60, 10 ** 60), "is not an integer")
hidden_units = _type(lambda t: _integer(t, 1, MAX_HIDDEN_SIZE),
                     "is not a number of hidden units from 1 to %d" % MAX_HIDDEN_SIZE)
finite_float = _type(_number, "is not a finite number")
positive_float = _type(lambda t: _number(t) if float(t) > 0 else None, "is not a number above 0")
probability = _type(lambda t: _number(t, 0.0, 1.0), "is not a number from 0 to 1")
side = _type(lambda t: t.upper() if t.upper() in (O, X) else None, "is not a side: X or O")
side_or_both = _type(lambda t: BOTH if t.lower() == BOTH else t.upper() if t.upper() in (O, X)
                     else None, "is not a side: X, O or both")
file_name = _type(lambda t: t or None, "is empty, not a file name")
curve_file = _type(lambda t: t if t.lower().endswith((".svg", ".csv")) else None,
                   "must end in .svg (a chart) or .csv (rows)")


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (exit status 2), options and
    positionals mix, and each learning rule fills in its own defaults."""

    def __init__(self, needs=(), **kwargs):
        super().__init__(formatter_class=argparse.RawDescriptionHelpFormatter, **kwargs)
        self.needs = needs   # (flag, the flag it needs)
        self.add_argument("--version", action="version", version="%(prog)s " + __version__)

    def error(self, message):
        self.exit(2, "%s: error: %s (try --help)\n" % (self.prog, message))

    def parse_args(self, args=None, namespace=None):
        """Return the checked Namespace of `args` (default: sys.argv[1:])."""
        args = list(sys.argv[1:] if args is None else args)
        if "--" in args:   # intermixed parsing drops "--": keep what follows a file name
            at = args.index("--")
            args[at + 1:] = ["./" + a if a.startswith("-") else a for a in args[at + 1:]]
        result = self.parse_intermixed_args(args, namespace)
        if [] in vars(result).values():   # Python < 3.13 reads --seed=-- as []
            self.error("an option expects one value")
        given = {k for k, v in vars(result).items() if v is not None and v is not False}
        checks = [(flag, not getattr(result, needed), "needs --" + needed)
                  for flag, needed in self.needs]
        if hasattr(result, "method"):
            rule = result.method = result.method or MONTE_CARLO
            opponent = getattr(result, "opponent", RANDOM)
            softmax = getattr(result, "explore", None) == SOFTMAX
            checks += [(name, rule != Q_LEARNING, "is for --method " + Q_LEARNING)
                       for name in ("epsilon", "gamma", "explore", "temperature")] + [
                ("opponent", opponent == SELF and (result.side != BOTH or rule != Q_LEARNING),
                 "self plays both sides by Q-learning: add --side both --method q-learning"),
                ("playouts", opponent != MCTS, "is for --opponent mcts"),
                ("temperature", not softmax, "is for --explore softmax"),
                ("epsilon", softmax, "is for --explore epsilon"),
                ("curve", result.side == BOTH, "draws one side: use --side O or X")] + [
                ("reward_" + n, opponent == SELF, SELF_REWARDS) for n in ("win", "tie", "loss")]
            for name, default in RULES[rule][0]._asdict().items():
                if getattr(result, name, None) is None:
                    setattr(result, name, default)
        for name, wrong, why in checks:
            if name in given and wrong:
                self.error("--%s %s" % (name.replace("_", "-"), why))
        return result


def add_side(parser, what):
    parser.add_argument("--side", type=side, default=O, metavar="{O,X}", help="the side the "
                        "net %s (default O; X moves first); the file does not record it" % what)


def add_training_flags(parser, what, side_flag=True):
    """Add GAMES and the flags of ttt-train and ttt-rl (--side with `side_flag`)."""
    add, mc, q = parser.add_argument, DEFAULT_SETTINGS, DEFAULT_Q_SETTINGS
    add("games", nargs="?", type=count, default=DEFAULT_GAMES, metavar="GAMES",
        help="%s (default %d)" % (what, DEFAULT_GAMES))
    if side_flag:
        add_side(parser, "learns to play")
    add("--method", choices=tuple(RULES), default=MONTE_CARLO, help="the learning rule: "
        "monte-carlo, the C's (default), or q-learning (README: Two ways to learn)")
    add("--init", metavar="FILE", type=file_name,
        help="start from this weights file instead of random weights")
    add("--seed", type=seed,
        help="random seed: the same seed gives the same file (default: drawn and printed)")
    add("--hidden", type=hidden_units, metavar="N",
        help="hidden units (default 100, or the --init file's)")
    add("--learning-rate", type=positive_float, metavar="R", help="backprop step size "
        "(default %g; %g with q-learning, falling to a tenth over the last %d%%%% of the "
        "games)" % (mc.learning_rate, q.learning_rate, round(100 - 100 * EPSILON_DECAY)))
    for name in ("win", "tie", "loss"):
        add("--reward-" + name, type=finite_float, metavar="R",
            help="reward for a %s (default %g)" % (name, getattr(mc, "reward_" + name)))
    add("--epsilon", type=probability, metavar="E", help="q-learning: the chance of a random "
        "move at the start, falling to 0 over the first %d%%%% of the games (default %g)"
        % (100 * EPSILON_DECAY, q.epsilon))
    add("--gamma", type=probability, metavar="G",
        help="q-learning: the discount of a later reward (default %g)" % q.gamma)


def settings_from(args):
    """Return args.method's settings (learn.Settings or qlearn.QSettings) from the flags."""
    defaults = RULES[args.method][0]
    return defaults._replace(**{name: getattr(args, name) for name in defaults._fields})


def trainer(args):
    """Return the training loop the flags ask for: learn.train_against_random
    or qlearn.train_q_learning, against the random player or MCTS, or
    selfplay.train_self_play (called alike: net, games, rng, side, settings,
    report, report_every)."""
    opponent = getattr(args, "opponent", RANDOM)
    if opponent == SELF:
        return train_self_play
    if opponent == MCTS:
        return functools.partial(RULES[args.method][1],
                                 opponent=mcts_opponent(args.playouts or PLAYOUTS))
    return RULES[args.method][1]


def learner(args):
    """Return args.method's learn-from-game(net, move_history, winner, nn_symbol)."""
    rule, settings = RULES[args.method][2], settings_from(args)
    return lambda net, moves, winner, side: rule(net, moves, winner, side, settings)
