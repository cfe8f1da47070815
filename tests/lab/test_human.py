"""A person at the keyboard (lab/human.py): the C's probability grid, and a
clear answer to every line."""

import errno
import io
import os
import re
import subprocess
import sys
import unittest
from unittest import mock

from ttt_rl.lab.human import (Quit, ask, colour_wanted, format_probabilities, paint, parse_move,
                              read_line)

from ..helpers import C_FILE, SRC


class ProbabilityGridTest(unittest.TestCase):
    """The grid marks the best cell (*) and the move played (#) as the C does."""

    def test_markers_and_trailing_spaces(self):
        probs = [0.5, 0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.025, 0.025]
        text = format_probabilities(probs, chosen=1)
        self.assertEqual(text,
                         "Neural network move probabilities:\n"
                         " 50.0%*  10.0%#  10.0% \n"
                         " 10.0%   5.0%   5.0% \n"
                         "  5.0%   2.5%   2.5% \n"
                         "Sum of all probabilities: 1.00\n\n")

    def test_both_markers_on_one_cell(self):
        text = format_probabilities([0.0] * 8 + [1.0], chosen=8)
        self.assertIn("100.0%*# \n", text)

    def test_colour_paints_the_numbers_only(self):
        probs = [0.5, 0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.025, 0.025]
        text = format_probabilities(probs, chosen=1, colour=True)
        self.assertIn("\033[1;32m 50.0%\033[0m* ", text)
        self.assertEqual(re.sub("\033\\[[0-9;]*m", "", text),
                         format_probabilities(probs, chosen=1))


class ParseMoveTest(unittest.TestCase):
    """A bad move is explained in a short line; a good one is a cell."""

    def test_parse_move(self):
        board = list("X...O....")
        self.assertEqual(parse_move("3", board), (3, None))
        for text, message in (("", "Please type a position"),
                              ("4 5", "one position at a time"),
                              ("abc", "'abc' is not a position"),
                              ("-1", "'-1' is not a position"),
                              ("\u0665", "is not a position"),     # an Arabic-Indic 5
                              ("9", "9 is off the board"),
                              ("9" * 5000, "off the board"),        # int() would refuse it
                              ("0", "Position 0 is already taken"),
                              ("4", "Position 4 is already taken")):
            move, error = parse_move(text, board)
            self.assertIsNone(move)
            self.assertIn(message, error)
            self.assertLess(len(error), 100)

    def test_ask_quits_and_cuts(self):
        out = io.StringIO()
        with self.assertRaises(Quit):
            ask("? ", io.BytesIO(b"Quit\n"), out)
        self.assertEqual(ask("? ", io.BytesIO(b"x" * 2000 + b"\n"), out), "")
        self.assertIn("That line is too long", out.getvalue())
        # A cut line is ignored, even when what is left of it reads "q".
        self.assertEqual(ask("? ", io.BytesIO(b" " * 2000 + b"q"), out), "")


class ReadLineTest(unittest.TestCase):
    """Any bytes make a line; an endless line is cut, endless input and a
    failing read end the input."""

    def test_lines(self):
        stdin = io.BytesIO(b"\xef\xbb\xbf 4 \n\xff\n" + b"7" * 5000 + b"\n5")
        self.assertEqual(read_line(stdin), ("4", False))
        self.assertEqual(read_line(stdin), ("\ufffd", False))
        self.assertEqual(read_line(stdin), ("7" * 1024, True))
        self.assertEqual(read_line(stdin), ("5", False))   # a last line without newline
        with self.assertRaises(EOFError):
            read_line(stdin)
        self.assertEqual(read_line(io.StringIO("\ufeff 6 \n")), ("6", False))   # text works too

    def test_a_failing_read_is_the_end_of_input(self):
        # A terminal gone under nohup (EIO), a closed descriptor (EBADF), a
        # reset connection (ECONNRESET), a stream closed meanwhile (ValueError).
        for error in (OSError(errno.EIO, "Input/output error"),
                      OSError(errno.EBADF, "Bad file descriptor"),
                      ConnectionResetError(errno.ECONNRESET, "Connection reset by peer"),
                      ValueError("I/O operation on closed file")):
            class Failing(io.BytesIO):
                def readline(self, size=-1):
                    raise error
            with self.assertRaises(EOFError, msg=repr(error)):
                read_line(Failing())

    def test_endless_input_without_newline_ends(self):
        # `ttt-play < /dev/zero`: stop after a bounded read, not spin.
        with self.assertRaises(EOFError):
            read_line(io.BytesIO(b"\0" * (4 << 20)))

    @unittest.skipUnless(os.path.exists("/dev/zero"), "needs /dev/zero")
    def test_play_on_dev_zero_ends(self):
        with open("/dev/zero", "rb") as zero:
            proc = subprocess.run([sys.executable, "-m", "ttt_rl.play", C_FILE], stdin=zero,
                                  capture_output=True, timeout=60,
                                  env=dict(os.environ, PYTHONPATH=SRC))
        self.assertEqual(proc.returncode, 0, proc.stderr)


class ColourTest(unittest.TestCase):
    """Colour only on a terminal, and never with NO_COLOR or TERM=dumb."""

    class Tty(io.StringIO):
        def isatty(self):
            return True

    def test_when(self):
        with mock.patch.dict("os.environ", {"TERM": "xterm"}, clear=True):
            self.assertTrue(colour_wanted(self.Tty()))
            self.assertFalse(colour_wanted(io.StringIO()))
        with mock.patch.dict("os.environ", {"NO_COLOR": "1", "TERM": "xterm"}, clear=True):
            self.assertFalse(colour_wanted(self.Tty()))
        with mock.patch.dict("os.environ", {"TERM": "dumb"}, clear=True):
            self.assertFalse(colour_wanted(self.Tty()))
        closed = io.StringIO()
        closed.close()   # its isatty() raises ValueError
        with mock.patch.dict("os.environ", {"TERM": "xterm"}, clear=True):
            self.assertFalse(colour_wanted(closed))
            self.assertFalse(colour_wanted(object()))   # no isatty at all

    def test_paint_by_size(self):
        self.assertEqual(paint("x", 0.9), "\033[1;32mx\033[0m")
        self.assertEqual(paint("x", 0.001), "\033[2mx\033[0m")


if __name__ == "__main__":
    unittest.main()
