"""What the commands share to keep their promise: bad input or a failing
system gets one line on stderr and a non-zero exit status, never a
traceback.

Here: the @command wrapper (streams, signals, last-resort errors) and
output that may fail. The C has no counterpart: it ignores failures.
"""

import functools
import os
import signal
import sys

from ..weights import FileError
from .files import signals_held
from .interrupt import Stopped, exit_status_of, raise_stopped, stop_signals

EXIT_FAILURE = 1
EXIT_USAGE = 2          # argparse's status for a bad command line
EXIT_CTRL_C = 128 + signal.SIGINT   # the shell's status for a Ctrl-C


def printable(text):
    """Return `text` with control characters (newline, escape, ...) written
    as escapes such as \\n and \\x1b, so that a name stays on one line
    and cannot drive the terminal."""
    return "".join(c if c.isprintable() or c == " " else
                   c.encode("unicode_escape").decode("ascii") for c in text)


# How each command can be run from a checkout, for messages that name it.
MODULES = {"ttt-train": "ttt_rl.train", "ttt-play": "ttt_rl.play", "ttt-rl": "ttt_rl",
           "ttt-eval": "ttt_rl.lab.ttt_eval"}


def invoked_as(prog):
    """Return the command `prog` as the user ran it: the console script's
    name ('ttt-train'), or 'python3 -m ttt_rl.train' when it was run as a
    module (sys.argv[0] is then a .py file)."""
    script = os.path.abspath(sys.argv[0] or "")
    if script.endswith(".py") and "ttt_rl" in script.split(os.sep) and prog in MODULES:
        return "python3 -m " + MODULES[prog]
    return prog


def say(prog, message):
    """Print 'PROG: MESSAGE' as one line on stderr, whatever happens; the
    message's control characters are shown as escapes."""
    try:
        sys.stderr.write("%s: %s\n" % (prog, printable(message)))
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass   # stderr itself is gone: nothing more can be said


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
            previous = {sig: signal.signal(sig, raise_stopped) for sig in stop_signals()}
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
                if argv is None and hasattr(signal, "SIGINT"):
                    # The command is over: a late Ctrl-C must not raise in
                    # the interpreter's shutdown (a traceback from threading).
                    signal.signal(signal.SIGINT, signal.SIG_IGN)
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
