"""What a run shows as it trains: the C's progress line, the exact strength every --eval-every
games, and the learning curve of `--curve FILE`: its rows, measured at game 0 and at round
numbers of games (evenly spaced on a log scale), and its CSV (svg.py draws it)."""

import csv
import io
import time
from collections import Counter

from ..game import BOTH, O, TIE, X, board_to_inputs, opponent
from ..learn import LOSS, REPORT_INTERVAL, WIN
from ..nn import forward_pass
from .exact import correct_moves, evaluate_network
from .text import format_outcomes, format_seconds, to_float32

TELLING_POSITIONS = {   # (label, position): has the net understood the game? The net is to move.
    O: (("X took the centre", "....X...."), ("X took a corner", "X........"),
        ("O must block", "XX..O....")),
    X: (("X moves first", "........."), ("X must block", "XO..O...X"), ("X can win", "XX.OO....")),
}


def one_two_five(limit):
    """Return the round numbers 1, 2, 5, 10, 20, 50, ... up to `limit` (an int)."""
    digits = len(str(limit))   # so 10 ** (digits - 1) is the highest power of ten needed
    return [m * 10 ** k for k in range(digits) for m in (1, 2, 5) if m * 10 ** k <= limit]


def progress_interval(num_games):
    """Return the games between progress lines: the C's 10,000, or in a shorter run the largest
    round number up to a tenth of it (at least 1): 10 to 24 lines in 10 to 9,999 games."""
    if num_games >= REPORT_INTERVAL:
        return REPORT_INTERVAL
    return one_two_five(max(num_games // 10, 1))[-1]


def curve_points(num_games):
    """Return the games after which the curve measures the net: 0, round numbers, num_games."""
    return [0] + one_two_five(num_games - 1) + [num_games] if num_games else [0]


class Reporter:
    """Shows a training run as it goes. report(), the training loop's callback, returns
    `stop.stop_requested` (cli.first_ctrl_c_stops). With curve=True, self.rows is the curve."""

    def __init__(self, out, num_games, side=O, eval_every=0, curve=False, stop=None):
        self.out, self.num_games, self.side, self.eval_every = out, num_games, side, eval_every
        self.interval, self.stop = progress_interval(num_games), stop
        self.self_play = False   # self-play counts X's and O's wins, not the net's
        self.points = set(curve_points(num_games)) if curve else set()
        self.rows, self.games, self.window, self.since_point = [], 0, Counter(), Counter()
        self.start = time.perf_counter()

    def begin(self, net):
        """Measure the untrained net: the curve's point at 0 games."""
        if self.points:
            self.rows.append(measure(net, 0, None, self.side))

    def report(self, net, games, counts):
        """Take `counts` (X, O, TIE -> games won) of the games since the last call, after `games`
        games in all; returns True to stop."""
        self.games = games
        self.window.update(counts)
        self.since_point.update(counts)
        if games % self.interval == 0 and self.out:
            self.progress_line(games, *self._counts(self.window))
            self.window = Counter()
        if games in self.points:
            self.rows.append(measure(net, games, self._counts(self.since_point), self.side))
            self.since_point = Counter()
        if self.eval_every and games % self.eval_every == 0:
            exact = evaluate_network(net, self.side)
            self.out.line("Exact at %d games: %s, lines lost %d of %d" % (
                games, format_outcomes(exact), exact["lines_lost"], exact["lines"]))
        return bool(self.stop and self.stop.stop_requested)

    def finish(self, net):
        """Measure the last point of a run that stopped early; note the time."""
        if self.rows and self.rows[-1]["games"] != self.games:
            self.rows.append(measure(net, self.games, self._counts(self.since_point), self.side))
        self.elapsed = time.perf_counter() - self.start

    def _counts(self, counts):
        """(wins, losses, ties) of the net: with BOTH, WIN and LOSS (self-play: X's, O's wins)."""
        if self.side == BOTH:
            return counts[WIN] + counts[X], counts[LOSS] + counts[O], counts[TIE]
        return counts[self.side], counts[opponent(self.side)], counts[TIE]

    def progress_line(self, games, wins, losses, ties):
        """Print the C's line, then what it counts and the timing a slower language welcomes."""
        elapsed = time.perf_counter() - self.start
        rate = games / max(elapsed, 1e-9)
        won, lost = ("X wins", "O wins") if self.self_play else ("Wins", "Losses")
        self.out.line("Games: %d, %s: %d (%.1f%%), %s: %d (%.1f%%), Ties: %d (%.1f%%) "
                      "[last %s; %s, %.0f games/s, ETA %s]" % (
                          games, won, wins, percent(wins, self.interval), lost, losses,
                          percent(losses, self.interval), ties, percent(ties, self.interval),
                          "game" if self.interval == 1 else "%d games" % self.interval,
                          format_seconds(elapsed), rate,
                          format_seconds((self.num_games - games) / rate)))


def ending(games, planned, ctrl_c):
    """Return the line that ends training: complete, stopped early (by what), or not begun."""
    if ctrl_c.stop_requested and games < planned:
        return "\nStopped by %s after %d of %d games." % (ctrl_c.cause, games, planned)
    return "\nTraining complete!" if games else \
        "\nNo game was played: the net keeps its starting weights."


def percent(count, window):
    """Return `count` games as a percentage of `window`, rounded to float32 as the C computes it
    (0.15 is 0.150000006 in float32, 0.1499... in float64: 400 of 10,001 counts would differ)."""
    return to_float32(count * 100 / window)


def measure(net, games, sampled, side):
    """Return a curve row: games, sampled ((wins, losses, ties) since the last row, or None), exact
    (the exact evaluation, without losing lines), probs (9 per telling position of `side`)."""
    exact = evaluate_network(net, side)
    del exact["losing_lines"]   # rows travel between processes: keep them small
    probs = []
    for _, position in TELLING_POSITIONS[side]:
        forward_pass(net, board_to_inputs(list(position)))
        probs.append(list(net.outputs))
    return {"games": games, "sampled": sampled, "exact": exact, "probs": probs}


def csv_text(runs, side):
    """Return the CSV text of `runs` (seed -> rows): per row the games, sampled and exact results,
    the net's probability of a correct move on each telling position; a seed column for many."""
    many, f = len(runs) > 1, io.StringIO()
    writer = csv.writer(f, lineterminator="\n")
    writer.writerow(["seed"] * many + ["games", "wins", "losses", "ties", "exact_win",
                                       "exact_draw", "exact_loss", "lines_lost"] +
                    ["p_correct_" + label.lower().replace(" ", "_")
                     for label, _ in TELLING_POSITIONS[side]])
    for seed in sorted(runs):
        for row in runs[seed]:
            exact = row["exact"]
            correct = [sum(probs[c] for c in correct_moves(position)) for (_, position), probs
                       in zip(TELLING_POSITIONS[side], row["probs"])]
            writer.writerow([seed] * many + [row["games"]] + list(row["sampled"] or ("",) * 3)
                            + ["%.6f" % exact[k] for k in ("win", "draw", "loss")]
                            + [exact["lines_lost"]] + ["%.6f" % p for p in correct])
    return f.getvalue()
