"""The command line's promises: one line on stderr and a non-zero exit for any failure, never a
traceback; a first Ctrl-C (or a closed terminal) that stops after the current game; output that
may fail. No C counterpart: the C ignores failures and dies on Ctrl-C.
"""

import contextlib
import functools
import os
import signal
import sys
import types

EXIT_FAILURE = 1
EXIT_USAGE = 2          # argparse's status for a bad command line (ttt-eval: not checked)
# What stops a command: Ctrl-C, `kill`, a closed terminal.
STOP_SIGNALS = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP")
                     if hasattr(signal, n))


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP (its number: args[0]), a KeyboardInterrupt: Ctrl-C's clean-up runs too."""


def raise_stopped(signum, frame):
    """The handler of SIGTERM and SIGHUP in a command: raise Stopped(signum)."""
    raise Stopped(signum)


@contextlib.contextmanager
def _handling(signals, handler):
    """Give `handler` to `signals` in the block, less those inherited as ignored (`nohup`): they
    stay so. PyPy shows an ignored signal as SIG_DFL, so on Linux the kernel's mask is read too
    (PyPy itself un-ignores SIGINT at startup: there, a `&` job's Ctrl-C still stops it)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            ignored = int(next(l.split()[1] for l in f if l.startswith("SigIgn:")), 16)
    except (OSError, StopIteration, ValueError):
        ignored = 0
    previous = {s: signal.signal(s, handler) for s in signals   # bit s - 1: signal s
                if signal.getsignal(s) != signal.SIG_IGN and not (ignored >> (s - 1)) & 1}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


@contextlib.contextmanager
def signals_held():
    """Stop signals wait until the block is left, so that a file and the line about it agree.
    (Windows cannot block signals.)"""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS) \
        if hasattr(signal, "pthread_sigmask") else None
    try:
        yield
    finally:
        if old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


@contextlib.contextmanager
def first_ctrl_c_stops():
    """In the block, a first Ctrl-C or SIGHUP (a closed terminal) only sets `stop_requested`,
    `status` (128 + the signal) and `cause` (what sent it, in words) of the object yielded:
    training ends after the current game and the work is kept. A second Ctrl-C raises at once.
    An ignored signal (`nohup`) stays ignored."""
    ctrl_c = types.SimpleNamespace(stop_requested=False, status=0, cause="")

    def handler(signum, frame):
        if ctrl_c.stop_requested and signum == signal.SIGINT:
            raise KeyboardInterrupt   # a second Ctrl-C; a second hangup is the same one
        if not ctrl_c.stop_requested:   # a flag: printing here could cut a line
            ctrl_c.status = 128 + signum
            ctrl_c.cause = "Ctrl-C" if signum == signal.SIGINT else "a closed terminal"
        ctrl_c.stop_requested = True
    with _handling(STOP_SIGNALS[::2], handler):   # SIGINT, SIGHUP
        yield ctrl_c


def printable(text):
    """Return `text` with control characters as escapes (\\n, \\x1b): one line, inert."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in str(text))


def say(prog, message):
    """Print 'PROG: MESSAGE' on stderr, one line, whatever happens."""
    with contextlib.suppress(OSError, ValueError, AttributeError):   # else stderr is gone
        sys.stderr.write("%s: %s\n" % (prog, printable(message)))
        sys.stderr.flush()


def command(prog):
    """Decorator for a command's main(argv): any stop or failure becomes one line on stderr and
    an exit status. A KeyboardInterrupt may carry a `note` ('w.bin was saved') to say."""
    def wrap(main):
        @functools.wraps(main)
        def wrapper(argv=None):
            try:
                _open_closed_streams()
                with _handling(STOP_SIGNALS[1:], raise_stopped):   # SIGTERM, SIGHUP
                    status = main(argv)
                    sys.stdout.flush()   # a full disk or closed pipe shows here
                return status
            except KeyboardInterrupt as stop:
                note = getattr(stop, "note", "")
                stopped = isinstance(stop, Stopped)
                with signals_held():   # a second Ctrl-C must not cut the message
                    say(prog, ("stopped" if stopped else "interrupted") + (note and "; " + note))
                return 128 + (stop.args[0] if stopped else signal.SIGINT)
            except OSError as e:
                if not isinstance(e, BrokenPipeError):   # `| head`: the reader left
                    where = "%s: " % e.filename if e.filename else ""
                    say(prog, "error: %s%s" % (where, e.strerror or e))
                return EXIT_FAILURE
            except Exception as e:   # noqa: BLE001 (the promise: never a traceback)
                lines = ["out of memory"] if isinstance(e, MemoryError) else str(e).splitlines()
                say(prog, "error: " + (lines or [type(e).__name__])[0])
                return EXIT_FAILURE
            finally:
                _silence_stdout()
                if argv is None:   # a late Ctrl-C must not disturb Python's shutdown
                    signal.signal(signal.SIGINT, signal.SIG_IGN)
        return wrapper
    return wrap


def _open_closed_streams():
    """Give a closed stdin, stdout or stderr (`>&-`) /dev/null; any name prints in any locale."""
    for fd, name in enumerate(("stdin", "stdout", "stderr")):
        try:
            os.fstat(fd)
        except OSError:   # closed: os.open takes the lowest free fd, this one
            os.open(os.devnull, os.O_RDWR)
        if getattr(sys, name) is None:
            setattr(sys, name, open(fd, "w" if fd else "r", closefd=False, encoding="utf-8"))
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def _silence_stdout():
    """Point a failing stdout at /dev/null, so that the flush at exit cannot fail again."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


class Output:
    """Text on `stream`; if writing fails (full disk, closed pipe), says so once on stderr and
    drops the rest, so that the work goes on (`failed`)."""

    def __init__(self, stream, prog):
        self.stream, self.prog, self.failed = stream, prog, False

    def write(self, text):
        """Write `text` as it is (the board, the grid), and flush."""
        try:
            if not self.failed:
                self.stream.write(text)
                self.stream.flush()
        except (OSError, ValueError) as e:
            self.failed = True
            say(self.prog, "cannot write to stdout (%s); going on without it"
                % (getattr(e, "strerror", None) or e))
            _silence_stdout()

    def line(self, text=""):
        """Write one or more lines, control characters shown as escapes."""
        self.write("\n".join(printable(part) for part in text.split("\n")) + "\n")
