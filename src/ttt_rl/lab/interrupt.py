"""What stops a command: Ctrl-C, `kill`, a closed terminal.

SIGTERM and SIGHUP raise Stopped, a KeyboardInterrupt, so that every
clean-up written for Ctrl-C runs for them too. During training the first
Ctrl-C only sets a flag that the training loop's report callback returns:
training stops between two games and the net trained so far is saved; the
second one stops at once. No C counterpart: the C dies and keeps nothing.
"""

import signal


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


class Stopped(KeyboardInterrupt):
    """Raised when SIGTERM or SIGHUP arrives, so that every clean-up written
    for Ctrl-C (a KeyboardInterrupt) runs for them too."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def raise_stopped(signum, frame):
    raise Stopped(signum)


def exit_status_of(stop):
    """Return the shell's exit status for a stop: 128 + the signal number."""
    return 128 + getattr(stop, "signum", signal.SIGINT)


def stop_signals():
    """Return the signals that stop a command politely (SIGTERM, SIGHUP),
    leaving out any that the process inherited as ignored (`nohup`)."""
    names = ("SIGTERM", "SIGHUP")
    sigs = [getattr(signal, n) for n in names if hasattr(signal, n)]
    return [s for s in sigs if not _ignored(s)]


def _ignored(sig):
    """True if `sig` is ignored. PyPy reports an ignored signal that it
    inherited as SIG_DFL, so on Linux the kernel's own mask is asked too."""
    if signal.getsignal(sig) == signal.SIG_IGN:
        return True
    try:
        with open("/proc/self/status") as f:
            mask = next(line.split()[1] for line in f if line.startswith("SigIgn:"))
    except (OSError, StopIteration, IndexError):
        return False
    return bool(int(mask, 16) >> (sig - 1) & 1)
