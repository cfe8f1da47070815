"""Learning-curve points (lab/curve.py): from game 0, log-spaced, with the
net's probabilities on telling positions; CSV rows."""

import random
import unittest

from ttt_rl.game import O, X
from ttt_rl.lab.curve import (TELLING_POSITIONS, correct_mass, csv_text, curve_points,
                              measure)
from ttt_rl.lab.exact import correct_moves, to_move
from ttt_rl.nn import init_neural_network


class CurvePointsTest(unittest.TestCase):
    """0, then 1, 2, 5 x 10^k below GAMES, then GAMES: every run shows the climb."""

    def test_points(self):
        self.assertEqual(curve_points(0), [0])
        self.assertEqual(curve_points(5000),
                         [0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000])
        self.assertEqual(len(curve_points(2000000)), 21)
        self.assertEqual(curve_points(2000000)[-3:], [500000, 1000000, 2000000])
        self.assertEqual(curve_points(7), [0, 1, 2, 5, 7])


class TellingPositionsTest(unittest.TestCase):
    """Each telling position has the net's side to move and a real choice."""

    def test_positions(self):
        for side in (O, X):
            for label, position in TELLING_POSITIONS[side]:
                self.assertEqual(to_move(position), side, label)
                self.assertTrue(correct_moves(position), label)

    def test_rows_and_csv(self):
        net = init_neural_network(random.Random(1))
        row = measure(net, 0, None, O)
        self.assertEqual([len(p) for p in row["probs"]], [9, 9, 9])
        masses = correct_mass(row, O)
        # "X took a corner": only the centre is correct.
        self.assertEqual(masses[1], row["probs"][1][4])
        lines = csv_text({7: [row, dict(row, games=5, sampled=(3, 1, 1))]}, O).splitlines()
        self.assertEqual(lines[0].split(",")[:5], ["games", "wins", "losses", "ties",
                                                   "exact_win"])
        self.assertEqual(lines[0].split(",")[-2], "p_correct_x_took_a_corner")
        self.assertEqual(lines[1].split(",")[:4], ["0", "", "", ""])
        self.assertEqual(lines[2].split(",")[:4], ["5", "3", "1", "1"])
        self.assertEqual(float(lines[1].split(",")[-2]), round(masses[1], 6))
        many = csv_text({7: [row], 8: [row]}, O).splitlines()
        self.assertEqual([l.split(",")[0] for l in many], ["seed", "7", "8"])


if __name__ == "__main__":
    unittest.main()
