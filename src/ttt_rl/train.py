"""Train the network by playing against a random player: `ttt-train`.

Reinforcement learning in its simplest form: play a whole game (an
episode), look at the result (the reward), then nudge the network towards
the moves of games it won or tied and away from the moves of games it lost.
No knowledge of tic-tac-toe goes in beyond the rules in game.py.

Ports learn_from_game, play_random_game, train_against_random and main of
the C `train` program. Read top to bottom: each function builds on the one
above it, as in the C.
"""

import collections
import random
import sys
import time

from . import __version__
from .cli import (EXIT_FAILURE, ArgumentParser, Output, command, count, exit_status_of,
                  finite_float, integer, positive_float, save_and_say, say)
from .game import (BOARD_CELLS, EMPTY, O, TIE, X, board_to_inputs, get_random_move,
                   init_game, is_winning_move, opponent)
from .nn import backprop, forward_pass, get_computer_move, init_neural_network
from .report import CurveError, Reporter, format_seconds, open_curve
from .weights import WeightsFileError, as_saved, load, resolve_output

LEARNING_RATE = 0.1  # how far one backprop step moves the weights
REWARD_WIN = 1.0     # the network made a line
REWARD_TIE = 0.3     # a tie is worth something against a random player
REWARD_LOSS = -2.0   # losing hurts more than winning pleases
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
            # left and each one decides more. The C's author found that this
            # weighting makes a large difference; try other values.
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
    # LEARNING OPPORTUNITY: each game is one sampled episode, and learning
    # waits for its end (a Monte Carlo method). Monte Carlo Tree Search
    # (MCTS) samples with a plan instead: it grows a tree of future positions
    # and spends its playouts on the most promising branches. AlphaGo joined
    # such a search to networks much like this one.
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
        if reporter is not None and (game % reporter.interval == 0 or game == num_games):
            reporter.report(nn, game, counts)
            counts = {X: 0, O: 0, TIE: 0}


EXAMPLES = """\
examples:
  ttt-train                              150000 games, writes ttt_nn.bin
  ttt-train 2000000 big.bin --seed 7     the same seed gives the same file
  ttt-train 50000 --runs 8 --curve c.svg keep the best of 8 runs, draw them
"""


def make_parser():
    """Return the ArgumentParser of ttt-train."""
    parser = ArgumentParser(
        prog="ttt-train", epilog=EXAMPLES,
        description="Train the tic-tac-toe network by playing against a random "
                    "player, then save its weights.")
    add_games_argument(parser, "number of training games")
    parser.add_argument("output", nargs="?", default=DEFAULT_OUTPUT, metavar="OUTPUT",
                        help="weights file to write (default %s)" % DEFAULT_OUTPUT)
    add_training_flags(parser)
    parser.add_argument("--eval-every", type=count, default=0, metavar="N",
                        help="every N games, print the exact strength (as ttt-eval "
                             "computes it); default 0: only at the end")
    parser.add_argument("--curve", metavar="FILE",
                        help="write the learning curve: FILE.svg a chart, any other "
                             "name CSV rows; exact strength at every progress report "
                             "(default: no curve)")
    parser.add_argument("--runs", type=count, default=1, metavar="K",
                        help="train K runs with seeds S, S+1, ... in parallel and save "
                             "the strongest (default 1)")
    parser.add_argument("--jobs", type=count, default=0, metavar="N",
                        help="worker processes for --runs (default: one per core, "
                             "at most K)")
    parser.add_argument("--version", action="version", version="%(prog)s " + __version__)
    return parser


def add_games_argument(parser, what):
    """Add the optional GAMES argument, described as `what`."""
    parser.add_argument("games", nargs="?", type=count, default=DEFAULT_GAMES,
                        metavar="GAMES", help="%s (default %d)" % (what, DEFAULT_GAMES))


def add_training_flags(parser):
    """Add the flags that ttt-train and ttt-rl share: side, start, seed, settings."""
    parser.add_argument("--side", choices=(O, X), default=O,
                        help="the side the net learns to play (default O; X moves "
                             "first). The weights file does not record it")
    parser.add_argument("--init", metavar="FILE",
                        help="start from this weights file instead of random weights")
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


def draw_seed():
    """Return a new seed from the OS (the C seeds with the time, so two runs
    in the same second are the same)."""
    return random.SystemRandom().randrange(10 ** 9)


def start_network(args, seed):
    """Return (network, rng) for a run: the --init file or random weights
    drawn from random.Random(seed), which then drives the random player.
    Raises WeightsFileError for a bad --init file."""
    rng = random.Random(seed)
    nn = load(args.init) if args.init else init_neural_network(rng)
    return nn, rng


def run_training(args, nn, rng, out, reporter):
    """Train as the flags say, printing the C's lines; returns the seconds
    it took. A stop signal (KeyboardInterrupt) goes through."""
    out.line("Training neural network with %d games" % args.games)
    out.line("Training neural network against %d random games..." % args.games)
    try:
        train_against_random(nn, args.games, rng, args.side, settings_from(args), reporter)
    finally:
        reporter.close()
    out.line("\nTraining complete!")
    return time.perf_counter() - reporter.start


@command("ttt-train")
def main(argv=None):
    """Entry point of `ttt-train` (C: main of train.c); returns the exit status.

    `argv` is the argument list (default sys.argv[1:]). Exit status: 0, 1 if
    something failed (the weights are still saved if training finished), 2
    for a bad command line, 128 + N when stopped by signal N.
    """
    parser = make_parser()
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("argument --runs: must be at least 1")
    if args.runs > 1:
        if args.eval_every:
            parser.error("--eval-every prints one run's numbers; use --curve with --runs")
        from .runs import train_runs   # runs.py builds on this module
        return train_runs(args)
    out = Output(sys.stdout, "stdout", "ttt-train")
    seed = draw_seed() if args.seed is None else args.seed
    try:
        target = resolve_output(args.output)
        nn, rng = start_network(args, seed)
        curve = open_curve(args.curve, target, "ttt-train", opponent(args.side))
    except (WeightsFileError, CurveError) as e:
        say("ttt-train", "error: %s" % e)
        return EXIT_FAILURE
    if args.seed is None:
        out.line("Seed: %d (repeat with --seed %d)" % (seed, seed))
    reporter = Reporter(out, args.games, args.eval_every, curve, args.side)
    try:
        elapsed = run_training(args, nn, rng, out, reporter)
    except KeyboardInterrupt as stop:
        # The weights file is only ever replaced whole, so an older file of
        # that name is intact.
        say("ttt-train", "interrupted; %s was not written" % args.output)
        return exit_status_of(stop)
    if not save_and_say(nn, target, "ttt-train", "Neural network saved to %s" % args.output,
                        out.line):
        return EXIT_FAILURE
    out.line("Training time: %s (%.1f s, %.0f games/s)" % (
        format_seconds(elapsed), elapsed, args.games / max(elapsed, 1e-9)))
    # The network as the file holds it (float32), so ttt-eval agrees.
    for line in reporter.summary(as_saved(nn)):
        out.line(line)
    return EXIT_FAILURE if out.failed or reporter.curve_failed else 0


if __name__ == "__main__":
    sys.exit(main())
