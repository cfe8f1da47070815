"""Play X against a trained network: `ttt-play`.

Loads a weights file and plays: you are X and move first, the network is O.
It shows its probability for every cell before each move, so you can see
what it learned (and, with an untrained net, how often it prefers occupied
cells). The network does not learn from these games.

Ports play_game and main of the C `play` program. The output is the C's,
line for line; only the handling of bad input differs (see read_move).
"""

import sys

from . import ArgumentParser, __version__, command
from .game import BOARD_CELLS, EMPTY, O, X, check_game_over, display_board
from .nn import WeightsFileError, get_computer_move, load, to_float32

DEFAULT_WEIGHTS = "ttt_nn.bin"
RESULT_TEXT = {X: "You win!", O: "Computer wins!"}
TIE_TEXT = "It's a tie!"


def format_probabilities(probs, chosen):
    """Return the probability grid the C prints before the net's move.

    Takes 9 probabilities and the chosen cell. Each cell shows a percentage,
    '*' on the highest probability overall (even an occupied cell) and '#'
    on the chosen move, each followed by a space, as in the C.
    """
    highest = -1
    for cell, p in enumerate(probs):
        if highest == -1 or p > probs[highest]:
            highest = cell
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


def read_line(prompt, stdin, out):
    """Print `prompt`, read one line; return it stripped.

    Raises EOFError at end of input. The C reads single characters with
    scanf, so "45" played two moves; we read whole lines.
    """
    out.write(prompt)
    out.flush()
    line = stdin.readline()
    if not line:
        raise EOFError
    return line.strip()


def parse_move(text, board):
    """Check a human's move. Returns (cell, None) or (None, error message)."""
    tokens = text.split()
    if not tokens:
        return None, "Please type a position from 0 to 8."
    if len(tokens) > 1:
        return None, "Please type one position at a time, not %r." % text
    if not (text.isdigit() and text.isascii()):
        return None, "%r is not a position: type a number from 0 to 8." % text
    cell = int(text)
    if cell >= BOARD_CELLS:
        return None, "%d is off the board: positions go from 0 to 8." % cell
    if board[cell] != EMPTY:
        return None, "Position %d is already taken." % cell
    return cell, None


def play_game(nn, stdin=None, out=None):
    """Play one game, human X against the network O (C: play_game).

    Reads moves from `stdin` a line at a time and writes to `out` (default:
    the real stdin and stdout). Returns the winner (X, O or TIE). Raises
    EOFError if the input ends mid-game.
    """
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    board = [EMPTY] * BOARD_CELLS
    out.write("Welcome to Tic Tac Toe! You are X, the computer is O.\n")
    out.write("Enter positions as numbers from 0 to 8 (see picture).\n")
    human_turn = True
    winner = check_game_over(board)
    while winner is None:
        out.write(display_board(board))
        if human_turn:
            move, error = parse_move(read_line("Your move (0-8): ", stdin, out),
                                     board)
            if error:
                # As in the C, a bad move shows the board again.
                out.write("Invalid move! %s Try again.\n" % error)
                continue
            board[move] = X
        else:
            out.write("Computer's move:\n")
            move = get_computer_move(nn, board)
            out.write(format_probabilities(nn.outputs, move))
            board[move] = O
            out.write("Computer placed O at position %d\n" % move)
        human_turn = not human_turn
        winner = check_game_over(board)
    out.write(display_board(board))
    out.write(RESULT_TEXT.get(winner, TIE_TEXT) + "\n")
    return winner


@command
def main(argv=None):
    """Entry point of `ttt-play` (C: main of play.c); returns the exit status.

    `argv` is the argument list (default sys.argv[1:]).
    """
    parser = ArgumentParser(
        prog="ttt-play",
        description="Play tic-tac-toe as X against a trained network.")
    parser.add_argument("weights", nargs="?", default=DEFAULT_WEIGHTS,
                        metavar="WEIGHTS",
                        help="weights file from ttt-train or the C train "
                             "(default %s)" % DEFAULT_WEIGHTS)
    parser.add_argument("--version", action="version",
                        version="%(prog)s " + __version__)
    args = parser.parse_args(argv)
    try:
        nn = load(args.weights)
    except WeightsFileError as e:
        parser.exit(1, "ttt-play: error: %s\n" % e)
    print("Neural network loaded from %s" % args.weights)
    print("Ready to play! You are X, the computer is O.")
    try:
        while True:
            play_game(nn)
            # As in the C, only an answer starting with y or Y plays again;
            # an empty line (the C's scanf skips it too) asks once more.
            answer = ""
            while not answer:
                answer = read_line("Play again? (y/n): ", sys.stdin, sys.stdout)
            if answer[0] not in "yY":
                return 0
    except EOFError:
        # End of input (Ctrl-D): the C loops forever here. Ctrl-C is handled
        # by @command, for every command alike.
        print()
        return 0


if __name__ == "__main__":
    sys.exit(main())
