"""What a training run shows: the C's progress line, the exact strength,
and the learning curve file of `ttt-train --curve FILE`.

A curve has one row per progress report: games trained, the sampled wins,
losses and ties of the last games against the random player, and the exact
strength (evaluate.py) where it was computed. FILE.csv gets the rows as they
come; FILE.svg gets a chart at the end. Only the progress line comes from
the C (train_against_random's printf); the rest has no C counterpart.
"""

import math
import os
import time

from .cli import Output, say
from .evaluate import evaluate_network, format_outcomes, summary_lines
from .game import O, TIE, X, opponent
from .svg import chart
from .weights import to_float32

REPORT_INTERVAL = 10000  # games between two progress lines, as in the C

COLUMNS = ("games", "wins", "losses", "ties",
           "exact_win", "exact_draw", "exact_loss", "lines_lost")


class CurveError(Exception):
    """A curve file that cannot be written; str() says why."""


def check_curve_path(path, output):
    """Raise CurveError if `path` cannot be a curve file beside weights
    file `output` (it would be overwritten by the weights, or is empty)."""
    if not path:
        raise CurveError("the curve file name is empty")
    if os.path.realpath(path) == os.path.realpath(output):
        raise CurveError("--curve %s is the weights file itself" % path)


def format_row(row, with_seed=False):
    """Return one CSV line (with its newline) for a row dict."""
    exact = row.get("exact")
    cells = [str(row["games"])]
    if row.get("sampled"):
        cells += ["%d" % n for n in row["sampled"]]
    else:
        cells += ["", "", ""]
    if exact:
        cells += ["%.6f" % exact[k] for k in ("win", "draw", "loss")]
        cells.append("%d" % exact["lines_lost"])
    else:
        cells += ["", "", "", ""]
    if with_seed:
        cells.insert(0, str(row["seed"]))
    return ",".join(cells) + "\n"


class CsvCurve:
    """A CSV curve file written row by row; a write failure is said once on
    stderr and the rest of the curve dropped (`failed` tells)."""

    def __init__(self, path, prog):
        try:
            self.file = open(path, "w", encoding="ascii")
        except OSError as e:
            raise CurveError("cannot write %s: %s" % (path, e.strerror)) from None
        self.out = Output(self.file, path, prog)
        self.out.write(",".join(COLUMNS) + "\n")

    @property
    def failed(self):
        return self.out.failed

    def add(self, row):
        """Append one row: a dict with games, sampled (wins, losses, ties)
        or None, and exact (an evaluation dict) or None."""
        self.out.write(format_row(row))

    def close(self):
        try:
            self.file.close()
        except OSError as e:
            self.out.fail(e)


class MemoryCurve:
    """A curve kept in memory (the rows of a --runs worker, sent to the parent)."""

    failed = False

    def __init__(self):
        self.rows = []

    def add(self, row):
        self.rows.append(row)

    def close(self):
        pass


class SvgCurve(MemoryCurve):
    """A chart (svg.py) of the rows, written when the curve is closed."""

    def __init__(self, path, prog, other=X):
        super().__init__()
        self.path, self.prog, self.other = path, prog, other
        create_empty(path)   # fail now, not after training

    def close(self):
        self.failed = not write_text(self.path, chart({"": self.rows}, opponent=self.other),
                                     self.prog)


def create_empty(path):
    """Create (or empty) the file `path`; raise CurveError if that fails."""
    try:
        open(path, "w").close()
    except OSError as e:
        raise CurveError("cannot write %s: %s" % (path, e.strerror)) from None


def write_text(path, text, prog):
    """Write `text` to `path`; return True, or say why not and return False."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return True
    except OSError as e:
        say(prog, "cannot write to %s (%s)" % (path, e.strerror))
        return False


def open_curve(path, output, prog, other=X):
    """Return the curve writer for `path` (None if path is None): an
    SvgCurve for a name ending in .svg, else a CsvCurve. Raises CurveError
    if it cannot be written, or is the weights file `output`."""
    if path is None:
        return None
    check_curve_path(path, output)
    if path.lower().endswith(".svg"):
        return SvgCurve(path, prog, other)
    return CsvCurve(path, prog)


class Reporter:
    """What a training run shows: the C's progress line every
    REPORT_INTERVAL games, the exact strength every `eval_every` games, and
    a row of the learning curve at each report and at the end.

    train_against_random calls report() every `interval` games.
    """

    def __init__(self, out, num_games, eval_every=0, curve=None, nn_symbol=O):
        self.out, self.num_games, self.eval_every = out, num_games, eval_every
        self.curve, self.nn_symbol = curve, nn_symbol
        self.interval = math.gcd(REPORT_INTERVAL, eval_every) if eval_every else REPORT_INTERVAL
        self.window = {X: 0, O: 0, TIE: 0}   # results since the last progress line
        self.start = time.perf_counter()

    def report(self, nn, games, counts):
        """Show the state after `games` games; `counts` are the results of
        the games since the previous call."""
        for result, n in counts.items():
            self.window[result] += n
        sampled = None
        if games % REPORT_INTERVAL == 0 or games == self.num_games:
            sampled = self.window_counts()
            self.window = {X: 0, O: 0, TIE: 0}
        if games % REPORT_INTERVAL == 0:
            self.progress_line(games, *sampled)
        exact = None
        evaluate_now = self.eval_every and games % self.eval_every == 0
        if evaluate_now or (self.curve is not None and sampled):
            exact = evaluate_network(nn, self.nn_symbol)
        if evaluate_now:
            self.out.line("Exact at %d games: %s, lines lost %d of %d" % (
                games, format_outcomes(exact), exact["lines_lost"], exact["lines"]))
        if self.curve is not None and (sampled or exact):
            self.curve.add({"games": games, "sampled": sampled, "exact": exact})

    def window_counts(self):
        """Return (wins, losses, ties) of the network in the current window."""
        return (self.window[self.nn_symbol], self.window[opponent(self.nn_symbol)],
                self.window[TIE])

    def progress_line(self, games, wins, losses, ties):
        # The C's line, then the timing that a slower language makes welcome.
        elapsed = time.perf_counter() - self.start
        rate = games / max(elapsed, 1e-9)
        self.out.line("Games: %d, Wins: %d (%.1f%%), Losses: %d (%.1f%%), "
                      "Ties: %d (%.1f%%) [%s, %.0f games/s, ETA %s]" % (
                          games, wins, percent(wins), losses, percent(losses),
                          ties, percent(ties), format_seconds(elapsed), rate,
                          format_seconds((self.num_games - games) / rate)))

    def summary(self, nn):
        """Return the exact-strength lines for the finished network."""
        return summary_lines(evaluate_network(nn, self.nn_symbol))

    @property
    def curve_failed(self):
        return self.curve is not None and self.curve.failed

    def close(self):
        if self.curve is not None:
            self.curve.close()


def percent(count):
    """Return `count` games as a percentage of REPORT_INTERVAL, rounded to
    float32 as the C computes it.

    0.15 is 0.150000006 in float32 but 0.1499... in float64: without the
    rounding, 400 of the 10001 possible counts would print other digits.
    """
    return to_float32(count * 100 / REPORT_INTERVAL)


def format_seconds(seconds):
    """Return `seconds` (a float) as '42s', '3m05s' or '1h02m'."""
    seconds = int(round(seconds))
    if seconds < 60:
        return "%ds" % seconds
    if seconds < 3600:
        return "%dm%02ds" % divmod(seconds, 60)
    return "%dh%02dm" % (seconds // 3600, seconds % 3600 // 60)

