"""ttt-web's API (src/ttt_rl/web.py) over HTTP, with urllib: each test starts a server on a
free port, in a thread, for a weights file in a temporary folder."""

import contextlib
import functools
import io
import json
import os
import random
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request
from unittest import mock

from ttt_rl import connect4, web
from ttt_rl import game as tic_tac_toe
from ttt_rl.expert_iteration import HIDDEN_SIZE, player, policy_and_value, search_move
from ttt_rl.game import BOTH, O, X
from ttt_rl.learn import DEFAULT_SETTINGS, train_against_random
from ttt_rl.lab import exact
from ttt_rl.nn import get_computer_move, init_neural_network
from ttt_rl.policy_iteration import correct_moves, train_policy_iteration
from ttt_rl.weights import FileError, file_size, to_bytes

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")


class ServerCase(unittest.TestCase):
    """A server for FILE (net.bin in a new folder, absent unless a test writes it first)."""

    def setUp(self):
        self.folder = tempfile.mkdtemp()
        self.path = os.path.join(self.folder, "net.bin")
        self.server = None

    def tearDown(self):
        if self.server:
            self.server.app.stop()   # a training still running ends after its game or sweep
            self.server.shutdown()
            self.server.server_close()
        shutil.rmtree(self.folder)

    def start(self, path=None, host="127.0.0.1", game=None):
        """Start a server for `path` (default self.path) on `host` and a free port, in a
        thread (`game`: ttt-web's --game)."""
        self.server = web.Server(path or self.path, host, 0, game)
        threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True).start()

    def call(self, path, body=None, data=None, kind="application/json", host=None):
        """GET `path`, or POST `body` as JSON (or the bytes `data`), with the Host header
        `host` (default the server's address); return (status, JSON)."""
        if body is not None:
            data = json.dumps(body).encode()
        headers = {"Content-Type": kind, **({"Host": host} if host else {})}
        request = urllib.request.Request("http://%s:%d%s" % (
            self.server.server_address + (path,)), data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def training_when(self, condition, timeout=10.0):
        """Poll /api/state until condition(training) holds; return that training dict."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            training = self.call("/api/state")[1]["training"]
            if condition(training):
                return training
            time.sleep(0.01)
        self.fail("the training never got there: %s" % training)

    def train(self, games, seed, method="monte-carlo", side=O):
        """Train to the end; return the training dict."""
        status, _ = self.call("/api/train", dict(method=method, side=side, games=games, seed=seed))
        self.assertEqual(status, 200)
        return self.training_when(lambda t: not t["running"])


class WebTest(ServerCase):
    """Tic-tac-toe's page: the API, and the contract's promises."""

    def test_state_says_an_absent_file_gives_an_untrained_net(self):
        self.start()
        status, state = self.call("/api/state")
        self.assertEqual(status, 200)
        self.assertEqual(state["file"], self.path)
        self.assertEqual(state["note"], "does not exist: an untrained net plays (random weights)")
        self.assertFalse(os.path.exists(self.path))   # nothing written unasked

    def test_the_net_replies_to_a_move_with_its_favourite_cell(self):
        self.start()
        status, game = self.call("/api/play", {"board": "....X....", "you": X, "search": 0})
        self.assertEqual(status, 200)
        # The untrained net of seed 1, asked here directly, makes the same move.
        expected = get_computer_move(init_neural_network(random.Random(1)), list("....X...."))
        self.assertEqual(game["move"], expected)
        self.assertEqual(game["board"], "....X...."[:expected] + O + "....X...."[expected + 1:])
        self.assertAlmostEqual(sum(game["probs"]), 1.0)
        self.assertEqual(game["best"], expected in correct_moves("....X...."))
        # Its opening as X when the person plays O; no net move when it is the person's turn.
        self.assertEqual(self.call("/api/play", {"board": ".........", "you": O, "search": 0})[1]
                         ["board"].count(X), 1)
        self.assertNotIn("move", self.call("/api/play", {"board": "X........", "you": O,
                                                         "search": 0})[1])

    def test_hints_match_minimax_on_hand_checked_positions(self):
        self.start()
        # X to move: 2 completes the top row; 5 blocks O, and O's block at 2 forces X to 6,
        # a draw; 6, 7 and 8 let O complete the middle row.
        hints = self.call("/api/play", {"board": "XX.OO....", "you": X, "search": 0})[1]["hints"]
        self.assertEqual(hints, [None, None, "win", None, None, "draw", "loss", "loss", "loss"])
        # After X takes a corner, O draws only by taking the centre.
        hints = self.call("/api/play", {"board": "X........", "you": O, "search": 0})[1]["hints"]
        self.assertEqual(hints, [None] + ["loss"] * 3 + ["draw"] + ["loss"] * 4)

    def test_training_runs_in_the_background_and_stops_within_a_second(self):
        self.start()
        played_before = self.server.app.net
        status, state = self.call("/api/train", dict(method="monte-carlo", side=O,
                                                     games=10 ** 6, seed=1))
        self.assertEqual((status, state["training"]["running"]), (200, True))
        training = self.training_when(lambda t: t["played"] >= 30)
        self.assertEqual(training["rows"][0]["games"], 0)   # the curve starts at game 0
        self.assertIs(self.server.app.net, played_before)   # the game's net, untouched
        status, answer = self.call("/api/train", dict(method="q-learning", side=X, games=5,
                                                      seed=2))
        self.assertEqual(status, 409)
        self.assertIn("running", answer["error"])
        asked = time.monotonic()
        self.call("/api/stop", {})
        training = self.training_when(lambda t: not t["running"])
        self.assertLess(time.monotonic() - asked, 1.0)
        self.assertTrue(training["stopped"])
        self.assertLess(training["played"], 10 ** 6)
        self.assertEqual(training["rows"][-1]["games"], training["played"])   # the end point
        games = [row["games"] for row in training["rows"]]
        self.assertEqual(games, sorted(set(games)))
        self.assertIsNot(self.server.app.net, played_before)   # now the trained net plays

    def test_a_finished_training_is_the_net_its_seed_gives_and_is_played(self):
        self.start()
        training = self.train(40, seed=3)
        self.assertEqual((training["played"], training["stopped"]), (40, False))
        self.assertEqual([row["games"] for row in training["rows"]],
                         [0, 1, 2, 4, 5, 8, 10, 12, 16, 20, 24, 28, 32, 36, 40])
        row = training["rows"][-1]
        self.assertAlmostEqual(row["win"] + row["draw"] + row["loss"], 1.0)
        self.assertEqual([t[0] for t in row["telling"]], ["X took the centre",
                                                          "X took a corner", "O must block"])
        rng = random.Random(3)   # what ttt-train 40 --seed 3 does
        net = init_neural_network(rng)
        train_against_random(net, 40, rng, O, DEFAULT_SETTINGS)
        self.assertEqual(to_bytes(self.server.app.net), to_bytes(net))
        self.assertEqual(self.call("/api/state")[1]["note"], "trained here, not saved")

    def test_policy_iteration_trains_the_net_ttt_train_does_and_measures_both_sides(self):
        calls = []

        def spy(net, sweeps, rng, learning_rate, report):   # the real one, its arguments kept
            calls.append((net, to_bytes(net), sweeps, rng.getstate()))
            return train_policy_iteration(net, sweeps, rng, learning_rate, report)
        self.start()
        with mock.patch("ttt_rl.lab.cli.train_policy_iteration", spy):   # as ttt-train calls it
            training = self.train(1, seed=5, method="policy-iteration", side=O)   # O: ignored
        self.assertEqual((training["side"], training["played"], training["stable"]),
                         ("both", 1, False))
        rng = random.Random(5)   # as ttt-train 1 --seed 5 --method policy-iteration starts
        start = to_bytes(init_neural_network(rng))
        [(net, untrained, sweeps, state)] = calls
        self.assertEqual((untrained, sweeps, state), (start, 1, rng.getstate()))
        self.assertIs(self.server.app.net, net)   # the net it trained is played
        self.assertNotEqual(to_bytes(net), start)
        for row in training["rows"]:   # each side's rates; the row's are their means
            self.assertEqual(sorted(row["sides"]), [O, X])
            for key in ("win", "draw", "loss"):
                self.assertAlmostEqual(row[key], (row["sides"][O][key] + row["sides"][X][key]) / 2)
            self.assertEqual(len(row["telling"]), 6)   # three positions for each side
        self.assertEqual(self.train(5, seed=1)["rows"][-1]["sides"], {})   # one side: none

    def test_a_stable_policy_iteration_says_so(self):
        def stable_at_sweep_3(net, sweeps, rng, learning_rate, report):   # as it reports
            for sweep in range(1, 4):
                report(net, sweep, 3 - sweep)
            return 3, 0
        self.start()
        with mock.patch("ttt_rl.lab.cli.train_policy_iteration", stable_at_sweep_3):
            training = self.train(200, seed=1, method="policy-iteration")
        self.assertEqual((training["played"], training["stable"], training["stopped"]),
                         (3, True, False))
        self.assertEqual([row["games"] for row in training["rows"]], [0, 1, 2, 3])

    def test_save_writes_the_file_and_keeps_the_old_one(self):
        old = to_bytes(init_neural_network(random.Random(7)))
        with open(self.path, "wb") as f:
            f.write(old)
        self.start()
        self.assertEqual(self.call("/api/state")[1]["note"], "loaded")
        self.train(10, seed=4)
        status, state = self.call("/api/save", {})
        self.assertEqual(status, 200)
        self.assertEqual(state["note"], "saved (the old file is now %s.bak)" % self.path)
        with open(self.path, "rb") as f:
            self.assertEqual(f.read(), to_bytes(self.server.app.net))
        with open(self.path + ".bak", "rb") as f:
            self.assertEqual(f.read(), old)

    def test_a_save_that_fails_says_why_in_one_line_and_a_later_one_works(self):
        gone = os.path.join(self.folder, "gone")
        os.mkdir(gone)
        self.start(os.path.join(gone, "net.bin"))
        os.rmdir(gone)   # after the start, which tried it
        status, answer = self.call("/api/save", {})
        self.assertEqual(status, 409)
        self.assertIn("gone", answer["error"])
        self.assertNotIn("\n", answer["error"])
        os.mkdir(gone)
        self.assertEqual(self.call("/api/save", {}), (200, dict(self.server.app.state,
                                                                note="saved")))   # no old file
        self.assertTrue(os.path.exists(os.path.join(gone, "net.bin")))

    def test_a_save_refused_after_writing_does_not_block_the_next_one(self):
        old = to_bytes(init_neural_network(random.Random(7)))
        with open(self.path, "wb") as f:
            f.write(old)
        self.start()
        os.makedirs(os.path.join(self.path + ".bak", "inside"))   # NAME.bak cannot be replaced
        status, answer = self.call("/api/save", {})
        self.assertEqual(status, 409)
        self.assertNotIn("\n", answer["error"])
        kept = answer["error"].rsplit("the data is in ", 1)[1]   # the net, in a temporary file
        with open(kept, "rb") as f:
            self.assertEqual(f.read(), to_bytes(self.server.app.net))
        shutil.rmtree(self.path + ".bak")   # the cause is gone: the next Save works
        status, state = self.call("/api/save", {})
        self.assertEqual(status, 200, state)
        self.assertEqual(state["note"], "saved (the old file is now %s.bak)" % self.path)
        with open(self.path, "rb") as f:
            self.assertEqual(f.read(), to_bytes(self.server.app.net))
        with open(self.path + ".bak", "rb") as f:
            self.assertEqual(f.read(), old)

    def test_unknown_paths_are_404(self):
        self.start()
        for path, body in (("/nope", None), ("/api/nope", None), ("/api/nope", {}),
                           ("/../../etc/passwd", None), ("/web.html", None)):
            self.assertEqual(self.call(path, body)[0], 404, path)

    def test_bad_json_and_bad_values_are_400_and_the_server_goes_on(self):
        self.start()
        play = dict(board=".........", you=X, search=0)
        train = dict(method="q-learning", side=O, games=10, seed=1)
        bad = [b"{bad", b"[]", b"", b"null", json.dumps(dict(play, you="Z")).encode()]
        for change in (dict(board="XXXXXXXXX"), dict(board="XXX.OO..."), dict(board=5),
                       dict(board=list(".........")), dict(you=True), dict(search=1)):
            bad.append(("/api/play", dict(play, **change)))
        for change in (dict(games=0), dict(games=1.5), dict(games=True), dict(games="10"),
                       dict(seed=-1), dict(method="sarsa"), dict(side="Z"), dict(cell=4)):
            bad.append(("/api/train", dict(train, **change)))
        bad.append(("/api/train", {"method": "q-learning"}))
        for case in bad:
            path, body = case if isinstance(case, tuple) else ("/api/play", None)
            status, answer = self.call(path, body, None if body else case)
            self.assertEqual(status, 400, case)
            self.assertNotIn("\n", answer["error"])
        self.assertEqual(self.call("/api/play", data=json.dumps(play).encode(),
                                   kind="text/plain")[0], 400)   # JSON only
        self.assertEqual(self.call("/api/state")[0], 200)
        self.assertFalse(self.call("/api/state")[1]["training"])   # nothing started

    def test_no_length_and_deep_nesting_are_400_too(self):
        self.start()
        self.assertEqual(self.call("/api/play", data=b"[" * 30000)[0], 400)   # RecursionError
        for length in (b"", b"Content-Length: \xc2\xb2\r\n"):   # none, and a digit int() refuses
            with socket.create_connection(self.server.server_address, timeout=10) as client:
                client.sendall(b"POST /api/stop HTTP/1.0\r\nContent-Type: application/json\r\n"
                               b"Host: 127.0.0.1:%d\r\n" % self.server.server_address[1]
                               + length + b"\r\n")
                self.assertIn(b" 400 ", client.recv(200), length)

    def test_a_host_it_does_not_answer_to_is_refused_with_403(self):
        self.start()
        port = self.server.server_address[1]
        train = dict(method="q-learning", side=O, games=1, seed=1)
        # Another site's name that points to 127.0.0.1 (DNS rebinding), a name without the
        # port, another port: nothing is answered, the page included, and nothing is done.
        for host in ("evil.example:%d" % port, "evil.example", "127.0.0.1", "localhost",
                     "127.0.0.1:%d" % (port + 1), "127.0.0.1.evil.example:%d" % port):
            for path, body in (("/", None), ("/api/state", None), ("/api/train", train),
                               ("/api/save", {})):
                status, answer = self.call(path, body, host=host)
                self.assertEqual(status, 403, (host, path))
                self.assertEqual(answer["error"], "Host must be one of 127.0.0.1:%d, "
                                 "[::1]:%d, localhost:%d" % (port, port, port))
        self.assertFalse(self.server.app.state["training"])
        self.assertEqual(os.listdir(self.folder), [])
        for host in ("127.0.0.1:%d" % port, "localhost:%d" % port, "[::1]:%d" % port,
                     "LocalHost:%d" % port):   # (a host name is not case-sensitive)
            self.assertEqual(self.call("/api/state", host=host)[0], 200, host)

    def test_a_request_without_host_is_refused_with_403(self):
        self.start()
        for request in (b"GET / HTTP/1.0\r\n\r\n", b"GET /api/state HTTP/1.1\r\n\r\n",
                        b"POST /api/stop HTTP/1.0\r\nContent-Type: application/json\r\n"
                        b"Content-Length: 2\r\n\r\n{}"):
            with socket.create_connection(self.server.server_address, timeout=10) as client:
                client.sendall(request)
                reply = client.makefile("rb").read()
            self.assertIn(b" 403 ", reply.split(b"\r\n")[0], request)
            self.assertEqual(reply.split(b"\r\n\r\n", 1)[1].count(b"\n"), 0)   # one line

    def test_host_flag_adds_its_name(self):
        try:
            self.start(host="127.0.0.2")   # all of 127/8 is this computer on Linux
        except FileError as e:
            self.skipTest(str(e))
        port = self.server.server_address[1]
        for host in ("127.0.0.2:%d" % port, "127.0.0.1:%d" % port):
            self.assertEqual(self.call("/api/state", host=host)[0], 200)
        self.assertEqual(self.call("/api/state", host="127.0.0.3:%d" % port)[0], 403)

    def test_twenty_connections_at_once_wait_in_the_listen_queue(self):
        server = web.Server(self.path, "127.0.0.1", 0)   # not yet accepting
        with server, contextlib.ExitStack() as clients:   # (server_close at the end)
            for _ in range(20):   # past the queue, a connection waits a second or more
                clients.enter_context(socket.create_connection(server.server_address, 2))

    def test_no_request_names_a_file(self):
        self.start()
        other = os.path.join(self.folder, "other.bin")
        self.assertEqual(self.call("/api/save", {"path": other})[0], 400)
        self.assertEqual(self.call("/api/train", dict(method="q-learning", side=O, games=1,
                                                      seed=1, path=other))[0], 400)
        self.assertEqual(self.call("/api/state?path=" + other)[1]["file"], self.path)
        self.assertEqual(os.listdir(self.folder), [])   # nothing written anywhere


class ConnectFourTest(ServerCase):
    """The same server for a connect-four net (--game connect4, or a connect-four FILE)."""

    def c4_net(self, seed=1):
        return init_neural_network(random.Random(seed), 100, connect4)

    def test_the_game_is_the_files_or_games(self):
        self.start(game="connect4")
        state = self.call("/api/state")[1]
        self.assertEqual((state["game"], state["note"]), (
            "connect4", "does not exist: an untrained net plays (random weights)"))
        self.server.app.stop()
        self.server.shutdown()
        self.server.server_close()
        with open(self.path, "wb") as f:
            f.write(to_bytes(self.c4_net(5)))
        self.start()   # no --game: the file's size says connect four
        self.assertEqual(self.call("/api/state")[1]["game"], "connect4")
        self.assertEqual(to_bytes(self.server.app.net), to_bytes(self.c4_net(5)))
        with self.assertRaisesRegex(FileError, "net for connect4, not tic-tac-toe"):
            web.Server(self.path, "127.0.0.1", 0, "tic-tac-toe")

    def test_the_net_replies_to_a_column_and_its_piece_falls(self):
        self.start(game="connect4")
        board = "." * 35 + "...X..."   # X in column 3; O (the net) to move
        status, game = self.call("/api/play", {"board": board, "you": X, "search": 0})
        self.assertEqual(status, 200)
        move = get_computer_move(self.c4_net(), list(board), connect4)
        self.assertEqual(game["move"], move)
        cell = 28 + 3 if move == 3 else 35 + move   # on top of X, or at the bottom
        self.assertEqual(game["board"], board[:cell] + O + board[cell + 1:])
        self.assertEqual(len(game["probs"]), 7)
        self.assertAlmostEqual(sum(game["probs"]), 1.0)
        self.assertNotIn("hints", game)   # one move ahead: the page's
        # It opens as X when the person plays O; no move when it is the person's turn.
        self.assertEqual(self.call("/api/play", {"board": "." * 42, "you": O,
                                                 "search": 0})[1]["board"]
                         .count(X), 1)
        self.assertNotIn("move", self.call("/api/play", {"board": board, "you": O,
                                                         "search": 0})[1])

    def test_with_its_search_the_net_plays_the_searchs_column_and_shows_its_shares(self):
        self.start(game="connect4")
        board = "." * 35 + "...X..."
        status, game = self.call("/api/play", {"board": board, "you": X, "search": 20})
        self.assertEqual(status, 200)
        net = self.c4_net()
        column, visits, _ = search_move(functools.partial(policy_and_value, net), list(board),
                                        20, random.Random(0))
        self.assertEqual((game["move"], game["visits"]), (column, [v / 20 for v in visits]))
        get_computer_move(net, list(board), connect4)
        self.assertEqual(game["value"], net.value)   # None for a net without a value head
        for search in (-1, 10001, True, "20"):
            self.assertEqual(self.call("/api/play", {"board": board, "you": X,
                                                     "search": search})[0], 400, search)

    def test_bad_boards_methods_and_sides_are_400(self):
        self.start(game="connect4")
        empty, row = "." * 42, "." * 35
        for board in ("." * 9, "....X....", empty[:-1], empty + ".", "X" + empty[1:],
                      row + "XX.....", row + "Z......",
                      "." * 14 + ("X......" + "O......") * 2 + "X......O......",
                      "." * 21 + "X......" * 3 + "XOOO..."):   # floating, counts, over
            status, answer = self.call("/api/play", {"board": board, "you": X, "search": 0})
            self.assertEqual(status, 400, board)
            self.assertNotIn("\n", answer["error"])
        train = dict(method="monte-carlo", side=BOTH, games=10, seed=1)
        for change in (dict(method="q-learning"), dict(method="policy-iteration"),
                       dict(side=O), dict(side=X), dict(games=0)):
            self.assertEqual(self.call("/api/train", dict(train, **change))[0], 400, change)
        self.assertEqual(self.call("/api/play", data=b"{bad")[0], 400)
        self.assertFalse(self.call("/api/state")[1]["training"])

    def quick_chart(self):
        """Make a chart point quick: 2 games a side against each player, 20 positions kept."""
        positions = exact.c4_positions()[:20]
        for patch in (mock.patch.object(web, "C4_CHART_GAMES", 2),
                      mock.patch.object(exact, "c4_positions", lambda: positions)):
            patch.start()
            self.addCleanup(patch.stop)

    def test_the_cs_rule_trains_the_net_ttt_train_does_and_charts_it(self):
        self.start(game="connect4")
        self.quick_chart()
        training = self.train(30, seed=3, method="monte-carlo", side=BOTH)
        rng = random.Random(3)   # ttt-train 30 --game connect4 --seed 3
        net = init_neural_network(rng, 100, connect4)
        train_against_random(net, 30, rng, BOTH, DEFAULT_SETTINGS, rules=connect4)
        self.assertEqual(to_bytes(self.server.app.net), to_bytes(net))
        row = training["rows"][-1]
        self.assertEqual((row["games"], sorted(row)), (30, ["games", "kept", "kept_search",
                                                            "random", "tactical"]))
        # kept_search: the 50-simulation search's kept share on every fifth position
        search = player(net, web.C4_CHART_SEARCH)
        self.assertEqual(row["kept_search"], exact.c4_kept(search, exact.c4_positions()[::5]))
        self.assertEqual(sum(row["tactical"][X]), 2)   # wins, draws, losses
        # A second training keeps the first one for the chart, faded.
        self.call("/api/train", dict(method="monte-carlo", side=BOTH, games=3000, seed=1))
        self.assertEqual(self.call("/api/state")[1]["previous"], training)
        self.call("/api/stop", {})
        self.training_when(lambda t: not t["running"])

    def test_expert_iteration_stops_at_the_last_whole_round_and_saves(self):
        self.start(game="connect4")
        self.quick_chart()
        status, _ = self.call("/api/train", dict(method="expert-iteration", side=BOTH,
                                                 games=300, seed=2))
        self.assertEqual(status, 200)
        self.training_when(lambda t: t["rows"])   # game 0 measured: the workers play
        time.sleep(0.2)
        asked = time.monotonic()
        self.call("/api/stop", {})
        training = self.training_when(lambda t: not t["running"])
        self.assertLess(time.monotonic() - asked, 5)   # the workers killed, the round dropped
        self.assertEqual((training["played"], training["stopped"]), (0, True))
        round_0 = init_neural_network(random.Random(2), HIDDEN_SIZE, connect4, value_head=True)
        self.assertEqual(to_bytes(self.server.app.net), to_bytes(round_0))
        status, state = self.call("/api/save", {})
        self.assertEqual((status, state["note"]), (200, "saved"))
        self.assertEqual(os.path.getsize(self.path), file_size(HIDDEN_SIZE, connect4, 8))

    def test_a_save_never_writes_over_a_net_of_the_other_game(self):
        self.start(game="connect4")
        other = to_bytes(init_neural_network(random.Random(7)))   # tic-tac-toe's
        with open(self.path, "wb") as f:
            f.write(other)   # after the start
        status, answer = self.call("/api/save", {})
        self.assertEqual(status, 409)
        self.assertIn("other game", answer["error"])
        self.assertNotIn("\n", answer["error"])
        with open(self.path, "rb") as f:
            self.assertEqual(f.read(), other)

    def test_a_foreign_host_is_refused_here_too(self):
        self.start(game="connect4")
        port = self.server.server_address[1]
        for path, body in (("/api/play", {"board": "." * 42, "you": O, "search": 0}),
                           ("/api/inspect", None),
                           ("/api/train", dict(method="expert-iteration", side=BOTH, games=1,
                                               seed=1))):
            self.assertEqual(self.call(path, body, host="evil.example:%d" % port)[0], 403)
        self.assertFalse(self.server.app.state["training"])

    def test_inspect_gives_ttt_evals_figures(self):
        self.start(game="connect4")
        results = exact.c4_results
        with mock.patch.object(exact, "c4_results", lambda player: results(player, 3)):
            status, verdict = self.call("/api/inspect")
        self.assertEqual(status, 200)
        [(title, lines)] = verdict.items()
        net_player = player(self.c4_net())
        self.assertEqual(lines, exact.c4_lines(exact.c4_results(net_player, 3)))


class CommandTest(unittest.TestCase):
    """ttt-web's command line: its failures in one line, its port, Ctrl-C."""

    def run_main(self, *argv):
        """Call web.main(argv); return (status, stderr)."""
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                status = web.main(list(argv))
            except SystemExit as e:   # argparse
                status = e.code
        return status, err.getvalue()

    def test_bad_flags_exit_2(self):
        self.assertEqual(self.run_main("--port", "http")[0], 2)
        self.assertEqual(self.run_main("--port", "70000")[0], 2)
        self.assertEqual(self.run_main("--colour")[0], 2)
        for empty in ("", " "):
            status, err = self.run_main("--host", empty, "--port", "0")
            self.assertEqual(status, 2)
            self.assertIn("--host", err.splitlines()[-1])

    def test_a_file_that_is_there_but_cannot_be_read_is_one_line_and_exit_1(self):
        with tempfile.TemporaryDirectory() as folder:
            status, err = self.run_main(folder, "--port", "0")   # a folder
            self.assertEqual((status, err), (1, "ttt-web: error: cannot read %s: Is a "
                                             "directory\n" % folder))
            if os.geteuid() == 0:   # root searches any folder
                return
            path = os.path.join(folder, "closed", "net.bin")
            os.mkdir(os.path.dirname(path))
            with open(path, "wb") as f:
                f.write(to_bytes(init_neural_network(random.Random(1))))
            os.chmod(os.path.dirname(path), 0o600)   # no search permission
            try:
                status, err = self.run_main(path, "--port", "0")
            finally:
                os.chmod(os.path.dirname(path), 0o700)
            self.assertEqual((status, err), (1, "ttt-web: error: cannot read %s: Permission "
                                             "denied\n" % path))

    def test_a_folder_that_cannot_take_file_is_refused_at_start(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "nosuch", "net.bin")
            status, err = self.run_main(path, "--port", "0")
            self.assertEqual((status, err), (1, "ttt-web: error: cannot write a file beside "
                                             "%s: No such file or directory\n" % path))
            if os.geteuid() == 0:   # root writes in any folder
                return
            os.chmod(folder, 0o500)   # no write permission
            try:
                status, err = self.run_main(os.path.join(folder, "net.bin"), "--port", "0")
            finally:
                os.chmod(folder, 0o700)
            self.assertEqual(status, 1)
            self.assertIn("Permission denied", err)
            self.assertEqual(err.count("\n"), 1)

    def test_a_bad_file_or_a_taken_port_is_one_line_and_exit_1(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "bad.bin")
            with open(path, "wb") as f:
                f.write(b"not weights")
            status, err = self.run_main(path, "--port", "0")
            self.assertEqual(status, 1)
            self.assertEqual(err.count("\n"), 1)
            self.assertIn("bad.bin", err)
            with socket.socket() as taken:
                taken.bind(("127.0.0.1", 0))
                taken.listen()
                status, err = self.run_main(os.path.join(folder, "new.bin"), "--port",
                                            str(taken.getsockname()[1]))
            self.assertEqual(status, 1)
            self.assertEqual(err.count("\n"), 1)
            self.assertIn("cannot listen", err)

    def test_a_file_of_the_other_game_is_one_line_and_exit_1(self):
        with tempfile.TemporaryDirectory() as folder:
            for name, rules, game in (("t.bin", None, "connect4"),
                                      ("c.bin", connect4, "tic-tac-toe")):
                path = os.path.join(folder, name)
                with open(path, "wb") as f:
                    f.write(to_bytes(init_neural_network(random.Random(1), 100,
                                                         rules or tic_tac_toe)))
                status, err = self.run_main(path, "--game", game, "--port", "0")
                self.assertEqual(status, 1)
                self.assertEqual(err.count("\n"), 1)
                self.assertIn("not %s (see --game)" % game, err)

    def test_game_connect4_plays_c4_nn_bin_by_default(self):
        with tempfile.TemporaryDirectory() as folder:
            proc, url = self.serve(folder, "--game", "connect4")
            self.assertEqual(self.note, "ttt-web: connect four, c4_nn.bin does not exist: an "
                             "untrained net plays (random weights)\n")
            with urllib.request.urlopen(url + "api/state", timeout=10) as reply:
                self.assertEqual(json.loads(reply.read())["game"], "connect4")
            proc.send_signal(signal.SIGINT)
            self.assertEqual(proc.communicate(timeout=10)[1], "")
            self.assertEqual(os.listdir(folder), [])

    def test_ctrl_c_stops_an_expert_iteration_at_once(self):
        with tempfile.TemporaryDirectory() as folder:
            proc, url = self.serve(folder, "--game", "connect4")
            train = dict(games=600, method="expert-iteration", seed=1, side=BOTH)
            urllib.request.urlopen(urllib.request.Request(url + "api/train", json.dumps(
                train).encode(), {"Content-Type": "application/json"}), timeout=10).close()
            for _ in range(200):   # until game 0 is measured: then the workers play round 1
                with urllib.request.urlopen(url + "api/state", timeout=10) as reply:
                    if json.loads(reply.read())["training"]["rows"]:
                        break
                time.sleep(0.05)
            else:
                self.fail("game 0 was not measured in 10 s")
            time.sleep(0.2)   # the round's games queued
            proc.send_signal(signal.SIGINT)
            time.sleep(0.05)   # a second Ctrl-C while it waits for the workers to go: ignored
            proc.send_signal(signal.SIGINT)
            err = proc.communicate(timeout=10)[1]   # (it used to wait for the round's games)
            # (PyPy 3.9 printed a traceback, or crashed, when the exit and the training thread
            # both joined the pool's thread)
            self.assertEqual((proc.returncode, err), (0, ""))

    def test_it_prints_its_url_and_stops_on_ctrl_c(self):
        with tempfile.TemporaryDirectory() as folder:
            proc, url = self.serve(folder)
            self.assertEqual(self.note, "ttt-web: tic-tac-toe, ttt_nn.bin does not exist: an "
                             "untrained net plays (random weights)\n")
            with urllib.request.urlopen(url, timeout=10) as page:
                self.assertIn(b'aria-label="learning curve"', page.read())
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=10)
            self.assertEqual(proc.returncode, 0)
            self.assertNotIn("Traceback", err)
            self.assertEqual(os.listdir(folder), [])   # ttt_nn.bin was not written

    def test_a_client_that_resets_its_connection_gets_no_traceback(self):
        with tempfile.TemporaryDirectory() as folder:
            proc, url = self.serve(folder)
            port = int(url.split(":")[2].strip("/"))
            for request in (b"", b"GET /api/st", b"POST /api/play HTTP/1.0\r\nHost: 127.0.0.1:%d"
                            b"\r\nContent-Length: 100\r\n\r\n{" % port):
                client = socket.create_connection(("127.0.0.1", port), timeout=10)
                client.sendall(request)
                time.sleep(0.1)   # the server waits for the rest
                # Closed with a linger of 0 s: a reset (RST), not an end of stream (FIN)
                client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                client.close()
            time.sleep(0.2)   # the server's threads see the resets
            with urllib.request.urlopen(url + "api/state", timeout=10) as reply:
                self.assertEqual(reply.status, 200)   # it goes on
            proc.send_signal(signal.SIGINT)
            err = proc.communicate(timeout=10)[1]
            self.assertEqual(err, "")

    def serve(self, folder, *flags):
        """Start `ttt-web --port 0` (and `flags`) in `folder`; return (the process, the URL it
        prints); self.note: its first line."""
        # Ctrl-C as at a terminal, even if this suite runs in the background (which ignores it).
        proc = subprocess.Popen([sys.executable, "-m", "ttt_rl.web", "--port", "0", *flags],
                                cwd=folder, env=dict(os.environ, PYTHONPATH=SRC),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.addCleanup(proc.kill)   # (if a test fails before its Ctrl-C)
        self.note = proc.stdout.readline()
        url = proc.stdout.readline().split()[1]
        self.assertRegex(url, r"^http://127\.0\.0\.1:[0-9]+/$")
        return proc, url


if __name__ == "__main__":
    unittest.main()
