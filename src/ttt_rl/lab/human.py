"""A person at the keyboard: the net's probability grid, prompts, moves
typed in any form, colour.

format_probabilities is the C's display in get_computer_move, which the C
calls a debugging aid; it is also the best window on what the net thinks.
The rest has no C counterpart: the C reads one character with scanf, so
`45` played two moves and the end of input looped forever; here a whole
line is read and a bad one is explained.
"""

import os

from ..game import BOARD_CELLS, EMPTY
from ..nn import best_move
from .text import to_float32

QUIT_WORDS = ("q", "quit")
MAX_LINE_BYTES = 1024   # longer input lines are cut, the rest thrown away
MAX_SKIP_BYTES = 1 << 20  # a "line" longer than this (no newline) ends the input
# Colours of a probability on a terminal (ANSI SGR codes): faint for the
# cells the net ignores, yellow for some interest, bold green for its choice.
COLOUR_STEPS = ((0.5, "1;32"), (0.1, "33"), (0.01, "0"), (0.0, "2"))


LEGEND = "In the net's grid: * its favourite cell overall (even a taken one), # the move it plays."


def format_probabilities(probs, chosen, colour=False):
    """Return the probability grid the C prints before the net's move.

    Takes 9 probabilities and the chosen cell. Each cell shows a percentage,
    '*' on the highest probability overall (even an occupied cell) and '#'
    on the chosen move, each followed by a space, as in the C. With
    `colour`, each percentage is painted by its size (a heat map).
    """
    highest = best_move(probs)   # the favourite of all 9 cells, taken or not
    text = ["Neural network move probabilities:\n"]
    for row in range(3):
        for cell in range(row * 3, row * 3 + 3):
            # In float32, as the C computes it, so that the rounding to one
            # decimal agrees as often as possible.
            number = "%5.1f%%" % to_float32(to_float32(probs[cell]) * 100)
            text.append(paint(number, probs[cell]) if colour else number)
            text.append(("*" if cell == highest else "")
                        + ("#" if cell == chosen else "") + " ")
        text.append("\n")
    text.append("Sum of all probabilities: %.2f\n\n" % sum(probs))
    return "".join(text)


class Quit(Exception):
    """The player typed q or quit."""


def ask(prompt, stdin, out):
    """Print `prompt` and return the answer line, stripped.

    Raises EOFError at the end of input and Quit for q or quit. A line cut
    for being too long comes back as '' (and a message is printed).
    """
    out.write(prompt)
    text, cut = read_line(stdin)
    if cut:
        out.write("That line is too long; it was ignored.\n")
        return ""
    if text.lower() in QUIT_WORDS:
        raise Quit
    return text


def parse_move(text, board):
    """Check a human's move. Returns (cell, None) or (None, error message).

    Takes the typed text and the board; says what is wrong with a bad move.
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


def colour_wanted(stream):
    """True if `stream` is a terminal that may show colour (no NO_COLOR,
    no TERM=dumb): the grid is then a heat map; elsewhere it is plain."""
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        return False
    return tty and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def paint(text, probability):
    """Return `text` coloured for `probability` (0-1) with ANSI codes."""
    code = next(code for floor, code in COLOUR_STEPS if probability >= floor)
    return "\033[%sm%s\033[0m" % (code, text)


def read_line(stdin):
    """Read one line of input; return (text, cut).

    `stdin` is a binary stream (text streams work too). Any bytes are
    accepted: invalid UTF-8 becomes U+FFFD, a byte-order mark and the
    surrounding white space are dropped. A line longer than MAX_LINE_BYTES
    is cut there and the rest of it skipped; then `cut` is True. Raises
    EOFError at the end of input, after MAX_SKIP_BYTES without a newline
    (an endless stream such as /dev/zero is not a person typing), and when
    reading fails (a terminal gone under nohup, a reset connection).
    """
    line = _read(stdin, MAX_LINE_BYTES + 1)
    if not line:
        raise EOFError
    cut, skipped = len(line) > MAX_LINE_BYTES, 0
    while line[-1:] not in ("\n", b"\n"):
        rest = _read(stdin, 65536)
        if not rest:
            break
        skipped += len(rest)
        if skipped > MAX_SKIP_BYTES:
            raise EOFError
        cut, line = True, line[:MAX_LINE_BYTES] + rest[-1:]
    if isinstance(line, bytes):
        line = line.decode("utf-8", "replace")
    return line.replace("\ufeff", "").strip(), cut


def _read(stdin, size):
    """Return stdin.readline(size); a read that fails is an end of input."""
    try:
        return stdin.readline(size)
    except (OSError, ValueError):
        raise EOFError from None
