"""The maintainer's picture: bench/svg.py draws a learning curve (lab.curve.Reporter's rows)
as valid SVG with heat maps of the net's probabilities; bench/curve.py (`make curve`) trains
the C's rule and Q-learning side by side and draws both."""

import contextlib
import io
import os
import random
import subprocess
import sys
import unittest
from unittest import mock
import xml.etree.ElementTree as ET

from ttt_rl.game import O, X
from ttt_rl.lab.curve import TELLING_POSITIONS, Reporter, measure, one_two_five
from ttt_rl.learn import train_against_random
from ttt_rl.nn import init_neural_network

from .helpers import ROOT, SRC, TempDirTest, run_main

sys.path.insert(0, os.path.join(ROOT, "bench"))
import curve  # noqa: E402  (bench/curve.py)
from svg import chart, heat_columns  # noqa: E402  (bench/svg.py)

SVG = "{http://www.w3.org/2000/svg}"


def rows_of_a_run(seed, games, side=O):
    """The curve of a run of the C's rule, as bench/curve.py measures it."""
    rng = random.Random(seed)
    net = init_neural_network(rng)
    reporter = Reporter(games, side, curve=True, quiet=True)
    reporter.rows.append(measure(net, 0, None, side))   # the untrained net
    train_against_random(net, games, rng, side, report=reporter.report)
    reporter.finish(net)
    return reporter.rows


def texts(svg_text):
    return [t.text for t in ET.fromstring(svg_text).iter(SVG + "text")]


class ChartTest(unittest.TestCase):
    """One curve per run; heat maps of the saved run, cell by cell."""

    @classmethod
    def setUpClass(cls):
        cls.runs = {5: rows_of_a_run(5, 200), 6: rows_of_a_run(6, 200)}

    def test_valid_svg_with_one_curve_per_run(self):
        root = ET.fromstring(chart(self.runs, O, best=6))
        self.assertEqual(root.tag, SVG + "svg")
        seeds = [g.get("data-seed") for g in root.iter(SVG + "g") if g.get("class") == "run"]
        self.assertEqual(seeds, ["5", "6"])
        labels = texts(chart(self.runs, O, best=6))
        self.assertIn("games trained (log scale; 0 = the untrained net)", labels)
        self.assertIn("0 games", labels)

    def test_heat_maps_hold_the_probabilities(self):
        root = ET.fromstring(chart(self.runs, O, best=6))
        maps = [g for g in root.iter(SVG + "g") if g.get("class") == "heatmap"]
        columns = heat_columns(self.runs[6])
        self.assertEqual(len(maps), len(TELLING_POSITIONS[O]) * len(columns))
        first = maps[0]   # "X took the centre" at 0 games
        self.assertEqual(first.get("data-position"), TELLING_POSITIONS[O][0][1])
        cells = [r for r in first.iter(SVG + "rect") if r.get("data-p")]
        probs = [float(r.get("data-p")) for r in cells]
        self.assertEqual(probs, [round(p, 6) for p in self.runs[6][0]["probs"][0]])
        titles = [r.find(SVG + "title").text for r in cells]
        self.assertIn("a correct move", titles[0])      # a corner
        self.assertTrue(any("the move it plays" in t for t in titles))

    def test_columns_and_ticks(self):
        rows = [{"games": g} for g in [0] + one_two_five(50000)]
        self.assertEqual([r["games"] for r in heat_columns(rows)], [0, 20, 200, 5000, 50000])
        rows = [dict(self.runs[5][-1], games=g) for g in [0] + one_two_five(2000000)]
        labels = texts(chart({1: rows}, O))
        for label in ("0", "1", "10", "100", "1k", "10k", "100k", "1M", "2,000,000 games"):
            self.assertIn(label, labels)

    def test_a_run_of_0_games_is_one_column(self):
        root = ET.fromstring(chart({1: rows_of_a_run(1, 0)}, O))
        maps = [g for g in root.iter(SVG + "g") if g.get("class") == "heatmap"]
        self.assertEqual(len(maps), 3)

    def test_side_x(self):
        self.assertIn("How the net learns to play X against a random O",
                      texts(chart({1: rows_of_a_run(1, 20, X)}, X)))


class CurveTest(TempDirTest):
    """make curve (bench/curve.py GAMES OUT.svg): both rules side by side."""

    def test_both_rules_drawn_side_by_side(self):
        # As `make curve` runs it: a script, its two workers in a pool.
        with open(self.path("out.svg"), "w") as f:
            f.write("<svg/>")
        proc = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "curve.py"), "300",
                               self.path("out.svg"), "--seed", "1"], capture_output=True,
                              text=True, timeout=60, env=dict(os.environ, PYTHONPATH=SRC))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        # Progress on stderr: what it trains at once, then each worker's count (at least
        # every 10 s, and at its end), as `make bench` shows its own.
        said = proc.stderr.splitlines()
        self.assertEqual(said[0], "make curve: monte-carlo and q-learning, 300 games each on "
                                  "seed 1, in 2 processes; progress every 10 s")
        for line in said[1:]:
            self.assertRegex(line, r"^make curve: (monte-carlo|q-learning), \d+ of 300 games, "
                                   r"\d+ s$")
        for rule in ("monte-carlo", "q-learning"):
            self.assertEqual(sum(line.startswith("make curve: %s, 300 of 300 " % rule)
                                 for line in said), 1)
        self.assertRegex(proc.stdout, r"^monte-carlo, seed 1, 300 games: loses \d+ lines?, "
                                      r"\d+\.\d% wins\nq-learning, seed 1, 300 games: ")
        self.assertTrue(proc.stdout.endswith("Picture written to %s\n" % self.path("out.svg")))
        with open(self.path("out.svg"), encoding="utf-8") as f:
            root = ET.fromstring(f.read())   # the old file replaced
        charts = root.findall(SVG + "svg")
        self.assertEqual([c.get("x") for c in charts], ["0", str(int(root.get("width")) // 2)])
        headings = [c.find(SVG + "text").text for c in charts]
        self.assertEqual(headings, ["The C's rule (monte-carlo), seed 1", "Q-learning, seed 1"])
        # Each curve starts from the untrained net of seed 1, the same for both rules; the
        # heat maps at 0 games hold its probabilities.
        untrained = measure(init_neural_network(random.Random(1)), 0, None, O)["probs"][0]
        for c in charts:
            heat = next(g for g in c.iter(SVG + "g") if g.get("class") == "heatmap")
            probs = [float(r.get("data-p")) for r in heat.iter(SVG + "rect") if r.get("data-p")]
            self.assertEqual(probs, [round(p, 6) for p in untrained])
        self.assertEqual(sorted(os.listdir(self.tmp)), ["out.svg"])

    def test_progress_every_10_seconds_and_at_the_end(self):
        clock = iter([0.0, 3.0, 10.25, 12.0, 25.0])   # the start, then one time a game
        said = io.StringIO()
        with mock.patch.object(curve.time, "perf_counter", lambda: next(clock)), \
                contextlib.redirect_stderr(said):
            report = curve.with_progress(lambda net, games, w, s: games == 4, "q-learning", 4)
            stops = [report(None, games, O, O) for games in range(1, 5)]
        self.assertEqual(stops, [False, False, False, True])   # report's own answer
        self.assertEqual(said.getvalue(), "make curve: q-learning, 2 of 4 games, 10 s\n"
                                          "make curve: q-learning, 4 of 4 games, 25 s\n")

    def test_its_command_line(self):
        status, _, err = run_main(curve.main, "30", self.path("out.png"))
        self.assertEqual(status, 2)
        self.assertRegex(err, r"make curve: error: OUT.svg must end in \.svg")
        status, out, _ = run_main(curve.main, "--help")
        self.assertEqual(status, 0)
        self.assertTrue(out.startswith("usage: make curve "), out[:60])
        self.assertIn("GAMES OUT.svg", out)
        # A folder that cannot take the picture fails at once, before any training.
        status, _, err = run_main(curve.main, "300000", self.path("no/such/out.svg"))
        self.assertEqual(status, 1)
        self.assert_one_line(err, r"^make curve: error: cannot write a file beside .*no/such")
        self.assertEqual(os.listdir(self.tmp), [])


if __name__ == "__main__":
    unittest.main()
