"""The command line's promises: one line on stderr and a non-zero exit for
any failure, never a traceback; a first Ctrl-C (or a closed terminal) that
stops after the current game; output that may fail. No C counterpart: the
C ignores failures and dies on Ctrl-C.
"""

import contextlib
import functools
import os
import signal
import sys

EXIT_FAILURE = 1
EXIT_USAGE = 2          # argparse's status for a bad command line (ttt-eval: not checked)
# What stops a command: Ctrl-C, `kill`, a closed terminal.
STOP_SIGNALS = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP")
                     if hasattr(signal, n))


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, a KeyboardInterrupt: Ctrl-C's clean-up runs too."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def raise_stopped(signum, frame):
    raise Stopped(signum)


@contextlib.contextmanager
def signals_held():
    """Stop signals wait until the block is left, so that a file and the
    line about it always agree. (Windows cannot block signals.)"""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS) \
        if hasattr(signal, "pthread_sigmask") else None
    try:
        yield
    finally:
        if old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


class first_ctrl_c_stops:
    """Context manager: a first Ctrl-C or SIGHUP (a closed terminal) only
    sets `stop_requested` and `status` (128 + the signal): training ends
    after the current game and the work is kept. A second Ctrl-C raises at
    once. A signal inherited as ignored (`nohup`, `&`) stays ignored."""

    stop_requested, status = False, 0

    def _handler(self, signum, frame):
        if self.stop_requested and signum == signal.SIGINT:
            raise KeyboardInterrupt   # a second Ctrl-C; a second hangup is the same one
        self.stop_requested = True   # a flag: printing here could cut a line
        self.status = self.status or 128 + signum

    def __enter__(self):
        self.previous = {s: signal.getsignal(s) for s in STOP_SIGNALS[::2]}   # INT, HUP
        for sig, handler in self.previous.items():   # (PyPy shows an inherited
            if handler not in (signal.SIG_IGN, signal.SIG_DFL if sig != signal.SIGINT
                               else None):   # ignored SIGHUP as SIG_DFL)
                signal.signal(sig, self._handler)
        return self

    def __exit__(self, *exc):
        for sig, handler in self.previous.items():
            signal.signal(sig, handler)


def printable(text):
    """Return `text` with control characters as escapes (\\n, \\x1b): a
    name stays on one line and cannot drive the terminal."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in str(text))


def say(prog, message):
    """Print 'PROG: MESSAGE' on stderr, one line, whatever happens."""
    try:
        sys.stderr.write("%s: %s\n" % (prog, printable(message)))
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass   # stderr itself is gone: nothing more can be said


def command(prog):
    """Decorator for a command's main(argv): any stop or failure becomes one
    line on stderr and an exit status. A KeyboardInterrupt may carry a
    `note`, such as 'ttt_nn.bin was saved', said after 'interrupted'."""
    def wrap(main):
        @functools.wraps(main)
        def wrapper(argv=None):
            previous = {}
            try:
                _open_closed_streams()
                previous = {s: signal.signal(s, raise_stopped) for s in _stop_signals()}
                status = main(argv)
                sys.stdout.flush()   # a full disk or closed pipe shows here
                return status
            except KeyboardInterrupt as stop:
                with signals_held():   # a second Ctrl-C must not cut the message
                    note = getattr(stop, "note", "")
                    what = "stopped" if isinstance(stop, Stopped) else "interrupted"
                    say(prog, what + ("; " + note if note else ""))
                return 128 + getattr(stop, "signum", signal.SIGINT)
            except OSError as e:
                if not isinstance(e, BrokenPipeError):   # `| head`: the reader left
                    where = "%s: " % e.filename if e.filename else ""
                    say(prog, "error: %s%s" % (where, e.strerror or e))
                return EXIT_FAILURE
            except MemoryError:
                say(prog, "error: out of memory")
                return EXIT_FAILURE
            except Exception as e:   # noqa: BLE001 (the promise: never a traceback)
                say(prog, "error: %s" % ((str(e).splitlines() or [type(e).__name__])[0]))
                return EXIT_FAILURE
            finally:
                _silence_stdout()
                for sig, handler in previous.items():   # for callers in-process
                    signal.signal(sig, handler)
                if argv is None:   # a late Ctrl-C must not disturb Python's shutdown
                    signal.signal(signal.SIGINT, signal.SIG_IGN)
        return wrapper
    return wrap


def _stop_signals():
    """SIGTERM and SIGHUP, less any the process inherited as ignored
    (`nohup`). PyPy reports an inherited ignored signal as SIG_DFL, so on
    Linux the kernel's mask of ignored signals is read as well."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            ignored = int(next(l.split()[1] for l in f if l.startswith("SigIgn:")), 16)
    except (OSError, StopIteration, ValueError):
        ignored = 0
    return [s for s in STOP_SIGNALS[1:] if signal.getsignal(s) != signal.SIG_IGN
            and not ignored >> (s - 1) & 1]


def _open_closed_streams():
    """Give a closed stdin, stdout or stderr (`>&-`) /dev/null; let any name
    print in any locale."""
    for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)   # the lowest free fd: this one
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        if getattr(sys, name) is None:
            setattr(sys, name, open(fd, mode, closefd=False, encoding="utf-8"))
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def _silence_stdout():
    """Point a failing stdout at /dev/null: the flush at exit cannot fail
    again (the recipe of Python's signal docs)."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass


class Output:
    """Text on `stream`; if writing fails (full disk, closed pipe), says so
    once on stderr and drops the rest, so that the work goes on (`failed`)."""

    def __init__(self, stream, prog):
        self.stream, self.prog, self.failed = stream, prog, False

    def write(self, text):
        """Write `text` as it is (the board, the grid), and flush."""
        if self.failed:
            return
        try:
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
