"""The picture (lab/svg.py): valid SVG with curves from game 0 and heat maps
whose cells carry the net's probabilities."""

import random
import unittest
import xml.etree.ElementTree as ET

from ttt_rl.game import O, X
from ttt_rl.lab.curve import TELLING_POSITIONS, curve_points, measure
from ttt_rl.lab.svg import chart, heat_columns
from ttt_rl.learn import train_against_random
from ttt_rl.nn import init_neural_network

SVG = "{http://www.w3.org/2000/svg}"


def rows_of_a_run(seed, games, side=O):
    rng = random.Random(seed)
    net = init_neural_network(rng)
    rows, done = [measure(net, 0, None, side)], 0
    for point in curve_points(games)[1:]:
        train_against_random(net, point - done, rng, side)
        done = point
        rows.append(measure(net, point, (1, 1, 1), side))
    return rows


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
        texts = [t.text for t in root.iter(SVG + "text")]
        self.assertIn("games trained (log scale; 0 = the untrained net)", texts)
        self.assertIn("0 games", texts)

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
        rows = [{"games": g} for g in curve_points(50000)]
        self.assertEqual([r["games"] for r in heat_columns(rows)], [0, 20, 200, 5000, 50000])
        rows = [dict(self.runs[5][-1], games=g) for g in curve_points(2000000)]
        texts = [t.text for t in ET.fromstring(chart({1: rows}, O)).iter(SVG + "text")]
        for label in ("0", "1", "10", "100", "1k", "10k", "100k", "1M", "2,000,000 games"):
            self.assertIn(label, texts)

    def test_a_run_of_0_games_is_one_column(self):
        root = ET.fromstring(chart({1: rows_of_a_run(1, 0)}, O))
        maps = [g for g in root.iter(SVG + "g") if g.get("class") == "heatmap"]
        self.assertEqual(len(maps), 3)

    def test_side_x(self):
        root = ET.fromstring(chart({1: rows_of_a_run(1, 20, X)}, X))
        self.assertIn("How the net learns to play X against a random O",
                      [t.text for t in root.iter(SVG + "text")])


if __name__ == "__main__":
    unittest.main()
