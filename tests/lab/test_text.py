"""Results in words (lab/text.py): verdicts, the saved net's sentence, the
optimum's sentence, and the warning for a net of the other side."""

import random
import unittest

from ttt_rl.game import O, X
from ttt_rl.lab.exact import evaluate_network
from ttt_rl.lab.optimum import optimum
from ttt_rl.lab.text import optimum_sentence, saved_sentence, side_warning, verdict
from ttt_rl.nn import init_neural_network
from ttt_rl.weights import load

from ..helpers import C_FILE


class TextTest(unittest.TestCase):
    """Each number said in words, as a newcomer reads it."""

    def test_verdict(self):
        self.assertEqual(verdict(evaluate_network(load(C_FILE))), "loses 14 lines, 81.0% wins")
        self.assertEqual(verdict({"lines_lost": 0, "win": 0.87831}), "unbeatable, 87.8% wins")
        self.assertEqual(verdict({"lines_lost": 1, "win": 0.5}), "loses 1 line, 50.0% wins")

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


if __name__ == "__main__":
    unittest.main()
