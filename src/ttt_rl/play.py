"""Play against a trained network: `ttt-play`.

Loads a weights file and plays: by default you are X and move first, the
network is O. Before each of its moves it shows its probability for every
cell, so you can see what it learned (and, with an untrained net, how often
it prefers occupied cells). With --learn it also learns from each finished
game, as antirez's ttt.c does, and saves what it learned when you stop.

Ports play_game and main of the C `play` program. From "Welcome" on, a
plain session prints what the C prints, line for line; only the handling
of bad input differs (see parse_move).
"""

import sys

from . import __version__
from .cli import (EXIT_FAILURE, ArgumentParser, command, exit_status_of, read_line,
                  save_and_say, say)
from .game import (BOARD_CELLS, EMPTY, O, TIE, X, check_game_over, display_board,
                   init_game, opponent)
from .nn import get_computer_move
from .train import DEFAULT_SETTINGS, learn_from_game
from .weights import WeightsFileError, load, resolve_output, to_float32

DEFAULT_WEIGHTS = "ttt_nn.bin"
QUIT_WORDS = ("q", "quit")


class Quit(Exception):
    """The player typed q or quit."""


def format_probabilities(probs, chosen):
    """Return the probability grid the C prints before the net's move.

    Takes 9 probabilities and the chosen cell. Each cell shows a percentage,
    '*' on the highest probability overall (even an occupied cell) and '#'
    on the chosen move, each followed by a space, as in the C.
    """
    highest = max(range(len(probs)), key=lambda cell: (probs[cell], -cell))
    text = ["Neural network move probabilities:\n"]
    for row in range(3):
        for cell in range(row * 3, row * 3 + 3):
            # Percentages are computed in float32 as in the C, so that the
            # rounding to one decimal agrees as often as possible.
            text.append("%5.1f%%" % to_float32(to_float32(probs[cell]) * 100))
            text.append(("*" if cell == highest else "")
                        + ("#" if cell == chosen else "") + " ")
        text.append("\n")
    text.append("Sum of all probabilities: %.2f\n\n" % sum(probs))
    return "".join(text)


def ask(prompt, stdin, out):
    """Print `prompt` and return the answer line, stripped.

    Raises EOFError at the end of input and Quit for q or quit. A line cut
    for being too long comes back as '' (and a message is printed).
    """
    out.write(prompt)
    out.flush()
    text, cut = read_line(stdin)
    if cut:
        out.write("That line is too long; it was ignored.\n")
        return ""
    if text.lower() in QUIT_WORDS:
        raise Quit
    return text


def parse_move(text, board):
    """Check a human's move. Returns (cell, None) or (None, error message).

    Takes the typed text and the board. The C reads one character, so "45"
    played two moves; we take a whole line and say what is wrong with it.
    """
    shown = text if len(text) <= 20 else text[:20] + "..."
    if not text:
        return None, "Please type a position from 0 to 8 (q quits)."
    if len(text.split()) > 1:
        return None, "Please type one position at a time, not %r." % shown
    if not (text.isascii() and text.isdigit()):
        return None, "%r is not a position: type a number from 0 to 8." % shown
    # Only now is int() safe: ASCII digits, and too many of them are off
    # the board anyway (int() refuses thousands of digits).
    cell = int(text) if len(text) <= 2 else BOARD_CELLS
    if cell >= BOARD_CELLS:
        return None, "%s is off the board: positions go from 0 to 8." % shown
    if board[cell] != EMPTY:
        return None, "Position %d is already taken." % cell
    return cell, None


def play_game(nn, stdin, out, nn_symbol=O):
    """Play one game, a human against the network (C: play_game).

    Takes the network, a binary (or text) input stream read a line at a
    time, an output text stream, and the network's side: O (the human moves
    first, as in the C) or X (the network moves first). Returns (winner,
    move_history): X, O or TIE, and the cells played. Raises EOFError if
    the input ends mid-game, Quit if the human types q.
    """
    human = opponent(nn_symbol)
    board = init_game()
    move_history = []
    out.write("Welcome to Tic Tac Toe! You are %s, the computer is %s.\n" % (human, nn_symbol))
    out.write("Enter positions as numbers from 0 to 8 (see picture).\n")
    turn = X   # X always moves first
    winner = None
    while winner is None:
        out.write(display_board(board))
        if turn == human:
            move, error = parse_move(ask("Your move (0-8): ", stdin, out), board)
            if error:
                # As in the C, a bad move shows the board again.
                out.write("Invalid move! %s Try again.\n" % error)
                continue
        else:
            out.write("Computer's move:\n")
            move = get_computer_move(nn, board)
            out.write(format_probabilities(nn.outputs, move))
            out.write("Computer placed %s at position %d\n" % (nn_symbol, move))
        board[move] = turn
        move_history.append(move)
        turn = opponent(turn)
        winner = check_game_over(board)
    out.write(display_board(board))
    if winner == TIE:
        out.write("It's a tie!\n")
    else:
        out.write("You win!\n" if winner == human else "Computer wins!\n")
    return winner, move_history


def play_session(nn, stdin, out, nn_symbol=O, settings=None):
    """Play games until the human says no, types q or the input ends.

    With `settings` (a train.Settings), the network learns from each
    finished game, as in ttt.c. Returns the number of games it learned from.
    """
    learned = 0
    try:
        while True:
            winner, move_history = play_game(nn, stdin, out, nn_symbol)
            if settings is not None:
                learn_from_game(nn, move_history, winner, nn_symbol, settings)
                learned += 1
                out.write("The network learned from this game.\n")
            # As in the C, only an answer starting with y or Y plays again;
            # an empty line (the C's scanf skips it too) asks once more.
            answer = ""
            while not answer:
                answer = ask("Play again? (y/n): ", stdin, out)
            if answer[0] not in "yY":
                return learned
    except EOFError:
        # End of input (Ctrl-D): the C loops forever here.
        out.write("\n")
    except Quit:
        pass
    return learned


EXAMPLES = """\
examples:
  ttt-play                        play X against ttt_nn.bin
  ttt-play net.bin --side X       the net plays X and moves first
  ttt-play net.bin --learn        the net learns from your games (saved on exit)

In the probability grid, * marks the cell the net likes best overall (even
an occupied one) and # the move it plays: its best empty cell.
Type q to quit.
"""


@command("ttt-play")
def main(argv=None):
    """Entry point of `ttt-play` (C: main of play.c); returns the exit status.

    `argv` is the argument list (default sys.argv[1:]).
    """
    parser = ArgumentParser(
        prog="ttt-play", epilog=EXAMPLES,
        description="Play tic-tac-toe against a trained network.")
    parser.add_argument("weights", nargs="?", default=DEFAULT_WEIGHTS, metavar="WEIGHTS",
                        help="weights file from ttt-train or the C train "
                             "(default %s)" % DEFAULT_WEIGHTS)
    parser.add_argument("--side", choices=(O, X), default=O,
                        help="the side the net plays (default O: you are X and "
                             "move first); the file does not record a side")
    parser.add_argument("--learn", action="store_true",
                        help="learn from each finished game, as ttt.c does, and "
                             "save the weights back when the session ends")
    parser.add_argument("--save", metavar="FILE",
                        help="with --learn, save to FILE instead of WEIGHTS")
    parser.add_argument("--version", action="version", version="%(prog)s " + __version__)
    args = parser.parse_args(argv)
    if args.save and not args.learn:
        parser.error("--save needs --learn")
    save_to = args.save or args.weights
    try:
        nn = load(args.weights)
        target = resolve_output(save_to) if args.learn else None
    except WeightsFileError as e:
        hint = "; train one first: ttt-train" if e.missing else ""
        say("ttt-play", "error: %s%s" % (e, hint))
        return EXIT_FAILURE
    return session(args, nn, save_to, target)


def session(args, nn, save_to, target):
    """Run ttt-play's games and, with --learn, save; returns the exit status."""
    human = opponent(args.side)
    print("Neural network loaded from %s" % args.weights)
    print("Ready to play! You are %s. Type q to quit." % human)
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    settings = DEFAULT_SETTINGS if args.learn else None
    try:
        learned = play_session(nn, stdin, sys.stdout, args.side, settings)
    except KeyboardInterrupt as stop:
        if not args.learn:
            raise   # nothing to clean up: @command says it
        say("ttt-play", "interrupted; %s was not updated" % save_to)
        return exit_status_of(stop)
    if not learned:
        return 0
    plural = "" if learned == 1 else "s"
    message = "Learned from %d game%s; saved to %s" % (learned, plural, save_to)
    return 0 if save_and_say(nn, target, "ttt-play", message) else EXIT_FAILURE


if __name__ == "__main__":
    sys.exit(main())
