"""Command lines (lab/args.py): what people type works, the rest is one line."""

import argparse
import unittest

from ttt_rl.lab.args import count, curve_file, seed, side, train_parser


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


class ParserTest(unittest.TestCase):
    """Positionals may come after options; a list value for a flag is refused."""

    def test_intermixed(self):
        args = train_parser().parse_args(["10", "--seed", "1", "out.bin"])
        self.assertEqual((args.games, args.output, args.seed), (10, "out.bin", 1))

    def test_seed_equals_dashes(self):
        with self.assertRaises(SystemExit):
            with unittest.mock.patch("sys.stderr"):
                train_parser().parse_args(["10", "--seed=--"])


if __name__ == "__main__":
    unittest.main()
