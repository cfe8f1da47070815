"""What the commands share: arguments, output that may fail, input that may
be anything, and stopping cleanly.

The promise of every command: bad input or a failing system gets one line
on stderr and a non-zero exit status, never a traceback. The C has no
counterpart: it reads its arguments with atoi and ignores failures.
"""

import argparse
import functools
import os
import signal
import sys

from .weights import WeightsFileError, save, signals_held

EXIT_FAILURE = 1
EXIT_USAGE = 2          # argparse's status for a bad command line
MAX_LINE_BYTES = 1024   # longer input lines are cut, the rest thrown away
MAX_DIGITS = 18         # integers on the command line stay below 10**18


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit status 2),
    and the epilog (examples) keeps its line breaks."""

    def __init__(self, **kwargs):
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(**kwargs)

    def error(self, message):
        self.exit(EXIT_USAGE, "%s: error: %s (try --help)\n" % (self.prog, message))

    def parse_args(self, args=None, namespace=None):
        result = super().parse_args(args, namespace)
        # Python < 3.13 reads `--seed=--` as an empty list, not as '--'.
        for action in self._actions:
            if action.nargs is None and isinstance(getattr(result, action.dest, None), list):
                self.error("argument %s: expected one value" % "/".join(action.option_strings))
        return result


def count(text):
    """argparse type: a non-negative integer written in ASCII digits only.

    Returns the int; raises argparse.ArgumentTypeError for anything else,
    including ' 7', '1_0', '1e6' and non-ASCII digits, which int() takes.
    """
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError("%r is not a non-negative integer" % text[:40])
    if len(text) > MAX_DIGITS:
        raise argparse.ArgumentTypeError("%s... is too large" % text[:20])
    return int(text)


def integer(text):
    """argparse type: like count, but a leading '-' is allowed (seeds)."""
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()):
        raise argparse.ArgumentTypeError("%r is not an integer" % text[:40])
    return -count(digits) if text.startswith("-") else count(digits)


def positive_float(text):
    """argparse type: a finite float > 0 (a learning rate)."""
    value = finite_float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("%r is not greater than 0" % text)
    return value


def finite_float(text):
    """argparse type: a finite float, such as a reward."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number" % text[:40]) from None
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError("%r is not a finite number" % text[:40])
    return value


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
    except (OSError, ValueError):
        pass   # stderr itself is gone: nothing more can be said


def command(prog):
    """Decorator for a command's main(argv): prepares the streams and the
    signals, and turns any stop or system failure into one line on stderr.
    """
    def wrap(main):
        @functools.wraps(main)
        def wrapper(argv=None):
            for stream in (sys.stdout, sys.stderr):
                if hasattr(stream, "reconfigure"):   # any file name prints
                    stream.reconfigure(errors="backslashreplace")
            stops = [getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n)]
            previous = {sig: signal.signal(sig, _raise_stopped) for sig in stops}
            try:
                os.getcwd()
                status = main(argv)
                sys.stdout.flush()   # a full disk or closed pipe shows here
                return status
            except KeyboardInterrupt as stop:
                _end_terminal_line()   # the one the ^C was echoed on
                say(prog, "stopped" if isinstance(stop, Stopped) else "interrupted")
                return exit_status_of(stop)
            except FileNotFoundError as e:
                if e.filename is None:   # os.getcwd(): the folder was deleted
                    say(prog, "error: the current folder no longer exists")
                else:
                    say(prog, "error: %s: %s" % (e.filename, e.strerror))
                return EXIT_FAILURE
            except OSError as e:
                # Output that cannot be written: say so, unless the reader
                # simply went away (`ttt-eval ... | head`), as Unix tools do.
                if not isinstance(e, BrokenPipeError):
                    say(prog, "error: %s" % (e.strerror or e))
                return EXIT_FAILURE
            except Exception as e:   # noqa: BLE001 (the promise: never a traceback)
                # A bug or an exhausted machine: still one line, naming it.
                say(prog, "error: %s: %s" % (type(e).__name__, (str(e).splitlines() or [""])[0]))
                return EXIT_FAILURE
            finally:
                _silence_stdout()
                for sig, handler in previous.items():   # for callers in-process
                    signal.signal(sig, handler)
        return wrapper
    return wrap


def save_and_say(nn, target, prog, message, write=print):
    """Save `nn` to `target` (weights.save), then `write(message)`.

    Stop signals are held until both are done, so a stop during the save
    lands after the message, and the message never contradicts the file.
    Returns True, or says the error in one line and returns False.
    """
    with signals_held():
        try:
            save(nn, target)
        except WeightsFileError as e:
            say(prog, "error: %s" % e)
            return False
        write(message)
    return True


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
        if self.failed:
            return
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError) as e:
            self.fail(e)

    def fail(self, error):
        """Record that writing failed with `error`, and say it once."""
        if not self.failed:
            self.failed = True
            say(self.prog, "cannot write to %s (%s); going on without it"
                % (self.name, getattr(error, "strerror", None) or error))
        if self.stream is sys.stdout:
            _silence_stdout()

    def line(self, text=""):
        self.write(text + "\n")


def read_line(stdin):
    """Read one line of input; return (text, cut).

    `stdin` is a binary stream (text streams work too). Any bytes are
    accepted: invalid UTF-8 becomes U+FFFD, a byte-order mark and the
    surrounding white space are dropped. A line longer than MAX_LINE_BYTES
    is cut there and the rest of it skipped; then `cut` is True. Raises
    EOFError at the end of input.
    """
    line = stdin.readline(MAX_LINE_BYTES + 1)
    if not line:
        raise EOFError
    cut = len(line) > MAX_LINE_BYTES
    while line[-1:] not in ("\n", b"\n"):
        rest = stdin.readline(65536)
        if not rest:
            break
        cut, line = True, line[:MAX_LINE_BYTES] + rest[-1:]
    if isinstance(line, bytes):
        line = line.decode("utf-8", "replace")
    return line.replace("\ufeff", "").strip(), cut
