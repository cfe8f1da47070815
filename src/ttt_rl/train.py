"""Train the network by playing against a random player: `ttt-train`.

Reinforcement learning in its simplest form: play a whole game (an
episode), look at the result (the reward), then nudge the network towards
the moves of games it won or tied and away from the moves of games it lost.
No knowledge of tic-tac-toe goes in beyond the rules in game.py.

Ports learn_from_game, play_random_game, train_against_random and main of
the C `train` program. Read top to bottom: that is the order they run in.
"""

import collections
import math
import random
import sys
import time

from . import __version__
from .cli import (EXIT_FAILURE, ArgumentParser, Output, command, count, exit_status_of,
                  finite_float, integer, positive_float, say)
from .game import BOARD_CELLS, EMPTY, O, TIE, X, board_to_inputs, get_random_move, \
    init_game, is_winning_move
from .nn import backprop, forward_pass, get_computer_move, init_neural_network
from .curve import CurveError, open_curve
from .evaluate import evaluate_network, format_outcomes, summary_lines
from .weights import (WeightsFileError, as_saved, resolve_output, save, signals_held,
                      to_float32)

LEARNING_RATE = 0.1  # how far one backprop step moves the weights
REWARD_WIN = 1.0     # the network made a line
REWARD_TIE = 0.3     # a tie is worth something against a random player
REWARD_LOSS = -2.0   # losing hurts more than winning pleases
REPORT_INTERVAL = 10000  # games between two progress lines
DEFAULT_GAMES = 150000
DEFAULT_OUTPUT = "ttt_nn.bin"

# The knobs of learning, passed along as one value.
Settings = collections.namedtuple(
    "Settings", "learning_rate reward_win reward_tie reward_loss")
DEFAULT_SETTINGS = Settings(LEARNING_RATE, REWARD_WIN, REWARD_TIE, REWARD_LOSS)


def learn_from_game(nn, move_history, winner, nn_symbol=O, settings=DEFAULT_SETTINGS):
    """Update the network from one finished game (C: learn_from_game).

    Takes the network, the game's moves (cells 0-8; X moved first, so X's
    moves are at the even indices), the winner (X, O or TIE), the side the
    network played (O, or X: the C's nn_moves_even = 0) and the Settings.
    Each of the network's moves becomes one supervised example: the board
    before it, and a target that says "more of this move" after a good
    result, "any other move" after a bad one. Returns nothing.
    """
    if winner == TIE:
        reward = settings.reward_tie
    elif winner == nn_symbol:
        reward = settings.reward_win
    else:
        reward = settings.reward_loss
    num_moves = len(move_history)
    # Replay the game, keeping the board before each move.
    board = init_game()
    for move_idx, move in enumerate(move_history):
        symbol = X if move_idx % 2 == 0 else O
        if symbol == nn_symbol:
            forward_pass(nn, board_to_inputs(board))
            # Later moves count more: near the end of a game fewer moves are
            # left and each one decides more. This matters a lot in practice.
            #
            # LEARNING OPPORTUNITY: this is not temporal-difference learning
            # (Sutton and Barto, Turing Award 2024), which learns from how the
            # predicted value changes from one move to the next. Here every
            # move waits for the final result: a Monte Carlo method.
            move_importance = 0.5 + 0.5 * move_idx / num_moves
            scaled_reward = reward * move_importance
            target = [0.0] * BOARD_CELLS
            if scaled_reward >= 0:
                # Good outcome: all probability on the move that was played.
                target[move] = 1.0
            else:
                # Bad outcome: spread it over the other moves that were legal,
                # which pushes the move played down.
                others = [c for c in range(BOARD_CELLS) if board[c] == EMPTY and c != move]
                for cell in others:
                    target[cell] = 1.0 / len(others)
            backprop(nn, target, settings.learning_rate, scaled_reward)
        board[move] = symbol


def play_random_game(nn, rng, nn_symbol=O, settings=DEFAULT_SETTINGS):
    """Play one game, the network against a random player, then learn from it.

    Takes the network, a random.Random (used only for the random player's
    moves), the network's side (X moves first) and the Settings. Returns
    (winner, move_history): X, O or TIE, and the list of cells played.
    C: play_random_game.
    """
    board = init_game()
    move_history = []
    winner = TIE   # unless someone makes a line before the board is full
    for move_idx in range(BOARD_CELLS):
        symbol = X if move_idx % 2 == 0 else O
        if symbol == nn_symbol:
            move = get_computer_move(nn, board)
        else:
            move = get_random_move(board, rng)
        board[move] = symbol
        move_history.append(move)
        if is_winning_move(board, move):
            winner = symbol
            break
    learn_from_game(nn, move_history, winner, nn_symbol, settings)
    return winner, move_history


def train_against_random(nn, num_games, rng, nn_symbol=O, settings=DEFAULT_SETTINGS,
                         reporter=None):
    """Train for `num_games` episodes (C: train_against_random).

    Takes the network (trained in place), the number of games, a
    random.Random, the network's side and the Settings. Every
    reporter.interval games, and after the last, calls
    reporter.report(nn, games_done, counts), where counts maps X, O and TIE
    to the wins of each since the previous call. Returns nothing.
    """
    counts = {X: 0, O: 0, TIE: 0}
    for game in range(1, num_games + 1):
        winner, _ = play_random_game(nn, rng, nn_symbol, settings)
        counts[winner] += 1
        if reporter and (game % reporter.interval == 0 or game == num_games):
            reporter.report(nn, game, counts)
            counts = {X: 0, O: 0, TIE: 0}


class Reporter:
    """What a training run shows: the C's progress line every
    REPORT_INTERVAL games, the exact strength every `eval_every` games, and
    a row of the learning curve at each report and at the end.

    train_against_random calls report() every `interval` games.
    """

    def __init__(self, out, num_games, eval_every=0, curve=None, nn_symbol=O):
        self.out, self.num_games, self.eval_every = out, num_games, eval_every
        self.curve, self.nn_symbol = curve, nn_symbol
        self.interval = math.gcd(REPORT_INTERVAL, eval_every) if eval_every else REPORT_INTERVAL
        self.window = {X: 0, O: 0, TIE: 0}   # results since the last progress line
        self.start = time.perf_counter()

    def report(self, nn, games, counts):
        """Show the state after `games` games; `counts` are the results of
        the games since the previous call."""
        for result, n in counts.items():
            self.window[result] += n
        sampled = None
        if games % REPORT_INTERVAL == 0 or games == self.num_games:
            sampled = self.window_counts()
            self.window = {X: 0, O: 0, TIE: 0}
        if games % REPORT_INTERVAL == 0:
            self.progress_line(games, *sampled)
        exact = None
        evaluate_now = self.eval_every and games % self.eval_every == 0
        if evaluate_now or (self.curve and sampled):
            exact = evaluate_network(nn, self.nn_symbol)
        if evaluate_now:
            self.out.line("Exact at %d games: %s, lines lost %d of %d" % (
                games, format_outcomes(exact), exact["lines_lost"], exact["lines"]))
        if self.curve and (sampled or exact):
            self.curve.add({"games": games, "sampled": sampled, "exact": exact})

    def window_counts(self):
        """Return (wins, losses, ties) of the network in the current window."""
        other = O if self.nn_symbol == X else X
        return self.window[self.nn_symbol], self.window[other], self.window[TIE]

    def progress_line(self, games, wins, losses, ties):
        # The C's line, then the timing that a slower language makes welcome.
        elapsed = time.perf_counter() - self.start
        rate = games / max(elapsed, 1e-9)
        self.out.line("Games: %d, Wins: %d (%.1f%%), Losses: %d (%.1f%%), "
                      "Ties: %d (%.1f%%) [%s, %.0f games/s, ETA %s]" % (
                          games, wins, percent(wins), losses, percent(losses),
                          ties, percent(ties), format_seconds(elapsed), rate,
                          format_seconds((self.num_games - games) / rate)))

    def summary(self, nn):
        """Return the exact-strength lines for the finished network."""
        return summary_lines(evaluate_network(nn, self.nn_symbol))

    @property
    def curve_failed(self):
        return bool(self.curve and self.curve.failed)

    def close(self):
        if self.curve:
            self.curve.close()


def percent(count):
    """Return `count` games as a percentage of REPORT_INTERVAL, rounded to
    float32 as the C computes it.

    0.15 is 0.150000006 in float32 but 0.1499... in float64: without the
    rounding, 400 of the 10001 possible counts would print other digits.
    """
    return to_float32(count * 100 / REPORT_INTERVAL)


def format_seconds(seconds):
    """Return `seconds` (a float) as '42s', '3m05s' or '1h02m'."""
    seconds = int(round(seconds))
    if seconds < 60:
        return "%ds" % seconds
    if seconds < 3600:
        return "%dm%02ds" % divmod(seconds, 60)
    return "%dh%02dm" % (seconds // 3600, seconds % 3600 // 60)


EXAMPLES = """\
examples:
  ttt-train                          150000 games, writes ttt_nn.bin
  ttt-train 2000000 big.bin --seed 7 the same seed gives the same file
  ttt-train 50000 --curve learn.svg  also draw the learning curve
"""


def make_parser():
    """Return the ArgumentParser of ttt-train (its flags are shared with ttt-rl)."""
    parser = ArgumentParser(
        prog="ttt-train", epilog=EXAMPLES,
        description="Train the tic-tac-toe network by playing against a random "
                    "player, then save its weights.")
    parser.add_argument("games", nargs="?", type=count, default=DEFAULT_GAMES,
                        metavar="GAMES",
                        help="number of training games (default %d)" % DEFAULT_GAMES)
    parser.add_argument("output", nargs="?", default=DEFAULT_OUTPUT, metavar="OUTPUT",
                        help="weights file to write (default %s)" % DEFAULT_OUTPUT)
    add_training_flags(parser)
    parser.add_argument("--eval-every", type=count, default=0, metavar="N",
                        help="every N games, print the exact strength (as ttt-eval "
                             "computes it); default 0: only at the end")
    parser.add_argument("--curve", metavar="FILE",
                        help="write the learning curve: FILE.csv gets one row per "
                             "progress report (sampled and exact results); default: none")
    parser.add_argument("--version", action="version", version="%(prog)s " + __version__)
    return parser


def add_training_flags(parser):
    """Add --seed and the learning settings to `parser`."""
    parser.add_argument("--seed", type=integer,
                        help="random seed: the same seed gives the same file "
                             "(default: drawn and printed)")
    parser.add_argument("--learning-rate", type=positive_float, default=LEARNING_RATE,
                        metavar="R", help="backprop step size (default %g)" % LEARNING_RATE)
    for name, value, what in (("win", REWARD_WIN, "a win"), ("tie", REWARD_TIE, "a tie"),
                              ("loss", REWARD_LOSS, "a loss")):
        parser.add_argument("--reward-" + name, type=finite_float, default=value,
                            metavar="R", help="reward for %s (default %g)" % (what, value))


def settings_from(args):
    """Return the Settings that the parsed flags ask for."""
    return Settings(args.learning_rate, args.reward_win, args.reward_tie, args.reward_loss)


def seed_from(args, out):
    """Return the seed to use: --seed, or a new one, printed so the run can be repeated."""
    if args.seed is not None:
        return args.seed
    # The C seeds rand() with the time, so runs in the same second are
    # identical; we draw from the OS, and say what we drew.
    seed = random.SystemRandom().randrange(10 ** 9)
    out.line("Seed: %d (repeat with --seed %d)" % (seed, seed))
    return seed


@command("ttt-train")
def main(argv=None):
    """Entry point of `ttt-train` (C: main of train.c); returns the exit status.

    `argv` is the argument list (default sys.argv[1:]). Exit status: 0, 1 if
    something failed (the weights are still saved if training finished), 2
    for a bad command line, 128 + N when stopped by signal N.
    """
    args = make_parser().parse_args(argv)
    out = Output(sys.stdout, "stdout", "ttt-train")
    try:
        target = resolve_output(args.output)
        curve = open_curve(args.curve, target, "ttt-train")
    except (WeightsFileError, CurveError) as e:
        say("ttt-train", "error: %s" % e)
        return EXIT_FAILURE
    rng = random.Random(seed_from(args, out))
    nn = init_neural_network(rng)
    reporter = Reporter(out, args.games, args.eval_every, curve)
    out.line("Training neural network with %d games" % args.games)
    out.line("Training neural network against %d random games..." % args.games)
    try:
        train_against_random(nn, args.games, rng, O, settings_from(args), reporter)
    except KeyboardInterrupt as stop:
        # The weights file is only ever replaced whole, so an older file of
        # that name is intact.
        say("ttt-train", "interrupted; %s was not written" % args.output)
        return exit_status_of(stop)
    finally:
        reporter.close()
    elapsed = time.perf_counter() - reporter.start
    out.line("\nTraining complete!")
    # A stop signal during the save waits until the save is reported, so
    # the message never contradicts the file.
    with signals_held():
        try:
            save(nn, target)
        except WeightsFileError as e:
            say("ttt-train", "error: %s" % e)
            return EXIT_FAILURE
        out.line("Neural network saved to %s" % args.output)
    out.line("Training time: %s (%.1f s, %.0f games/s)" % (
        format_seconds(elapsed), elapsed, args.games / max(elapsed, 1e-9)))
    # The network as the file holds it (float32), so ttt-eval agrees.
    for line in reporter.summary(as_saved(nn)):
        out.line(line)
    return EXIT_FAILURE if out.failed or reporter.curve_failed else 0


if __name__ == "__main__":
    sys.exit(main())
