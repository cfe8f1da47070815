"""Every command's whole screen, as a user sees it: each case runs `python -m ttt_rl...` in a
subprocess (standard input a pipe holding the case's text, e.g. "q" to quit at the first
prompt; the current folder a fresh temporary one, so that file names print short) and compares
what it printed, standard output then standard error, with tests/screens/NAME.txt, for
tic-tac-toe and connect four: the first lines of training, the verdict, the legend and the
first prompt of play, ttt-eval, ttt-web's start and stop, two refusals. Each case's exit status
is checked too.

Only what changes from run to run is masked (MASKS): h:mm:ss times, rates, the ETA, a port; and
in the one case without --seed, the seed drawn and the numbers that depend on it (the games'
results, the verdict: the seeded cases check the same lines digit for digit). Python 3.9's
argparse heading "optional arguments:" reads as 3.10's "options:". Every other character must
match, trailing spaces included, so a placeholder left in, a doubled line or a lost line fails.
Every output is also checked for unfilled placeholders (%s, {}, None, ...) and for a line
repeated twice in a row where a board or a probability grid does not explain it.

A screen file is the command line a user would type, its standard output, a line
"--- stderr ---", then its standard error ("\\ No newline at end" marks an output whose last line
is unfinished). On a mismatch the failure shows a unified diff.

To write the files instead of comparing (after a deliberate change of a screen), run
    TTT_UPDATE_SCREENS=1 PYTHONPATH=src python3 -m unittest tests.test_screens
then read every changed file as a user would before committing it.

The cases run in parallel threads (one subprocess each) when the class is set up, the slowest
first; each test method checks one case's result.
"""

import collections
import concurrent.futures
import difflib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import unittest
import urllib.request

from .helpers import C_FILE, ROOT, SRC

SCREENS = os.path.join(ROOT, "tests", "screens")
UPDATE = bool(os.environ.get("TTT_UPDATE_SCREENS"))
STDERR = "--- stderr ---\n"
NO_NEWLINE = "\\ No newline at end\n"

# (pattern, replacement), applied in this order, to standard output and standard error.
MASKS = (
    (r"\bETA (at most )?\d+:\d\d:\d\d\b", r"ETA \1<ETA>"),   # before <TIME>: the same form
    (r"\b\d+:\d\d:\d\d\b", "<TIME>"),                        # elapsed, Training time
    (r"\b\d+ games/s\b", "<RATE> games/s"),                  # the progress line
    (r"(\(\d+ (?:games|sweeps), )[\d.]+ a second\)", r"\1<RATE> a second)"),   # Training time
    (r"\b\d+\.\d s a sweep\b", "<RATE> s a sweep"),          # policy iteration's line
    (r"\b\d+ s a round\b", "<RATE> s a round"),              # expert iteration's line
    (r"\bhttp://127\.0\.0\.1:\d+/", "http://127.0.0.1:<PORT>/"),   # ttt-web --port 0
)
# Only where a seed is drawn (no --seed): the seed, the same number twice.
DRAWN_SEED = (r"^Seed: (\d+) \(repeat with --seed \1\)$",
              "Seed: <SEED> (repeat with --seed <SEED>)")
# Only where a seed is drawn: the numbers of the lines that depend on the seed drawn (the
# games' results, the verdict). The seeded cases check the same lines digit for digit.
SEEDED_LINE = (r"^(Games: \d+, |Exact as [XO] vs random [XO]: |Every [XO] strategy: "
               r"|Optimal moves: |Under any play: )")

# Python 3.9's argparse (and PyPy's, 3.9) titles the options "optional arguments:", 3.10's
# "options:": the screen files hold the newer title.
OLD_ARGPARSE = (r"^optional arguments:$", "options:") if sys.version_info < (3, 10) else None

# Placeholders a format string left unfilled: %s, %d, %5.1f, %(name)s, a %% not halved,
# {}, {0}, {name}, and None printed for a missing value.
PLACEHOLDER = re.compile(r"%(\(\w+\))?[-+#0]*\d*(\.\d+)?[sdirfgxX]\b|%%|\{\w*\}|\bNone\b")
# Lines that may come twice in a row: a connect-four board's rows, a probability grid's rows.
REPEATABLE = re.compile(r"^[.XO]{7}$|^( +\d+\.\d%[*#]*)+ $")

Case = collections.namedtuple("Case", "name argv stdin status files drawn")
# stdin, the exit status, files to put in the folder, whether the command draws a seed
Case.__new__.__defaults__ = ("", 0, (), False)

C_COPY = "c_trained.bin"   # files: a copy of tests/data/c_trained.bin (C `train 150000`)
NOT_WEIGHTS = "These are not weights.\n"

# The slowest first: they start first.
CASES = (
    Case("train-policy-iteration",
         ["ttt_rl.train", "2", "pi.bin", "--method", "policy-iteration", "--seed", "1"]),
    Case("train-connect4", ["ttt_rl.train", "20", "c4.bin", "--game", "connect4", "--seed", "1",
                            "--hidden", "4"]),
    Case("train-expert-iteration",
         ["ttt_rl.train", "2", "ei.bin", "--game", "connect4", "--method", "expert-iteration",
          "--simulations", "4", "--hidden", "4", "--jobs", "1", "--seed", "1"]),
    Case("train-drawn-seed", ["ttt_rl.train", "30", "out.bin"], drawn=True),
    Case("train-untrained", ["ttt_rl.train", "0", "out.bin", "--seed", "1"]),
    Case("ttt-rl", ["ttt_rl", "30", "--seed", "1"], "q\n"),
    Case("eval", ["ttt_rl.lab.ttt_eval", "ttt_nn.bin"], files=(("ttt_nn.bin", C_COPY),)),
    Case("web", ["ttt_rl.web", "ttt_nn.bin", "--port", "0"], files=(("ttt_nn.bin", C_COPY),)),
    Case("play", ["ttt_rl.play", "c_trained.bin"], "q\n", files=(("c_trained.bin", C_COPY),)),
    Case("play-side-x", ["ttt_rl.play", "ttt_nn.bin", "--side", "X"], "q\n",
         files=(("ttt_nn.bin", C_COPY),)),
    # ei.bin: the file train-expert-iteration wrote (this case waits for it).
    Case("play-connect4-search", ["ttt_rl.play", "ei.bin", "--side", "X", "--search", "20"],
         "q\n", files=(("ei.bin", "train-expert-iteration"),)),
    Case("eval-help", ["ttt_rl.lab.ttt_eval", "--help"]),
    Case("train-bad-game", ["ttt_rl.train", "--game", "chess"], status=2),
    Case("play-not-weights", ["ttt_rl.play", "notweights.txt"], "q\n", status=1,
         files=(("notweights.txt", NOT_WEIGHTS),)),
)
BY_NAME = {case.name: case for case in CASES}
Result = collections.namedtuple("Result", "stdout stderr status folder")


def environment():
    """The user's environment with src/ on the path, and no COLUMNS (or LINES): argparse wraps
    its help at 80 columns, as when the output goes to a pipe."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["PYTHONPATH"] = SRC
    return env


def command_line(case):
    """The command a user types for `case` (a label in the screen file)."""
    line = "$ python -m " + " ".join(case.argv)
    if case.stdin:
        line = "$ echo %s | %s" % (case.stdin.strip(), line[2:])
    return line + ("   (then Ctrl-C)" if case.name == "web" else "") + "\n"


def mask(text, case):
    """`text` with what changes from run to run replaced by <TOKENS>."""
    for pattern, replacement in MASKS:
        text = re.sub(pattern, replacement, text)
    if OLD_ARGPARSE:
        text = re.sub(OLD_ARGPARSE[0], OLD_ARGPARSE[1], text, flags=re.M)
    if case.drawn:
        text = re.sub(DRAWN_SEED[0], DRAWN_SEED[1], text, flags=re.M)
        text = re.sub(SEEDED_LINE + "(.*)$", lambda m: m.group(1) + re.sub(
            r"\d+(\.\d+)?", "<N>", m.group(2)), text, flags=re.M)
    return text


def block(text):
    """`text` as lines of a screen file: an unfinished last line is marked."""
    return text if not text or text.endswith("\n") else text + "\n" + NO_NEWLINE


def screen(case, result):
    """The screen file's text for `case`'s masked result."""
    return (command_line(case) + block(mask(result.stdout, case)) + STDERR
            + block(mask(result.stderr, case)))


class Runs:
    """Runs every case in its own temporary folder, in parallel threads: self.results[name]
    is a Future of the case's Result."""

    def __init__(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.pool = concurrent.futures.ThreadPoolExecutor(max(2, os.cpu_count() or 1))
        self.results = {}
        for case in CASES:   # in order: a case waits only for one submitted before it
            self.results[case.name] = self.pool.submit(self.run, case)

    def close(self):
        self.pool.shutdown(wait=True)
        self.tmp.cleanup()

    def run(self, case):
        folder = os.path.join(self.tmp.name, case.name)
        os.mkdir(folder)
        for name, source in case.files:
            target = os.path.join(folder, name)
            if source == C_COPY:
                shutil.copy(C_FILE, target)
            elif source in BY_NAME:   # a file another case wrote
                shutil.copy(os.path.join(self.results[source].result().folder, name), target)
            else:
                with open(target, "w") as f:
                    f.write(source)
        if case.name == "web":
            return self.run_web(case, folder)
        proc = subprocess.run([sys.executable, "-m", *case.argv], input=case.stdin,
                              capture_output=True, text=True, encoding="utf-8", cwd=folder,
                              env=environment(), timeout=120)
        return Result(proc.stdout, proc.stderr, proc.returncode, folder)

    @staticmethod
    def run_web(case, folder):
        """ttt-web: its first two lines (the start line, the URL), a request that shows it
        serves, then Ctrl-C; it must stop within 5 s. The status is None if it printed no URL
        or did not stop."""
        proc = subprocess.Popen([sys.executable, "-m", *case.argv], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                encoding="utf-8", cwd=folder, env=environment(),
                                # Ctrl-C as at a terminal, even if the suite runs in the
                                # background (where the shell hands SIGINT down ignored).
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        watchdog = threading.Timer(60, proc.kill)   # if it never prints its two lines
        watchdog.start()
        try:
            head = proc.stdout.readline() + proc.stdout.readline()
            port = re.search(r"http://127\.0\.0\.1:(\d+)/", head)
            if not port:   # it did not start: what it said, and no status
                proc.kill()
                out, err = proc.communicate()
                return Result(head + out, err, None, folder)
            url = "http://127.0.0.1:%s/api/state" % port.group(1)
            with urllib.request.urlopen(url, timeout=10) as reply:
                reply.read()   # it serves: Ctrl-C now finds it in serve_forever
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=5)
            status = proc.returncode
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            status = None
        finally:
            watchdog.cancel()
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        return Result(head + out, err, status, folder)


class ScreensTest(unittest.TestCase):
    """Each command's screen against tests/screens/NAME.txt."""

    runs = None

    @classmethod
    def setUpClass(cls):
        cls.runs = Runs()

    @classmethod
    def tearDownClass(cls):
        cls.runs.close()

    def check(self, name):
        case = BY_NAME[name]
        result = self.runs.results[name].result()
        self.assertIsNotNone(result.status, "%s printed no URL or did not stop within 5 s of "
                             "Ctrl-C:\n%s%s" % (name, result.stdout, result.stderr))
        self.assertEqual(result.status, case.status,
                         "exit status of %s\n%s" % (command_line(case), result.stderr))
        for stream in (result.stdout, result.stderr):
            self.check_generic(stream)
        actual = screen(case, result)
        path = os.path.join(SCREENS, name + ".txt")
        if UPDATE:
            os.makedirs(SCREENS, exist_ok=True)
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(actual)
            return
        with open(path, encoding="utf-8", newline="") as f:
            expected = f.read()
        if actual != expected:
            diff = "".join(difflib.unified_diff(
                expected.splitlines(True), actual.splitlines(True),
                "tests/screens/%s.txt" % name, "the screen now (masked)"))
            self.fail("the screen of %s differs (TTT_UPDATE_SCREENS=1 rewrites the file):\n%s"
                      % (command_line(case).strip(), diff))

    def check_generic(self, text):
        """In an output as printed (not masked): no placeholder left unfilled, no line twice
        in a row (but a board's, a grid's)."""
        lines = text.splitlines()
        for number, line in enumerate(lines, 1):
            self.assertIsNone(PLACEHOLDER.search(line),
                              "a placeholder at line %d: %r" % (number, line))
            if number > 1 and line == lines[number - 2] and not REPEATABLE.match(line):
                self.fail("line %d repeats the line before it: %r" % (number, line))

    # Tic-tac-toe: ttt-rl, ttt-train, ttt-play, ttt-eval, ttt-web.

    def test_ttt_rl_trains_says_the_verdict_then_plays(self):
        """The C's training lines, the verdict, the legend, the first prompt, the end."""
        self.check("ttt-rl")

    def test_train_untrained(self):
        """GAMES 0: the untrained net's line, the save, the verdict."""
        self.check("train-untrained")

    def test_train_without_seed_prints_the_seed_drawn(self):
        self.check("train-drawn-seed")

    def test_train_policy_iteration(self):
        """The sweeps' lines, and the verdict for both sides."""
        self.check("train-policy-iteration")

    def test_play(self):
        """The loaded line, the legend, the welcome, the board, the first prompt, the score."""
        self.check("play")

    def test_play_side_x_the_net_moves_first(self):
        """The net's probability grid, its move, then the first prompt."""
        self.check("play-side-x")

    def test_eval(self):
        self.check("eval")

    def test_eval_help(self):
        self.check("eval-help")

    def test_web_starts_and_stops_on_ctrl_c(self):
        self.check("web")

    # Connect four.

    def test_train_connect4_the_cs_rule(self):
        """The C's rule on connect four: its verdict plays 1000 games a side."""
        self.check("train-connect4")

    def test_train_connect4_expert_iteration(self):
        """One short round of expert iteration, in this process (--jobs 1)."""
        self.check("train-expert-iteration")

    def test_play_connect4_with_search(self):
        """The net's grid, its value line, the search's grid, the first prompt."""
        self.check("play-connect4-search")

    # Refusals: one line, a status.

    def test_train_bad_flag(self):
        """argparse's usage and one error line, exit 2."""
        self.check("train-bad-game")

    def test_play_a_file_that_is_not_weights(self):
        """One line naming it, exit 1."""
        self.check("play-not-weights")

    # The checks themselves.

    def test_the_checks_catch_a_placeholder_and_a_doubled_line(self):
        for text in ("Saved to %s\n", "Games: {}\n", "Games: {0}\n", "win None\n",
                     "Time: %d s\n", "Training complete!\nTraining complete!\n",
                     "\n\n", "50.0%% won\n"):
            with self.assertRaises(AssertionError, msg=text):
                self.check_generic(text)
        self.check_generic(".......\n.......\n  0.2%   0.2%   0.2% \n  0.2%   0.2%   0.2% \n"
                           "0.0% drawn, 1.5% won, {O,X,both}\n")

    def test_the_masks_hide_only_what_varies(self):
        case = BY_NAME["train-drawn-seed"]
        text = ("Seed: 12 (repeat with --seed 12)\n"
                "Games: 2, Wins: 1 (50.0%) [0:00:03, 946 games/s, ETA 1:02:03]\n"
                "Sweep 1: 3 positions not yet stable [0:00:00, 0.4 s a sweep, ETA at most "
                "0:00:00]\n"
                "Training time: 0:00:02 (30 games, 1420 a second)\n"
                "Open http://127.0.0.1:35793/ (Ctrl-C stops)\n")
        self.assertEqual(mask(text, case), (
            "Seed: <SEED> (repeat with --seed <SEED>)\n"
            "Games: 2, Wins: <N> (<N>%) [<TIME>, <RATE> games/s, ETA <ETA>]\n"
            "Sweep 1: 3 positions not yet stable [<TIME>, <RATE> s a sweep, ETA at most "
            "<ETA>]\n"
            "Training time: <TIME> (30 games, <RATE> a second)\n"
            "Open http://127.0.0.1:<PORT>/ (Ctrl-C stops)\n"))
        seeded = BY_NAME["train-untrained"]
        self.assertEqual(mask("Seed: 12 (repeat with --seed 12)\nGames: 2\n", seeded),
                         "Seed: 12 (repeat with --seed 12)\nGames: 2\n")


if __name__ == "__main__":
    unittest.main()
