"""The commands' promise (lab/cli.py): one line on stderr and an exit
status for any failure or stop, never a traceback; output that may fail;
names that print inert; commands named so that they run as printed."""

import io
import os
import signal
import subprocess
import sys
import unittest
from unittest import mock

from ttt_rl.lab.cli import Output, command, first_ctrl_c_stops, printable, raise_stopped, say
from ttt_rl.weights import FILE_SIZE

from ..helpers import C_FILE, SRC, TempDirTest, run_module


def run_command(body):
    """Run `body` (a function of no argument) as a command's main under
    @command("ttt-test"); return (status, stderr)."""
    @command("ttt-test")
    def main(argv):
        return body()

    err = io.StringIO()
    with mock.patch("sys.stderr", err):
        return main([]), err.getvalue()


class CommandWrapperTest(unittest.TestCase):
    """Any failure inside a command is one line naming the problem."""

    def test_errors_become_one_line_without_class_names(self):
        for error, expected in ((RuntimeError("it broke\nbadly"), "ttt-test: error: it broke\n"),
                                (MemoryError(), "ttt-test: error: out of memory\n"),
                                (ValueError(), "ttt-test: error: ValueError\n"),
                                (OSError(28, "No space left on device"),
                                 "ttt-test: error: No space left on device\n"),
                                (FileNotFoundError(2, "No such file or directory", "a\nb.bin"),
                                 "ttt-test: error: a\\nb.bin: No such file or directory\n"),
                                (BrokenPipeError(32, "Broken pipe"), "")):
            def fail():
                raise error
            self.assertEqual(run_command(fail), (1, expected))

    def test_a_stop_is_said_with_its_note_and_status(self):
        def interrupted():
            stop = KeyboardInterrupt()
            stop.note = "w.bin was saved"
            raise stop
        self.assertEqual(run_command(interrupted),
                         (130, "ttt-test: interrupted; w.bin was saved\n"))
        self.assertEqual(run_command(lambda: (_ for _ in ()).throw(KeyboardInterrupt)),
                         (130, "ttt-test: interrupted\n"))

    def test_sigterm_and_sighup_stop_with_128_plus_n(self):
        for signum in (signal.SIGTERM, signal.SIGHUP):
            def killed():
                os.kill(os.getpid(), signum)
                for _ in range(1000):   # the handler raises at the next bytecode
                    pass
                return 0
            self.assertEqual(run_command(killed), (128 + signum, "ttt-test: stopped\n"))

    def test_nohup_is_respected(self):
        previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
        self.addCleanup(signal.signal, signal.SIGHUP, previous)
        self.assertEqual(run_command(lambda: signal.getsignal(signal.SIGHUP)),
                         (signal.SIG_IGN, ""))
        self.assertEqual(signal.getsignal(signal.SIGHUP), signal.SIG_IGN)

    def test_a_failing_stdout_at_the_end_is_one_line(self):
        class Full(io.StringIO):
            def flush(self):
                raise OSError(28, "No space left on device")

            def fileno(self):
                raise ValueError("no file descriptor")

        with mock.patch("sys.stdout", Full()):
            self.assertEqual(run_command(lambda: 0),
                             (1, "ttt-test: error: No space left on device\n"))


@unittest.skipUnless(hasattr(signal, "SIGHUP"), "needs SIGHUP")
class FirstCtrlCTest(unittest.TestCase):
    """A first Ctrl-C or a closed terminal asks training to stop; only a
    second Ctrl-C stops at once (a terminal hangs up once, if noisily)."""

    def test_hangups_ask_and_a_second_ctrl_c_raises(self):
        previous = signal.signal(signal.SIGHUP, raise_stopped)   # as @command sets it
        self.addCleanup(signal.signal, signal.SIGHUP, previous)
        with first_ctrl_c_stops() as ctrl_c:
            os.kill(os.getpid(), signal.SIGHUP)
            os.kill(os.getpid(), signal.SIGHUP)
            self.assertEqual((ctrl_c.stop_requested, ctrl_c.status), (True, 129))
            with self.assertRaises(KeyboardInterrupt):
                os.kill(os.getpid(), signal.SIGINT)
        self.assertIs(signal.getsignal(signal.SIGHUP), raise_stopped)

    def test_an_ignored_hangup_stays_ignored(self):   # nohup
        previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
        self.addCleanup(signal.signal, signal.SIGHUP, previous)
        with first_ctrl_c_stops():
            self.assertEqual(signal.getsignal(signal.SIGHUP), signal.SIG_IGN)

    @unittest.skipUnless(os.path.exists("/proc/self/status"), "needs the kernel's mask")
    def test_an_ignored_hangup_shown_as_default_stays_ignored(self):   # PyPy under nohup
        previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
        self.addCleanup(signal.signal, signal.SIGHUP, previous)
        real = signal.getsignal
        with mock.patch("signal.getsignal", return_value=signal.SIG_DFL):
            self.assertEqual(run_command(lambda: real(signal.SIGHUP)), (signal.SIG_IGN, ""))
            with first_ctrl_c_stops():
                self.assertEqual(real(signal.SIGHUP), signal.SIG_IGN)
        self.assertEqual(signal.getsignal(signal.SIGHUP), signal.SIG_IGN)


class ClosedStreamsTest(TempDirTest):
    """Closed stdin, stdout or stderr (`>&-`): the work is still done."""

    def run_closed(self, fds, *args):
        code = ("import os, sys; [os.close(fd) for fd in %r];"
                "from ttt_rl.%s import main; sys.exit(main(%r))" % (fds, args[0], list(args[1:])))
        return subprocess.run([sys.executable, "-c", code], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE if 2 not in fds else subprocess.DEVNULL,
                              env=dict(os.environ, PYTHONPATH=SRC), timeout=60)

    def test_training_with_every_stream_closed(self):
        proc = self.run_closed((0, 1, 2), "train", "20", self.path("w.bin"), "--seed", "1")
        self.assertEqual(proc.returncode, 0)
        self.assertEqual(os.path.getsize(self.path("w.bin")), FILE_SIZE)

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
        self.assertEqual(proc.wait(timeout=60), 1)
        self.assert_one_line(err, r"cannot write to stdout \(Broken pipe\); going on")
        self.assertEqual(os.path.getsize(self.path("w.bin")), FILE_SIZE)


class EncodingTest(TempDirTest):
    """Any file name prints, in a strict UTF-8 locale, as one line."""

    def test_non_utf8_file_name(self):
        env = {"PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"}
        name = os.fsdecode(os.path.join(os.fsencode(self.tmp), b"\xff\xfe.bin"))
        proc = run_module("lab.ttt_eval", name, stdin=b"", env=env)
        self.assertEqual(proc.returncode, 2)
        self.assert_one_line(proc.stderr, r"cannot read .*\\udcff\\udcfe\.bin: No such")
        proc = run_module("train", "10", name, "--seed", "1", stdin=b"", env=env)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn(b"saved to", proc.stdout)
        self.assertTrue(os.path.exists(os.fsencode(name)))


class OutputTest(unittest.TestCase):
    """A failing progress stream is said once, then dropped; lines are inert."""

    def test_said_once(self):
        class Full(io.StringIO):
            def write(self, text):
                raise OSError(28, "No space left on device")

        err = io.StringIO()
        with mock.patch("sys.stderr", err):
            out = Output(Full(), "ttt-test")
            out.line("a")
            out.write("b")
        self.assertTrue(out.failed)
        self.assertEqual(err.getvalue(), "ttt-test: cannot write to stdout "
                                         "(No space left on device); going on without it\n")

    def test_line_escapes_control_characters(self):
        out = Output(io.StringIO(), "ttt-test")
        out.line("saved to x\x1b[31m.bin\nnext")
        out.write(" 1 | 2 \n")   # the board, as it is
        self.assertEqual(out.stream.getvalue(), "saved to x\\x1b[31m.bin\nnext\n 1 | 2 \n")
        self.assertFalse(out.failed)


class NamesTest(unittest.TestCase):
    """Names print on one line, inert."""

    def test_control_characters_are_escaped(self):
        self.assertEqual(printable("a\nb\x1b[31m c\u00e9"), "a\\nb\\x1b[31m c\u00e9")
        err = io.StringIO()
        with mock.patch("sys.stderr", err):
            say("t", "cannot read x\ny.bin")
        self.assertEqual(err.getvalue(), "t: cannot read x\\ny.bin\n")


if __name__ == "__main__":
    unittest.main()
