"""A run's start (lab/start.py): seeds, --init read once and checked, paths
that must not be the same file, no file that is not a weights file
replaced; and the repeat command of --runs (lab/runs.py)."""

import argparse
import os
import shlex
import threading
import unittest

from ttt_rl.lab.runs import repeat_command
from ttt_rl.lab.start import check_paths, make_rng, read_init
from ttt_rl.learn import DEFAULT_SETTINGS
from ttt_rl.nn import init_neural_network
from ttt_rl.weights import FileError, to_bytes

from ..helpers import C_FILE, TempDirTest, read


def namespace(**kwargs):
    values = dict(games=100, output="w.bin", side="O", hidden=None, init=None, curve=None,
                  method="monte-carlo", **DEFAULT_SETTINGS._asdict())
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

    def test_init_with_huge_weights_is_refused_before_training(self):
        net = init_neural_network(__import__("random").Random(1))
        net.w_ih[0][0] = 3e38
        with open(self.path("huge.bin"), "wb") as f:
            f.write(to_bytes(net))
        with self.assertRaisesRegex(FileError, "huge.bin cannot be trained further: it has a "
                                               "weight of 3e"):
            read_init(namespace(init=self.path("huge.bin")))

    def test_a_file_that_is_not_a_weights_file_is_never_replaced(self):
        for name in ("notes.txt", "w.bin.bak"):
            with open(self.path(name), "w") as f:
                f.write("my only copy")
        with self.assertRaisesRegex(FileError, "notes.txt is not a weights file; it is not "
                                               "replaced"):
            check_paths(namespace(), self.path("notes.txt"))
        # Nor the backup name, which the save would replace.
        self.copy_of_c_file("w.bin")
        with self.assertRaisesRegex(FileError, "w.bin.bak is not a weights file"):
            check_paths(namespace(), self.path("w.bin"))

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
        q = namespace(method="q-learning", epsilon=0.3, gamma=0.9, learning_rate=0.01)
        self.assertEqual(repeat_command(q, 1, "python3 -m ttt_rl.train"),
                         "python3 -m ttt_rl.train 100 w.bin --seed 1 --method q-learning "
                         "--gamma 0.9")


if __name__ == "__main__":
    unittest.main()
