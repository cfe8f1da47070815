"""A worker (lab/worker.py) stops by itself once the parent that started it
is gone, even if the parent died before the worker began to train."""

import argparse
import multiprocessing
import os
import unittest

from ttt_rl.game import O
from ttt_rl.lab.worker import PipeReporter


class ParentGoneTest(unittest.TestCase):

    def reporter(self, parent):
        receiver, sender = multiprocessing.Pipe(duplex=False)
        self.addCleanup(receiver.close)
        self.addCleanup(sender.close)
        args = argparse.Namespace(games=1000, side=O, curve=None)
        return PipeReporter(args, sender, parent)

    def test_trains_on_while_its_parent_lives(self):
        # report(net, games, counts) -> True means "stop after this game"
        self.assertFalse(self.reporter(os.getppid()).report(None, 1, {}))

    def test_stops_when_its_parent_is_not_the_one_that_started_it(self):
        # The parent's pid comes from before the fork: a parent that died
        # between the fork and the first game is still noticed.
        self.assertTrue(self.reporter(os.getppid() + 1).report(None, 1, {}))


if __name__ == "__main__":
    unittest.main()
