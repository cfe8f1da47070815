"""What a valid argument is (lab/argtypes.py)."""

import argparse
import unittest

from ttt_rl.lab.argtypes import count, curve_file, file_name, probability, seed, side


class TypesTest(unittest.TestCase):
    """Numbers are plain ASCII digits; sides any case; curves .svg or .csv."""

    def test_count(self):
        self.assertEqual(count("150000"), 150000)
        for bad in ("abc", "-5", "1.5", "", " 7", "1_0", "1e3", "\uff11", "9" * 19):
            with self.assertRaises(argparse.ArgumentTypeError, msg=bad):
                count(bad)

    def test_seed(self):
        # Any printed seed can be typed back, however large; -5 is not 5.
        self.assertEqual(seed("-7"), -7)
        self.assertEqual(seed("1" * 40), int("1" * 40))
        for bad in ("--", "- 7", "x", "7.0"):
            with self.assertRaises(argparse.ArgumentTypeError, msg=bad):
                seed(bad)

    def test_side_and_curve(self):
        self.assertEqual([side(s) for s in ("x", "X", "o", "O")], ["X", "X", "O", "O"])
        self.assertEqual(curve_file("c.SVG"), "c.SVG")
        for bad in ("c.png", "c", "svg"):
            with self.assertRaises(argparse.ArgumentTypeError, msg=bad):
                curve_file(bad)

    def test_empty_names_and_probabilities(self):
        for bad_type, bad in ((file_name, ""), (curve_file, ""), (probability, "1.5"),
                              (probability, "-0.1"), (probability, "nan")):
            with self.assertRaises(argparse.ArgumentTypeError, msg=bad):
                bad_type(bad)
        self.assertEqual(probability("0.3"), 0.3)


if __name__ == "__main__":
    unittest.main()
