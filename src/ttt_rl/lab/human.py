"""A person at the keyboard: the C's probability grid, prompts, moves typed in any form, colour.

The C reads one character with scanf: `45` played two moves and the end of input looped forever."""

import os

from ..game import BOARD_CELLS, EMPTY
from ..nn import best_move
from .text import to_float32

MAX_LINE_BYTES = 1024     # longer input lines are cut, the rest thrown away
MAX_SKIP_BYTES = 1 << 20  # a longer "line" (no newline) ends the input: /dev/zero is nobody typing
COLOUR_STEPS = ((0.5, "1;32"), (0.1, "33"), (0.01, "0"), (0.0, "2"))
LEGEND = "In the net's grid: * its favourite cell overall (even a taken one), # the move it plays."


def format_probabilities(probs, chosen, colour=False):
    """Return the C's grid of 9 probabilities in percent, '*' on the highest, '#' on `chosen`, as
    in the C; `colour` paints it as a heat map."""
    highest = best_move(probs)   # the favourite of all 9 cells, taken or not
    grid = "Neural network move probabilities:\n"
    for cell in range(BOARD_CELLS):
        pct = "%5.1f%%" % to_float32(to_float32(probs[cell]) * 100)   # as the C, in float32
        grid += (paint(pct, probs[cell]) if colour else pct) + ("*" if cell == highest else "")
        grid += ("#" if cell == chosen else "") + (" \n" if cell % 3 == 2 else " ")
    return grid + "Sum of all probabilities: %.2f\n\n" % sum(probs)


class Quit(Exception):
    """The player typed q or quit."""


def ask(prompt, stdin, out):
    """Write `prompt` to `out`; return the line read, stripped ('' if cut). Raises EOFError at the
    end of input, Quit for q or quit."""
    out.write(prompt)
    text, cut = read_line(stdin)
    if cut:
        out.write("That line is too long; it was ignored.\n")
        return ""
    if text.lower() in ("q", "quit"):
        raise Quit
    return text


def parse_move(text, board):
    """Check the typed `text` as a move on `board`; return (cell, None) or (None, what is wrong)."""
    shown = text if len(text) <= 20 else text[:20] + "..."
    if not text:
        return None, "Please type a position from 0 to 8 (q quits)."
    if len(text.split()) > 1:
        return None, "Please type one position at a time, not %r." % shown
    if not (text.isascii() and text.isdigit()):
        return None, "%r is not a position: type a number from 0 to 8." % shown
    if len(text) > 2 or int(text) >= BOARD_CELLS:   # int() would refuse thousands of digits
        return None, "%s is off the board: positions go from 0 to 8." % shown
    cell = int(text)
    if board[cell] != EMPTY:
        return None, "Position %d is already taken." % cell
    return cell, None


def colour_wanted(stream):
    """True if `stream` is a terminal that may show colour: no NO_COLOR, no TERM=dumb."""
    try:
        return stream.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):   # not a stream, or a closed one
        return False


def paint(text, probability):
    """Return `text` in the ANSI colour of `probability` (0-1): faint (ignored) to bold green."""
    return "\033[%sm%s\033[0m" % (next(c for low, c in COLOUR_STEPS if probability >= low), text)


def read_line(stdin):
    """Read a line of any bytes from `stdin` (binary or text); return (text, cut past
    MAX_LINE_BYTES). EOFError at the end of input, past MAX_SKIP_BYTES, or if reading fails."""
    try:   # a terminal gone under nohup, a reset connection: the end of input
        line = stdin.readline(MAX_LINE_BYTES + 1)
        if not line:
            raise EOFError
        cut, skipped = len(line) > MAX_LINE_BYTES, 0
        while line[-1:] not in ("\n", b"\n") and (rest := stdin.readline(65536)):
            skipped += len(rest)
            if skipped > MAX_SKIP_BYTES:
                raise EOFError
            cut, line = True, line[:MAX_LINE_BYTES] + rest[-1:]   # the rest of the line is skipped
    except (OSError, ValueError):
        raise EOFError from None
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    return text.replace("\ufeff", "").strip(), cut   # without a byte-order mark
