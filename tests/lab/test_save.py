"""The end of a run (lab/save.py): the save says what it replaced, how the
saved net plays, and a stop during the save does not deny it."""

import io
import os
import signal
import unittest
from unittest import mock

from ttt_rl.lab.cli import Output, command, on_stop
from ttt_rl.lab.save import save_and_report
from ttt_rl.weights import load

from ..helpers import C_FILE, TempDirTest, read


class SaveTest(TempDirTest):
    """The save says what it replaced and where the old file went."""

    def test_messages(self):
        target = self.copy_of_c_file("w.bin")
        out = Output(io.StringIO(), "-", "t")
        self.assertTrue(save_and_report(load(C_FILE), target, "w.bin", "O", "t", out))
        self.assertEqual(out.stream.getvalue(),
                         "Neural network saved to w.bin\nReplaced w.bin (was: loses 14 lines, "
                         "81.0%% wins; now: loses 14 lines, 81.0%% wins); the old file is "
                         "%s.bak\n" % target)
        self.assertEqual(read(target + ".bak"), read(C_FILE))

    def test_a_file_changed_since_it_was_loaded_is_not_replaced(self):
        target = self.copy_of_c_file("w.bin")
        err = io.StringIO()
        with mock.patch("sys.stderr", err):
            saved = save_and_report(load(C_FILE), target, "w.bin", "O", "t",
                                    Output(io.StringIO(), "-", "t"), expect=b"before")
        self.assertIsNone(saved)
        self.assertRegex(err.getvalue(), "^t: error: w.bin changed since it was loaded")
        self.assertFalse(os.path.exists(target + ".bak"))

    def test_a_stop_during_the_save_says_the_file_was_saved(self):
        @command("ttt-test")
        def main(argv):
            on_stop("; w.bin was not written")
            with mock.patch("os.replace", replace_then_stop):
                save_and_report(load(C_FILE), self.path("w.bin"), "w.bin", "O", "t",
                                Output(io.StringIO(), "-", "t"))
            return 0

        real_replace = os.replace

        def replace_then_stop(src, dst, **kw):
            os.kill(os.getpid(), signal.SIGTERM)   # waits: signals are held
            real_replace(src, dst, **kw)

        err = io.StringIO()
        with mock.patch("sys.stderr", err):
            self.assertEqual(main([]), 128 + signal.SIGTERM)
        self.assertEqual(err.getvalue(), "ttt-test: interrupted; w.bin was saved\n")
        self.assertEqual(read(self.path("w.bin")), read(C_FILE))


if __name__ == "__main__":
    unittest.main()
