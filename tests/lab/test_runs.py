"""Runs in worker processes (lab/runs.py): ttt-train --runs saves the best
run, byte-identical to its single run; no worker is ever lost or left
behind."""

import contextlib
import errno
import json
import multiprocessing.process
import os
import re
import signal
import time
import unittest
from unittest import mock

from ttt_rl import train
from ttt_rl.lab import ttt_eval
from ttt_rl.lab.exact import evaluate_network
from ttt_rl.lab.runs import rank_key
from ttt_rl.weights import load

from ..helpers import TempDirTest, read, run_main


def run(seed, unbeatable, win, lines_lost):
    return {"seed": seed, "result": {"unbeatable": unbeatable, "win": win,
                                     "lines_lost": lines_lost}}


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


def kill_all(pids):
    """SIGKILL the workers a test saw that are still running."""
    for pid in pids:
        if alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


class RankingTest(unittest.TestCase):
    """As the verdict reads: unbeatable first, then fewest lines lost, then
    most wins, then the lowest seed."""

    def test_order(self):
        ranked = sorted([run(1, False, 0.90, 3), run(2, True, 0.85, 0), run(3, True, 0.88, 0),
                         run(4, False, 0.90, 1), run(5, True, 0.88, 0), run(6, False, 0.95, 1),
                         run(7, False, 0.99, 2)], key=rank_key)
        self.assertEqual([r["seed"] for r in ranked], [3, 5, 2, 6, 4, 7, 1])


class RunsTest(TempDirTest):
    """The saved file is the best run's, the table is ranked, the curve has every run."""

    def test_the_quick_start_recipe_ends_unbeatable(self):
        # make net, for a fixed seed: the slowest test (20,000 games). Seed 5
        # ends unbeatable, so no other run is needed.
        status, out, _ = run_main(train.main, "20000", self.path("net.bin"), "--runs", "16",
                                  "--until-unbeatable", "--seed", "5", "--jobs", "1")
        self.assertEqual(status, 0)
        self.assertIn("Best of 1 run (seed 5):", out)
        self.assertTrue(evaluate_network(load(self.path("net.bin")))["unbeatable"])

    def test_best_run_is_saved_and_reproducible(self):
        status, out, err = run_main(train.main, "100", self.path("best.bin"), "--runs", "3",
                                    "--seed", "100", "--jobs", "2", "--curve",
                                    self.path("c.csv"))
        self.assertEqual((status, err), (0, ""))
        best = int(re.search(r"Best of 3 runs \(seed (\d+)\):", out).group(1))
        self.assertRegex(out, r"Repeat the saved run: .* 100 %s --seed=%d\n"
                              % (re.escape(self.path("best.bin")), best))
        table = [line.split() for line in out.splitlines() if re.match(r"^ +\d+ +\d+ ", line)]
        results = []
        for seed in (100, 101, 102):
            name = self.path("s%d.bin" % seed)
            run_main(train.main, "100", name, "--seed", str(seed))
            if seed == best:
                self.assertEqual(read(name), read(self.path("best.bin")))
            _, text, _ = run_main(ttt_eval.main, "--json", name)
            results.append({"seed": seed, "result": json.loads(text)})
        self.assertEqual([r["seed"] for r in sorted(results, key=rank_key)],
                         [int(row[1]) for row in table])
        rows = read(self.path("c.csv")).decode().splitlines()
        self.assertEqual(rows[0].split(",")[:2], ["seed", "games"])
        self.assertEqual([r.split(",")[:2] for r in rows[1:3]], [["100", "0"], ["100", "1"]])
        self.assertEqual({row.split(",")[0] for row in rows[1:]}, {"100", "101", "102"})

    def test_failing_runs_are_said_and_nothing_written(self):
        target = self.copy_of_c_file("w.bin")
        status, _, err = run_main(train.main, "50", target, "--runs", "2", "--seed", "1",
                                  "--learning-rate", "1e300")
        self.assertEqual(status, 1)
        self.assertEqual(err.count("failed: a weight is not a finite float32"), 2)
        self.assertIn("no run finished; %s was not written" % target, err)
        self.assertEqual(os.listdir(self.tmp), ["w.bin"])

    def test_a_refused_fork_is_said_and_the_runs_started_are_ranked(self):
        real, started = multiprocessing.process.BaseProcess.start, []

        def start(process):   # the second fork meets a limit on processes
            started.append(process)
            if len(started) == 2:
                raise OSError(errno.EAGAIN, "Resource temporarily unavailable")
            real(process)
        with mock.patch.object(multiprocessing.process.BaseProcess, "start", start):
            status, out, err = run_main(train.main, "50", self.path("w.bin"), "--runs", "3",
                                        "--seed", "1", "--jobs", "3")
        self.assertEqual(status, 1)   # the runs not started count as failed
        self.assertEqual(err, "ttt-train: cannot start a process for 2 more runs: Resource "
                              "temporarily unavailable (try --jobs 1)\n")
        self.assertIn("Best of 1 run (seed 1):", out)
        self.assertTrue(os.path.exists(self.path("w.bin")))

    def test_eval_every_is_for_one_run(self):
        status, _, err = run_main(train.main, "10", self.path("w.bin"), "--runs", "2",
                                  "--eval-every", "5")
        self.assertEqual(status, 2)
        self.assert_one_line(err, "use --curve with --runs")


@unittest.skipUnless(os.path.isdir("/proc"), "needs /proc to see the workers")
class WorkersTest(TempDirTest):
    """A dead worker is a failed run; a stop leaves no process, and the file
    only after a first Ctrl-C."""

    def start(self, games, *flags, **kwargs):
        proc = self.start_module("train", str(games), self.path("w.bin"), "--runs", "2",
                                 "--jobs", "2", "--seed", "1", *flags, **kwargs)
        deadline = time.monotonic() + 20
        while len(children_of(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        children = children_of(proc.pid)
        self.addCleanup(kill_all, children)   # whatever happens to the test
        self.assertEqual(len(children), 2)   # ...or the test sees nothing
        return proc, children

    def assert_no_process_left(self, children):
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in children) and time.monotonic() < deadline:
            time.sleep(0.02)
        self.assertEqual([pid for pid in children if alive(pid)], [])

    def test_a_killed_worker_is_a_failed_run_even_until_unbeatable(self):
        # Class 11: the other run is ranked and saved, and the status says
        # that one run was lost, --until-unbeatable or not.
        proc, children = self.start(1000, "--until-unbeatable")
        os.kill(min(children), signal.SIGKILL)
        out, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 1)
        self.assert_one_line(err, r"^ttt-train: run with seed [12] failed: its process ended "
                                  r"\(killed by signal 9\)$")
        self.assertIn(b"Best of 1 run (seed ", out)
        self.assertTrue(os.path.exists(self.path("w.bin")))

    def test_first_ctrl_c_saves_the_best_so_far(self):
        proc, children = self.start(10000000)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        self.assertEqual((proc.returncode, err), (130, b""))
        self.assertIn(b"Stopped by Ctrl-C; best of 2 runs", out)
        self.assert_no_process_left(children)
        self.assertEqual(os.listdir(self.tmp), ["w.bin"])

    def test_second_ctrl_c_saves_nothing(self):
        proc, children = self.start(10000000)
        for pid in children:   # frozen: no run can end before the second Ctrl-C
            os.kill(pid, signal.SIGSTOP)
        proc.send_signal(signal.SIGINT)
        for line in proc.stdout:   # the first Ctrl-C is said; ends at EOF if not
            if line.startswith(b"Ctrl-C: each run stops after its current game"):
                break
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 130)
        self.assert_one_line(err, "^ttt-train: interrupted; .*w.bin was not written$")
        self.assert_no_process_left(children)   # a stopped worker is killed too
        self.assertEqual(os.listdir(self.tmp), [])

    def test_workers_end_when_the_parent_is_killed(self):
        proc, children = self.start(10000000)
        proc.send_signal(signal.SIGKILL)   # no handler runs: the workers notice
        proc.communicate(timeout=30)
        self.assert_no_process_left(children)
        self.assertEqual(os.listdir(self.tmp), [])

    def test_sigterm_to_the_whole_group(self):
        # `kill %1`, or a service manager: every process gets the signal.
        proc, children = self.start(10000000, start_new_session=True)
        os.killpg(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 128 + signal.SIGTERM)
        self.assert_one_line(err, "^ttt-train: stopped; .*w.bin was not written$")
        self.assert_no_process_left(children)
        self.assertEqual(os.listdir(self.tmp), [])

    def test_nohup_keeps_the_workers(self):
        proc, children = self.start(1000, start_new_session=True, preexec_fn=lambda: (
            signal.signal(signal.SIGHUP, signal.SIG_IGN)))
        os.killpg(proc.pid, signal.SIGHUP)   # the terminal closes
        _, err = proc.communicate(timeout=60)
        self.assertEqual((proc.returncode, err), (0, b""))
        self.assertTrue(os.path.exists(self.path("w.bin")))


if __name__ == "__main__":
    unittest.main()
