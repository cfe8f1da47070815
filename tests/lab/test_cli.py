"""The commands' promise (lab/cli.py): one line on stderr, never a
traceback, with closed streams, under nohup, and for endless input."""

import io
import os
import signal
import subprocess
import sys
import unittest
from unittest import mock

from ttt_rl.lab.cli import Output, command, invoked_as, printable, say
from ttt_rl.lab.interrupt import stop_signals
from ttt_rl.lab.human import read_line

from ttt_rl.weights import FILE_SIZE

from ..helpers import C_FILE, SRC, TempDirTest, run_module


class CommandWrapperTest(unittest.TestCase):
    """Any failure inside a command is one line naming the problem."""

    def run_failing(self, error):
        @command("ttt-test")
        def main(argv):
            raise error

        err = io.StringIO()
        with unittest.mock.patch("sys.stderr", err):
            return main([]), err.getvalue()

    def test_errors_become_one_line_without_class_names(self):
        for error, expected in ((RuntimeError("it broke\nbadly"), "ttt-test: error: it broke\n"),
                                (MemoryError(), "ttt-test: error: out of memory\n"),
                                (ValueError(), "ttt-test: error: ValueError\n"),
                                (OSError(28, "No space left on device"),
                                 "ttt-test: error: No space left on device\n"),
                                (BrokenPipeError(32, "Broken pipe"), "")):
            self.assertEqual(self.run_failing(error), (1, expected))

    def test_nohup_is_respected(self):
        previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
        self.addCleanup(signal.signal, signal.SIGHUP, previous)
        self.assertNotIn(signal.SIGHUP, stop_signals())

        @command("ttt-test")
        def main(argv):
            return signal.getsignal(signal.SIGHUP)

        self.assertEqual(main([]), signal.SIG_IGN)


class ClosedStreamsTest(TempDirTest):
    """Closed stdin, stdout or stderr (`>&-`): the work is still done."""

    def run_closed(self, fds, *args):
        code = ("import os, sys; [os.close(fd) for fd in %r];"
                "from ttt_rl.%s import main; sys.exit(main(%r))" % (fds, args[0], list(args[1:])))
        return subprocess.run([sys.executable, "-c", code], capture_output=False,
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE if 2 not in fds else subprocess.DEVNULL,
                              env=dict(os.environ, PYTHONPATH=SRC), timeout=60)

    def test_training_with_every_stream_closed(self):
        proc = self.run_closed((0, 1, 2), "train", "20", self.path("w.bin"), "--seed", "1")
        self.assertEqual(proc.returncode, 0)
        self.assertTrue(os.path.exists(self.path("w.bin")))

    def test_play_with_stdin_closed_ends_cleanly(self):
        proc = self.run_closed((0,), "play", C_FILE)
        self.assertEqual((proc.returncode, proc.stderr), (0, b""))


@unittest.skipUnless(os.path.exists("/dev/full"), "needs /dev/full")
class FailingOutputTest(TempDirTest):
    """A full disk or a closed pipe costs the progress text, never the weights."""

    def test_training_with_stdout_on_a_full_disk_still_saves(self):
        with open("/dev/full", "w") as full:
            proc = self.start_module("train", "300", self.path("w.bin"), "--seed", "1",
                                     stdout=full)
            _, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 1)
        self.assert_one_line(err, r"^ttt-train: cannot write to stdout \(No space left")
        self.assertEqual(os.path.getsize(self.path("w.bin")), FILE_SIZE)

    def test_training_goes_on_when_its_reader_goes(self):
        proc = self.start_module("train", "300", self.path("w.bin"), "--seed", "1")
        proc.stdout.close()   # like `ttt-train | head -0`
        err = proc.stderr.read()
        proc.stderr.close()
        self.assertEqual(proc.wait(timeout=60), 1)
        self.assert_one_line(err, r"cannot write to stdout \(Broken pipe\); going on")
        self.assertEqual(os.path.getsize(self.path("w.bin")), FILE_SIZE)

    def test_eval_on_a_full_disk(self):
        with open("/dev/full", "w") as full:
            proc = self.start_module("lab.ttt_eval", C_FILE, stdout=full)
            _, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 1)
        self.assert_one_line(err, r"^ttt-eval: error: No space left on device")


class EncodingTest(TempDirTest):
    """Any file name prints, in a strict UTF-8 locale, as one line."""

    def test_non_utf8_file_name(self):
        env = {"PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"}
        name = os.fsdecode(os.path.join(os.fsencode(self.tmp), b"\xff\xfe.bin"))
        for module in ("play", "lab.ttt_eval"):
            proc = run_module(module, name, stdin=b"", env=env)
            self.assertEqual(proc.returncode, 1)
            self.assert_one_line(proc.stderr, r"cannot read .*\\udcff\\udcfe\.bin: No such")
        proc = run_module("train", "10", name, "--seed", "1", stdin=b"", env=env)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn(b"saved to", proc.stdout)
        self.assertTrue(os.path.exists(os.fsencode(name)))


class OutputTest(unittest.TestCase):
    """A failing progress stream is said once, then dropped."""

    def test_said_once(self):
        class Full(io.StringIO):
            def write(self, text):
                raise OSError(28, "No space left on device")

        err = io.StringIO()
        with unittest.mock.patch("sys.stderr", err):
            out = Output(Full(), "progress.txt", "ttt-test")
            out.line("a")
            out.line("b")
        self.assertTrue(out.failed)
        self.assertEqual(err.getvalue(), "ttt-test: cannot write to progress.txt "
                                         "(No space left on device); going on without it\n")


class ReadLineTest(unittest.TestCase):
    """Any bytes make a line; an endless line is cut, and endless input ends."""

    def test_lines(self):
        stdin = io.BytesIO(b"\xef\xbb\xbf 4 \n\xff\n" + b"7" * 5000 + b"\n")
        self.assertEqual(read_line(stdin), ("4", False))
        self.assertEqual(read_line(stdin), ("\ufffd", False))
        self.assertEqual(read_line(stdin)[1], True)
        with self.assertRaises(EOFError):
            read_line(stdin)

    def test_endless_input_without_newline_ends(self):
        # `ttt-play < /dev/zero`: stop after a bounded read, not spin.
        with open("/dev/zero", "rb") if os.path.exists("/dev/zero") else io.BytesIO(
                b"\0" * (4 << 20)) as zero:
            with self.assertRaises(EOFError):
                read_line(zero)

    def test_play_on_dev_zero_ends(self):
        if not os.path.exists("/dev/zero"):
            self.skipTest("needs /dev/zero")
        with open("/dev/zero", "rb") as zero:
            proc = subprocess.run([sys.executable, "-m", "ttt_rl.play", C_FILE], stdin=zero,
                                  capture_output=True, timeout=60,
                                  env=dict(os.environ, PYTHONPATH=SRC))
        self.assertEqual(proc.returncode, 0, proc.stderr)


class SignalTest(TempDirTest):
    """SIGTERM and SIGHUP stop a command like Ctrl-C: one line, 128 + N."""

    def test_play_stopped_by_sigterm(self):
        proc = self.start_module("play", C_FILE, stdin=subprocess.PIPE)
        proc.stdout.readline()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 128 + signal.SIGTERM)
        self.assert_one_line(err, r"^ttt-play: stopped$")

    def test_deleted_working_folder(self):
        # A script, as a console command is: `python -c` would put the
        # deleted folder on sys.path, and Python 3.13 then fails to import.
        script = self.path("run.py")
        with open(script, "w") as f:
            f.write("import os, tempfile, sys; d = tempfile.mkdtemp(); os.chdir(d); "
                    "os.rmdir(d)\nfrom ttt_rl.train import main\nsys.exit(main(['10', 'x.bin']))\n")
        proc = subprocess.run([sys.executable, script], capture_output=True, text=True,
                              env=dict(os.environ, PYTHONPATH=SRC), timeout=60)
        self.assertEqual(proc.returncode, 1)
        self.assert_one_line(proc.stderr, "current folder no longer exists")


class NamesTest(unittest.TestCase):
    """Names print on one line, inert; commands are named as they were run."""

    def test_control_characters_are_escaped(self):
        self.assertEqual(printable("a\nb\x1b[31m c\u00e9"), "a\\nb\\x1b[31m c\u00e9")
        err = io.StringIO()
        with mock.patch("sys.stderr", err):
            say("t", "cannot read x\ny.bin")
        self.assertEqual(err.getvalue(), "t: cannot read x\\ny.bin\n")

    def test_invoked_as(self):
        with mock.patch("sys.argv", ["/usr/bin/ttt-train"]):
            self.assertEqual(invoked_as("ttt-train"), "ttt-train")
        with mock.patch("sys.argv", [os.path.join("src", "ttt_rl", "train.py")]):
            self.assertEqual(invoked_as("ttt-train"), "python3 -m ttt_rl.train")
        with mock.patch("sys.argv", [os.path.join("src", "ttt_rl", "__main__.py")]):
            self.assertEqual(invoked_as("ttt-rl"), "python3 -m ttt_rl")


if __name__ == "__main__":
    unittest.main()
