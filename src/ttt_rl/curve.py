"""The learning curve file of `ttt-train --curve FILE`: how training went.

One row per progress report: games trained, the sampled wins, losses and
ties of the last games against the random player, and the exact strength
(evaluate.py) where it was computed. FILE.csv gets the rows as they come.
"""

import os

from .cli import Output

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

    def __init__(self, path, prog, with_seed=False):
        try:
            self.file = open(path, "w", encoding="ascii")
        except OSError as e:
            raise CurveError("cannot write %s: %s" % (path, e.strerror)) from None
        self.out = Output(self.file, path, prog)
        self.with_seed = with_seed
        self.out.write(",".join((("seed",) if with_seed else ()) + COLUMNS) + "\n")

    @property
    def failed(self):
        return self.out.failed

    def add(self, row):
        """Append one row: a dict with games, sampled (wins, losses, ties)
        or None, exact (an evaluation dict) or None, and seed with --runs."""
        self.out.write(format_row(row, self.with_seed))

    def close(self):
        try:
            self.file.close()
        except OSError as e:
            self.out.fail(e)

def open_curve(path, output, prog):
    """Return the curve writer for `path` (None if path is None)."""
    if path is None:
        return None
    check_curve_path(path, output)
    return CsvCurve(path, prog)
