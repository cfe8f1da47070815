"""What a training run shows while it runs, and how the first Ctrl-C ends it.

train_against_random calls Reporter.report after every game; the reporter
prints the C's progress line every 10,000 games (10 to 25 lines in a
shorter run), the exact strength every --eval-every games, and measures a
learning-curve point (curve.py) at 0, 1, 2, 5, 10, ... games. Only the
progress line comes from the C (train_against_random's printf).
"""

import signal
import time

from ..game import O, TIE, X, opponent
from ..learn import REPORT_INTERVAL
from ..weights import to_float32
from .curve import curve_points, measure
from .evaluate import evaluate_network, format_outcomes

PROGRESS_LINES = 10   # a run shorter than REPORT_INTERVAL prints at least this many


def progress_interval(num_games):
    """Return the games between two progress lines: the C's 10,000, or for
    a shorter run the largest round number (1, 2 or 5 x 10^k) that is at
    most num_games / 10, which makes 10 to 25 lines."""
    if num_games >= REPORT_INTERVAL:
        return REPORT_INTERVAL
    target, step = max(num_games // PROGRESS_LINES, 1), 1
    while step * 10 <= target:
        step *= 10
    return max(m * step for m in (1, 2, 5) if m * step <= target)


class Reporter:
    """Shows a training run as it goes; report() is train_against_random's
    callback (called after every game), and returns True once a first
    Ctrl-C asked training to stop (see first_ctrl_c_stops)."""

    def __init__(self, out, num_games, side=O, eval_every=0, curve=False):
        self.out, self.num_games, self.side, self.eval_every = out, num_games, side, eval_every
        self.interval = progress_interval(num_games)
        self.points = set(curve_points(num_games)) if curve else set()
        self.window = {X: 0, O: 0, TIE: 0}      # since the last progress line
        self.since_point = {X: 0, O: 0, TIE: 0}  # since the last curve point
        self.rows, self.games, self.stop_requested = [], 0, False
        self.start = time.perf_counter()

    def begin(self, net):
        """Measure the untrained net (the curve's point at 0 games)."""
        if 0 in self.points:
            self.rows.append(measure(net, 0, None, self.side))

    def report(self, net, games, counts):
        """Take the results `counts` of the games since the last call; show
        and measure what is due after `games` games. Returns True to stop."""
        self.games = games
        for result, n in counts.items():
            self.window[result] += n
            self.since_point[result] += n
        if games % self.interval == 0:
            self.progress_line(games, *self.results(self.window))
            self.window = {X: 0, O: 0, TIE: 0}
        if games in self.points:
            self.rows.append(measure(net, games, self.results(self.since_point), self.side))
            self.since_point = {X: 0, O: 0, TIE: 0}
        if self.eval_every and games % self.eval_every == 0:
            exact = evaluate_network(net, self.side)
            self.out.line("Exact at %d games: %s, lines lost %d of %d" % (
                games, format_outcomes(exact), exact["lines_lost"], exact["lines"]))
        return self.stop_requested

    def finish(self, net):
        """Measure the last point of a run that stopped early."""
        if self.points and (not self.rows or self.rows[-1]["games"] != self.games):
            self.rows.append(measure(net, self.games, self.results(self.since_point), self.side))

    def results(self, counts):
        """Return (wins, losses, ties) of the network in `counts`."""
        return counts[self.side], counts[opponent(self.side)], counts[TIE]

    def progress_line(self, games, wins, losses, ties):
        """Print the C's progress line, then in brackets what it counts and
        the timing that a slower language makes welcome."""
        elapsed = time.perf_counter() - self.start
        rate = games / max(elapsed, 1e-9)
        eta = min((self.num_games - games) / rate, 100 * 365 * 86400)
        self.out.line("Games: %d, Wins: %d (%.1f%%), Losses: %d (%.1f%%), "
                      "Ties: %d (%.1f%%) [last %s; %s, %.0f games/s, ETA %s]" % (
                          games, wins, percent(wins, self.interval), losses,
                          percent(losses, self.interval), ties, percent(ties, self.interval),
                          "game" if self.interval == 1 else "%d games" % self.interval,
                          format_seconds(elapsed), rate, format_seconds(eta)))


class first_ctrl_c_stops:
    """Context manager: the first Ctrl-C sets reporter.stop_requested (so
    training ends after the current game); a second one raises
    KeyboardInterrupt at once, as usual."""

    def __init__(self, reporter):
        self.reporter = reporter

    def _handler(self, signum, frame):
        # Only a flag: printing here could cut into a line being printed.
        if self.reporter.stop_requested:
            raise KeyboardInterrupt
        self.reporter.stop_requested = True

    def __enter__(self):
        # An ignored SIGINT (a job started with & by a script) stays ignored.
        self.previous = signal.getsignal(signal.SIGINT)
        if self.previous != signal.SIG_IGN:
            signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *exc):
        signal.signal(signal.SIGINT, self.previous)


def percent(count, window):
    """Return `count` games as a percentage of `window` games, rounded to
    float32 as the C computes it.

    0.15 is 0.150000006 in float32 but 0.1499... in float64: without the
    rounding, 400 of the 10001 possible counts would print other digits.
    """
    return to_float32(count * 100 / window)


def format_seconds(seconds):
    """Return `seconds` (a float) as '42s', '3m05s' or '1h02m'."""
    seconds = int(round(seconds))
    if seconds < 60:
        return "%ds" % seconds
    if seconds < 3600:
        return "%dm%02ds" % divmod(seconds, 60)
    return "%dh%02dm" % (seconds // 3600, seconds % 3600 // 60)
