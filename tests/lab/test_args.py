"""Command lines (lab/args.py): what a valid argument is, what people type
works, each rule gets its defaults, the rest is one line with exit status 2."""

import argparse
import contextlib
import io
import unittest

from ttt_rl.lab.args import (at_least_one, count, curve_file, file_name, finite_float,
                             hidden_units, positive_float, probability, seed, side)
from ttt_rl.lab.ttt_eval import eval_parser
from ttt_rl.play import play_parser
from ttt_rl.train import train_parser
from ttt_rl.ttt import rl_parser
from ttt_rl.weights import MAX_HIDDEN_SIZE


class TypesTest(unittest.TestCase):
    """Numbers are plain ASCII digits in range; sides any case; names non-empty."""

    def assert_refused(self, convert, *texts):
        for text in texts:
            with self.assertRaises(argparse.ArgumentTypeError, msg=repr(text)):
                convert(text)

    def test_count(self):
        self.assertEqual(count("150000"), 150000)
        self.assertEqual(count("0"), 0)
        self.assert_refused(count, "abc", "-5", "1.5", "", " 7", "1_0", "1e3", "\uff11",
                            "9" * 19)
        self.assertEqual(at_least_one("1"), 1)
        self.assert_refused(at_least_one, "0")

    def test_seed(self):
        # Any printed seed can be typed back, up to 60 digits; -5 is not 5.
        self.assertEqual(seed("-7"), -7)
        self.assertEqual(seed("9" * 60), int("9" * 60))
        self.assertEqual(seed("-" + "9" * 60), -int("9" * 60))
        self.assert_refused(seed, "--", "- 7", "x", "7.0", "", "9" * 61, "-" + "9" * 61)

    def test_hidden_units(self):
        self.assertEqual(hidden_units("1"), 1)
        self.assertEqual(hidden_units(str(MAX_HIDDEN_SIZE)), MAX_HIDDEN_SIZE)
        self.assert_refused(hidden_units, "0", str(MAX_HIDDEN_SIZE + 1), "-1", "1.0")

    def test_floats(self):
        self.assertEqual(finite_float("-2"), -2.0)
        self.assert_refused(finite_float, "inf", "-inf", "nan", "x", "1e999")
        self.assertEqual(positive_float("1e-9"), 1e-9)
        self.assert_refused(positive_float, "0", "-0.1", "inf", "nan")
        self.assertEqual([probability(t) for t in ("0", "0.3", "1")], [0.0, 0.3, 1.0])
        self.assert_refused(probability, "1.5", "-0.1", "nan")

    def test_side_names_and_curves(self):
        self.assertEqual([side(s) for s in ("x", "X", "o", "O")], ["X", "X", "O", "O"])
        self.assert_refused(side, "", "XO", "0")
        self.assertEqual(file_name("-"), "-")
        self.assert_refused(file_name, "")
        self.assertEqual([curve_file(n) for n in ("c.SVG", "c.csv")], ["c.SVG", "c.csv"])
        self.assert_refused(curve_file, "c.png", "c", "svg", "")


def refused(parser, argv):
    """Parse `argv`; return (exit status, stderr)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            parser().parse_args(argv)
        except SystemExit as e:
            return e.code, err.getvalue()
    return 0, err.getvalue()


class ParserTest(unittest.TestCase):
    """Positionals may come after options; `--` ends them; each rule its defaults."""

    def test_intermixed(self):
        args = train_parser().parse_args(["10", "--seed", "1", "out.bin"])
        self.assertEqual((args.games, args.output, args.seed), (10, "out.bin", 1))

    def test_after_dashes_a_name_starting_with_a_dash_is_a_file(self):
        # POSIX: "--" ends the options; the name becomes ./-x.bin, the same file.
        args = train_parser().parse_args(["10", "--seed", "1", "--", "-x.bin"])
        self.assertEqual((args.games, args.output, args.seed), (10, "./-x.bin", 1))
        self.assertEqual(play_parser().parse_args(["--", "-w.bin"]).weights, "./-w.bin")
        args = eval_parser().parse_args(["--json", "--", "-a.bin", "b.bin"])
        self.assertEqual((args.weights, args.json), (["./-a.bin", "b.bin"], True))
        self.assertEqual(refused(train_parser, ["--", "-5"])[0], 2)

    def test_each_rule_has_its_defaults(self):
        mc = train_parser().parse_args([])
        self.assertEqual((mc.games, mc.output, mc.method, mc.learning_rate, mc.reward_tie),
                         (150000, "ttt_nn.bin", "monte-carlo", 0.1, 0.3))
        q = train_parser().parse_args(["--method", "q-learning"])
        self.assertEqual((q.learning_rate, q.epsilon, q.gamma), (0.01, 0.3, 1.0))
        q = train_parser().parse_args(["--method", "q-learning", "--learning-rate", "0.5"])
        self.assertEqual(q.learning_rate, 0.5)
        rl = rl_parser().parse_args(["--side", "x", "--seed=-3"])
        self.assertEqual((rl.side, rl.seed, rl.save), ("X", -3, None))

    def test_refused_with_one_line(self):
        for parser, argv, message in (
                # Q-learning's flags mean nothing to the C's rule.
                (train_parser, ["--epsilon", "0.2"], "--epsilon is for --method q-learning"),
                (rl_parser, ["--gamma", "0.9"], "--gamma is for --method q-learning"),
                (train_parser, ["10", ""], "is empty, not a file name"),
                (train_parser, ["--init", ""], "is empty, not a file name"),
                # Python < 3.13 reads the value as [], 3.13 as "--".
                (train_parser, ["10", "--seed=--"], "expects one value|'--' is not an integer"),
                (train_parser, ["--hidden", "0"], "hidden units"),
                (play_parser, ["--save", "x.bin"], "--save needs --learn"),
                (play_parser, ["--method", "q-learning"], "--method needs --learn"),
                # Flags of --runs alone would be ignored: a net trained once,
                # when the user asked for one that cannot be beaten.
                (train_parser, ["--until-unbeatable"], "--until-unbeatable needs --runs"),
                (train_parser, ["--jobs", "2"], "--jobs needs --runs"),
                (eval_parser, ["a.bin", "--json", "--show-losses"], "not allowed with")):
            status, err = refused(parser, argv)
            self.assertEqual(status, 2, argv)
            self.assertRegex(err, message, argv)
            self.assertTrue(err.endswith(" (try --help)\n"), err)
            self.assertEqual(len(err.splitlines()), 1, err)

    def test_help_of_every_command(self):
        for parser, prog in ((train_parser, "ttt-train"), (play_parser, "ttt-play"),
                             (rl_parser, "ttt-rl"), (eval_parser, "ttt-eval")):
            out = io.StringIO()
            with self.assertRaises(SystemExit) as caught, contextlib.redirect_stdout(out):
                parser().parse_args(["--help"])
            self.assertEqual(caught.exception.code, 0)
            self.assertTrue(out.getvalue().startswith("usage: " + prog), out.getvalue()[:40])
        self.assertIn("falling to a tenth over the last 20% of the games", " ".join(
            train_parser().format_help().split()))


if __name__ == "__main__":
    unittest.main()
