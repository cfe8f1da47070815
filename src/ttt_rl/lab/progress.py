"""What a training run shows while it runs: the progress line.

train_against_random calls Reporter.report after every game; the reporter
prints the C's progress line every 10,000 games (10 to 25 lines in a
shorter run), the exact strength every --eval-every games, and hands the
games to the learning curve's recorder (curve.py). Only the progress line
comes from the C (train_against_random's printf); with --runs, one
combined line stands for all runs.
"""

import time

from ..game import O, TIE, X
from ..learn import REPORT_INTERVAL
from .curve import CurveRecorder, outcome_counts
from .exact import evaluate_network
from .scale import one_two_five
from .text import format_outcomes, to_float32

PROGRESS_LINES = 10   # a run shorter than REPORT_INTERVAL prints at least this many


def progress_interval(num_games):
    """Return the games between two progress lines: the C's 10,000, or for
    a shorter run the largest round number (1, 2 or 5 x 10^k) that is at
    most num_games / 10, which makes 10 to 25 lines."""
    if num_games >= REPORT_INTERVAL:
        return REPORT_INTERVAL
    return one_two_five(max(num_games // PROGRESS_LINES, 1))[-1]


class Reporter:
    """Shows a training run as it goes; report() is train_against_random's
    callback (called after every game), and returns True once a first
    Ctrl-C asked training to stop (see interrupt.first_ctrl_c_stops).
    With curve=True it also records the learning curve (self.rows)."""

    def __init__(self, out, num_games, side=O, eval_every=0, curve=False):
        self.out, self.num_games, self.side, self.eval_every = out, num_games, side, eval_every
        self.interval = progress_interval(num_games)
        self.curve = CurveRecorder(num_games, side) if curve else None
        self.window = {X: 0, O: 0, TIE: 0}      # since the last progress line
        self.stop_requested = False
        self.start = time.perf_counter()

    @property
    def rows(self):
        """The learning curve's rows so far (a list; empty without a curve)."""
        return self.curve.rows if self.curve else []

    def begin(self, net):
        """Measure the untrained net (the curve's point at 0 games)."""
        if self.curve:
            self.curve.begin(net)

    def report(self, net, games, counts):
        """Take the results `counts` of the games since the last call; show
        and measure what is due after `games` games. Returns True to stop."""
        for result, n in counts.items():
            self.window[result] += n
        if games % self.interval == 0:
            self.progress_line(games, *outcome_counts(self.window, self.side))
            self.window = {X: 0, O: 0, TIE: 0}
        if self.curve:
            self.curve.add(net, games, counts)
        if self.eval_every and games % self.eval_every == 0:
            exact = evaluate_network(net, self.side)
            self.out.line("Exact at %d games: %s, lines lost %d of %d" % (
                games, format_outcomes(exact), exact["lines_lost"], exact["lines"]))
        return self.stop_requested

    def finish(self, net):
        """Measure the last point of a run that stopped early."""
        if self.curve:
            self.curve.finish(net)
        self.elapsed = time.perf_counter() - self.start

    def time_line(self, games):
        """Return the line on how long the `games` games took (after finish)."""
        return "Training time: %s (%.1f s, %.0f games/s)" % (
            format_seconds(self.elapsed), self.elapsed, games / max(self.elapsed, 1e-9))

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


class CombinedProgress:
    """One progress line for all runs, each time the games of all runs
    together pass a multiple of (one run's progress interval) x the runs
    that train at once."""

    def __init__(self, out, args, jobs):
        self.out, self.runs, self.total = out, args.runs, args.runs * args.games
        self.step = progress_interval(args.games) * jobs   # as often as one run's line
        self.eta = "ETA at most" if getattr(args, "until_unbeatable", False) else "ETA"
        self.shown, self.start = 0, time.perf_counter()

    def show(self, games):
        """Print the line if `games` (all runs together) passed a step."""
        # The first games at once (a sign of life), then one line a step.
        first = self.shown == 0 and games > 0
        if not first and (games == self.shown or (games // self.step == self.shown // self.step
                                                  and games != self.total)):
            return
        self.shown = games
        elapsed = time.perf_counter() - self.start
        rate = games / max(elapsed, 1e-9)
        self.out.line("Games: %d of %d in %d runs [%s, %.0f games/s, %s %s]" % (
            games, self.total, self.runs, format_seconds(elapsed), rate, self.eta,
            format_seconds((self.total - games) / max(rate, 1e-9))))
