"""One training run in a worker process of ttt-train --runs.

The worker trains its seed exactly as a single run would, sends its
progress and then its result to the parent through a pipe, and stops
after its current game when the parent asks (STOP_AFTER_GAME) or is gone
(killed by a signal no one can catch). No C counterpart.
"""

import os
import signal

from ..weights import to_bytes
from .curve import strip_for_transfer
from .exact import evaluate_network
from .files import STOP_SIGNALS
from .interrupt import stop_signals
from .progress import Reporter
from .save import as_saved
from .start import settings_from, start_network, trainer

EXIT_FAILURE = 1
# The parent asks a worker to stop after its current game with this signal.
STOP_AFTER_GAME = getattr(signal, "SIGUSR1", None)
MESSAGES_PER_RUN = 20  # progress messages a worker sends over its run
FIRST_MESSAGE = 100    # games before the first one: a sign of life within a second
# Blocked across a fork, until the worker has its own handlers.
BLOCKED = STOP_SIGNALS + ((STOP_AFTER_GAME,) if STOP_AFTER_GAME else ())


class PipeReporter(Reporter):
    """A worker's reporter: sends its progress to the parent, and stops
    training when the parent asks or is gone."""

    def __init__(self, args, conn, parent):
        super().__init__(None, args.games, args.side, curve=bool(args.curve))
        # The parent's pid as the parent saw it before the fork: asking
        # os.getppid() here would be too late if the parent died already.
        self.conn, self.parent = conn, parent
        self.every = max(args.games // MESSAGES_PER_RUN, 1)

    def report(self, net, games, counts):
        """As Reporter.report, and every so often tell the parent how far
        this run is; returns True to stop."""
        if games % self.every == 0 or games == FIRST_MESSAGE:
            self.conn.send(("progress", games))
        if os.getppid() != self.parent:   # the parent died: nobody waits for us
            self.stop_requested = True
        return super().report(net, games, counts)

    def progress_line(self, games, wins, losses, ties):
        """Nothing: the parent prints one line for all runs."""


def worker(args, index, init_data, conn, parent):
    """Train run `index` (seed args.seed + index) in a worker process whose
    parent has pid `parent`, and send ("done", run) back: seed, data (the
    weights file's bytes), result (the exact evaluation of the saved net),
    rows (the curve) and stopped (True if it stopped early); or ("failed",
    reason), then exit 1."""
    # Ctrl-C is the parent's to handle (the terminal sends it to every
    # process); SIGTERM and SIGHUP end the worker, unless they were ignored
    # (nohup). The parent blocked them around the fork; now they may come.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in stop_signals():
        signal.signal(sig, signal.SIG_DFL)
    try:
        seed = args.seed + index
        net, rng = start_network(args, seed, init_data)
        reporter = PipeReporter(args, conn, parent)
        if STOP_AFTER_GAME is not None:
            signal.signal(STOP_AFTER_GAME,
                          lambda signum, frame: setattr(reporter, "stop_requested", True))
        signal.pthread_sigmask(signal.SIG_UNBLOCK, BLOCKED)
        reporter.begin(net)
        games = trainer(args)(net, args.games, rng, args.side, settings_from(args),
                      report=reporter.report, report_every=1)
        reporter.finish(net)
        result = evaluate_network(as_saved(net), args.side)
        del result["losing_lines"]
        conn.send(("done", {"seed": seed, "data": to_bytes(net), "result": result,
                            "rows": [strip_for_transfer(r) for r in reporter.rows],
                            "stopped": games < args.games}))
        conn.close()
    except BaseException as e:   # noqa: BLE001 (the parent says it in one line)
        try:
            conn.send(("failed", str(e).splitlines()[0] if str(e) else type(e).__name__))
        finally:
            os._exit(EXIT_FAILURE)
