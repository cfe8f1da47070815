"""Results in words (lab/text.py): verdicts, the saved net's sentence, the
optimum's sentence, the warning for a net of the other side, the table of
--runs, and the commands a message prints, which run as printed."""

import os
import random
import shlex
import subprocess
import unittest
from unittest import mock

from ttt_rl.game import O, X
from ttt_rl.lab.exact import evaluate_network, optimum
from ttt_rl.lab.text import (command_line, format_seconds, invoked_as, next_step,
                             optimum_sentence, ranked_table, saved_sentence, shell_word,
                             side_warning, verdict)
from ttt_rl.nn import init_neural_network
from ttt_rl.train import train_parser
from ttt_rl.ttt import rl_parser
from ttt_rl.weights import load

from ..helpers import C_FILE, ROOT, SRC


class TextTest(unittest.TestCase):
    """Each number said in words, as a newcomer reads it."""

    def test_verdict(self):
        self.assertEqual(verdict(evaluate_network(load(C_FILE))), "loses 14 lines, 81.0% wins")
        self.assertEqual(verdict({"lines_lost": 0, "win": 0.87831}), "unbeatable, 87.8% wins")
        self.assertEqual(verdict({"lines_lost": 1, "win": 0.5}), "loses 1 line, 50.0% wins")

    def test_format_seconds(self):
        self.assertEqual([format_seconds(s) for s in (4.4, 59.6, 185, 3725)],
                         ["4s", "1m00s", "3m05s", "1h02m"])

    def test_saved_sentence_says_beatable_or_unbeatable(self):
        beaten = saved_sentence(evaluate_network(load(C_FILE)))
        self.assertEqual(beaten, "The saved net can be beaten as O: it loses 14 lines against "
                                 "some X strategy (it wins 80.95% against a random X).")
        best = saved_sentence(optimum((1, 0.3, -2)))
        self.assertRegex(best, r"^The saved net is unbeatable as O: .* wins 91\.64% .*"
                               r"at most 91\.64% is possible")

    def test_optimum_sentence(self):
        self.assertEqual(optimum_sentence(optimum((1, 0.3, -2)), "the C's reward"),
                         "the C's reward (win 1, tie 0.3, loss -2) is best served by an "
                         "unbeatable O that wins 91.64% against a random X.")
        self.assertRegex(optimum_sentence(optimum((1, 0, -2)), "a tie worth 0"),
                         r"a beatable O that wins 92\.91% .* and loses 4 lines\.$")

    def test_side_warning(self):
        net = load(C_FILE)   # trained as O
        self.assertIsNone(side_warning(net, O))
        self.assertRegex(side_warning(net, X), "plays O much better .*--side O")
        untrained = init_neural_network(random.Random(1))
        self.assertIsNone(side_warning(untrained, O))
        self.assertIsNone(side_warning(untrained, X))

    def test_ranked_table(self):
        result = evaluate_network(load(C_FILE))
        lines = ranked_table([{"seed": 42, "result": result}, {"seed": -7, "result": result}])
        self.assertEqual(lines[0].split(), ["rank", "seed", "win", "%", "draw", "%", "loss", "%",
                                            "lines", "lost", "optimal", "moves"])
        self.assertEqual(lines[1].split()[:2] + lines[2].split()[:2], ["1", "42", "2", "-7"])
        self.assertIn("14 of %d" % result["lines"], lines[1])


def bash_words(line):
    """Return the words that bash makes of `line`, a printed command."""
    proc = subprocess.run(["bash", "-c", "printf '%s\\0' " + line], capture_output=True,
                          timeout=30)
    return proc.stdout.decode("utf-8", "surrogateescape").split("\0")[:-1]


class CommandLineTest(unittest.TestCase):
    """A printed command, parsed back by its command's own parser, asks for
    what the user asked for, and the change the message suggests."""

    def assert_parses_back(self, parser, argv, line, **expected):
        words = shlex.split(line)
        self.assertEqual(words[0], "ttt-x")
        again = vars(parser().parse_args(words[1:]))
        wanted = dict(vars(parser().parse_args(argv)), **expected)
        self.assertEqual(again, wanted, line)

    def test_the_repeat_command_keeps_every_flag(self):
        argv = ["500", "my net $(rm -rf x).bin", "--side", "x", "--hidden", "20", "--init",
                "i.bin", "--reward-tie", "0.5", "--reward-loss=-3", "--learning-rate", "0.05"]
        args = train_parser().parse_args(argv)
        line = command_line(["ttt-x"], args, args.games, args.output, seed=-7)
        self.assertIn("--reward-loss=-3.0", line)   # one word, even negative
        self.assert_parses_back(train_parser, argv, line, seed=-7)
        argv = ["100", "q.bin", "--method", "q-learning", "--epsilon", "0.2", "--gamma", "0.9"]
        args = train_parser().parse_args(argv)
        self.assert_parses_back(train_parser, argv, command_line(
            ["ttt-x"], args, args.games, args.output, seed=10 ** 40), seed=10 ** 40)

    def test_defaults_are_not_repeated(self):
        args = train_parser().parse_args(["10", "w.bin"])
        self.assertEqual(command_line(["ttt-x"], args, args.games, args.output, seed=1),
                         "ttt-x 10 w.bin --seed=1")

    def test_next_step_offers_more_seeds_and_q_learning(self):
        argv = ["20000", "w.bin", "--side", "X", "--reward-tie", "0.5"]
        args = train_parser().parse_args(argv)
        text = next_step(["ttt-x"], args, args.output)
        runs, q = text[len("For an unbeatable net, try: "):].split(", or ")
        self.assert_parses_back(train_parser, argv, runs, runs=16, until_unbeatable=True)
        q_args = vars(train_parser().parse_args(argv + ["--method", "q-learning"]))
        self.assertEqual(vars(train_parser().parse_args(shlex.split(q)[1:])),
                         dict(q_args, games=200000))
        # ttt-rl has no --runs: Q-learning only, --save kept.
        argv = ["--save", "me.bin", "--reward-win", "2"]
        args = rl_parser().parse_args(argv)
        text = next_step(["ttt-x"], args)
        self.assertNotIn("--runs", text)
        q_args = vars(rl_parser().parse_args(argv + ["--method", "q-learning"]))
        self.assertEqual(vars(rl_parser().parse_args(shlex.split(
            text[len("For an unbeatable net, try: "):])[1:])), dict(q_args, games=200000))

    def test_names_that_start_with_a_dash_or_hold_a_newline(self):
        args = train_parser().parse_args(["10", "--side", "X", "--", "-x.bin"])
        self.assertEqual(args.output, "./-x.bin")   # the same file, and safe to print
        line = command_line(["ttt-x"], args, 10, args.output, seed=1)
        again = train_parser().parse_args(shlex.split(line)[1:])
        self.assertEqual((again.games, again.output, again.side, again.seed),
                         (10, "./-x.bin", "X", 1))
        line = command_line(["ttt-x"], args, 10, "a\nb\x1b.bin", seed=1)
        self.assertEqual(len(line.splitlines()), 1)
        self.assertIn("$'a\\x0ab\\x1b.bin'", line)
        again = train_parser().parse_args(bash_words(line)[1:])
        self.assertEqual((again.output, again.side, again.seed), ("a\nb\x1b.bin", "X", 1))


class WordsTest(unittest.TestCase):
    """Words are quoted so that a shell reads them back as they are, and a
    command is named so that it runs from here."""

    def test_shell_words_read_back_as_themselves(self):
        words = ["plain.bin", "my net $(rm -rf x).bin", "it's", "a\nb", "tab\there's\x1b",
                 "-x.bin", "caf\u00e9"]
        self.assertEqual(shell_word("a\nb"), "$'a\\x0ab'")
        self.assertEqual(shell_word("x\\\n\udcff"), "$'x\\x5c\\x0a\\xff'")   # a byte, not UTF-8
        proc = subprocess.run(["bash", "-c", "printf '%s\\0' " + " ".join(map(shell_word, words))],
                              capture_output=True, timeout=30)
        self.assertEqual(proc.stdout.decode("utf-8").split("\0")[:-1], words)

    def test_invoked_as_runs_as_printed(self):
        # A console script (ttt-eval advising ttt-train): its sibling, by
        # name if it is on PATH.
        with mock.patch("sys.argv", ["/somewhere/bin/ttt-eval"]), \
                mock.patch("shutil.which", return_value="/somewhere/bin/ttt-train"):
            self.assertEqual(invoked_as("train"), ["ttt-train"])
        with mock.patch("sys.argv", ["/somewhere/bin/ttt-eval"]), \
                mock.patch("shutil.which", return_value=None):
            self.assertEqual(invoked_as("train"), ["/somewhere/bin/ttt-train"])
        # From a checkout: the words run the command from here, PYTHONPATH included.
        for module, prog in (("train", "ttt-train"), ("ttt", "ttt-rl")):
            with mock.patch("sys.argv", [os.path.join(SRC, "ttt_rl", module + ".py")]):
                words = invoked_as(module)
            self.assertEqual(words[-2:], ["-m", "ttt_rl" if module == "ttt" else "ttt_rl.train"])
            env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            proc = subprocess.run(" ".join(words) + " --version", shell=True, cwd=ROOT, env=env,
                                  capture_output=True, text=True, timeout=30)
            self.assertEqual((proc.returncode, proc.stdout.split()[:1]), (0, [prog]), proc.stderr)


if __name__ == "__main__":
    unittest.main()
