"""What a run shows as it trains: the C's progress line, and the learning curve of `--curve
FILE.csv`, the net measured exactly at game 0 and at round numbers of games (bench/curve.py).
"""

import csv
import datetime
import io
import time
from collections import Counter

from ..game import BOTH, O, TIE, X, board_to_inputs
from ..nn import forward_pass
from ..weights import to_float32
from ..expert_iteration import player
from .exact import c4_kept, c4_positions, correct_moves, evaluate_network

REPORT_INTERVAL = 10000   # games between two progress lines, as in the C
TELLING_POSITIONS = {   # (label, position): has the net understood the game? The net is to move.
    O: (("X took the centre", "....X...."), ("X took a corner", "X........"),
        ("O must block", "XX..O....")),
    X: (("X moves first", "........."), ("X must block", "XO..O...X"), ("X can win", "XX.OO....")),
}
TELLING_POSITIONS[BOTH] = TELLING_POSITIONS[O] + TELLING_POSITIONS[X]


def one_two_five(limit):
    """Return the round numbers 1, 2, 5, 10, 20, 50, ... up to `limit` (an int)."""
    return [m * 10 ** k for k in range(len(str(limit))) for m in (1, 2, 5) if m * 10 ** k <= limit]


def format_seconds(seconds):
    """Return `seconds` as hours, minutes and seconds: '0:03:05'."""
    return str(datetime.timedelta(seconds=round(seconds)))


class Reporter:
    """Shows a run as it trains. report(net, games, winner, side), the training loops' callback,
    counts the results (self_play: X's wins, O's wins, ties), prints, measures, and returns
    `stop()` (True: stop after this game). With curve=True, self.rows is the learning curve."""

    def __init__(self, num_games, side=O, curve=False, stop=None, quiet=False, self_play=False):
        self.num_games, self.side = num_games, side
        # The C's 10,000 games, or a tenth of a shorter run, rounded down to 1, 2 or 5 x 10^k.
        self.interval = REPORT_INTERVAL if num_games >= REPORT_INTERVAL else \
            one_two_five(max(num_games // 10, 1))[-1]
        self.stop, self.quiet, self.self_play = stop, quiet, self_play
        self.points = set([0] + one_two_five(num_games) + [num_games]) if curve else set()
        self.rows, self.games, self.window, self.since_point = [], 0, Counter(), Counter()
        self.start = time.perf_counter()

    def begin(self, net):
        """Measure the untrained net: the curve's point at 0 games. Call it before training."""
        if 0 in self.points:
            self.rows.append(measure(net, 0, None, self.side))

    def report(self, net, games, winner, side):
        """Take the result of game `games` (winner X, O or TIE; the net played `side`)."""
        self.games = games
        # Counted for the net (win, loss, tie), or by symbol in self-play: X, O, TIE.
        result = winner if winner == TIE or self.self_play else \
            "win" if winner == side else "loss"
        self.window[result] += 1
        self.since_point[result] += 1
        if games % self.interval == 0 and not self.quiet:
            # The C's line, then the timing a slower language welcomes. Percentages rounded to
            # float32, as the C computes them.
            elapsed = time.perf_counter() - self.start
            rate = games / max(elapsed, 1e-9)
            names = ("X wins", "O wins", "Ties") if self.self_play else ("Wins", "Losses", "Ties")
            counts = ["%s: %d (%.1f%%)" % (name, n, to_float32(n * 100 / self.interval))
                      for name, n in zip(names, self.counts(self.window))]
            print("Games: %d, %s [%s, %.0f games/s, ETA %s]" % (
                games, ", ".join(counts), format_seconds(elapsed), rate,
                format_seconds((self.num_games - games) / rate)), flush=True)
            self.window = Counter()
        if games in self.points:
            self.rows.append(measure(net, games, self.counts(self.since_point), self.side))
            self.since_point = Counter()
        return bool(self.stop and self.stop())

    def counts(self, counter):
        """Return (wins, losses, ties) of a Counter (self-play: X's wins, O's wins, ties)."""
        return tuple(counter[k] for k in ((X, O, TIE) if self.self_play else ("win", "loss", TIE)))

    def report_sweep(self, net, sweep, unstable):
        """Policy iteration's callback: one line per sweep; returns `stop()`."""
        elapsed = time.perf_counter() - self.start
        print("Sweep %d: %d position%s not yet stable [%s, %.1f s a sweep, ETA at most %s]" % (
            sweep, unstable, "s" * (unstable != 1), format_seconds(elapsed), elapsed / sweep,
            format_seconds(elapsed / sweep * (self.num_games - sweep))), flush=True)
        return bool(self.stop and self.stop())

    def report_round(self, net, games, winners):
        """Expert iteration's callback after each round: the net alone's kept share on 200 of the
        positions (its strength; cheap, no search), and an ETA from the last round's time."""
        now, last = time.perf_counter(), getattr(self, "last", self.start)
        seconds, self.last = now - last, now
        kept = c4_kept(player(net), c4_positions()[::5])["all"]
        print("Games: %d, the net alone keeps the value in %.1f%% of 200 positions [%s, %.0f s a "
              "round, ETA %s]" % (games, 100 * kept, format_seconds(now - self.start), seconds,
                                  format_seconds((self.num_games - games) * seconds
                                                 / len(winners))), flush=True)
        return bool(self.stop and self.stop())

    def finish(self, net):
        """Measure the last point of a run that stopped early; return the seconds it took."""
        if self.points and (not self.rows or self.rows[-1]["games"] != self.games):
            self.rows.append(measure(net, self.games, self.counts(self.since_point), self.side))
        return time.perf_counter() - self.start


def measure(net, games, sampled, side):
    """Return a curve row: games, sampled ((wins, losses, ties) since the last row, or None),
    exact (exact.evaluate_network) and probs (9 per telling position of `side`)."""
    probs = []
    for _, position in TELLING_POSITIONS[side]:
        forward_pass(net, board_to_inputs(list(position)))
        probs.append(list(net.outputs))
    return {"games": games, "sampled": sampled, "exact": evaluate_network(net, side),
            "probs": probs}


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
