"""The start and the end of a run (lab/session.py): --init read once and
checked, the paths checked together; the save first, then its exact
verdicts; a stop during the save does not deny it."""

import argparse
import io
import os
import random
import shutil
import signal
import threading
import unittest
from unittest import mock

from ttt_rl.lab import session
from ttt_rl.lab.cli import Output, command, raise_stopped
from ttt_rl.lab.curve import measure
from ttt_rl.lab.exact import evaluate_network
from ttt_rl.lab.session import (check_distinct, check_paths, check_trainable, conclude, end_session,
                                load_to_play, make_rng, read_init, save_and_report, start_network,
                                write_curve)
from ttt_rl.lab.text import verdict
from ttt_rl.learn import DEFAULT_SETTINGS
from ttt_rl.nn import init_neural_network
from ttt_rl.weights import FileError, load, parameters, to_bytes

from ..helpers import C_FILE, TempDirTest, read


def namespace(**kwargs):
    values = dict(games=100, side="O", hidden=None, init=None, curve=None,
                  method="monte-carlo", **DEFAULT_SETTINGS._asdict())
    values.update(kwargs)
    return argparse.Namespace(**values)


def output():
    return Output(io.StringIO(), "t")


def untrained(hidden=100):
    return init_neural_network(random.Random(1), hidden)


class StartTest(TempDirTest):
    """--init is read once, even from a pipe, and must fit the flags."""

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
        net, _ = start_network(namespace(init=fifo), 1, data)
        self.assertEqual(parameters(net), parameters(load(C_FILE)))

    def test_hidden_must_match_the_init_file(self):
        self.assertEqual(read_init(namespace(init=C_FILE, hidden=100)), read(C_FILE))
        with self.assertRaisesRegex(ValueError, "--hidden 20 does not match .*c_trained.bin, "
                                               "which has 100 hidden units"):
            read_init(namespace(init=C_FILE, hidden=20))
        self.assertIsNone(read_init(namespace()))

    def test_huge_weights_cannot_be_trained(self):
        net = untrained()
        check_trainable(net, "n.bin")
        net.w_ho[3][0] = -2e6
        with self.assertRaisesRegex(ValueError, "^n.bin cannot be trained further: it has a "
                                               "weight of 2e\\+06"):
            check_trainable(net, "n.bin")
        with open(self.path("huge.bin"), "wb") as f:
            f.write(to_bytes(net))
        with self.assertRaisesRegex(ValueError, "huge.bin cannot be trained further"):
            read_init(namespace(init=self.path("huge.bin")))

    def test_seeds_repeat_and_differ_in_sign(self):
        # random.seed(n) uses abs(n): -5 must not train as 5 does.
        self.assertNotEqual(make_rng(-5).random(), make_rng(5).random())
        self.assertEqual(make_rng(-5).random(), make_rng(-5).random())
        self.assertEqual(make_rng(5).random(), make_rng(5).random())

    def test_a_seed_gives_the_same_net_and_hidden_its_size(self):
        a, _ = start_network(namespace(), 5)
        b, _ = start_network(namespace(), 5)
        self.assertEqual(parameters(a), parameters(b))
        self.assertEqual(len(start_network(namespace(hidden=7), 5)[0].b_h), 7)

    def test_paths_are_checked_together(self):
        target = self.copy_of_c_file("w.bin")
        self.assertEqual(check_paths(namespace(), target), read(C_FILE))
        self.assertIsNone(check_paths(namespace(), None))
        for curve, init, what in ((target + ".bak", None, "the weights file's backup"),
                                  (self.path("i.csv"), self.path("i.csv"), "the --init file")):
            with self.assertRaisesRegex(ValueError, "--curve .* is %s itself" % what):
                check_paths(namespace(curve=curve, init=init), target)
        os.mkdir(self.path("d.csv"))
        with self.assertRaisesRegex(FileError, "d.csv: it is a folder"):   # its own check
            check_paths(namespace(curve=self.path("d.csv")), target)
        self.assertEqual(sorted(os.listdir(self.tmp)), ["d.csv", "w.bin"])

    def test_the_curve_is_another_file(self):
        target = shutil.copy(C_FILE, self.path("w.bin"))
        os.link(target, self.path("hard.csv"))
        os.symlink("w.bin", self.path("soft.csv"))
        for curve in ("hard.csv", "soft.csv", "w.bin"):
            with self.assertRaisesRegex(ValueError, "--curve .* is the weights file itself"):
                check_distinct(self.path(curve), ((target, "the weights file"),))
        # Neither exists yet: the same name is still the same file.
        with self.assertRaisesRegex(ValueError, "the --init file"):
            check_distinct("new.csv", ((None, "nothing"), ("./new.csv", "the --init file")))
        check_distinct(self.path("c.csv"), ((target, "the weights file"),))


class SaveAndReportTest(TempDirTest):
    """The save comes first; then the verdicts of the new net and of the one
    kept as the backup."""

    def test_messages(self):
        target = self.path("w.bin")
        with open(target, "wb") as f:
            f.write(to_bytes(untrained()))
        out, net = output(), load(C_FILE)
        result = save_and_report(net, target, "O", "t", out)
        self.assertEqual(verdict(result), "loses 14 lines, 81.0% wins")
        self.assertEqual(out.stream.getvalue(),
                         "Neural network saved to %s\nReplaced %s (was: %s; now: loses 14 lines, "
                         "81.0%% wins); the old file is %s.bak\n"
                         % (target, target, verdict(evaluate_network(untrained())), target))
        self.assertEqual((read(target), read(target + ".bak")), (read(C_FILE), to_bytes(untrained())))
        out = output()
        save_and_report(net, self.path("new.bin"), "O", "t", out)
        self.assertEqual(out.stream.getvalue(), "Neural network saved to %s\n"
                                                % self.path("new.bin"))

    def test_replacing_a_stronger_net_says_how_to_restore_it(self):
        target = self.copy_of_c_file("my net.bin")
        out = output()
        save_and_report(untrained(), target, "O", "t", out)
        lines = out.stream.getvalue().splitlines()
        self.assertEqual(len(lines), 3)
        self.assertIn("(was: loses 14 lines, 81.0% wins; now: loses ", lines[1])
        self.assertEqual(lines[2], "The net it replaced was stronger: cp -- '%s.bak' '%s' "
                                   "restores it (before the next save replaces the backup)."
                         % (target, target))

    def test_was_is_the_verdict_of_the_file_kept(self):
        target = self.path("w.bin")
        with open(target, "wb") as f:   # another program wrote there since the check
            f.write(b"not a net")
        out = output()
        save_and_report(untrained(), target, "O", "t", out)
        self.assertIn("(was: not a weights file; now: ", out.stream.getvalue())

    def test_a_refused_save_is_one_line_and_none(self):
        target = self.copy_of_c_file("w.bin")
        out, err = output(), io.StringIO()
        with mock.patch("sys.stderr", err):
            self.assertIsNone(save_and_report(untrained(), target, "O", "t", out,
                                              expect=b"what was read"))
        self.assertRegex(err.getvalue(), r"^t: error: cannot write .*w.bin: it changed since it "
                                         r"was loaded .*; it is kept in .*w-1.bin\n$")
        self.assertEqual(out.stream.getvalue(), "")
        self.assertEqual(read(target), read(C_FILE))

    def test_a_stop_during_the_verdict_says_the_file_was_saved(self):
        with mock.patch.object(session, "evaluate_network", side_effect=KeyboardInterrupt):
            with self.assertRaises(KeyboardInterrupt) as caught:
                save_and_report(untrained(), self.path("w\n.bin"), "O", "t", output())
        self.assertEqual(caught.exception.note, "%s was saved" % self.path("w\\n.bin"))
        self.assertEqual(read(self.path("w\n.bin")), to_bytes(untrained()))

    @unittest.skipUnless(hasattr(signal, "pthread_sigmask"), "signals cannot be held here")
    def test_a_signal_during_the_save_waits_for_it(self):
        real_replace = os.replace

        def replace_then_stop(src, dst, **kw):
            os.kill(os.getpid(), signal.SIGTERM)   # waits: signals are held
            real_replace(src, dst, **kw)

        out = output()

        @command("ttt-test")
        def main(argv):
            with mock.patch("os.replace", replace_then_stop):
                save_and_report(untrained(), self.path("w.bin"), "O", "t", out)
            return 0

        err = io.StringIO()
        with mock.patch("sys.stderr", err):
            self.assertEqual(main([]), 128 + signal.SIGTERM)
        self.assertEqual(err.getvalue(), "ttt-test: stopped; %s was saved\n" % self.path("w.bin"))
        self.assertEqual(out.stream.getvalue(), "Neural network saved to %s\n" % self.path("w.bin"))
        self.assertEqual(read(self.path("w.bin")), to_bytes(untrained()))


class EndTest(TempDirTest):
    """The end of a session says what was learned and where it went."""

    def test_end_session(self):
        out = output()
        self.assertEqual(end_session(untrained(), self.path("w.bin"), "O", "t", out, ""), 0)
        self.assertEqual((out.stream.getvalue(), os.listdir(self.tmp)), ("", []))
        self.assertEqual(end_session(untrained(), None, "O", "t", out, "from 1 game"), 0)
        self.assertEqual(out.stream.getvalue(), "Learned from 1 game.\nNot kept: run again with "
                                                "--save FILE to keep what it learned.\n")
        out = output()
        self.assertEqual(end_session(untrained(), self.path("w.bin"), "O", "t", out, "x"), 0)
        self.assertIn("Neural network saved to", out.stream.getvalue())
        with mock.patch("sys.stderr", io.StringIO()):
            self.assertEqual(end_session(untrained(), self.path("w.bin"), "O", "t", output(),
                                         "x", expect=b"changed"), 1)

    @unittest.skipUnless(hasattr(signal, "SIGHUP"), "needs SIGHUP")
    def test_a_second_hangup_does_not_cost_the_save(self):
        # A closed terminal often sends SIGHUP twice: the first ended the
        # session; the second, as the save begins, must not stop it.
        previous = signal.signal(signal.SIGHUP, raise_stopped)   # as @command sets it
        self.addCleanup(signal.signal, signal.SIGHUP, previous)
        real = session.save_and_report

        def hung_up_again(*args, **kwargs):
            os.kill(os.getpid(), signal.SIGHUP)
            return real(*args, **kwargs)
        with mock.patch.object(session, "save_and_report", hung_up_again):
            status = end_session(untrained(), self.path("w.bin"), "O", "t", output(), "x")
        self.assertEqual(status, 0)
        self.assertEqual(os.listdir(self.tmp), ["w.bin"])
        self.assertIs(signal.getsignal(signal.SIGHUP), raise_stopped)   # put back after

    def test_conclude_gives_advice_only_to_a_beatable_net(self):
        out = output()
        conclude(evaluate_network(load(C_FILE)), out, "Try this.", "This net")
        self.assertRegex(out.stream.getvalue(), r"^This net can be beaten .*\nTry this.\n$")
        out = output()
        conclude(dict(evaluate_network(load(C_FILE)), lines_lost=0, unbeatable=True), out,
                 "Try this.")
        # Nor after a stronger net went to the backup: the advice would save over it.
        conclude(dict(evaluate_network(load(C_FILE)), replaced_stronger=True), out, "Try this.")
        self.assertNotIn("Try this", out.stream.getvalue())

    def test_write_curve(self):
        rows = {1: [measure(untrained(), 0, None, "O")]}
        out = output()
        self.assertTrue(write_curve(self.path("c.csv"), rows, "O", "t", out))
        self.assertTrue(write_curve(self.path("c.SVG"), rows, "O", "t", out))
        self.assertTrue(read(self.path("c.csv")).startswith(b"games,wins"))
        self.assertTrue(read(self.path("c.SVG")).startswith(b"<svg"))
        self.assertEqual(out.stream.getvalue().count("Learning curve written to"), 2)
        err = io.StringIO()
        with mock.patch("sys.stderr", err), \
                mock.patch("os.fsync", side_effect=OSError(5, "Input/output error")):
            self.assertFalse(write_curve(self.path("c.csv"), rows, "O", "t", out))
        self.assertRegex(err.getvalue(), "^t: error: cannot write .*c.csv: Input/output error")

    def test_load_to_play(self):
        net, data = load_to_play(C_FILE, "O", "t", "ttt-train")
        self.assertEqual(data, read(C_FILE))
        err = io.StringIO()
        with mock.patch("sys.stderr", err):
            load_to_play(C_FILE, "X", "t", "ttt-train")   # a net trained as O
        self.assertRegex(err.getvalue(), "^t: warning: this net plays O much better")
        with self.assertRaisesRegex(FileError, "; train one first: ttt-train 10 x.bin$"):
            load_to_play(self.path("none.bin"), "O", "t", "ttt-train 10 x.bin")


if __name__ == "__main__":
    unittest.main()
