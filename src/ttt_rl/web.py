"""`ttt-web [FILE]`: play the net, watch one learn and read its verdict, in a browser.

A local web app (http.server, training in a thread) for its page, web.html. The game is FILE's
(its size says which) or a new net's (--game): tic-tac-toe, or connect four (a move: a column).
  GET  /api/state    the game, the file, the training and the one before (chart points)
  GET  /api/inspect  ttt-eval's figures of the net played (tic-tac-toe: exact, each side)
  POST /api/play     {"board", "you", "search"}: the game after the net's move (connect four:
                     through its search, if "search" simulations > 0)
  POST /api/train    {"method", "side", "games", "seed"}: a new net, as ttt-train makes it
  POST /api/stop {}, /api/save {} (the net played, to FILE; the old one kept as FILE.bak)
Errors: {"error": "one line"}: 400 (bad JSON or value), 403 (no Host header or one it does not
answer to, as from another site's page: DNS rebinding), 404, 409 (not now).
"""

import argparse
import copy
import functools
import http.server
import json
import os
import random
import signal
import sys
import threading
from importlib import resources

from . import connect4
from .expert_iteration import player, policy_and_value, search_move
from .game import BOTH, O, X, opponent, to_move
from .nn import get_computer_move, init_neural_network
from .policy_iteration import correct_moves, move_results, reachable
from .lab import cli, curve, exact, files, runs
from .weights import FileError, layout, load, rules_of

NAMES = {rules: name for name, rules in cli.GAMES.items()}   # connect4: "connect4"
C4_CHART_GAMES = 200   # a chart point's seeded games a side against each player (ttt-eval: 1000)
C4_CHART_SEARCH = 50   # and its search's simulations, for its kept share on 200 positions


class C4Boards:   # connect four's boards of a game in progress, as a container
    def __contains__(self, board):
        return connect4.is_position(board)


# What a request may ask: App methods, their arguments and the values these take (none a path).
ACTIONS = {"play": "board search you", "train": "games method seed side", "stop": "", "save": ""}
VALUES = {"you": (X, O), "games": range(1, 10 ** 7 + 1), "seed": range(2 ** 32)}
GAME_VALUES = {   # the game's boards, rules and sides (connect four: one net plays both)
    "tic-tac-toe": dict(board=reachable(X) | reachable(O), method=tuple(cli.RULES),
                        side=(O, X, BOTH), search=range(1)),
    cli.CONNECT4: dict(board=C4Boards(), method=(cli.MONTE_CARLO, cli.EXPERT_ITERATION),
                       side=(BOTH,), search=range(10001))}


def measure(net, games, side):
    """Return a chart point of `net` after `games`: exact.c4_results and kept_search (c4_kept
    with the net's search, on every fifth position), or tic-tac-toe's exact figures as `side`,
    sides (each side's), telling ([label, position, probs, correct cells])."""
    if rules_of(net) is connect4:
        kept = exact.c4_kept(player(net, C4_CHART_SEARCH), exact.c4_positions()[::5])
        return dict(exact.c4_results(player(net), C4_CHART_GAMES), games=games, kept_search=kept)
    row = curve.measure(net, games, None, side)
    telling = [[name, position, probs, correct_moves(position)]
               for (name, position), probs in zip(curve.TELLING_POSITIONS[side], row["probs"])]
    return dict(row["exact"], games=games, telling=telling,
                sides={s["side"]: s for s in row["exact"].get("sides", ())})


class App:
    """The net played and the state (game, file, note, training, previous), under self.lock; an
    action returns {"error": "why"} if it cannot be done now."""

    def __init__(self, path, net, note):
        self.lock, self.halt, self.net = threading.Lock(), threading.Event(), net
        self.rules = rules_of(net)
        self.state = dict(game=NAMES[self.rules], file=path, note=note, training={}, previous={})
        self.values = dict(VALUES, **GAME_VALUES[self.state["game"]])   # what a request may send
        self.stop = self.halt.set   # the action "stop": the training's next report sees it

    def play(self, board, search, you):
        """Return {board, move, probs, value, visits, best, hints}: `board` after the net's move
        if `you` are not to move (searched if search > 0: visits its shares, else None); value,
        the net's (None: no value head); tic-tac-toe's best (keeps the minimax value) and hints."""
        game, c4 = {}, self.rules is connect4
        if to_move(board) != you:
            move = get_computer_move(self.net, list(board), self.rules)
            game = dict(probs=self.net.outputs, value=self.net.value, visits=None)
            if search:
                guide = functools.partial(policy_and_value, self.net)
                move, visits, _ = search_move(guide, list(board), search, random.Random(0))
                game["visits"] = visits and [v / search for v in visits]
            cell = connect4.landing_cell(board, move) if c4 else move
            game.update(move=move, best=not c4 and move in correct_moves(board))
            board = board[:cell] + opponent(you) + board[cell + 1:]
        if not c4:   # (connect four's hints, one move ahead, are the page's)
            results = move_results(board)   # win, draw or loss, for the mover
            game["hints"] = [results.get(cell) for cell in range(9)]
        return dict(game, board=board)

    def train(self, method, side, games, seed):
        """Train a new net in a thread, as ttt-train does with these flags, measuring it at
        round numbers of games and each tenth (expert iteration: each round; policy iteration
        reports sweep s before its steps, s - 1 done)."""
        if self.state["training"].get("running"):
            return {"error": "a training is running: stop it first"}
        sweeps, rows, stopped = method == cli.POLICY_ITERATION, [], self.halt.is_set
        side = BOTH if sweeps else side   # policy iteration learns both sides
        points = range(games + 1) if method == cli.EXPERT_ITERATION else \
            set(curve.one_two_five(games)) | {games * k // 10 for k in range(10)}
        args = argparse.Namespace(game=self.state["game"], method=method, side=side, games=games,
                                  seed=seed, opponent=cli.RANDOM, hidden=None, jobs=None,
                                  simulations=None)
        self.halt.clear()
        training = dict(running=True, method=method, side=side, games=games, seed=seed, played=0,
                        rows=rows, stable=False)   # policy iteration stopped: stable
        self.state.update(previous=self.state["training"], training=training)   # previous: faded

        def report(net, played, result=None, *_, last=False):   # after a game, sweep or round
            new = (last or played in points) and (not rows or rows[-1]["games"] < played)
            row = [measure(net, played, side)] if new else []   # each point once
            with self.lock:
                training["played"] = played
                training["stable"] |= sweeps and result == 0   # a sweep changed no move
                rows.extend(row)
            return stopped()

        def run():   # the training thread
            try:
                net, rng = cli.start_network(args)
                if report(net, 0):   # stopped already: no game played, no worker started
                    played, error = 0, None
                elif method == cli.EXPERT_ITERATION:   # self-play in worker processes (lab.runs)
                    played, error = runs.train_expert_iteration_in_workers(
                        net, rng, args, report, stopped)
                else:   # as ttt-train runs it: the C's rule, Q-learning or policy iteration
                    played, error = cli.train(net, rng, args, report), None
                report(net, played, last=True)   # the end
                with self.lock:   # now this net plays (expert iteration: its last whole round's)
                    self.net, self.state["note"] = net, "trained here, not saved"
                    training["error"] = error
            finally:   # even if training failed: the next Start is not refused
                with self.lock:
                    training.update(running=False, stopped=stopped())
        threading.Thread(target=run, daemon=True).start()

    def save(self):
        """Save the net played to FILE as the commands save, never over the other game's net."""
        path = self.state["file"]
        with files.saving(path) as save:   # it has read FILE, and refused one that is not a net
            there = os.path.exists(path) and layout(os.path.getsize(path))   # the size: the game
            if there and there[0] is not self.rules:
                raise FileError("%s now holds a net of the other game: not replaced" % path)
            self.state["note"] = "saved" + save(self.net)   # and where the old file went

    def verdict(self):   # ttt-eval's figures of the net played: {title: [lines]}
        with self.lock:   # the same weights, with activations of their own: play goes on
            net = copy.copy(self.net)
        if self.rules is connect4:
            return {"Against %d seeded games a side" % exact.C4_GAMES: exact.describe(net)[0]}
        return {"As " + side: exact.describe(net, side)[0] for side in (O, X)}


class Server(http.server.ThreadingHTTPServer):
    """ttt-web's server on host:port (0: any free port), with .app (the App of FILE `path`; if
    none, an untrained net of `game`, default tic-tac-toe). Raises FileError (one line): FILE
    unreadable, not weights or not `game`'s; no file can be made beside it; the port taken."""
    request_queue_size = 64   # many polling pages (socketserver's 5: more wait a second or more)

    def __init__(self, path, host="127.0.0.1", port=8000, game=None):
        try:
            net, note = load(path), "loaded"
        except FileError as e:
            if not e.missing:   # there but unreadable (a folder, no permission): not absent
                raise
            net = init_neural_network(random.Random(1), rules=cli.GAMES[game or "tic-tac-toe"])
            note = "does not exist: an untrained net plays (random weights)"
        self.app = App(path, net, note)
        if game and self.app.state["game"] != game:
            raise FileError("%s is a net for %s, not %s (see --game)"
                            % (path, self.app.state["game"], game))
        with files.saving(path):   # tried now, as ttt-train tries OUTPUT: not at the first Save
            pass
        try:
            super().__init__((host, port), Handler)
        except OSError as e:
            raise FileError("cannot listen on %s port %d: %s" % (host, port, e.strerror or e))
        names, port = {"127.0.0.1", "localhost", "[::1]", host.lower()}, self.server_address[1]
        # The Host headers it answers to (another site's page: 403); a browser leaves out port 80.
        self.hosts = {"%s:%d" % (name, port) for name in names} | (names if port == 80 else set())
        self.page = resources.files(__package__).joinpath("web.html").read_bytes()

    def handle_error(self, request, client_address):   # the traceback, unless a client's
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class Handler(http.server.BaseHTTPRequestHandler):   # one request, on self.server.app
    def log_message(self, *args):   # the default writes a line per request on stderr
        pass

    def parse_request(self):   # http.server's (False: it sent an error), then the Host: 403
        parsed = super().parse_request()
        hosts = self.server.hosts
        if parsed and (self.headers["Host"] or "").lower() not in hosts:
            self.send(403, {"error": "Host must be one of " + ", ".join(sorted(hosts))})
            return False
        return parsed

    def send(self, status, data, kind="application/json"):
        body = data if isinstance(data, bytes) else json.dumps(data).encode()   # dict: JSON
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", len(body))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        app, path = self.server.app, self.path.split("?")[0]
        if path == "/":
            return self.send(200, self.server.page, "text/html; charset=utf-8")
        if path not in ("/api/state", "/api/inspect"):
            return self.send(404, {"error": "no such page: %s" % path})
        with app.lock:   # made under the lock, sent without it
            state = json.dumps(app.state).encode()
        self.send(200, state if path == "/api/state" else app.verdict())

    def do_POST(self):
        app, name, size = self.server.app, self.path[len("/api/"):], self.headers["Content-Length"]
        if not self.path.startswith("/api/") or name not in ACTIONS:
            return self.send(404, {"error": "no such action: %s" % self.path})
        size = int(size) if (size or "").isdecimal() else 0   # none, or not a number: no body
        try:   # JSON only: a form on another site cannot send it without the server's consent
            body = json.loads(self.rfile.read(size)) if \
                self.headers.get_content_type() == "application/json" else None
        except (ValueError, RecursionError):   # not JSON, or nested past Python's stack
            body = None
        if not isinstance(body, dict) or sorted(body) != ACTIONS[name].split() or any(
                type(v) is not (int if type(app.values[k]) is range else str)   # (not True)
                or v not in app.values[k] for k, v in body.items()):
            return self.send(400, {"error": "expected a JSON object {%s}" % ACTIONS[name]})
        with app.lock:   # the answer: the game, an error, or the state right after the action
            try:
                data = getattr(app, name)(**body) or app.state
            except FileError as e:   # FILE cannot be written
                data = {"error": str(e)}
            text = json.dumps(data).encode()
        self.send(409 if "error" in data else 200, text)


@cli.command("ttt-web")
def main(argv=None):   # until Ctrl-C; returns 0, 1 (bad FILE, port taken) or 2 (bad flags)
    parser = cli.parser_for("ttt-web", "Play, train and inspect the network in a browser.", None)
    parser.add_argument("weights", nargs="?", metavar="FILE", help="weights to play and save "
                        "(default %s; connect four: %s)" % (cli.DEFAULT_WEIGHTS, cli.C4_WEIGHTS))
    parser.add_argument("--game", choices=tuple(cli.GAMES), help="the game of a new net (default: "
                        "FILE's; tic-tac-toe if FILE does not exist)")
    parser.add_argument("--port", type=cli.number(int, 0, 65535), default=8000, help="0: any free")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on, a name the "
                        "page may also be opened by (default 127.0.0.1: this computer)")
    args = parser.parse_intermixed_args(argv)
    if not args.host.strip():
        parser.error("argument --host: expected a name or an address, not an empty one")
    default = cli.C4_WEIGHTS if args.game == cli.CONNECT4 else cli.DEFAULT_WEIGHTS
    args.weights = args.weights or default
    server = Server(args.weights, args.host, args.port, args.game)
    print("ttt-web: %s, %s %s\nOpen http://%s:%d/ (Ctrl-C stops)" % (
        "connect four" if server.app.rules is connect4 else "tic-tac-toe", args.weights,
        server.app.state["note"], args.host, server.server_address[1]), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:   # how it is stopped: no traceback
        signal.signal(signal.SIGINT, signal.SIG_IGN)   # a second one: it is stopping already
        server.app.stop()   # a training first: else the exit waits for its workers' queued games
        runs.WORKERS.acquire()   # its workers gone for good: two joins of one pool crash PyPy
        print("\nttt-web: stopped")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
