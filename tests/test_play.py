"""ttt-play (play.py): the C's transcript, the grid, and every kind of input."""

import io
import os
import struct
import subprocess
import unittest
from unittest import mock

from ttt_rl import play
from ttt_rl.game import O, TIE, X
from ttt_rl.lab.human import LEGEND, Quit
from ttt_rl.play import play_game
from ttt_rl.weights import load

from .helpers import C_FILE, DATA, TempDirTest, read, run_main, run_module
from .transcript import transcript_differences

# X moves for one game against c_trained.bin (the first game of its fixture).
with open(os.path.join(DATA, "c_trained.moves")) as _f:
    ONE_GAME = _f.read().split("y\n")[0]


def fixture(name):
    with open(os.path.join(DATA, name)) as f:
        return f.read()


class TranscriptTest(unittest.TestCase):
    """ttt-play prints what the C play printed, for the same file and moves."""

    def check(self, name):
        path = os.path.join(DATA, name + ".bin")
        proc = run_module("play", path, stdin=fixture(name + ".moves"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stderr, "")
        head, welcome, rest = proc.stdout.partition("Welcome")
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
    """A game reads whole lines: any input gets a clear answer; q quits; the net may play X."""

    def play(self, moves, side=O):
        out = io.StringIO()
        nn = load(os.path.join(DATA, "c_trained.bin"))
        stdin = io.BytesIO(moves if isinstance(moves, bytes) else moves.encode())
        winner, history = play_game(nn, stdin, out, side)
        return winner, history, out.getvalue()

    def test_bad_lines_get_a_message_and_a_new_prompt(self):
        winner, history, text = self.play("\nabc\n4 5\n9\n0\n0\n1\n2\n3\n5\n6\n7\n8\n")
        self.assertIn("Invalid move! Please type a position from 0 to 8 (q quits). Try again.",
                      text)
        self.assertIn("Invalid move! 'abc' is not a position", text)
        self.assertIn("Invalid move! Position 0 is already taken. Try again.", text)
        self.assertIn(winner, (X, O, TIE))
        self.assertEqual(history[0], 0)

    def test_any_bytes_are_a_bad_move_not_a_crash(self):
        # Latin-1, UTF-16 and a UTF-8 byte-order mark before a real move.
        _, history, text = self.play(b"\xe9\xff\n" + "4\n".encode("utf-16")
                                     + b"\n\xef\xbb\xbf0\n1\n2\n3\n5\n6\n7\n8\n")
        self.assertIn("is not a position", text)
        self.assertEqual(history[0], 0)   # the BOM was dropped

    def test_an_endless_line_is_cut_and_skipped(self):
        _, history, text = self.play(b"7" * 100000 + b"\n0\n1\n2\n3\n5\n6\n7\n8\n")
        self.assertEqual(text.count("That line is too long"), 1)
        self.assertEqual(history[0], 0)

    def test_quit_and_end_of_input(self):
        with self.assertRaises(Quit):
            self.play("q\n")
        with self.assertRaises(Quit):
            self.play("4\nQUIT\n")
        with self.assertRaises(EOFError):
            self.play("0\n")

    def test_net_as_x_moves_first(self):
        _, history, text = self.play("4\n0\n1\n2\n3\n5\n6\n7\n8\n", side=X)
        self.assertTrue(text.startswith("Welcome to Tic Tac Toe! You are O, the computer is X."))
        self.assertLess(text.index("Computer placed X at position"), text.index("Your move"))
        self.assertNotEqual(history[0], 4)   # the net moved first, then 4 was ours
        self.assertEqual(history[1], 4)


class PlayCommandTest(TempDirTest):
    """ttt-play: --learn saves what it learned (with a backup), plain play
    never writes, and a net trained for the other side is named."""

    def test_plain_play_never_writes(self):
        path = self.copy_of_c_file()
        before = os.stat(path).st_mtime_ns
        status, out, _ = run_main(play.main, path, stdin=(ONE_GAME + "n\n").encode())
        self.assertEqual(status, 0)
        self.assertEqual((read(path), os.stat(path).st_mtime_ns), (read(C_FILE), before))
        self.assertNotIn("learned", out)

    def test_learn_saves_back_with_a_backup(self):
        path = self.copy_of_c_file()
        status, out, _ = run_main(play.main, path, "--learn", stdin=(ONE_GAME + "n\n").encode())
        self.assertEqual(status, 0)
        self.assertIn("The network learned from this game.", out)
        self.assertIn("Learned from 1 game.\nNeural network saved to %s" % path, out)
        self.assertNotEqual(read(path), read(C_FILE))
        self.assertEqual(read(path + ".bak"), read(C_FILE))

    def test_learn_with_save_keeps_the_original(self):
        path = self.copy_of_c_file()
        other = self.path("other.bin")
        status, _, _ = run_main(play.main, path, "--learn", "--save", other,
                                stdin=(ONE_GAME + "n\n").encode())
        self.assertEqual(status, 0)
        self.assertEqual(read(path), read(C_FILE))
        self.assertNotEqual(read(other), read(C_FILE))

    def test_another_sessions_save_right_after_the_load_is_noticed(self):
        path = self.copy_of_c_file()
        real_check = play.check_paths

        def other_session_saves(args, save_to):   # just after this session loaded
            with open(path, "r+b") as f:
                f.write(b"\0\0\0\0")
            return real_check(args, save_to)

        with mock.patch.object(play, "check_paths", other_session_saves):
            status, _, err = run_main(play.main, path, "--learn",
                                      stdin=(ONE_GAME + "n\n").encode())
        self.assertEqual(status, 1)
        self.assert_one_line(err, "changed since it was loaded")
        self.assertEqual(read(path)[4:], read(C_FILE)[4:])   # the other save stands
        self.assertNotEqual(read(path), read(C_FILE))
        self.assertFalse(os.path.exists(path + ".bak"))

    def test_learn_refuses_a_net_that_would_overflow_before_play(self):
        path = self.path("huge.bin")
        with open(path, "wb") as f:
            f.write(struct.pack("<2809f", *[3e38] * 2809))   # loads, plays, cannot learn
        status, out, err = run_main(play.main, path, "--learn", stdin=(ONE_GAME + "n\n").encode())
        self.assertEqual((status, out), (1, ""))
        self.assert_one_line(err, "huge.bin cannot be trained further: it has a weight of 3e\\+38")
        self.assertFalse(os.path.exists(path + ".bak"))

    def test_usage_errors(self):
        status, _, err = run_main(play.main, C_FILE, "--save", self.path("x.bin"))
        self.assertEqual(status, 2)
        self.assert_one_line(err, "--save needs --learn")
        status, _, err = run_main(play.main, self.path("missing.bin"))
        self.assertEqual(status, 1)
        self.assert_one_line(err, "No such file.*; train one first: ttt-train$")

    def test_a_net_trained_for_x_is_named(self):
        from ttt_rl.train import main as train_main
        run_main(train_main, "600", self.path("x.bin"), "--side", "X", "--seed", "1")
        _, _, err = run_main(play.main, self.path("x.bin"), stdin=b"q\n")
        self.assert_one_line(err, "plays X much better .* --side X")
        _, _, err = run_main(play.main, self.path("x.bin"), "--side", "x", stdin=b"q\n")
        self.assertEqual(err, "")

    def test_ctrl_c_during_learn_saves_what_was_learned(self):
        import signal
        path = self.copy_of_c_file()
        proc = self.start_module("play", path, "--learn", stdin=subprocess.PIPE)
        proc.stdin.write((ONE_GAME + "y\n").encode())   # one game learned, then a prompt
        proc.stdin.flush()
        for line in proc.stdout:   # ends at EOF if the command died
            if b"The network learned" in line:
                break
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 130)
        self.assert_one_line(err, "^ttt-play: interrupted; %s was saved$" % path)
        self.assertEqual(read(path + ".bak"), read(C_FILE))
        self.assertNotEqual(read(path), read(C_FILE))   # the learned game is kept

    def test_a_closed_stdout_still_saves_what_was_learned(self):
        path = self.copy_of_c_file()
        proc = run_module("play", path, "--learn", stdin=ONE_GAME + "y\n" + ONE_GAME + "n\n",
                          env={"PYTHONUNBUFFERED": "1"})
        self.assertEqual(proc.returncode, 0, proc.stderr)
        # The same session with stdout on a full disk: learned games are saved.
        if not os.path.exists("/dev/full"):
            self.skipTest("needs /dev/full")
        os.replace(path + ".bak", path)
        import sys
        from .helpers import SRC
        with open("/dev/full", "w") as full:
            done = subprocess.run([sys.executable, "-m", "ttt_rl.play", path, "--learn"],
                                  input=(ONE_GAME + "n\n").encode(), stdout=full,
                                  stderr=subprocess.PIPE, timeout=60,
                                  env=dict(os.environ, PYTHONPATH=SRC))
        self.assertEqual(done.returncode, 1)
        self.assert_one_line(done.stderr, "cannot write to stdout")
        self.assertNotEqual(read(path), read(C_FILE))


if __name__ == "__main__":
    unittest.main()
