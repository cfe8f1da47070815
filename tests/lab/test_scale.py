"""Round numbers (lab/scale.py): the one 1-2-5 sequence of the lab."""

import unittest

from ttt_rl.lab.scale import one_two_five, round_up


class ScaleTest(unittest.TestCase):

    def test_one_two_five(self):
        self.assertEqual(one_two_five(0), [])
        self.assertEqual(one_two_five(1), [1])
        self.assertEqual(one_two_five(49), [1, 2, 5, 10, 20])
        self.assertEqual(one_two_five(1000)[-3:], [200, 500, 1000])

    def test_round_up(self):
        self.assertEqual([round_up(x) for x in (0, 0.25, 3, 151, 1000, 1001)],
                         [1, 1, 5, 200, 1000, 2000])


if __name__ == "__main__":
    unittest.main()
