"""ttt-train --runs (runs.py), the learning settings and the SVG curve."""

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET

from ttt_rl.runs import rank_key

from .helpers import SRC, run_module

SVG = "{http://www.w3.org/2000/svg}"


def run(seed, unbeatable, win, lines_lost):
    return {"seed": seed, "result": {"unbeatable": unbeatable, "win": win,
                                     "lines_lost": lines_lost}}


class RankingTest(unittest.TestCase):
    """Unbeatable first, then the highest win rate, fewest lines lost, lowest seed."""

    def test_order(self):
        runs = [run(1, False, 0.90, 3), run(2, True, 0.85, 0), run(3, True, 0.88, 0),
                run(4, False, 0.90, 1), run(5, True, 0.88, 0), run(6, False, 0.70, 1)]
        self.assertEqual([r["seed"] for r in sorted(runs, key=rank_key)], [3, 5, 2, 4, 1, 6])


class Base(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tmp = tmp.name

    def path(self, name):
        return os.path.join(self.tmp, name)

    def read(self, name):
        with open(self.path(name), "rb") as f:
            return f.read()


class RunsCommandTest(Base):
    """--runs saves the best run, byte-identical to its single run; Ctrl-C cleans up."""

    def test_best_run_is_saved_and_reproducible(self):
        proc = run_module("train", "3000", self.path("best.bin"), "--runs", "3",
                          "--seed", "100", "--jobs", "2", "--curve", self.path("c.csv"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        best = int(re.search(r"Best of 3 runs \(seed (\d+)\)", proc.stdout).group(1))
        self.assertIn("Repeat the saved run: ttt-train 3000 %s --seed %d"
                      % (self.path("best.bin"), best), proc.stdout)
        table = [line.split() for line in proc.stdout.splitlines()
                 if re.match(r"^ +\d+ +\d+ ", line)]
        self.assertEqual(sorted(int(row[1]) for row in table), [100, 101, 102])
        # Each run's file is the single run with its seed; rank them with
        # ttt-eval --json and compare with the table's order.
        results = []
        for seed in (100, 101, 102):
            name = "s%d.bin" % seed
            self.assertEqual(run_module("train", "3000", self.path(name), "--seed",
                                        str(seed)).returncode, 0)
            if seed == best:
                self.assertEqual(self.read(name), self.read("best.bin"))
            evaluation = json.loads(run_module("evaluate", "--json", self.path(name)).stdout)
            results.append({"seed": seed, "result": evaluation})
        self.assertEqual([r["seed"] for r in sorted(results, key=rank_key)],
                         [int(row[1]) for row in table])
        rows = self.read("c.csv").decode().splitlines()
        self.assertEqual(rows[0].split(",")[:2], ["seed", "games"])
        self.assertEqual({row.split(",")[0] for row in rows[1:]}, {"100", "101", "102"})
        self.assertTrue(all(row.split(",")[5] for row in rows[1:]))   # exact win filled

    def test_svg_has_one_curve_per_run_and_axis_labels(self):
        proc = run_module("train", "2500", self.path("w.bin"), "--runs", "3", "--seed", "5",
                          "--curve", self.path("c.svg"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        root = ET.parse(self.path("c.svg")).getroot()
        self.assertEqual(root.tag, SVG + "svg")
        seeds = [g.get("data-seed") for g in root.iter(SVG + "g") if g.get("class") == "run"]
        self.assertEqual(sorted(seeds), ["5", "6", "7"])
        texts = [t.text for t in root.iter(SVG + "text")]
        self.assertIn("games trained", texts)
        self.assertIn("lines lost", texts)
        self.assertIn("% of games vs random X", texts)

    def test_single_run_svg(self):
        proc = run_module("train", "2000", self.path("w.bin"), "--seed", "5",
                          "--curve", self.path("c.svg"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        root = ET.parse(self.path("c.svg")).getroot()
        runs = [g for g in root.iter(SVG + "g") if g.get("class") == "run"]
        self.assertEqual(len(runs), 1)   # a final row although < 10000 games

    def test_ctrl_c_leaves_no_process_and_no_file(self):
        if not os.path.isdir("/proc"):
            self.skipTest("needs /proc to see the workers")
        env = dict(os.environ, PYTHONPATH=SRC)
        proc = subprocess.Popen([sys.executable, "-m", "ttt_rl.train", "10000000",
                                 self.path("w.bin"), "--runs", "2", "--jobs", "2"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        proc.stdout.readline()
        deadline = time.monotonic() + 20
        while len(children_of(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        children = children_of(proc.pid)
        self.assertEqual(len(children), 2)   # ...or the test sees nothing
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 130)
        self.assertEqual(err.decode(), "ttt-train: interrupted; %s was not written\n"
                         % self.path("w.bin"))
        time.sleep(0.2)
        self.assertEqual([pid for pid in children if alive(pid)], [])
        self.assertEqual(os.listdir(self.tmp), [])


def children_of(pid):
    """Return the PIDs whose parent is `pid` (Linux /proc; [] elsewhere)."""
    found = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        try:
            with open("/proc/%s/stat" % entry) as f:
                if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
        except (OSError, ValueError, IndexError):
            continue
    return found


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class SettingsFlagsTest(Base):
    """Rewards and learning rate are flags; bad values get one line."""

    def test_bad_values(self):
        for flag, value in (("--learning-rate", "0"), ("--learning-rate", "-1"),
                            ("--learning-rate", "inf"), ("--reward-tie", "nan"),
                            ("--reward-win", "1e999"), ("--reward-loss", "x"),
                            ("--runs", "0"), ("--runs", "-2"), ("--jobs", "two")):
            proc = run_module("train", "10", self.path("w.bin"), flag, value)
            self.assertEqual(proc.returncode, 2, (flag, value))
            self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)
            self.assertNotIn("Traceback", proc.stderr)

    def test_changed_rewards_change_the_result(self):
        files = {}
        for name, flags in (("default", []), ("same", ["--reward-tie", "0.3"]),
                            ("tie0", ["--reward-tie", "0"]),
                            ("rate", ["--learning-rate", "0.05"])):
            proc = run_module("train", "1500", self.path(name), "--seed", "3", *flags)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            files[name] = self.read(name)
        self.assertEqual(files["default"], files["same"])
        self.assertNotEqual(files["default"], files["tie0"])
        self.assertNotEqual(files["default"], files["rate"])


if __name__ == "__main__":
    unittest.main()
