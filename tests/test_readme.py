"""The README as a specification: its Python example runs as written,
every command in its shell blocks exists (a make target, a module, a
console script, a file), and the calls it counts from `ttt-train` to
backprop are the calls made."""

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

from ttt_rl import nn, train
from ttt_rl.lab import exact

from .helpers import ROOT, SRC

README = os.path.join(ROOT, "README.md")
# Runs the doctest read from stdin; the exit status is the number of failures.
RUN_DOCTEST = """\
import doctest, sys
test = doctest.DocTestParser().get_doctest(sys.stdin.read(), {}, "README", "README.md", 0)
result = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS).run(test)
print(result)
sys.exit(result.failed)
"""


def blocks(language):
    """Return the README's fenced blocks of `language`, as strings."""
    with open(README, encoding="utf-8") as f:
        text = f.read()
    return re.findall(r"```%s\n(.*?)```" % language, text, re.S)


def make_targets():
    with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as f:
        return set(re.findall(r"^([a-z][a-z0-9-]*):", f.read(), re.M))


def console_scripts():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        return set(re.findall(r"^(ttt-[a-z]+) = ", f.read(), re.M))


class ReadmeTest(unittest.TestCase):

    def test_the_python_example_runs(self):
        # As a reader runs it: Python started in the checkout with
        # PYTHONPATH=src (nothing installed), each block checked by doctest.
        examples = blocks("python")
        self.assertTrue(examples)
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        for text in examples:
            self.assertIn(">>> ", text)
            proc = subprocess.run(
                [sys.executable, "-c", RUN_DOCTEST], input=text, capture_output=True,
                text=True, cwd=ROOT, env=dict(env, PYTHONPATH="src"), timeout=60)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            self.assertRegex(proc.stdout, r"^TestResults\(failed=0, attempted=[1-9]")

    def test_every_shell_command_exists(self):
        targets, scripts = make_targets(), console_scripts()
        checked = 0
        for block in blocks("sh"):
            for line in block.splitlines():
                for command in re.split(r"&&|;", line.split("#")[0]):
                    words = shlex.split(command)
                    while words and "=" in words[0]:   # PYTHONPATH=src ...
                        words.pop(0)
                    if not words:
                        continue
                    checked += 1
                    name = words[0]
                    if name == "make":
                        self.assertLessEqual(set(words[1:]), targets, line)
                    elif name.startswith("python") and words[1:2] == ["-m"]:
                        module = words[2]
                        if module.startswith("ttt_rl"):
                            path = os.path.join(SRC, *module.split("."))
                            self.assertTrue(os.path.isfile(path + ".py")
                                            or os.path.isfile(os.path.join(path, "__main__.py")),
                                            line)
                    elif name.startswith("ttt-"):
                        self.assertIn(name, scripts, line)
                    elif name in (".", "source"):
                        continue   # activating a venv
                    else:
                        self.assertIn(name, ("pip", "pipx", "python3", "py"), line)
        self.assertGreater(checked, 10)

    def test_the_calls_from_ttt_train_to_backprop_are_as_counted(self):
        # "From the console script `ttt-train` to a weight update are N calls": the script
        # calls train.main (the command wrapper's run); count the calls on the stack at the
        # first backprop, as sys.setprofile sees them, and the C's 4 at the end.
        with open(README, encoding="utf-8") as f:
            said = re.search(r"`ttt-train` to a weight\s+update are (\d+) calls", f.read())
        self.assertIsNotNone(said)
        chain = []

        def profile(frame, event, arg):
            if event == "call" and frame.f_code is nn.backprop.__code__ and not chain:
                while frame.f_code is not here:
                    chain.append(frame.f_code.co_name)
                    frame = frame.f_back
        here = sys._getframe().f_code
        with tempfile.TemporaryDirectory() as tmp, \
                contextlib.redirect_stdout(io.StringIO()):
            sys.setprofile(profile)
            try:
                train.main(["1", os.path.join(tmp, "w.bin"), "--seed", "1"])
            finally:
                sys.setprofile(None)
        self.assertEqual(len(chain), int(said.group(1)), chain)
        self.assertEqual(chain[:4], ["backprop", "learn_from_game", "play_random_game",
                                     "train_against_random"])

    def test_expert_iterations_calls_are_as_written(self):
        # "From `ttt-train` to the search's forward pass ... and to `backprop` ...": with
        # --jobs 1 the games run in this process, so the profiler sees both chains.
        with open(README, encoding="utf-8") as f:
            text = f.read()
        said = re.search(r"`ttt-train 200 debug.bin --game connect4 --method expert-iteration "
                         r"--jobs 1`"
                         r"(.*?)\n\n", text, re.S)
        self.assertIsNotNone(said)
        chains = {}

        def profile(frame, event, arg):
            for f in (nn.forward_pass, nn.backprop):
                if event == "call" and frame.f_code is f.__code__ and f not in chains:
                    chain, up = [], frame
                    while up.f_code is not here:   # (PyPy's functools.partial is Python)
                        if not up.f_code.co_filename.endswith("functools.py"):
                            chain.append(up.f_code.co_name)
                        up = up.f_back
                    chains[f] = chain[::-1]
        here, results = sys._getframe().f_code, exact.c4_results
        with tempfile.TemporaryDirectory() as tmp, \
                contextlib.redirect_stdout(io.StringIO()), \
                mock.patch.object(exact, "c4_results", lambda player, games=0: results(player, 2)):
            sys.setprofile(profile)
            try:
                train.main(["1", os.path.join(tmp, "c4.bin"), "--seed", "1", "--game",
                            "connect4", "--method", "expert-iteration", "--jobs", "1",
                            "--simulations", "2", "--hidden", "4"])
            finally:
                sys.setprofile(None)
        names = re.findall(r"`(?:[a-z_]+\.)*([a-z_]+)`", said.group(1))
        for chain in chains.values():   # each call named in the README's order
            self.assertEqual([n for n in names if n in chain], chain[1:], (names, chain))
        self.assertEqual(len(chains), 2)


if __name__ == "__main__":
    unittest.main()
