"""Command lines (lab/args.py): what people type works, each rule gets its
defaults, the rest is one line."""

import contextlib
import io
import unittest

from ttt_rl.lab.args import play_parser, rl_parser, train_parser
from ttt_rl.lab.ttt_eval import eval_parser


class ParserTest(unittest.TestCase):
    """Positionals may come after options; a list value for a flag is refused."""

    def test_intermixed(self):
        args = train_parser().parse_args(["10", "--seed", "1", "out.bin"])
        self.assertEqual((args.games, args.output, args.seed), (10, "out.bin", 1))

    def test_after_dashes_every_word_is_a_positional(self):
        # A file whose name starts with "-", as typed (POSIX: "--" ends the options).
        args = train_parser().parse_args(["10", "--seed", "1", "--", "-x.bin"])
        self.assertEqual((args.games, args.output, args.seed), (10, "-x.bin", 1))
        self.assertEqual(play_parser().parse_args(["--", "-w.bin"]).weights, "-w.bin")
        args = eval_parser().parse_args(["--json", "--", "-a.bin", "b.bin", "--check"])
        self.assertEqual((args.weights, args.json, args.check),
                         (["-a.bin", "b.bin", "--check"], True, False))
        err = io.StringIO()
        with self.assertRaises(SystemExit), contextlib.redirect_stderr(err):
            train_parser().parse_args(["--", "-5"])
        self.assertIn("'-5' is not a non-negative integer", err.getvalue())

    def test_seed_equals_dashes(self):
        with self.assertRaises(SystemExit):
            with contextlib.redirect_stderr(io.StringIO()):
                train_parser().parse_args(["10", "--seed=--"])

    def test_each_rule_has_its_defaults(self):
        mc = train_parser().parse_args([])
        self.assertEqual((mc.method, mc.learning_rate, mc.reward_tie), ("monte-carlo", 0.1, 0.3))
        q = train_parser().parse_args(["--method", "q-learning"])
        self.assertEqual((q.learning_rate, q.epsilon, q.gamma), (0.01, 0.3, 1.0))
        q = train_parser().parse_args(["--method", "q-learning", "--learning-rate", "0.5"])
        self.assertEqual(q.learning_rate, 0.5)
        self.assertEqual((mc.runs, mc.jobs), (1, 0))   # one run; jobs 0: one per core

    def test_refused_with_one_line(self):
        for parser, argv, message in (
                (train_parser, ["--epsilon", "0.2"], "--epsilon is for --method q-learning"),
                (train_parser, ["10", ""], "a file name cannot be empty"),
                (train_parser, ["--init", ""], "a file name cannot be empty"),
                (play_parser, ["--save", "x.bin"], "--save needs --learn"),
                (play_parser, ["--method", "q-learning"], "--method needs --learn"),
                # Flags of --runs alone would be ignored: a net trained once,
                # when the user asked for one that cannot be beaten.
                (train_parser, ["--until-unbeatable"], "--until-unbeatable needs --runs"),
                (train_parser, ["--jobs", "2"], "--jobs needs --runs")):
            err = io.StringIO()
            with self.assertRaises(SystemExit) as caught, contextlib.redirect_stderr(err):
                parser().parse_args(argv)
            self.assertEqual(caught.exception.code, 2)
            self.assertIn(message, err.getvalue())
            self.assertEqual(len(err.getvalue().splitlines()), 1)


    def test_help_of_every_command(self):
        for parser in (train_parser, play_parser, rl_parser):
            out = io.StringIO()
            with self.assertRaises(SystemExit) as caught, contextlib.redirect_stdout(out):
                parser().parse_args(["--help"])
            self.assertEqual(caught.exception.code, 0)
            self.assertIn("usage:", out.getvalue())
        self.assertIn("falling to a tenth over the last 20% of the games", " ".join(
            train_parser().format_help().split()))


if __name__ == "__main__":
    unittest.main()
