"""The maintainer's picture (bench/curve.py, `make curve`): the C's rule and
Q-learning trained side by side and drawn in one SVG."""

import importlib.util
import os
import unittest
import xml.etree.ElementTree as ET

from ttt_rl.game import O
from ttt_rl.lab.svg import chart

from .helpers import ROOT, TempDirTest, read, run_main
from .lab.test_svg import rows_of_a_run

SVG = "{http://www.w3.org/2000/svg}"
spec = importlib.util.spec_from_file_location("curve", os.path.join(ROOT, "bench", "curve.py"))
curve = importlib.util.module_from_spec(spec)
spec.loader.exec_module(curve)


class ComparisonTest(TempDirTest):
    """make curve (curve.main GAMES OUT.svg): both rules side by side."""

    def test_the_picture_is_written_and_an_old_one_kept(self):
        with open(self.path("out.svg"), "w") as f:
            f.write("<svg/>")
        status, out, err = run_main(curve.main, "30", self.path("out.svg"), "--seed", "1")
        self.assertEqual((status, err), (0, ""))
        self.assertRegex(out, r"monte-carlo, seed 1, 30 games: loses \d+ lines?, ")
        self.assertRegex(out, r"q-learning, seed 1, 30 games: ")
        self.assertIn("Picture written to %s\n" % self.path("out.svg"), out)
        texts = [t.text for t in ET.parse(self.path("out.svg")).iter(SVG + "text")]
        self.assertIn("The C's rule (monte-carlo), seed 1", texts)
        self.assertIn("Q-learning, seed 1", texts)
        self.assertEqual(read(self.path("out.svg.bak")), b"<svg/>")

    def test_its_command_line(self):
        status, _, err = run_main(curve.main, "30", self.path("out.png"))
        self.assertEqual(status, 2)
        self.assert_one_line(err, r"^make curve: error: .*must end in \.svg.*\(try --help\)$")
        status, out, _ = run_main(curve.main, "--help")
        self.assertEqual(status, 0)
        self.assertTrue(out.startswith("usage: make curve "), out[:60])
        self.assertIn("GAMES OUT.svg", out)
        self.assertEqual(os.listdir(self.tmp), [])

    def test_two_charts_side_by_side_with_their_headings(self):
        left = chart({1: rows_of_a_run(1, 20)}, O, heading="The C's rule, seed 1")
        right = chart({1: rows_of_a_run(1, 20)}, O, heading="Q-learning, seed 1")
        root = ET.fromstring(curve.side_by_side([left, right]))
        inner = root.findall(SVG + "svg")
        self.assertEqual([c.get("x") for c in inner], ["0", str(int(root.get("width")) // 2)])
        texts = [t.text for t in root.iter(SVG + "text")]
        self.assertIn("The C's rule, seed 1", texts)
        self.assertIn("Q-learning, seed 1", texts)



if __name__ == "__main__":
    unittest.main()
