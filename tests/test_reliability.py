"""Hostile conditions: every failure is one line on stderr, never a traceback,
and a training run is never lost."""

import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from unittest import mock

from ttt_rl import weights
from ttt_rl.cli import Stopped
from ttt_rl.nn import init_neural_network

from .helpers import DATA, SRC, run_module

C_FILE = os.path.join(DATA, "c_trained.bin")
HAS_DEV_FULL = os.path.exists("/dev/full")


def start(module, *args, **kwargs):
    """Start `python -m ttt_rl.MODULE ARGS` in the background."""
    env = dict(os.environ, PYTHONPATH=SRC, **kwargs.pop("env", {}))
    return subprocess.Popen([sys.executable, "-m", "ttt_rl." + module, *args],
                            stdout=kwargs.pop("stdout", subprocess.PIPE),
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            env=env, **kwargs)


def read(path):
    with open(path, "rb") as f:
        return f.read()


class Base(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tmp = tmp.name
        self.out = os.path.join(self.tmp, "w.bin")

    def assert_one_line(self, stderr, pattern):
        text = stderr.decode() if isinstance(stderr, bytes) else stderr
        self.assertNotIn("Traceback", text)
        self.assertEqual(len(text.splitlines()), 1, text)
        self.assertRegex(text, pattern)


@unittest.skipUnless(HAS_DEV_FULL, "needs /dev/full")
class FullDiskTest(Base):
    """A failing stdout or curve costs the progress text, never the weights."""

    def test_train_with_stdout_on_a_full_disk_still_saves(self):
        with open("/dev/full", "w") as full:
            proc = start("train", "12000", self.out, "--seed", "1", stdout=full)
            _, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 1)
        self.assert_one_line(err, r"^ttt-train: cannot write to stdout \(No space left")
        self.assertEqual(os.path.getsize(self.out), weights.FILE_SIZE)

    def test_train_with_curve_on_a_full_disk_still_saves(self):
        proc = run_module("train", "12000", self.out, "--seed", "1", "--curve", "/dev/full")
        self.assertEqual(proc.returncode, 1)
        self.assert_one_line(proc.stderr, r"cannot write to /dev/full")
        self.assertIn("Neural network saved to", proc.stdout)
        self.assertEqual(os.path.getsize(self.out), weights.FILE_SIZE)

    def test_play_and_eval_on_a_full_disk(self):
        for module, args in (("play", [C_FILE]), ("evaluate", [C_FILE])):
            with open("/dev/full", "w") as full:
                proc = start(module, *args, stdout=full)
                _, err = proc.communicate(timeout=60)
            self.assertEqual(proc.returncode, 1, module)
            self.assert_one_line(err, r"^ttt-\w+: error: No space left on device")


class ClosedPipeTest(Base):
    """A reader that goes away costs the progress text, not the training."""

    def test_train_keeps_training_when_its_reader_goes(self):
        proc = start("train", "12000", self.out, "--seed", "1")
        proc.stdout.close()   # like `ttt-train | head -0`
        err = proc.stderr.read()
        proc.stderr.close()
        self.assertEqual(proc.wait(timeout=120), 1)
        self.assert_one_line(err, r"cannot write to stdout \(Broken pipe\); going on")
        self.assertEqual(os.path.getsize(self.out), weights.FILE_SIZE)


class EncodingTest(Base):
    """Any bytes as input, any file name, in a strict UTF-8 locale."""

    STRICT = {"PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"}

    def run_strict(self, module, *args, stdin=b""):
        env = dict(os.environ, PYTHONPATH=SRC, **self.STRICT)
        return subprocess.run([sys.executable, "-m", "ttt_rl." + module, *args],
                              input=stdin, capture_output=True, env=env, timeout=60)

    def test_non_utf8_input_is_a_bad_move(self):
        moves = b"\xff\xfe\n" + "4\n".encode("utf-16") + b"\n\xe9\n\xef\xbb\xbfq\n"
        proc = self.run_strict("play", C_FILE, stdin=moves)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stderr, b"")
        self.assertGreaterEqual(proc.stdout.count(b"is not a position"), 3)

    def test_non_utf8_file_name(self):
        name = os.path.join(self.tmp.encode(), b"\xff\xfe.bin")
        for module in ("play", "evaluate"):
            proc = self.run_strict(module, os.fsdecode(name))
            self.assertEqual(proc.returncode, 1)
            self.assert_one_line(proc.stderr, r"cannot read .*\\udcff\\udcfe\.bin: No such")
        proc = self.run_strict("train", "10", os.fsdecode(name), "--seed", "1")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(os.path.exists(name))
        self.assertIn(b"saved to", proc.stdout)


class SizeTest(Base):
    """Huge numbers and endless lines are refused with a message, in bounded memory."""

    def test_huge_number_and_endless_line(self):
        stdin = b"9" * 1000 + b"\n" + b"7" * 5000000 + b"\nq\n"
        proc = subprocess.run([sys.executable, "-m", "ttt_rl.play", C_FILE], input=stdin,
                              capture_output=True, timeout=60,
                              env=dict(os.environ, PYTHONPATH=SRC))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stderr, b"")
        self.assertIn(b"off the board", proc.stdout)
        self.assertIn(b"That line is too long; it was ignored.", proc.stdout)
        self.assertLess(len(proc.stdout), 10000)   # the long text is not echoed


class SignalTest(Base):
    """SIGTERM and SIGHUP are handled like Ctrl-C: one line, 128 + N, no file."""

    def check_stop(self, sig):
        proc = start("train", "10000000", self.out, "--seed", "1")
        proc.stdout.readline()   # training has started
        time.sleep(0.3)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 128 + sig)
        self.assert_one_line(err, r"^ttt-train: interrupted; .*w\.bin was not written$")
        self.assertEqual(os.listdir(self.tmp), [])

    def test_sigterm(self):
        self.check_stop(signal.SIGTERM)

    @unittest.skipUnless(hasattr(signal, "SIGHUP"), "no SIGHUP here")
    def test_sighup(self):
        self.check_stop(signal.SIGHUP)

    def test_play_stopped_by_sigterm(self):
        proc = subprocess.Popen([sys.executable, "-m", "ttt_rl.play", C_FILE],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=dict(os.environ, PYTHONPATH=SRC))
        proc.stdout.readline()
        time.sleep(0.3)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 128 + signal.SIGTERM)
        self.assert_one_line(err, r"^ttt-play: stopped$")


@unittest.skipUnless(hasattr(signal, "pthread_sigmask"), "signals cannot be held here")
class SaveUnderSignalTest(Base):
    """A stop signal during save waits: the new file is complete, no temp file."""

    def test_signal_during_replace_lands_after_the_save(self):
        weights.save(init_neural_network(random.Random(1)), self.out)
        old = read(self.out)
        real_replace = os.replace

        def replace_then_signal(src, dst):
            os.kill(os.getpid(), signal.SIGTERM)   # arrives mid-save
            real_replace(src, dst)

        def stop(signum, frame):
            raise Stopped(signum)

        previous = signal.signal(signal.SIGTERM, stop)
        self.addCleanup(signal.signal, signal.SIGTERM, previous)
        new_net = init_neural_network(random.Random(2))
        with self.assertRaises(Stopped):
            with weights.signals_held():
                with mock.patch("os.replace", replace_then_signal):
                    weights.save(new_net, self.out)
                saved = True   # reached: the signal waited for the save
        self.assertTrue(saved)
        self.assertNotEqual(read(self.out), old)
        self.assertEqual(os.listdir(self.tmp), ["w.bin"])


class OutputPathTest(Base):
    """OUTPUT is checked for real before training; links are followed, not replaced."""

    def test_bad_outputs_fail_before_training(self):
        for path in ("", self.out + "/", os.path.join(self.tmp, "x" * 300),
                     os.path.join(self.tmp, "missing", "..", "x.bin")):
            proc = run_module("train", "100000000", path)
            self.assertEqual(proc.returncode, 1, path)
            self.assert_one_line(proc.stderr, r"^ttt-train: error: ")
            self.assertEqual(proc.stdout, "")   # nothing trained

    def test_symlink_output_writes_its_target(self):
        target = os.path.join(self.tmp, "real.bin")
        link = os.path.join(self.tmp, "link.bin")
        os.symlink(target, link)
        proc = run_module("train", "10", link, "--seed", "1")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(os.path.islink(link))
        self.assertEqual(os.path.getsize(target), weights.FILE_SIZE)

    def test_dev_stdout_stays_a_link(self):
        if not os.path.islink("/dev/stdout"):
            self.skipTest("/dev/stdout is not a symlink here")
        with open(os.path.join(self.tmp, "model.bin"), "w") as f:
            proc = start("train", "10", "/dev/stdout", "--seed", "1", stdout=f)
            proc.communicate(timeout=60)
        self.assertTrue(os.path.islink("/dev/stdout"))

    def test_curve_must_not_be_the_output(self):
        proc = run_module("train", "10", self.out, "--curve", self.out)
        self.assertEqual(proc.returncode, 1)
        self.assert_one_line(proc.stderr, "is the weights file itself")

    def test_seed_takes_plain_integers_only(self):
        for bad in (" 7", "\uff11", "1_0", "1e3", "--"):
            proc = run_module("train", "10", self.out, "--seed=" + bad)
            self.assertEqual(proc.returncode, 2, bad)
            self.assert_one_line(proc.stderr, "argument --seed")
        self.assertEqual(run_module("train", "10", self.out, "--seed", "-7").returncode, 0)

    def test_deleted_working_folder(self):
        code = ("import os, tempfile, sys; d = tempfile.mkdtemp(); os.chdir(d); os.rmdir(d);"
                "from ttt_rl.train import main; sys.exit(main(['10', 'x.bin']))")
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=dict(os.environ, PYTHONPATH=SRC), timeout=60)
        self.assertEqual(proc.returncode, 1)
        self.assert_one_line(proc.stderr, "current folder no longer exists")


if __name__ == "__main__":
    unittest.main()
