"""The command lines: their flags, each learning rule's settings and loop, and what every
command promises (docs/failures.md). The C has none of it: atoi reads `abc` as 0 games.
"""

import argparse
import contextlib
import functools
import math
import os
import random
import signal
import sys

from .. import __version__, connect4
from .. import game as tic_tac_toe
from ..expert_iteration import (HIDDEN_SIZE as EI_HIDDEN_SIZE,
                                LEARNING_RATE as EI_LEARNING_RATE)
from ..game import BOTH, O, X
from ..learn import DEFAULT_SETTINGS, learn_from_game, train_against_random
from ..mcts import PLAYOUTS, mcts_opponent
from ..nn import HIDDEN_SIZE, init_neural_network
from ..policy_iteration import LEARNING_RATE as PI_LEARNING_RATE, train_policy_iteration
from ..qlearn import DEFAULT_Q_SETTINGS, SOFTMAX, q_learn_from_game, train_q_learning
from ..selfplay import train_self_play
from ..weights import FileError, file_size, layout, rules_of
from .files import load_weights

DEFAULT_WEIGHTS, C4_WEIGHTS = "ttt_nn.bin", "c4_nn.bin"
CONNECT4 = "connect4"
GAMES = {"tic-tac-toe": tic_tac_toe, CONNECT4: connect4}   # --game: the rules
MONTE_CARLO, Q_LEARNING, POLICY_ITERATION = "monte-carlo", "q-learning", "policy-iteration"
EXPERT_ITERATION = "expert-iteration"   # connect four's; not in RULES, which are tic-tac-toe's
RANDOM, SELF, MCTS = "random", "self", "mcts"   # who the net trains against
# Each rule: its settings (defaults), its training loop, how it learns from one game.
RULES = {MONTE_CARLO: (DEFAULT_SETTINGS, train_against_random, learn_from_game),
         Q_LEARNING: (DEFAULT_Q_SETTINGS, train_q_learning, q_learn_from_game),
         POLICY_ITERATION: (DEFAULT_SETTINGS._replace(learning_rate=PI_LEARNING_RATE),
                            None, None)}
DEFAULT_GAMES = {MONTE_CARLO: 150000, Q_LEARNING: 150000, POLICY_ITERATION: 200,
                 EXPERT_ITERATION: 2600}
EXIT_FAILURE, EXIT_STOPPED = 1, 130   # 130 = 128 + SIGINT, as a shell reports Ctrl-C


def number(kind, low=-math.inf, high=math.inf):
    """Return an argparse type: `kind` (int or float) of the text, finite, in [low, high]."""
    def convert(text):
        value = kind(text)   # a ValueError: argparse says "invalid int value: 'abc'"
        if not (math.isfinite(value) and low <= value <= high):
            raise argparse.ArgumentTypeError("%s is not a finite number in [%g, %g]"
                                             % (text, low, high))
        return value
    convert.__name__ = kind.__name__
    return convert


def parser_for(prog, description, epilog):
    """Return an ArgumentParser with --version; its examples keep their lines."""
    parser = argparse.ArgumentParser(prog=prog, description=description, epilog=epilog,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version="%(prog)s " + __version__)
    return parser


def add_training_flags(parser, games_help, every_rule=True):
    """Add GAMES (help: `games_help`) and the flags of ttt-train and ttt-rl: the rule, its
    settings, the seed. ttt-rl (every_rule False) plays you one side: it is offered neither
    policy iteration nor --side both."""
    add, q = parser.add_argument, DEFAULT_Q_SETTINGS
    add("games", nargs="?", type=number(int, 0), metavar="GAMES", help=games_help)
    sides = (O, X, BOTH) if every_rule else (O, X)
    add("--side", choices=sides, help="the side the net learns (default O; X moves first%s)"
        % ("; both: X in even games, O in odd" * every_rule))
    methods = (*RULES, EXPERT_ITERATION) if every_rule else (MONTE_CARLO, Q_LEARNING)
    add("--method", choices=methods, help="monte-carlo, the C's rule (default); q-learning" +
        every_rule * "; policy-iteration (both sides, evaluated exactly); expert-iteration "
        "(connect four: the net learns the moves of a tree search it guides)")
    add("--init", metavar="FILE", help="start from this weights file, not random weights")
    add("--seed", type=number(int), help="random seed: the same seed, the same file")
    add("--hidden", type=number(int, 1, 10000), metavar="N", help="hidden units (default 100%s)"
        % ("; expert-iteration %d" % EI_HIDDEN_SIZE if every_rule else ""))
    add("--learning-rate", type=number(float, 1e-12), metavar="R", help="backprop step (default "
        "0.1; q-learning 0.01, falling to a tenth%s)" % ("; policy-iteration %g; "
        "expert-iteration %g" % (PI_LEARNING_RATE, EI_LEARNING_RATE) if every_rule else ""))
    for name in ("win", "tie", "loss"):
        add("--reward-" + name, type=number(float), metavar="R", help="reward for a %s "
            "(default %g)" % (name, getattr(DEFAULT_SETTINGS, "reward_" + name)))
    add("--epsilon", type=number(float, 0, 1), metavar="E", help="q-learning: the chance of a "
        "random move at first, falling to 0 (default %g)" % q.epsilon)
    add("--gamma", type=number(float, 0, 1), metavar="G", help="q-learning: the discount of a "
        "later reward (default %g)" % q.gamma)


def check_flags(parser, args):
    """Fill in the defaults that depend on --game, --method and --opponent; parser.error (exit 2)
    for flags that do not go together. Returns args."""
    # Given: not None, the default (a store_true flag: not False; 0 == False, but 0 is given).
    given = {name for name, value in vars(args).items()
             if value is not None and value is not False}
    args.game = getattr(args, "game", None) or "tic-tac-toe"   # a name: args go to workers
    c4, opponent = args.game == CONNECT4, getattr(args, "opponent", None) or RANDOM
    if getattr(args, "output", "") is None:   # ttt-train's OUTPUT, not given
        args.output = C4_WEIGHTS if c4 else DEFAULT_WEIGHTS
    curve, output = getattr(args, "curve", None), getattr(args, "output", None)
    # Self-play is Q-learning; it, policy iteration and connect four learn both sides.
    args.method = args.method or (Q_LEARNING if opponent == SELF else MONTE_CARLO)
    expert, runs = args.method == EXPERT_ITERATION, getattr(args, "runs", None)
    both = opponent == SELF or args.method == POLICY_ITERATION or c4
    for names, bad, why in (   # the flags `names`, if given, are refused when `bad`
            ("method", c4 != expert and args.method != MONTE_CARLO, "%s is for %s" % (
                args.method, "--game connect4" if expert else "tic-tac-toe")),
            ("side runs opponent curve", c4, "is for tic-tac-toe"),
            ("method", opponent == SELF and args.method != Q_LEARNING, "self-play is q-learning"),
            ("side", both and args.side != BOTH, "must be both here: this rule learns both sides"),
            ("epsilon gamma explore", args.method != Q_LEARNING, "is for --method q-learning"),
            ("temperature", getattr(args, "explore", None) != SOFTMAX, "is for --explore softmax"),
            ("simulations", opponent != MCTS and not expert,
             "is for --opponent mcts or --method expert-iteration"),
            ("opponent runs", args.method == POLICY_ITERATION, "is for the rules that play games"),
            ("curve", both or args.side == BOTH or curve == output,
             "draws one side of a rule that plays games, into a file of its own"),
            ("curve", not (curve or ".csv").lower().endswith(".csv"), "writes CSV: a FILE.csv"),
            ("jobs", not runs and not expert, "needs --runs or --method expert-iteration"),
            ("reward_win reward_tie reward_loss", expert or both and not c4,
             "does not apply: this rule's results are win 1, tie 0, loss -1")):
        for name in sorted(set(names.split()) & given):
            if bad:
                parser.error("--%s %s" % (name.replace("_", "-"), why))
    args.side, args.opponent = BOTH if both else args.side or O, opponent
    args.games = DEFAULT_GAMES[args.method] if args.games is None else args.games
    init = args.init_net = load_weights(args.init) if args.init else None   # FileError: 1 line
    # The game's net, and for expert iteration (only) one with a value output.
    if init and (rules_of(init), len(init.b_o) > init.moves) != (GAMES[args.game], expert):
        parser.error("--init %s is not a net of this game and rule (a net with a value output "
                     "is expert iteration's)" % args.init)
    if init and args.hidden not in (None, len(init.b_h)):
        parser.error("--hidden %d does not match --init %s (%d hidden units)"
                     % (args.hidden, args.init, len(init.b_h)))
    if expert and args.hidden and layout(file_size(args.hidden, connect4, 8))[1] != 8:
        parser.error("--hidden %d: the file would have the size of another kind of net's; "
                     "choose another number" % args.hidden)
    return args


def draw_seed(args):
    """Without --seed, draw args.seed and print it, to repeat the run (the C seeds with the
    time): once the output is tried, so that nothing is printed before a refusal."""
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(10 ** 9)
        print("Seed: %d (repeat with --seed %d)" % (args.seed, args.seed))


def settings_from(args):
    """Return args.method's settings (learn.Settings or qlearn.QSettings), flags over defaults."""
    defaults = RULES[args.method][0] if args.method in RULES else \
        DEFAULT_SETTINGS._replace(learning_rate=EI_LEARNING_RATE)
    return defaults._replace(**{name: getattr(args, name) for name in defaults._fields
                                if getattr(args, name, None) is not None})


def train(net, rng, args, report):
    """Train `net` (in place) by the rule the flags name for args.games games (policy
    iteration: sweeps), calling report after each; return the games (sweeps) done."""
    settings = settings_from(args)
    if args.method == POLICY_ITERATION:
        return train_policy_iteration(net, args.games, rng, settings.learning_rate, report)[0]
    if args.opponent == SELF:
        return train_self_play(net, args.games, rng, args.side, settings, report)
    if args.game == CONNECT4:
        return train_against_random(net, args.games, rng, BOTH, settings, report, rules=connect4)
    loop = RULES[args.method][1]
    if args.opponent == MCTS:
        loop = functools.partial(loop, opponent=mcts_opponent(args.simulations or PLAYOUTS))
    return loop(net, args.games, rng, args.side, settings, report)


def start_network(args):
    """Return (network, rng) (C: init_neural_network): the --init net (args.init_net), or new
    weights drawn from the random.Random of args.seed."""
    # random.seed(n) uses abs(n): a negative seed is seeded from its text, so -5 and 5 differ.
    rng = random.Random(args.seed if args.seed >= 0 else "seed %d" % args.seed)
    if getattr(args, "init_net", None) is not None:
        return args.init_net, rng
    expert = getattr(args, "method", None) == EXPERT_ITERATION   # a value head, 150 units
    hidden = args.hidden or (EI_HIDDEN_SIZE if expert else HIDDEN_SIZE)
    return init_neural_network(rng, hidden, GAMES[args.game], value_head=expert), rng


@contextlib.contextmanager
def first_ctrl_c():
    """In a `with` block that trains and saves, yield stopped(), True once Ctrl-C was pressed:
    a first Ctrl-C only sets it (the training loops stop after their game, and the verdict and
    the save go on); a second raises KeyboardInterrupt."""
    pressed = []

    def handler(signum, frame):
        if pressed:
            raise KeyboardInterrupt
        pressed.append(signum)
        sys.stderr.write("\nCtrl-C: stopping after this game or sweep (expert iteration: now, or "
                         "after the learning under way), then saving (again: quit unsaved)\n")
    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield lambda: bool(pressed)
    finally:
        signal.signal(signal.SIGINT, previous)


def command(prog):
    """Decorate a command's main(argv) -> exit status: a FileError (a file that cannot be read
    or written) is one line and status 1, a Ctrl-C that gets through one line and 130; a closed
    pipe ends quietly (Python's SIGPIPE recipe). A bad command line is argparse's: exit 2."""
    def decorate(main):
        @functools.wraps(main)
        def run(argv=None):
            try:
                status = main(argv)
                sys.stdout.flush()   # here, so that a closed pipe is caught here too
                return status
            except FileError as e:
                sys.stderr.write("%s: error: %s\n" % (prog, e))
                return EXIT_FAILURE
            except KeyboardInterrupt:
                sys.stderr.write("\n%s: interrupted\n" % prog)
                return EXIT_STOPPED
            except BrokenPipeError:
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                return EXIT_FAILURE
        return run
    return decorate
