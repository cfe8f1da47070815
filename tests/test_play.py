"""ttt-play (play.py): the C's transcript, a game on either side, and a
--learn session whose games are saved however it ends."""

import contextlib
import errno
import io
import os
import shutil
import signal
import struct
import subprocess
import unittest
from unittest import mock

from ttt_rl import play
from ttt_rl.game import O, TIE, X
from ttt_rl.lab.human import LEGEND, Quit
from ttt_rl.play import play_game
from ttt_rl.weights import load

from .helpers import C_FILE, DATA, TempDirTest, read, run_main
from .transcript import transcript_differences

# X moves for one game against c_trained.bin (the first game of its fixture).
with open(os.path.join(DATA, "c_trained.moves")) as _f:
    ONE_GAME = _f.read().split("y\n")[0]


def fixture(name):
    with open(os.path.join(DATA, name)) as f:
        return f.read()


class FailingStdin(io.RawIOBase):
    """A stdin that gives `data`, then fails as a descriptor gone bad
    (EBADF), as a terminal may under nohup."""

    def __init__(self, data):
        super().__init__()
        self.data = io.BytesIO(data)

    def readable(self):
        return True

    def readinto(self, buffer):
        chunk = self.data.read(len(buffer))
        if not chunk:
            raise OSError(errno.EBADF, os.strerror(errno.EBADF))
        buffer[:len(chunk)] = chunk
        return len(chunk)


class FullStdout(io.StringIO):
    """A stdout on a full disk."""

    def write(self, text):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def run_play(*argv, stdin, stdout=None):
    """run_main(play.main) with `stdin` a binary stream and, if given, `stdout`."""
    out, err = stdout or io.StringIO(), io.StringIO()
    with mock.patch("sys.stdin", io.TextIOWrapper(io.BufferedReader(stdin))), \
            contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = play.main(list(argv))
    return status, err.getvalue()


class TranscriptTest(unittest.TestCase):
    """ttt-play prints what the C play printed, for the same file and moves."""

    def check(self, name):
        path = os.path.join(DATA, name + ".bin")
        status, out, err = run_main(play.main, path, stdin=fixture(name + ".moves").encode())
        self.assertEqual((status, err), (0, ""))
        head, welcome, rest = out.partition("Welcome")
        self.assertEqual(head, "Neural network loaded from %s\n"
                               "Ready to play! You are X. Type q to quit.\n%s\n"
                               % (path, LEGEND))
        expected = fixture(name + ".transcript")
        self.assertEqual(transcript_differences(welcome + rest, expected), [])
        return welcome + rest, expected

    def test_c_trained_file(self):
        actual, expected = self.check("c_trained")
        self.assertEqual(actual, expected)   # this one happens to match exactly

    def test_python_trained_file(self):
        self.check("py_trained")

    def test_comparison_notices_a_wrong_digit(self):
        expected = fixture("c_trained.transcript")
        wrong = expected.replace("Computer placed O at position", "Computer placed O at", 1)
        self.assertNotEqual(transcript_differences(wrong, expected), [])
        row = next(l for l in expected.split("\n") if l.endswith("% ") and "#" in l)
        moved = row.replace("#", "", 1)
        self.assertNotEqual(transcript_differences(expected.replace(row, moved + " "),
                                                   expected), [])


class PlayGameTest(unittest.TestCase):
    """One game: q quits, the input may end, and the net may play X."""

    def play(self, moves, side=O):
        out = io.StringIO()
        winner, history = play_game(load(C_FILE), io.BytesIO(moves.encode()), out, side)
        return winner, history, out.getvalue()

    def test_quit_and_end_of_input(self):
        with self.assertRaises(Quit):
            self.play("q\n")
        with self.assertRaises(Quit):
            self.play("4\nQUIT\n")
        with self.assertRaises(EOFError):
            self.play("0\n")

    def test_net_as_x_moves_first(self):
        winner, history, text = self.play("4\n0\n1\n2\n3\n5\n6\n7\n8\n", side=X)
        self.assertTrue(text.startswith("Welcome to Tic Tac Toe! You are O, the computer is X."))
        self.assertLess(text.index("Computer placed X at position"), text.index("Your move"))
        self.assertNotEqual(history[0], 4)   # the net moved first, then 4 was ours
        self.assertEqual(history[1], 4)
        self.assertIn(winner, (X, O, TIE))


class PlayCommandTest(TempDirTest):
    """Plain play never writes; --learn saves what it learned, however the
    session ends and wherever the file went meanwhile."""

    def learned_bytes(self):
        """The file that one game of ONE_GAME, learned, makes of c_trained.bin."""
        path = self.copy_of_c_file("reference.bin")
        status, _, err = run_main(play.main, path, "--learn", stdin=(ONE_GAME + "n\n").encode())
        self.assertEqual(status, 0, err)
        learned = read(path)
        self.assertNotEqual(learned, read(C_FILE))
        for name in ("reference.bin", "reference.bin.bak"):
            os.remove(self.path(name))
        return learned

    def test_plain_play_never_writes(self):
        path = self.copy_of_c_file()
        before = os.stat(path).st_mtime_ns
        status, out, _ = run_main(play.main, path, stdin=(ONE_GAME + "n\n").encode())
        self.assertEqual(status, 0)
        self.assertEqual((read(path), os.stat(path).st_mtime_ns), (read(C_FILE), before))
        self.assertEqual(os.listdir(self.tmp), ["net.bin"])
        self.assertNotIn("learned", out)

    def test_learn_saves_when_the_session_ends(self):
        # After n, q, the end of input, and a stdin that fails to read
        # (issue 27, class 1: an end of input too), the game is saved.
        learned = self.learned_bytes()
        path = self.path("net.bin")
        for ending in ("read error", b"q\n", b"", b"n\n"):
            shutil.copy(C_FILE, path)
            games = (ONE_GAME + "y\n").encode()
            if ending == "read error":
                status, err = run_play(path, "--learn", stdin=FailingStdin(games))
            else:
                status, out, err = run_main(play.main, path, "--learn", stdin=games + ending)
            self.assertEqual((status, err), (0, ""), ending)
            self.assertEqual(read(path), learned, ending)
        self.assertIn("The network learned from this game.", out)
        self.assertIn("Learned from 1 game.\nNeural network saved to %s\n" % path, out)

    def test_learn_with_save_keeps_the_original(self):
        learned = self.learned_bytes()
        path = self.copy_of_c_file()
        other = self.path("other.bin")
        status, _, _ = run_main(play.main, path, "--learn", "--save", other,
                                stdin=(ONE_GAME + "n\n").encode())
        self.assertEqual(status, 0)
        self.assertEqual(read(path), read(C_FILE))
        self.assertEqual(read(other), learned)

    def during_the_session(self, change, *argv):
        """Run `ttt-play net.bin --learn ARGV` for one game, calling `change`
        while it plays."""
        real = play.play_session

        def session(*args, **kwargs):
            change()
            return real(*args, **kwargs)

        path = self.copy_of_c_file()
        with mock.patch.object(play, "play_session", session):
            return run_main(play.main, path, "--learn", *argv,
                            stdin=(ONE_GAME + "n\n").encode())

    def test_a_file_removed_or_moved_away_meanwhile_is_written_anew(self):
        # Issue 27, class 3: nothing would be overwritten, so nothing is refused.
        learned = self.learned_bytes()
        path, moved = self.path("net.bin"), self.path("moved.bin")
        for change in (lambda: os.remove(path), lambda: os.rename(path, moved)):
            status, out, err = self.during_the_session(change)
            self.assertEqual((status, err), (0, ""))
            self.assertIn("Neural network saved to %s" % path, out)
            self.assertEqual(read(path), learned)
        self.assertEqual(read(moved), read(C_FILE))

    def test_another_sessions_save_is_not_overwritten(self):
        # The net learned here goes to a new file beside, named in the error.
        learned = self.learned_bytes()
        path = self.path("net.bin")

        def other_session_saves():
            with open(path, "r+b") as f:
                f.write(b"\0\0\0\0")

        status, _, err = self.during_the_session(other_session_saves)
        self.assertEqual(status, 1)
        beside = self.path("net-1.bin")
        self.assertRegex(err, "^ttt-play: error: .*changed since it was loaded.*%s\n$"
                         % beside)
        self.assertEqual(len(err.splitlines()), 1, err)
        self.assertEqual(read(path), b"\0\0\0\0" + read(C_FILE)[4:])   # the other save stands
        self.assertEqual(read(beside), learned)
        self.assertFalse(os.path.exists(path + ".bak"))

    def test_learn_refuses_a_net_that_would_overflow_before_play(self):
        path = self.path("huge.bin")
        with open(path, "wb") as f:
            f.write(struct.pack("<2809f", *[3e38] * 2809))   # loads, plays, cannot learn
        status, out, err = run_main(play.main, path, "--learn", stdin=(ONE_GAME + "n\n").encode())
        self.assertEqual((status, out), (1, ""))
        self.assertIn("huge.bin cannot be trained further", err)
        self.assertEqual(os.listdir(self.tmp), ["huge.bin"])

    def test_a_missing_file_says_how_to_make_one(self):
        with mock.patch("sys.argv", ["ttt-play"]):   # as the console script
            status, out, err = run_main(play.main, self.path("missing.bin"))
        self.assertEqual((status, out), (1, ""))
        self.assertRegex(err, "No such file.*; train one first: ttt-train 150000 .*missing.bin\n$")
        with mock.patch("sys.argv", ["ttt-play"]):   # the side asked for is kept
            err = run_main(play.main, self.path("missing.bin"), "--side", "X")[2]
        self.assertTrue(err.endswith("missing.bin --side=X\n"), err)

    def test_the_side_is_passed_on(self):
        # c_trained.bin learned O: playing it as X is warned about, as O is not.
        _, _, err = run_main(play.main, C_FILE, "--side", "X", stdin=b"q\n")
        self.assertRegex(err, "^ttt-play: warning: this net plays O much better")
        _, _, err = run_main(play.main, C_FILE, stdin=b"q\n")
        self.assertEqual(err, "")

    def test_a_full_stdout_still_saves_what_was_learned(self):
        learned = self.learned_bytes()
        path = self.copy_of_c_file()
        status, err = run_play(path, "--learn", stdin=io.BytesIO((ONE_GAME + "n\n").encode()),
                               stdout=FullStdout())
        self.assertEqual(status, 1)
        self.assertIn("cannot write to stdout", err)
        self.assertEqual(read(path), learned)


class PlaySignalTest(TempDirTest):
    """The real command: a first Ctrl-C, or a closed terminal (SIGHUP), ends
    a --learn session, and the games learned so far are saved."""

    def test_ctrl_c_and_sighup_save_what_was_learned(self):
        for sig, said in ((signal.SIGINT, "interrupted"), (signal.SIGHUP, "stopped")):
            path = self.copy_of_c_file()
            proc = self.start_module("play", path, "--learn", stdin=subprocess.PIPE)
            proc.stdin.write((ONE_GAME + "y\n").encode())   # one game learned, then a prompt
            proc.stdin.flush()
            for line in proc.stdout:   # ends at EOF if the command died
                if b"The network learned" in line:
                    break
            proc.send_signal(sig)
            _, err = proc.communicate(timeout=30)
            self.assertEqual(proc.returncode, 128 + sig)
            self.assert_one_line(err, "^ttt-play: %s; %s was saved$" % (said, path))
            self.assertNotEqual(read(path), read(C_FILE))   # the learned game is kept
            self.assertEqual(len(load(path).b_h), 100)


if __name__ == "__main__":
    unittest.main()
