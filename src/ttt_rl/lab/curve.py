"""The learning curve of `ttt-train --curve FILE`: what the net knows at
game 0 and at round numbers after it, spaced evenly on a log scale.

Each point (a row) holds the games trained, the sampled wins, losses and
ties since the previous point, the exact strength (evaluate.py), and the
net's move probabilities on a few telling positions. FILE.csv gets the
rows, FILE.svg a chart with heat maps (svg.py), both written at the end.
No C counterpart.
"""

from ..game import O, TIE, X, board_to_inputs, opponent
from ..nn import forward_pass
from .exact import correct_moves, evaluate_network
from .scale import one_two_five

# Positions that show whether the net has understood the game, for each
# side it can play: (label, position with the net to move).
TELLING_POSITIONS = {
    O: (("X took the centre", "....X...."),
        ("X took a corner", "X........"),
        ("O must block", "XX..O....")),
    X: (("X moves first", "........."),
        ("X must block", "XO..O...X"),
        ("X can win", "XX.OO....")),
}
COLUMNS = ("games", "wins", "losses", "ties",
           "exact_win", "exact_draw", "exact_loss", "lines_lost")


def curve_points(num_games):
    """Return the games after which the curve measures the net: 0, then
    1, 2, 5, 10, 20, 50, ... below num_games, then num_games (a sorted
    list of ints; about 3 points per factor of 10)."""
    inside = [n for n in one_two_five(num_games) if n < num_games]
    return [0] + inside + [num_games] if num_games else [0]


def outcome_counts(counts, side):
    """Return (wins, losses, ties) of the net playing `side`, from
    `counts` (a dict: X, O and TIE -> games each won)."""
    return counts[side], counts[opponent(side)], counts[TIE]


class CurveRecorder:
    """Records a run's learning curve: begin(net) before the first game,
    add(net, games, counts) after every game, finish(net) at the end; the
    rows (measure's dicts) are in self.rows."""

    def __init__(self, num_games, side):
        self.points, self.side = set(curve_points(num_games)), side
        self.rows, self.games = [], 0
        self.since_point = {X: 0, O: 0, TIE: 0}   # results since the last row

    def begin(self, net):
        """Measure the untrained net: the point at 0 games."""
        self.rows.append(measure(net, 0, None, self.side))

    def add(self, net, games, counts):
        """Count the results `counts` of the latest games; measure the net
        if `games` is one of the curve's points."""
        self.games = games
        for result, n in counts.items():
            self.since_point[result] += n
        if games in self.points:
            self.rows.append(measure(net, games, outcome_counts(self.since_point, self.side),
                                     self.side))
            self.since_point = {X: 0, O: 0, TIE: 0}

    def finish(self, net):
        """Measure the last point of a run that stopped early."""
        if self.rows[-1]["games"] != self.games:
            sampled = outcome_counts(self.since_point, self.side)
            self.rows.append(measure(net, self.games, sampled, self.side))


def telling_probabilities(net, side):
    """Return the net's 9 move probabilities on each telling position of
    `side`, as a list in TELLING_POSITIONS order."""
    probs = []
    for _, position in TELLING_POSITIONS[side]:
        forward_pass(net, board_to_inputs(list(position)))
        probs.append(list(net.outputs))
    return probs


def measure(net, games, sampled, side):
    """Return a curve row for `net` after `games` games: a dict with games,
    sampled ((wins, losses, ties) since the last row, or None), exact (the
    evaluation dict) and probs (telling_probabilities)."""
    return {"games": games, "sampled": sampled, "exact": evaluate_network(net, side),
            "probs": telling_probabilities(net, side)}


def column_names(side):
    """Return the CSV header fields: COLUMNS, then for each telling
    position the net's probability on its correct moves."""
    return COLUMNS + tuple("p_correct_" + label.lower().replace(" ", "_")
                           for label, _ in TELLING_POSITIONS[side])


def correct_mass(row, side):
    """Return, for each telling position, the probability the net gives to
    the position's correct (minimax) moves, as a list of floats."""
    masses = []
    for (_, position), probs in zip(TELLING_POSITIONS[side], row["probs"]):
        masses.append(sum(probs[c] for c in correct_moves(position)))
    return masses


def format_row(row, side, seed=None):
    """Return one CSV line (with its newline) for a row; a `seed` column
    comes first when given (the rows of --runs)."""
    cells = [] if seed is None else [str(seed)]
    cells.append(str(row["games"]))
    sampled = row.get("sampled")
    cells += ["%d" % n for n in sampled] if sampled else ["", "", ""]
    exact = row["exact"]
    cells += ["%.6f" % exact[k] for k in ("win", "draw", "loss")]
    cells.append("%d" % exact["lines_lost"])
    cells += ["%.6f" % p for p in correct_mass(row, side)]
    return ",".join(cells) + "\n"


def csv_text(runs, side):
    """Return the whole CSV file for `runs` (seed -> rows); the seed
    column is there only for more than one run."""
    many = len(runs) > 1
    header = (("seed",) if many else ()) + column_names(side)
    lines = [",".join(header) + "\n"]
    for seed in sorted(runs):
        lines += [format_row(row, side, seed if many else None) for row in runs[seed]]
    return "".join(lines)


def strip_for_transfer(row):
    """Return `row` without the evaluation's list of losing lines (which a
    --runs worker need not send to the parent)."""
    exact = {k: v for k, v in row["exact"].items() if k != "losing_lines"}
    return dict(row, exact=exact)
