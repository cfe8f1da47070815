"""What a run shows (lab/progress.py): the C's line at the right moments,
curve points from game 0, and evaluating never changes training."""

import io
import random
import unittest

from ttt_rl.lab.cli import Output
from ttt_rl.lab.progress import Reporter, format_seconds, percent, progress_interval
from ttt_rl.learn import train_against_random
from ttt_rl.nn import init_neural_network
from ttt_rl.weights import parameters


def train_with(reporter, games, seed=8):
    rng = random.Random(seed)
    net = init_neural_network(rng)
    reporter.begin(net)
    train_against_random(net, games, rng, report=reporter.report, report_every=1)
    reporter.finish(net)
    return parameters(net)


class ReporterTest(unittest.TestCase):
    """Progress lines every 10,000 games (about 10 in a shorter run), rows at curve points."""

    def test_intervals(self):
        self.assertEqual([progress_interval(n) for n in (5, 150, 5000, 9999, 10000, 2000000)],
                         [1, 10, 500, 500, 10000, 10000])

    def test_lines_rows_and_the_same_training(self):
        plain = train_with(Reporter(Output(io.StringIO(), "-", "t"), 300), 300)
        out = Output(io.StringIO(), "-", "t")
        reporter = Reporter(out, 300, eval_every=100, curve=True)
        self.assertEqual(train_with(reporter, 300), plain)
        text = out.stream.getvalue()
        self.assertEqual(text.count("Games: "), 15)   # every 20 games
        self.assertIn("Games: 300, Wins: ", text)
        self.assertIn("[last 20 games; ", text)
        self.assertEqual(text.count("Exact at "), 3)
        self.assertEqual([r["games"] for r in reporter.rows], [0, 1, 2, 5, 10, 20, 50, 100,
                                                               200, 300])
        self.assertIsNone(reporter.rows[0]["sampled"])
        self.assertEqual(sum(reporter.rows[-1]["sampled"]), 100)   # games 201-300

    def test_an_early_stop_gets_a_last_point(self):
        reporter = Reporter(Output(io.StringIO(), "-", "t"), 1000, curve=True)
        rng = random.Random(1)
        net = init_neural_network(rng)
        reporter.begin(net)
        played = train_against_random(net, 1000, rng, report=lambda n, g, c: (
            reporter.report(n, g, c) or g == 30), report_every=1)
        reporter.finish(net)
        self.assertEqual(played, 30)
        self.assertEqual(reporter.rows[-1]["games"], 30)


class NumbersTest(unittest.TestCase):
    """Percentages round like the C's float32; durations read well."""

    def test_percent_rounds_like_c_float32(self):
        self.assertEqual("%.1f" % percent(15, 10000), "0.2")
        self.assertEqual("%.1f" % percent(7987, 10000), "79.9")
        self.assertEqual("%.1f" % percent(10000, 10000), "100.0")

    def test_format_seconds(self):
        self.assertEqual([format_seconds(s) for s in (4.4, 185, 3725)],
                         ["4s", "3m05s", "1h02m"])


if __name__ == "__main__":
    unittest.main()
