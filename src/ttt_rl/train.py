"""Train the network by playing O against a random X: `ttt-train`.

Reinforcement learning in its simplest form: play a whole game (an episode),
look at the result (the reward), then nudge the network towards the moves of
games it won or tied and away from the moves of games it lost. No knowledge
of tic-tac-toe goes in beyond the rules in game.py.

Ports learn_from_game, play_random_game, train_against_random and main of the
C `train` program.
"""

import random
import sys
import time

from . import EXIT_INTERRUPTED, ArgumentParser, __version__, command
from .evaluate import evaluate_network, format_outcomes, summary_lines
from .game import (BOARD_CELLS, EMPTY, O, TIE, X, get_random_move, init_game,
                   input_index, is_winning_move)
from .nn import (INPUT_SIZE, LEARNING_RATE, WeightsFileError, add_input,
                 backprop, best_legal_move, forward_pass, init_neural_network,
                 load, output_problem, save, to_float32)

REWARD_WIN = 1.0    # the network (O) made a line
REWARD_TIE = 0.3    # a tie is worth something against a random player
REWARD_LOSS = -2.0  # losing hurts more than winning pleases
REPORT_INTERVAL = 10000  # games between two progress lines
DEFAULT_GAMES = 150000
DEFAULT_OUTPUT = "ttt_nn.bin"


def learn_from_game(nn, move_history, winner, first_pass=None):
    """Update the network from one finished game (C: learn_from_game).

    Takes the network, the game's moves (cells 0-8, X's first, so O's moves
    are at the odd indices) and the winner (X, O or TIE). Each of O's moves
    becomes one supervised example: the board before it, and a target that
    says "more of this move" after a win or tie, "any other move" after a
    loss. `first_pass` optionally holds the activations saved from the
    play-time forward pass of O's first move (see play_random_game).
    """
    if winner == O:
        reward = REWARD_WIN
    elif winner == TIE:
        reward = REWARD_TIE
    else:
        reward = REWARD_LOSS
    num_moves = len(move_history)
    # Replay the game, keeping the board and the inputs before each move.
    board = init_game()
    inputs = [0.0] * INPUT_SIZE
    for move_idx, move in enumerate(move_history):
        symbol = X if move_idx % 2 == 0 else O
        if symbol == O:
            if move_idx == 1 and first_pass is not None:
                # Exact shortcut: no weight has changed since O played its
                # first move, so that play-time forward pass is still right.
                nn.set_activations(first_pass)
            else:
                forward_pass(nn, inputs)
            # Later moves count more: near the end of the game fewer moves
            # are left and each decides more. Without this, learning suffers.
            #
            # LEARNING OPPORTUNITY: this is not temporal-difference learning
            # (Sutton and Barto's TD, Turing Award 2024), which would learn
            # from the change in predicted value between moves. Here every
            # move waits for the final result: a Monte Carlo method.
            move_importance = 0.5 + 0.5 * move_idx / num_moves
            scaled_reward = reward * move_importance
            target = [0.0] * BOARD_CELLS
            if scaled_reward >= 0:
                # Good outcome: all probability on the move that was played.
                target[move] = 1.0
            else:
                # Bad outcome: spread it over the other moves that were legal.
                # 9 - move_idx cells were empty, one of them is the move.
                other = 1.0 / (BOARD_CELLS - move_idx - 1)
                for cell in range(BOARD_CELLS):
                    if board[cell] == EMPTY and cell != move:
                        target[cell] = other
            backprop(nn, target, LEARNING_RATE, scaled_reward)
        board[move] = symbol
        inputs[input_index(move, symbol)] = 1.0


def play_random_game(nn, rng):
    """Play one game, random X against the network's O, then learn from it.

    Takes the network and a random.Random (used only for X's moves). Returns
    (winner, move_history): X, O or TIE, and the list of cells played.
    C: play_random_game.
    """
    board = init_game()
    move_history = []
    inputs = [0.0] * INPUT_SIZE
    # The hidden pre-activations of the current board. The empty board has
    # no inputs on, so they start as the hidden biases; each move then adds
    # the one weight row of the input it turns on (see nn.hidden_sums).
    sums = nn.b_h
    first_pass = None
    winner = TIE
    for move_idx in range(BOARD_CELLS):
        if move_idx % 2 == 0:
            symbol = X
            move = get_random_move(board, rng)
        else:
            symbol = O
            forward_pass(nn, inputs, sums)
            move = best_legal_move(board, nn.outputs)
            if first_pass is None:
                first_pass = nn.activations()
        board[move] = symbol
        move_history.append(move)
        if is_winning_move(board, move):
            winner = symbol
            break
        j = input_index(move, symbol)
        inputs[j] = 1.0
        sums = add_input(nn, sums, j)
    learn_from_game(nn, move_history, winner, first_pass)
    return winner, move_history


def train_against_random(nn, num_games, rng, on_report=None,
                         report_every=REPORT_INTERVAL, on_eval=None,
                         eval_every=0):
    """Train for `num_games` episodes (C: train_against_random).

    Calls on_report(games_done, wins, losses, ties) every `report_every`
    games, with the counts over those last games (wins are O's), and
    on_eval(games_done) every `eval_every` games (before the report when
    both fall on the same game). Returns nothing; trains `nn` in place.
    """
    counts = {O: 0, X: 0, TIE: 0}
    for game in range(1, num_games + 1):
        winner, _ = play_random_game(nn, rng)
        counts[winner] += 1
        if eval_every and game % eval_every == 0 and on_eval is not None:
            on_eval(game)
        if game % report_every == 0:
            if on_report is not None:
                on_report(game, counts[O], counts[X], counts[TIE])
            counts = {O: 0, X: 0, TIE: 0}


def games_count(text):
    """argparse type for GAMES: a non-negative integer, digits only.

    Returns the int; raises ValueError otherwise. The C uses atoi, which
    reads "abc" as 0 and "1.5" as 1; we refuse both.
    """
    if not text.isdigit() or not text.isascii():
        raise ValueError("not a non-negative integer")
    return int(text)


games_count.__name__ = "non-negative integer"  # argparse shows this name


def percent(count):
    """Return count as a percentage of REPORT_INTERVAL, in float32 as in C.

    0.15 is 0.150000006 in float32 but 0.1499... in float64: without the
    rounding, 400 of the 10001 possible counts would print other digits.
    """
    return to_float32(count * 100 / REPORT_INTERVAL)


def format_seconds(seconds):
    """Return `seconds` (a float) as '42s', '3m05s' or '1h02m' (no C counterpart)."""
    seconds = int(round(seconds))
    if seconds < 60:
        return "%ds" % seconds
    if seconds < 3600:
        return "%dm%02ds" % divmod(seconds, 60)
    return "%dh%02dm" % (seconds // 3600, seconds % 3600 // 60)


@command
def main(argv=None):
    """Entry point of `ttt-train` (C: main of train.c); returns the exit status.

    `argv` is the argument list (default sys.argv[1:]).
    """
    parser = ArgumentParser(
        prog="ttt-train",
        description="Train the tic-tac-toe network by playing O against a "
                    "random X, then save its weights.")
    parser.add_argument("games", nargs="?", type=games_count,
                        default=DEFAULT_GAMES, metavar="GAMES",
                        help="number of training games (default %d)" % DEFAULT_GAMES)
    parser.add_argument("output", nargs="?", default=DEFAULT_OUTPUT,
                        metavar="OUTPUT",
                        help="weights file to write (default %s)" % DEFAULT_OUTPUT)
    parser.add_argument("--seed", type=int,
                        help="random seed: the same seed gives the same file "
                             "(default: a different run each time)")
    parser.add_argument("--eval-every", type=games_count, default=0, metavar="N",
                        help="every N games, print the exact strength "
                             "(see ttt-eval)")
    parser.add_argument("--curve", metavar="FILE.csv",
                        help="write one CSV row per progress report")
    parser.add_argument("--version", action="version",
                        version="%(prog)s " + __version__)
    args = parser.parse_args(argv)
    for path in [args.output] + ([args.curve] if args.curve else []):
        problem = output_problem(path)
        if problem:
            parser.exit(1, "ttt-train: error: cannot write %s: %s\n"
                        % (path, problem))
    return _train(args)


def _train(args):
    """Train, save and evaluate as main() asked; returns the exit status."""
    # The C seeds rand() with time(NULL): two runs in the same second are
    # identical. Python's Random() without a seed draws from the OS instead.
    rng = random.Random(args.seed)
    nn = init_neural_network(rng)
    curve = open(args.curve, "w") if args.curve else None
    if curve:
        curve.write("games,wins,losses,ties,"
                    "exact_win,exact_draw,exact_loss,lines_lost\n")
    exact_at = {}  # evaluations waiting for the report of the same game

    def write_curve(games, counts, exact):
        # One row per report. An evaluation between two reports gets a row
        # of its own, with the sampled columns empty; a report without an
        # evaluation leaves the exact columns empty.
        sampled = "%d,%d,%d" % counts if counts else ",,"
        computed = ",,,"
        if exact:
            computed = "%.6f,%.6f,%.6f,%d" % (exact["win"], exact["draw"],
                                              exact["loss"], exact["lines_lost"])
        curve.write("%d,%s,%s\n" % (games, sampled, computed))
        curve.flush()

    def on_eval(games):
        exact = evaluate_network(nn)
        print("Exact at %d games: %s, lines lost %d of %d"
              % (games, format_outcomes(exact), exact["lines_lost"], exact["lines"]),
              flush=True)
        if games % REPORT_INTERVAL == 0:
            exact_at[games] = exact
        elif curve:
            write_curve(games, None, exact)

    def on_report(games, wins, losses, ties):
        elapsed = time.perf_counter() - start
        rate = games / elapsed
        # The C line, then the timing that a slower language makes welcome.
        print("Games: %d, Wins: %d (%.1f%%), Losses: %d (%.1f%%), "
              "Ties: %d (%.1f%%) [%s, %.0f games/s, ETA %s]"
              % (games, wins, percent(wins), losses, percent(losses),
                 ties, percent(ties), format_seconds(elapsed), rate,
                 format_seconds((args.games - games) / rate)), flush=True)
        if curve:
            write_curve(games, (wins, losses, ties), exact_at.pop(games, None))

    print("Training neural network with %d games" % args.games)
    print("Training neural network against %d random games..." % args.games)
    start = time.perf_counter()
    try:
        train_against_random(nn, args.games, rng, on_report, REPORT_INTERVAL,
                             on_eval, args.eval_every)
        elapsed = time.perf_counter() - start
        print("\nTraining complete!")
        save(nn, args.output)
    except KeyboardInterrupt:
        # No traceback for Ctrl-C. The weights file is only ever replaced
        # whole (nn.save), so an earlier file of that name is intact. A
        # Ctrl-C after the save is @command's, like any other.
        sys.stderr.write("\nttt-train: interrupted; %s was not written\n"
                         % args.output)
        return EXIT_INTERRUPTED
    except WeightsFileError as e:
        print("ttt-train: error: %s" % e, file=sys.stderr)
        return 1
    finally:
        if curve:
            curve.close()
    print("Neural network saved to %s" % args.output)
    print("Training time: %s (%.1f s, %.0f games/s)"
          % (format_seconds(elapsed), elapsed, args.games / max(elapsed, 1e-9)))
    # Evaluate the file as saved (float32), so the numbers match ttt-eval.
    for line in summary_lines(evaluate_network(load(args.output))):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
