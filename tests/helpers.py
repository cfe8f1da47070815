"""Shared test helpers: paths, a temporary folder, and running the commands
in-process (fast) or as real subprocesses (for signals and streams)."""

import contextlib
import io
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

from ttt_rl.lab import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src")
DATA = os.path.join(ROOT, "tests", "data")
C_FILE = os.path.join(DATA, "c_trained.bin")   # C `train 150000`, seed 42


def run_module(module, *args, stdin="", timeout=120, cwd=None, env=None):
    """Run `python -m ttt_rl.MODULE ARGS` with src/ on the path.

    Returns the CompletedProcess, with text stdout and stderr (bytes if
    `stdin` is bytes).
    """
    env = dict(os.environ, PYTHONPATH=SRC, **(env or {}))
    return subprocess.run([sys.executable, "-m", "ttt_rl." + module, *args],
                          input=stdin, capture_output=True, text=not isinstance(stdin, bytes),
                          env=env, timeout=timeout, cwd=cwd)


def run_main(main, *argv, stdin=b""):
    """Call a command's main(argv) in this process; returns (status,
    stdout text, stderr text). `stdin` is the bytes it reads."""
    out, err = io.StringIO(), io.StringIO()
    fake_stdin = io.TextIOWrapper(io.BytesIO(stdin))
    with mock.patch("sys.stdin", fake_stdin), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        try:
            status = main(list(argv))
        except SystemExit as e:   # argparse: a usage error, --help, --version
            status = e.code
    return status, out.getvalue(), err.getvalue()


def ctrl_c_after(games, presses=1):
    """Patch the C's training loop (the monte-carlo entry of ttt_rl.lab.cli.RULES, which
    cli.train looks up for every command and worker) so that Ctrl-C is pressed `presses`
    times right after game `games`."""
    settings, real, learner = cli.RULES[cli.MONTE_CARLO]

    def training(net, num_games, rng, side, settings, report, **kwargs):
        def pressing(net, played, winner, side):
            if played == games:
                for _ in range(presses):
                    os.kill(os.getpid(), signal.SIGINT)
            return report(net, played, winner, side)
        return real(net, num_games, rng, side, settings, report=pressing, **kwargs)
    return mock.patch.dict(cli.RULES, {cli.MONTE_CARLO: (settings, training, learner)})


def read(path):
    with open(path, "rb") as f:
        return f.read()


def _reap(proc):
    """Kill a started process (and, if it leads its own session, every
    process in it) and close its pipes."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if os.getpgid(proc.pid) == proc.pid:
            os.killpg(proc.pid, signal.SIGKILL)
    with proc:   # closes the pipes and waits
        proc.kill()


class TempDirTest(unittest.TestCase):
    """A test case with a fresh temporary folder, self.tmp."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tmp = tmp.name

    def start_module(self, module, *args, **kwargs):
        """Start `python -m ttt_rl.MODULE ARGS` in the background (a Popen)
        with src/ on the path. Whatever the test's outcome, the process and
        its workers are killed and its pipes closed at cleanup, so that no
        process outlives the test and no pipe is left to the garbage
        collector (PyPy would warn about it in a later test)."""
        env = dict(os.environ, PYTHONPATH=SRC, **kwargs.pop("env", {}))
        kwargs.setdefault("stdout", subprocess.PIPE)
        kwargs.setdefault("stderr", subprocess.PIPE)
        kwargs.setdefault("stdin", subprocess.DEVNULL)
        # Ctrl-C as at a terminal, even if this suite runs as a background
        # job (where the shell hands SIGINT down as ignored).
        kwargs.setdefault("preexec_fn", lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        proc = subprocess.Popen([sys.executable, "-m", "ttt_rl." + module, *args],
                                env=env, **kwargs)
        self.addCleanup(_reap, proc)
        return proc

    def path(self, name):
        return os.path.join(self.tmp, name)

    def copy_of_c_file(self, name="net.bin"):
        shutil.copy(C_FILE, self.path(name))
        return self.path(name)

    def assert_one_line(self, stderr, pattern):
        """stderr is exactly one line, matching `pattern`, and no traceback."""
        text = stderr.decode() if isinstance(stderr, bytes) else stderr
        self.assertNotIn("Traceback", text)
        self.assertEqual(len(text.splitlines()), 1, text)
        self.assertRegex(text, pattern)


def assert_every_line_wins(test, rules):
    """Check, in `test` (a TestCase), that each line of `rules` (game.py or connect4.py, its
    LINES) filled by X, or by O, is a win for check_game_over and for is_winning_move at each
    of its cells."""
    for symbol in ("X", "O"):
        for line in rules.LINES:
            board = rules.init_game()
            for cell in line:
                board[cell] = symbol
            test.assertEqual(rules.check_game_over(board), symbol, line)
            for cell in line:
                test.assertTrue(rules.is_winning_move(board, cell), (line, cell))
