"""`ttt-play`: a person against a trained network.

Ports play_game and main of the C `play` program: load the weights, then play until the person
says no. Before each move the net shows its probability for every cell. With --learn it learns
from each finished game, as ttt.c does, and saves when the session ends. From "Welcome" on, the
output is the C `play`'s, within the differences docs/c-port.md lists.
"""

import random
import signal
import sys
from collections import Counter
from functools import partial

from . import connect4
from . import game as tic_tac_toe
from .game import EMPTY, O, TIE, X, opponent, to_move
from .expert_iteration import policy_and_value, search_move
from .nn import best_move, get_computer_move
from .weights import FileError, rules_of, to_float32
from .lab.cli import (DEFAULT_WEIGHTS, EXIT_STOPPED, MONTE_CARLO, Q_LEARNING, RULES, command,
                      first_ctrl_c, number, parser_for, settings_from)
from .lab.files import load_weights, saving

LEGEND = "In the net's grid: * its favourite %s overall (even a %s one), # the move it plays."
# The words of each game: its name, what a move is, and how a refused one is told.
WORDS = {tic_tac_toe: ("Tic Tac Toe", "position", "cell", "taken",
                       "Position %d is already taken."),
         connect4: ("Connect Four", "column", "column", "full", "Column %d is full.")}


def format_probabilities(probs, chosen, title="Neural network move probabilities"):
    """Return the C's grid of 9 probabilities (floats summing to 1) in percent, rounded in
    float32 as the C does, under `title`, and their sum: '*' on the highest, even a taken
    cell, '#' on `chosen` (None: none). Connect four's 7, one per column, make one row."""
    highest, width = best_move(probs), 3 if len(probs) == 9 else len(probs)
    grid = title + ":\n"
    for cell in range(len(probs)):
        grid += "%5.1f%%" % to_float32(to_float32(probs[cell]) * 100)
        grid += ("*" if cell == highest else "") + ("#" if cell == chosen else "")
        grid += " \n" if cell % width == width - 1 else " "
    return grid + "Sum of all probabilities: %.2f\n\n" % sum(probs)


def ask(prompt):
    """Print `prompt`, return the line typed, stripped. Raises EOFError at the end of input
    (a closed standard input too: sys.stdin is None), and for q or quit."""
    print(prompt, end="", flush=True)   # no newline: flushed, to show it before waiting
    line = sys.stdin.readline() if sys.stdin else ""
    if not line or line.strip().lower() in ("q", "quit"):
        raise EOFError
    return line.strip()


def play_game(net, nn_symbol=O, search=0):
    """Play one game of the net's game, the person (standard input) against the net as
    `nn_symbol` (C: play_game); with `search` > 0, a connect-four net plays through its search,
    that many simulations a move. Returns (winner, move_history): X, O or TIE, and the moves
    (cells 0-8, or columns 0-6). Raises EOFError if the input ends or the person types q."""
    rules, rng = rules_of(net), random.Random(0)   # (the search's random games, if any)
    name, move_word, _, _, refused = WORDS[rules]
    last = rules.OUTPUT_SIZE - 1   # moves are 0 to last
    write, human, move_history = sys.stdout.write, opponent(nn_symbol), []
    board = rules.init_game()
    write("Welcome to %s! You are %s, the computer is %s.\n" % (name, human, nn_symbol))
    write("Enter %ss as numbers from 0 to %d (see picture).\n" % (move_word, last))
    winner = None
    while winner is None:
        write(rules.display_board(board))
        if to_move(board) == human:
            text = ask("Your move (0-%d): " % last)
            move = int(text) if text in [str(m) for m in range(last + 1)] else None
            # A legal move's cell (tic-tac-toe), or its column's top cell, is empty.
            if move is None or board[move] != EMPTY:
                # As in the C, a bad move shows the board again.
                write("Invalid move! %s Try again.\n" % (
                    "Type a %s from 0 to %d (q quits)." % (move_word, last) if move is None
                    else refused % move))
                continue
        else:
            write("Computer's move:\n")
            move, value = get_computer_move(net, board, rules), net.value
            write(format_probabilities(net.outputs, None if search else move))
            if value is not None:   # expert iteration's net: its value head
                write("The net's value of this position for %s: %+.2f (-1 a loss, +1 a win)\n"
                      % (nn_symbol, value))
            if search:
                move, visits, _ = search_move(partial(policy_and_value, net), board, search, rng)
                write(format_probabilities([v / search for v in visits], move, "The search's "
                                           "visit shares, %d simulations" % search)
                      .replace("Sum of all probabilities", "Sum of all shares") if visits
                      else "A column wins at once: played without a search.\n")
            write("Computer placed %s at %s %d\n" % (nn_symbol, move_word, move))
        rules.play_move(board, move, to_move(board))
        move_history.append(move)
        winner = rules.check_game_over(board)
    write(rules.display_board(board))
    write("It's a tie!\n" if winner == TIE else
          "You win!\n" if winner == human else "Computer wins!\n")
    return winner, move_history


def play_session(net, nn_symbol=O, learn=None, search=0):
    """Play games (play_game's) until the person says no, types q, the input ends or Ctrl-C
    (the C's main loop), with learn(net, move_history, winner, nn_symbol) after each, as ttt.c;
    then print the score. Returns (games played, True if Ctrl-C ended the session). At the
    prompt, Ctrl-C ends the session at once, whatever handler the caller set (set back after)."""
    score, interrupted = Counter(), False
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        while True:
            winner, move_history = play_game(net, nn_symbol, search)
            score[winner] += 1
            if learn is not None:
                learn(net, move_history, winner, nn_symbol)
                print("The network learned from this game.")
            # As in the C, only an answer starting with y or Y plays again.
            answer = ""
            while not answer:   # an empty line asks again
                answer = ask("Play again? (y/n): ")
            if answer[0] not in "yY":
                break
    except EOFError:
        pass
    except KeyboardInterrupt:
        interrupted = True
    finally:
        signal.signal(signal.SIGINT, previous)
    print("\nScore: you %d, the net %d, ties %d." % (score[opponent(nn_symbol)],
                                                     score[nn_symbol], score[TIE]))
    return sum(score.values()), interrupted


@command("ttt-play")
def main(argv=None):
    """ttt-play on `argv` (default sys.argv[1:]; C: main of play.c). Returns the exit status: 0,
    1 for a file that cannot be read or written, 130 after Ctrl-C."""
    parser = parser_for("ttt-play", "Play tic-tac-toe (or connect four, as the file tells) "
                        "against a trained network.", None)
    add = parser.add_argument
    add("weights", nargs="?", default=DEFAULT_WEIGHTS, metavar="WEIGHTS",
        help="weights file from ttt-train or the C train (default %s)" % DEFAULT_WEIGHTS)
    add("--side", choices=(O, X), default=O,
        help="the side the net plays (default O; X moves first)")
    add("--learn", action="store_true", help="learn from each finished game, as ttt.c does, "
        "and save the weights when the session ends")
    add("--save", metavar="FILE", help="with --learn: save to FILE, not WEIGHTS")
    add("--search", type=number(int, 0, 10000), default=0, metavar="N", help="connect four: "
        "the net plays through its search, N simulations a move (default 0: the net alone)")
    add("--method", choices=(MONTE_CARLO, Q_LEARNING), default=MONTE_CARLO, help="with --learn: "
        "the rule (default monte-carlo, the C's; a file does not say which rule made it: a "
        "Q-learning net needs q-learning)")
    args = parser.parse_intermixed_args(argv)
    if not args.learn and (args.save or args.method != MONTE_CARLO):
        parser.error("--save and --method are for --learn")
    net = load_weights(args.weights)   # C: load_neural_network
    if args.learn and rules_of(net) is connect4:
        raise FileError("%s is a connect-four net: --learn is for tic-tac-toe" % args.weights)
    if args.search and rules_of(net) is not connect4:
        parser.error("--search is for connect four: %s is a tic-tac-toe net" % args.weights)
    # With --learn, the output tried before the first game; Ctrl-C caught until it is saved.
    with saving((args.save or args.weights) if args.learn else None) as save, \
            first_ctrl_c() as stopped:
        print("Neural network loaded from %s" % args.weights)
        print("Ready to play! Type q to quit.")
        print(LEGEND % WORDS[rules_of(net)][2:4] + " With --search: the search's grid under "
              "it, with the #." * bool(args.search))
        if args.learn:
            print("Learning by the %s rule: the file does not say which rule trained it; a "
                  "net trained by another rule needs --method." % args.method)
        learn = partial(RULES[args.method][2], settings=settings_from(args))
        games, interrupted = play_session(net, args.side, learn if args.learn else None,
                                          args.search)
        if args.learn and games:
            print("Learned from %d game%s; saved to %s%s" % (
                games, "s" * (games > 1), args.save or args.weights, save(net)))
    return EXIT_STOPPED if interrupted or stopped() else 0


if __name__ == "__main__":
    sys.exit(main())
