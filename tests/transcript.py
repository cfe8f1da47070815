"""Compare a ttt-play transcript with the C play's."""

import re

from ttt_rl.game import EMPTY, O, X, check_game_over
from ttt_rl.nn import get_computer_move

GAMES_PER_SESSION = 8

# One row of the probability grid: three "%5.1f%%" cells with markers.
PROB_ROW = re.compile(r"^(?:( *\d+\.\d)%([*#]*) ){3}$")
CELL = re.compile(r" *(\d+\.\d)%([*#]*) ")


def transcript_differences(actual, expected, tolerance=0.1):
    """Return a list of differing lines, [] when the transcripts agree.

    Lines must be identical, except that a percentage in the probability
    grid may differ by `tolerance` in its last digit: the C computes in
    float32, we in float64. Markers and layout must still be identical.
    """
    a_lines, e_lines = actual.split("\n"), expected.split("\n")
    if len(a_lines) != len(e_lines):
        return ["%d lines instead of %d" % (len(a_lines), len(e_lines))]
    problems = []
    for number, (a, e) in enumerate(zip(a_lines, e_lines), 1):
        if a == e:
            continue
        if PROB_ROW.match(a) and PROB_ROW.match(e) and len(a) == len(e):
            a_cells, e_cells = CELL.findall(a), CELL.findall(e)
            if all(am == em and abs(float(ap) - float(ep)) <= tolerance + 1e-9
                   for (ap, am), (ep, em) in zip(a_cells, e_cells)):
                continue
        problems.append("line %d: %r != %r" % (number, a, e))
    return problems


def scripted_session(nn, rng):
    """Return the input of a ttt-play session: random legal X moves.

    GAMES_PER_SESSION games against `nn` (whose replies are predicted, so
    every move is legal), "y" between games and "n" at the end.
    """
    lines = []
    for game in range(GAMES_PER_SESSION):
        board = [EMPTY] * 9
        human = True
        while check_game_over(board) is None:
            if human:
                move = rng.choice([c for c in range(9) if board[c] == EMPTY])
                board[move] = X
                lines.append(str(move))
            else:
                board[get_computer_move(nn, board)] = O
            human = not human
        lines.append("y" if game < GAMES_PER_SESSION - 1 else "n")
    return "".join(line + "\n" for line in lines)
