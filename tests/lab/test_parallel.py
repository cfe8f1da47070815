"""Runs in worker processes (lab/parallel.py): --until-unbeatable keeps the
runs up to the first unbeatable seed, in order, whatever finished first."""

import unittest

from ttt_rl.lab.parallel import _stop_after_first_unbeatable


def run(unbeatable):
    return {"result": {"unbeatable": unbeatable}}


class UntilUnbeatableTest(unittest.TestCase):

    def test_runs_after_the_first_unbeatable_one_are_dropped(self):
        results = {0: run(False), 2: run(True), 3: run(True)}
        waiting = [4, 5]
        _stop_after_first_unbeatable(results, waiting, {})
        self.assertEqual((sorted(results), waiting), ([0, 2], []))

    def test_earlier_runs_still_count(self):
        # Run 1 may still end unbeatable: it goes on, and nothing before 3 waits.
        results, waiting = {3: run(True)}, [4]
        _stop_after_first_unbeatable(results, waiting, {})
        self.assertEqual((sorted(results), waiting), ([3], []))
        results, waiting = {0: run(False)}, [2, 3]
        _stop_after_first_unbeatable(results, waiting, {})
        self.assertEqual(waiting, [2, 3])   # no unbeatable run yet: all go on


if __name__ == "__main__":
    unittest.main()
