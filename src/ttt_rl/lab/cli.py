"""What the commands share to keep their promise: bad input or a failing
system gets one line on stderr and a non-zero exit status, never a
traceback.

Here: the @command wrapper (streams, signals, last-resort errors), output
that may fail, and input lines that may be anything. The C has no
counterpart: it reads with scanf and ignores failures.
"""

import functools
import os
import signal
import sys

from .files import FileError, signals_held

EXIT_FAILURE = 1
EXIT_USAGE = 2          # argparse's status for a bad command line
EXIT_CTRL_C = 128 + signal.SIGINT   # the shell's status for a Ctrl-C
MAX_LINE_BYTES = 1024   # longer input lines are cut, the rest thrown away
MAX_SKIP_BYTES = 1 << 20  # a "line" longer than this (no newline) ends the input


class Stopped(KeyboardInterrupt):
    """Raised when SIGTERM or SIGHUP arrives, so that every clean-up written
    for Ctrl-C (a KeyboardInterrupt) runs for them too."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def _raise_stopped(signum, frame):
    raise Stopped(signum)


def exit_status_of(stop):
    """Return the shell's exit status for a stop: 128 + the signal number."""
    return 128 + getattr(stop, "signum", signal.SIGINT)


def say(prog, message):
    """Print 'PROG: MESSAGE' as one line on stderr, whatever happens."""
    try:
        sys.stderr.write("%s: %s\n" % (prog, message))
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass   # stderr itself is gone: nothing more can be said


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


_stop_note = [""]   # what the running command adds when it is stopped


def on_stop(note):
    """Set what the running command says after 'interrupted' if a signal
    stops it from now on, such as '; ttt_nn.bin was not written'."""
    _stop_note[0] = note


def command(prog):
    """Decorator for a command's main(argv): prepares the streams and the
    signals, and turns any stop or system failure into one line on stderr.
    """
    def wrap(main):
        @functools.wraps(main)
        def wrapper(argv=None):
            _open_closed_streams()
            previous = {sig: signal.signal(sig, _raise_stopped) for sig in stop_signals()}
            on_stop("")
            try:
                os.getcwd()
                status = main(argv)
                sys.stdout.flush()   # a full disk or closed pipe shows here
                return status
            except KeyboardInterrupt as stop:
                with signals_held():   # a second Ctrl-C must not cut the message
                    _end_terminal_line()   # the one the ^C was echoed on
                    if _stop_note[0]:
                        say(prog, "interrupted" + _stop_note[0])
                    else:
                        say(prog, "stopped" if isinstance(stop, Stopped) else "interrupted")
                return exit_status_of(stop)
            except FileError as e:
                say(prog, "error: %s" % e)
                return EXIT_FAILURE
            except OSError as e:
                # Output that cannot be written: say so, unless the reader
                # simply went away (`ttt-eval ... | head`), as Unix tools do.
                if isinstance(e, FileNotFoundError) and e.filename is None:
                    say(prog, "error: the current folder no longer exists")
                elif not isinstance(e, BrokenPipeError):
                    where = "%s: " % e.filename if e.filename else ""
                    say(prog, "error: %s%s" % (where, e.strerror or e))
                return EXIT_FAILURE
            except MemoryError:
                say(prog, "error: out of memory")
                return EXIT_FAILURE
            except Exception as e:   # noqa: BLE001 (the promise: never a traceback)
                # A bug or an exhausted machine: still one line.
                say(prog, "error: %s" % ((str(e).splitlines() or [type(e).__name__])[0]))
                return EXIT_FAILURE
            finally:
                _silence_stdout()
                for sig, handler in previous.items():   # for callers in-process
                    signal.signal(sig, handler)
        return wrapper
    return wrap


def _open_closed_streams():
    """Give a closed stdin, stdout or stderr (`>&-`, as daemons run
    commands) /dev/null, so that reading and printing work as usual; then
    let any file name print in any locale."""
    for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)
            except OSError:
                continue
        if getattr(sys, name) is None:
            setattr(sys, name, open(fd, mode, closefd=False))
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def _end_terminal_line():
    try:
        if sys.stdout.isatty():
            sys.stdout.write("\n")
            sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        pass


def _silence_stdout():
    """Point stdout at /dev/null if writing to it fails, so that the flush
    at exit cannot raise again (the recipe of Python's signal docs)."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass


class Output:
    """A text stream for progress: if writing fails (full disk, closed
    pipe), says so once on stderr and drops the rest, so that the work
    itself goes on. `failed` tells whether that happened.
    """

    def __init__(self, stream, name, prog):
        self.stream, self.name, self.prog, self.failed = stream, name, prog, False

    def write(self, text):
        """Write `text` and flush; after a failure, do nothing."""
        if self.failed:
            return
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError) as e:
            self.fail(e)

    def flush(self):
        """Nothing to do: write() flushes."""

    def fail(self, error):
        """Record that writing failed with `error`, and say it once."""
        if not self.failed:
            self.failed = True
            say(self.prog, "cannot write to %s (%s); going on without it"
                % (self.name, getattr(error, "strerror", None) or error))
        if self.stream is sys.stdout:
            _silence_stdout()

    def line(self, text=""):
        """Write `text` and a newline."""
        self.write(text + "\n")


def read_line(stdin):
    """Read one line of input; return (text, cut).

    `stdin` is a binary stream (text streams work too). Any bytes are
    accepted: invalid UTF-8 becomes U+FFFD, a byte-order mark and the
    surrounding white space are dropped. A line longer than MAX_LINE_BYTES
    is cut there and the rest of it skipped; then `cut` is True. Raises
    EOFError at the end of input, and also after MAX_SKIP_BYTES without a
    newline (an endless stream such as /dev/zero is not a person typing).
    """
    line = stdin.readline(MAX_LINE_BYTES + 1)
    if not line:
        raise EOFError
    cut, skipped = len(line) > MAX_LINE_BYTES, 0
    while line[-1:] not in ("\n", b"\n"):
        rest = stdin.readline(65536)
        if not rest:
            break
        skipped += len(rest)
        if skipped > MAX_SKIP_BYTES:
            raise EOFError
        cut, line = True, line[:MAX_LINE_BYTES] + rest[-1:]
    if isinstance(line, bytes):
        line = line.decode("utf-8", "replace")
    return line.replace("\ufeff", "").strip(), cut
