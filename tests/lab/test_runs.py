"""Worker processes (lab/runs.py). ttt-train --runs: the best run saved, a Ctrl-C saves the
best, a dead worker is one line and exit 1, and no worker outlives the command, even killed
with SIGKILL. Expert iteration: the same file with 1 (in this process) and 2 workers, a first
Ctrl-C keeps the last whole round, a second ends at once, and a worker that dies while the net
learns is one line, the net of the last whole round saved."""

import functools
import multiprocessing
import os
import random
import re
import signal
import subprocess
import sys
import time
import unittest
from unittest import mock

from ttt_rl import connect4, expert_iteration, train
from ttt_rl.lab import exact, runs
from ttt_rl.weights import file_size, load

from ..helpers import C_FILE, DATA, SRC, TempDirTest, read, run_main

# Nets by seed, for runs of 0 games: 3 and 4 beatable, 5 and 6 unbeatable, 6 winning more.
NETS = {3: C_FILE, 4: os.path.join(DATA, "py_trained.bin"),
        5: os.path.join(DATA, "unbeatable_seed5.bin"),    # 85.71% wins
        6: os.path.join(DATA, "unbeatable_seed1.bin")}    # 88.04% wins


def fake_start(args, init_net=None):
    """start_network for the workers: the net of NETS for the run's seed."""
    if args.seed == 7:
        os._exit(3)   # a worker that dies
    return load(NETS[args.seed]), random.Random(args.seed)


def children_of(pid):
    """Return the pids of the processes whose parent is `pid` (Linux /proc)."""
    found = []
    for name in os.listdir("/proc"):
        try:
            with open("/proc/%s/stat" % name, encoding="ascii") as f:
                if name.isdigit() and int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(name))
        except (OSError, IndexError, ValueError):
            pass
    return found


class RankingTest(TempDirTest):
    """Workers are forked: the patched start_network reaches them."""

    def runs(self, *flags):
        out = self.path("best.bin")
        with mock.patch("ttt_rl.lab.runs.start_network", fake_start):
            status, stdout, stderr = run_main(train.main, "0", out, "--runs", "4", "--seed",
                                              "3", "--jobs", "2", *flags)
        return status, stdout, stderr, read(out)

    def test_the_best_run_is_saved(self):
        status, out, err, data = self.runs()
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(data, read(NETS[6]))
        ranks = re.findall(r"(?m)^ +\d+\. seed (\d+): ", out)
        self.assertEqual(ranks, ["6", "5", "3", "4"])   # unbeatable first, then lines lost

    @unittest.skipUnless(os.path.isdir("/proc"), "reads /proc")
    def test_a_dead_worker_is_one_line_and_exit_1(self):
        out = self.path("best.bin")
        for seed, runs in (("6", "2"), ("7", "1")):   # one run finished first, or none
            with mock.patch("ttt_rl.lab.runs.start_network", fake_start):
                status, stdout, stderr = run_main(train.main, "0", out, "--runs", runs,
                                                  "--seed", seed, "--jobs", "1")
            self.assertEqual(status, 1)
            self.assert_one_line(stderr, "^ttt-train: error: a worker process died")
            self.assertFalse(children_of(os.getpid()))
        self.assertIn("no run finished: %s was not written" % out, stderr)
        self.assertEqual(read(out), read(NETS[6]))   # the run that finished was saved


@unittest.skipUnless(os.path.isdir("/proc"), "reads /proc")
class StoppingTest(TempDirTest):
    """The command as a user runs it, in its own process group, as at a terminal."""

    def start(self):
        proc = self.start_module("train", "10000000", self.path("best.bin"), "--runs", "2",
                                 "--seed", "1", "--jobs", "2", start_new_session=True)
        deadline = time.monotonic() + 30
        while len(children_of(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.3)   # the workers are training
        return proc

    def test_ctrl_c_saves_the_best_run(self):
        proc = self.start()
        os.killpg(proc.pid, signal.SIGINT)   # Ctrl-C reaches every process of the group
        out, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 130, err)
        self.assertIn(b"Stopped by Ctrl-C; best of 2 runs", out)
        self.assertEqual(len(read(self.path("best.bin"))), 11236)

    def test_no_worker_outlives_a_killed_command(self):
        proc = self.start()
        workers = children_of(proc.pid)
        self.assertEqual(len(workers), 2)   # found, or this test would prove nothing
        proc.kill()
        proc.wait()
        deadline = time.monotonic() + 5
        while any(os.path.exists("/proc/%d" % w) and not _zombie(w) for w in workers) \
                and time.monotonic() < deadline:
            time.sleep(0.1)
        self.assertFalse([w for w in workers if os.path.exists("/proc/%d" % w) and
                          not _zombie(w)])


# Expert iteration as tested: tiny nets, few simulations, the figures at the end from 10 games
# a side (not 1,000); in a subprocess, rounds of 4 games (not 300) and Ctrl-C as at a terminal.
EXPERT = ["--game", "connect4", "--method", "expert-iteration", "--simulations", "10",
          "--hidden", "10", "--seed", "3"]
FEW = functools.partial(exact.c4_results, games=10)   # (the verdict passes no games)
SMALL_ROUNDS = """
import functools, sys
from ttt_rl import expert_iteration, train
from ttt_rl.lab import exact
expert_iteration.GAMES_PER_ROUND = 4
exact.c4_results = functools.partial(exact.c4_results, games=10)
sys.exit(train.main(sys.argv[1:]))
"""


class ExpertIterationTest(TempDirTest):

    def train(self, games, name, *flags, status=0):
        with mock.patch("ttt_rl.lab.exact.c4_results", FEW), \
                mock.patch("ttt_rl.expert_iteration.GAMES_PER_ROUND", 4):
            got, out, err = run_main(train.main, str(games), self.path(name), *EXPERT, *flags)
        self.assertEqual((got, err if status == 0 else ""), (status, ""))
        self.err = err
        return read(self.path(name))

    def test_the_same_file_with_1_and_2_workers_and_1_plays_here(self):
        pids = []

        play = expert_iteration.self_play_game

        def game(*args):
            pids.append(os.getpid())
            return play(*args)
        with mock.patch("ttt_rl.expert_iteration.self_play_game", game):
            one = self.train(6, "one.bin", "--jobs", "1")
        self.assertEqual(set(pids), {os.getpid()})   # a debugger can step into each game
        self.assertEqual(len(one), file_size(10, connect4, 8))
        self.assertEqual(self.train(6, "two.bin", "--jobs", "2"), one)

    def test_a_worker_that_dies_is_one_line_and_the_last_whole_round_kept(self):
        # No worker lives while the net learns (a pool a round); a worker of round 2 dies.
        learn, alive = expert_iteration.learn_positions, []

        def learn_then_kill_the_next_round(*args, **kwargs):
            alive.append(len(multiprocessing.active_children()))
            open(DIED, "w").close()
            return learn(*args, **kwargs)
        with mock.patch("ttt_rl.expert_iteration.learn_positions",
                        learn_then_kill_the_next_round), \
                mock.patch.object(runs, "_self_play", _dying_game), \
                mock.patch(__name__ + ".DIED", self.path("died")):
            kept = self.train(12, "c4.bin", "--jobs", "2", status=1)
        self.assertEqual(self.err, "ttt-train: error: a worker process died: the net of the "
                                   "last whole round is kept\n")
        self.assertEqual(set(alive), {0})
        self.assertEqual(kept, self.train(4, "whole.bin", "--jobs", "1"))

    @unittest.skipUnless(os.path.isdir("/proc"), "reads /proc")
    def test_a_first_ctrl_c_keeps_the_last_whole_round(self):
        out_file = self.path("c4.bin")
        proc = subprocess.Popen([sys.executable, "-c", SMALL_ROUNDS, "100000", out_file,
                                 *EXPERT, "--jobs", "2"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=dict(os.environ, PYTHONPATH=SRC),
                                start_new_session=True, preexec_fn=lambda: signal.signal(
                                    signal.SIGINT, signal.SIG_DFL))
        self.addCleanup(proc.kill)
        line = b""
        while not line.startswith(b"Games: ") and proc.poll() is None:
            line = proc.stdout.readline()   # the first round's line
        os.killpg(proc.pid, signal.SIGINT)   # Ctrl-C reaches every process of the group
        out, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 130, err)
        self.assertNotIn(b"Traceback", err)
        games = int(re.search(rb"Stopped by Ctrl-C after (\d+) of 100000 games \(whole rounds "
                              rb"learned\)\.", out).group(1))
        self.assertTrue(games >= 4 and games % 4 == 0, games)
        self.assertIn(b"Neural network saved to " + out_file.encode(), out)
        # The net of that round: the same bytes as a training of exactly that many games.
        self.assertEqual(read(out_file), self.train(games, "whole.bin", "--jobs", "1"))

    @unittest.skipUnless(os.path.isdir("/proc"), "reads /proc")
    def test_a_second_ctrl_c_ends_at_once_whatever_the_workers_do(self):
        out_file = self.path("c4.bin")
        proc = subprocess.Popen([sys.executable, "-c", SMALL_ROUNDS, "100000", out_file,
                                 *EXPERT, "--jobs", "2", "--simulations", "20000"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=dict(os.environ, PYTHONPATH=SRC), start_new_session=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.addCleanup(proc.kill)
        proc.stdout.readline()   # training has begun
        time.sleep(0.5)          # the workers are in their first (long) games
        for _ in range(2):
            os.killpg(proc.pid, signal.SIGINT)
            time.sleep(0.1)
        out, err = proc.communicate(timeout=20)   # at once: no game is waited for
        # (-2: the second Ctrl-C came as Python exited, its handler gone; a shell says 130)
        self.assertIn(proc.returncode, (130, -signal.SIGINT), err)
        self.assertNotIn(b"Traceback", err)



DIED = None   # a file: once it exists, _dying_game dies


def _dying_game(seed, simulations):
    """runs._self_play in a worker (forked: the test's patches are there), or its death."""
    if os.path.exists(DIED):
        os._exit(3)
    return PLAY(seed, simulations)


PLAY = runs._self_play


def _zombie(pid):
    """True if process `pid` has ended and waits for its parent to read its status."""
    try:
        with open("/proc/%d/stat" % pid, encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


if __name__ == "__main__":
    unittest.main()
