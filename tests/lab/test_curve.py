"""What a run shows (lab/curve.py): the C's progress line at the right
moments, learning-curve points from game 0, log-spaced, with the net's
probabilities on telling positions, and CSV rows; measuring never changes
training."""

import contextlib
import io
import random
import unittest

from ttt_rl.game import O, TIE, X, to_move
from ttt_rl.lab.curve import TELLING_POSITIONS, Reporter, csv_text, measure, one_two_five
from ttt_rl.lab.exact import correct_moves
from ttt_rl.learn import train_against_random
from ttt_rl.nn import init_neural_network
from ttt_rl.weights import parameters


def train_with(reporter, games, seed=8):
    """Train seed `seed` for `games` games with `reporter`; return (parameters, printed)."""
    rng, out = random.Random(seed), io.StringIO()
    net = init_neural_network(rng)
    with contextlib.redirect_stdout(out):
        reporter.begin(net)
        train_against_random(net, games, rng, report=reporter.report)
        reporter.finish(net)
    return parameters(net), out.getvalue()


class RoundNumbersTest(unittest.TestCase):
    """1, 2, 5 x 10^k: progress lines and curve points fall on them."""

    def test_one_two_five(self):
        self.assertEqual(one_two_five(0), [])
        self.assertEqual(one_two_five(1), [1])
        self.assertEqual(one_two_five(49), [1, 2, 5, 10, 20])
        self.assertEqual(one_two_five(1000)[-3:], [200, 500, 1000])
        self.assertEqual(one_two_five(9), [1, 2, 5])
        self.assertEqual(one_two_five(10 ** 7)[-3:], [2000000, 5000000, 10000000])

    def test_progress_intervals(self):
        # The C's 10,000; a shorter run: the largest round number up to a tenth.
        self.assertEqual([Reporter(n).interval for n in (0, 5, 150, 5000, 9999, 10000, 2000000)],
                         [1, 1, 10, 500, 500, 10000, 10000])

    def test_curve_points(self):
        self.assertEqual(sorted(Reporter(5000, curve=True).points),
                         [0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000])
        self.assertEqual(sorted(Reporter(7, curve=True).points), [0, 1, 2, 5, 7])


class ReporterTest(unittest.TestCase):
    """Progress lines every 10,000 games (10 to 24 in a shorter run), rows
    at curve points, and the same training with or without them."""

    def test_lines_rows_and_the_same_training(self):
        plain, _ = train_with(Reporter(300, quiet=True), 300)
        reporter = Reporter(300, curve=True)
        trained, text = train_with(reporter, 300)
        self.assertEqual(trained, plain)
        self.assertEqual(text.count("Games: "), 15)   # every 20 games
        self.assertRegex(text, r"Games: 300, Wins: \d+ \(\d+\.\d%\), Losses: \d+ \(\d+\.\d%\), "
                               r"Ties: \d+ \(\d+\.\d%\) \[")
        self.assertEqual([r["games"] for r in reporter.rows], [0, 1, 2, 5, 10, 20, 50, 100,
                                                               200, 300])
        self.assertIsNone(reporter.rows[0]["sampled"])
        self.assertEqual(sum(reporter.rows[-1]["sampled"]), 100)   # games 201-300

    def test_the_first_point_is_the_untrained_net(self):
        untrained = measure(init_neural_network(random.Random(8)), 0, None, O)
        reporter = Reporter(10, curve=True, quiet=True)
        train_with(reporter, 10)
        self.assertEqual(reporter.rows[0], untrained)

    def test_a_stop_request_stops_and_gets_a_last_point(self):
        reporter = Reporter(1000, curve=True, quiet=True, stop=lambda: reporter.games == 30)
        rng = random.Random(1)
        net = init_neural_network(rng)
        reporter.begin(net)
        played = train_against_random(net, 1000, rng, report=reporter.report)
        reporter.finish(net)
        self.assertEqual(played, 30)
        self.assertEqual([r["games"] for r in reporter.rows][-2:], [20, 30])

    def test_percentages_round_like_c_float32(self):
        # 15 of 10,000 is 0.15%: 0.150000006 in float32, 0.1499... in float64.
        reporter = Reporter(10000)
        reporter.window.update({"win": 14, "loss": 7987, TIE: 1998})
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            reporter.report(None, 10000, O, O)   # the 15th win, then the progress line
        self.assertIn("Wins: 15 (0.2%), Losses: 7987 (79.9%), Ties: 1998 (20.0%)", out.getvalue())


class RowsTest(unittest.TestCase):
    """Each telling position has the net's side to move and a real choice;
    the CSV holds the probability of the correct moves."""

    def test_positions(self):
        for side in (O, X):
            for label, position in TELLING_POSITIONS[side]:
                self.assertEqual(to_move(position), side, label)
                self.assertTrue(correct_moves(position), label)

    def test_rows_and_csv(self):
        net = init_neural_network(random.Random(1))
        row = measure(net, 0, None, O)
        self.assertEqual([len(p) for p in row["probs"]], [9, 9, 9])
        self.assertNotIn("losing_lines", row["exact"])
        lines = csv_text({7: [row, dict(row, games=5, sampled=(3, 1, 1))]}, O).splitlines()
        self.assertEqual(lines[0].split(","), [
            "games", "wins", "losses", "ties", "exact_win", "exact_draw", "exact_loss",
            "lines_lost", "p_correct_x_took_the_centre", "p_correct_x_took_a_corner",
            "p_correct_o_must_block"])
        self.assertEqual(lines[1].split(",")[:4], ["0", "", "", ""])
        self.assertEqual(lines[2].split(",")[:4], ["5", "3", "1", "1"])
        # "X took a corner": only the centre is correct.
        self.assertEqual(float(lines[1].split(",")[-2]), round(row["probs"][1][4], 6))
        # "X took the centre": the four corners are.
        self.assertAlmostEqual(float(lines[1].split(",")[-3]),
                               sum(row["probs"][0][c] for c in (0, 2, 6, 8)), places=6)
        many = csv_text({8: [row], 7: [row]}, O).splitlines()
        self.assertEqual([l.split(",")[0] for l in many], ["seed", "7", "8"])


if __name__ == "__main__":
    unittest.main()
