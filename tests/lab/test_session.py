"""A run's start and end (lab/session.py): seeds, --init read once, paths
that must not be the same file, the save with both verdicts, the repeat
command."""

import argparse
import io
import os
import shlex
import signal
import threading
import unittest
from unittest import mock

from ttt_rl.lab.cli import Output, command, on_stop
from ttt_rl.lab.files import FileError
from ttt_rl.lab.session import (check_paths, make_rng, read_init, repeat_command,
                                save_and_report)
from ttt_rl.learn import DEFAULT_SETTINGS
from ttt_rl.weights import load

from ..helpers import C_FILE, TempDirTest, read


def namespace(**kwargs):
    values = dict(games=100, output="w.bin", side="O", hidden=None, init=None, curve=None,
                  **DEFAULT_SETTINGS._asdict())
    values.update(kwargs)
    return argparse.Namespace(**values)


class StartTest(TempDirTest):
    """Seeds repeat and differ in sign; --init is read once, even from a pipe."""

    def test_negative_seeds_differ(self):
        self.assertNotEqual(make_rng(-5).random(), make_rng(5).random())
        self.assertEqual(make_rng(5).random(), make_rng(5).random())

    def test_init_from_a_fifo_is_read_once(self):
        fifo = self.path("fifo")
        os.mkfifo(fifo)
        def write():
            with open(fifo, "wb") as f:
                f.write(read(C_FILE))

        writer = threading.Thread(target=write)
        writer.start()
        data = read_init(namespace(init=fifo))
        writer.join()
        self.assertEqual(data, read(C_FILE))

    def test_curve_may_not_be_the_weights_or_init_file(self):
        target = self.copy_of_c_file("w.bin")
        os.link(target, self.path("hard.csv"))
        for curve, init, what in (("hard.csv", None, "the weights file"),
                                  ("i.csv", "i.csv", "the --init file"),
                                  ("w.bin", None, "the weights file")):
            self.copy_of_c_file("i.csv")
            with self.assertRaisesRegex(FileError, what):
                check_paths(namespace(curve=self.path(curve),
                                      init=init and self.path(init)), target)
        self.assertEqual(read(self.path("hard.csv")), read(C_FILE))
        with self.assertRaisesRegex(FileError, "the weights file"):   # neither exists yet
            check_paths(namespace(curve=self.path("new.csv")), self.path("new.csv"))

    def test_repeat_command_is_quoted(self):
        args = namespace(output="my net $(rm -rf x).bin", side="X", reward_tie=0.5)
        words = shlex.split(repeat_command(args, 10 ** 20))
        self.assertEqual(words, ["ttt-train", "100", "my net $(rm -rf x).bin", "--seed",
                                 str(10 ** 20), "--side", "X", "--reward-tie", "0.5"])


class SaveTest(TempDirTest):
    """The save says what it replaced and where the old file went."""

    def test_messages(self):
        target = self.path("w.bin")
        with open(target, "wb") as f:
            f.write(b"junk")
        out = Output(io.StringIO(), "-", "t")
        self.assertTrue(save_and_report(load(C_FILE), target, "w.bin", "O", "t", out))
        self.assertEqual(out.stream.getvalue(),
                         "Neural network saved to w.bin\nReplaced w.bin (was: not a weights "
                         "file; now: loses 14 lines, 81.0%% wins); the old file is %s.bak\n"
                         % target)
        self.assertEqual(read(target + ".bak"), b"junk")

    def test_a_stop_during_the_save_says_the_file_was_saved(self):
        @command("ttt-test")
        def main(argv):
            on_stop("; w.bin was not written")
            with mock.patch("os.replace", replace_then_stop):
                save_and_report(load(C_FILE), self.path("w.bin"), "w.bin", "O", "t",
                                Output(io.StringIO(), "-", "t"))
            return 0

        real_replace = os.replace

        def replace_then_stop(src, dst):
            os.kill(os.getpid(), signal.SIGTERM)   # waits: signals are held
            real_replace(src, dst)

        err = io.StringIO()
        with mock.patch("sys.stderr", err):
            self.assertEqual(main([]), 128 + signal.SIGTERM)
        self.assertEqual(err.getvalue(), "ttt-test: interrupted; w.bin was saved\n")
        self.assertEqual(read(self.path("w.bin")), read(C_FILE))


if __name__ == "__main__":
    unittest.main()
