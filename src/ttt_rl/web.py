"""`ttt-web [FILE]`: play the net, watch one learn and read its verdict, in a browser.

A local web app (http.server, training in a thread); its page, web.html, holds the game. The
game is FILE's (its size says which), or --game's for a new net: tic-tac-toe or connect four
(a move is a column, 0-6). API:
  GET  /api/state    the game, the file, the training and the one before (chart points)
  GET  /api/inspect  ttt-eval's figures of the net played (tic-tac-toe: exact, each side)
  POST /api/play     {"board": "X...O....", "you": "X" or "O"}: the game after the net's move
  POST /api/train    {"method", "side", "games", "seed"}: a new net, as ttt-train makes it
  POST /api/stop {}, /api/save {} (the net played, to FILE; the old one kept as FILE.bak)
Errors: {"error": "one line"}: 400 (bad JSON or value), 403 (no Host header or one it does not
answer to, as from another site's page: DNS rebinding), 404, 409 (not now), 413 (over 64 KB).
"""

import argparse
import contextlib
import http.server
import json
import random
import re
import sys
import threading
from importlib import resources

from . import connect4
from .game import BOTH, EMPTY, O, X, opponent, to_move
from .nn import HIDDEN_SIZE, NeuralNetwork, get_computer_move, init_neural_network
from .policy_iteration import train_policy_iteration
from .lab import curve, exact
from .lab.cli import (C4_WEIGHTS, CONNECT4, DEFAULT_WEIGHTS, EXPERT_ITERATION, GAMES,
                      MONTE_CARLO, POLICY_ITERATION, RANDOM, RULES, command, number, parser_for,
                      start_network, train)
from .lab.curve import one_two_five
from .lab.files import saving
from .lab.runs import train_expert_iteration_in_workers
from .weights import FileError, load, rules_of

NAMES = {rules: name for name, rules in GAMES.items()}   # connect4: "connect4"
C4_CHART_GAMES = 200   # a chart point's seeded games a side against each player (ttt-eval: 1000)


# ---- What a request may ask: the actions, and the values each game takes ----

class C4Boards:
    """The connect-four boards a game can go on from, as a container (`text in C4Boards()`):
    42 cells of . X O, row by row from the top, no piece above an empty cell, X's pieces as
    many as O's or one more, no four in a row, not full."""

    def __contains__(self, text):
        board = list(text)
        return bool(re.fullmatch("[.XO]{42}", text)) and text.count(X) - text.count(O) in (
            0, 1) and all(board[cell + 7] != EMPTY for cell in range(35) if board[cell] != EMPTY) \
            and connect4.check_game_over(board) is None


# The actions: App methods by name, their arguments, the values these may take (none a path).
ACTIONS = {"play": "board you", "train": "games method seed side", "stop": "", "save": ""}
VALUES = {"you": (X, O), "games": range(1, 10 ** 7 + 1), "seed": range(2 ** 32)}
GAME_VALUES = {   # the game's boards, rules and sides (connect four: one net plays both)
    "tic-tac-toe": dict(board=exact.reachable(X) | exact.reachable(O), method=tuple(RULES),
                        side=(O, X, BOTH)),
    CONNECT4: dict(board=C4Boards(), method=(MONTE_CARLO, EXPERT_ITERATION), side=(BOTH,))}


# ---- What the page shows: hints and chart points ----

def measure(net, games, side):
    """Return a tic-tac-toe chart point of `net` as `side`: {games, win, draw, loss, lines_lost,
    lines, sides (BOTH: {"O": {win, draw, loss}, "X": ...}, else {}), telling: [label,
    position, probs, correct cells] per telling position}: curve.measure's row, and more."""
    row = curve.measure(net, games, None, side)
    telling = [[name, position, probs, exact.correct_moves(position)]
               for (name, position), probs in zip(curve.TELLING_POSITIONS[side], row["probs"])]
    sides = {s["side"]: {k: s[k] for k in ("win", "draw", "loss")}
             for s in row["exact"].get("sides", ())}   # BOTH's win, draw, loss: their means
    return dict(games=games, telling=telling, sides=sides, **{k: row["exact"][k] for k in (
        "win", "draw", "loss", "lines_lost", "lines")})


def measure_c4(net, games, side=BOTH):
    """Return a connect-four chart point: exact.c4_results on C4_CHART_GAMES seeded games a side
    ({random, tactical: {X: [wins, draws, losses], O: ...}, agreement}), and games."""
    return dict(exact.c4_results(net, C4_CHART_GAMES), games=games)


# ---- The app: the net played, the training, the file ----

class App:
    """The net played and the state (game, file, note, training, previous), under self.lock; an
    action returns {"error": "why"} if it cannot be done now. A net trained is played once it
    is done or stopped (expert iteration: the net of the last whole round)."""

    def __init__(self, path, net, note):
        self.lock, self.halt, self.net = threading.Lock(), threading.Event(), net
        self.rules = rules_of(net)
        self.state = dict(game=NAMES[self.rules], file=path, note=note, training={}, previous={})
        self.values = dict(VALUES, **GAME_VALUES[self.state["game"]])   # what a request may send
        self.stop = self.halt.set   # the action "stop": the training's next report sees it

    def play(self, board, you):
        """Return {board, move, probs, best (tic-tac-toe: the move keeps the minimax value),
        hints (tic-tac-toe: each empty cell's result for the mover)}: `board` after the net's
        move, if not `you` to move. (Connect four's hints, one move ahead, are the page's.)"""
        game, c4 = {}, self.rules is connect4
        if to_move(board) != you:
            move = get_computer_move(self.net, list(board), self.rules)
            cell = connect4.landing_cell(board, move) if c4 else move
            game = dict(move=move, probs=self.net.outputs,
                        best=not c4 and move in exact.correct_moves(board))
            board = board[:cell] + opponent(you) + board[cell + 1:]
        if c4:   # connect four's hints, one move ahead (no solver), are the page's
            return dict(game, board=board)
        results = exact.move_results(board)   # win, draw or loss, for the mover
        return dict(game, board=board, hints=[results.get(cell) for cell in range(9)])

    def train(self, method, side, games, seed):
        """Train a new net in a thread, as ttt-train does with these flags, measuring it."""
        if self.state["training"].get("running"):
            return {"error": "a training is running: stop it first"}
        sweeps, rows, stopped = method == POLICY_ITERATION, [], self.halt.is_set
        side = BOTH if sweeps else side   # policy iteration learns both sides
        points = set(one_two_five(games)) | {games * k // 10 for k in range(10)}   # and tenths
        args = argparse.Namespace(game=self.state["game"], method=method, side=side, games=games,
                                  seed=seed, opponent=RANDOM, hidden=None, jobs=None,
                                  playouts=None)
        mark = measure_c4 if self.rules is connect4 else measure
        self.halt.clear()
        old = self.state["training"]   # its curve, faded on the chart
        self.state["previous"] = dict(method=old.get("method"), rows=[
            {k: v for k, v in row.items() if k != "telling"} for row in old.get("rows", ())])
        training = self.state["training"] = dict(running=True, method=method, side=side,
                                                 games=games, seed=seed, played=0, rows=rows,
                                                 stable=False)   # policy iteration stopped: stable

        def report(net, played, *_, last=False):   # after each game, sweep or round
            row = [mark(net, played, side)] if (last or played in points or method ==
                                                EXPERT_ITERATION) and (
                not rows or rows[-1]["games"] < played) else []   # each point once
            with self.lock:
                training["played"] = played
                rows.extend(row)
            return stopped()

        def run():   # the training thread
            try:
                net, rng = start_network(args)
                report(net, 0)   # (policy iteration reports sweep s before its steps: s - 1 done)
                unstable = error = None
                if sweeps:
                    played, unstable = train_policy_iteration(net, games, rng, report=report)
                elif method == EXPERT_ITERATION:   # self-play in worker processes (lab.runs)
                    played, error = train_expert_iteration_in_workers(net, rng, args, report,
                                                                      stopped)
                else:   # the C's rule (either game) or Q-learning, as ttt-train runs it
                    played = train(net, rng, args, report)
                report(net, played, last=True)   # the end
                with self.lock:
                    self.net, self.state["note"] = net, "trained here, not saved"
                    training.update(stable=unstable == 0, error=error)   # sweep changed no move
            finally:   # even if training failed: the next Start is not refused
                with self.lock:
                    training.update(running=False, stopped=stopped())
        threading.Thread(target=run, daemon=True).start()

    def save(self):
        """Save the net played to FILE, as the commands save (FileError: one line, why not),
        never over a net of the other game."""
        with saving(self.state["file"]) as save:   # a new temporary file each time
            try:   # (saving has refused a file that is there and not a net)
                other = rules_of(load(self.state["file"])) is not self.rules
            except FileError:   # none
                other = False
            if other:
                raise FileError("%s now holds a net of the other game: not replaced"
                                % self.state["file"])
            self.state["note"] = "saved" + (save(self.net) or "")   # where the old file went

    def verdict(self):
        """Return ttt-eval's figures of the net played: {title: [lines]}."""
        with self.lock:   # the same weights, with activations of their own: play goes on
            net = NeuralNetwork(self.net.w_ih, self.net.w_ho, self.net.b_h, self.net.b_o)
        if self.rules is connect4:
            return {"Against {:,} seeded games a side".format(exact.C4_GAMES):
                    exact.c4_lines(exact.c4_results(net))}
        return {"As " + side: exact.describe(net, side)[0] for side in (O, X)}


# ---- The server: requests, and the contract's promises ----

class Server(http.server.ThreadingHTTPServer):
    """http.server's, quiet when a client resets its connection, with a listen queue for many
    polling pages (socketserver's 5: more connections at once wait a second or more)."""
    request_queue_size = 64

    def handle_error(self, request, client_address):   # the traceback, unless a client's
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class Handler(http.server.BaseHTTPRequestHandler):
    """One request: the page, the state, the verdict, or an action on self.server.app."""

    def log_message(self, *args):   # the default writes a line per request on stderr
        pass

    def parse_request(self):
        """Read the request line and headers (http.server's); return True to go on, or False
        after an error sent: 403 if the Host header is missing or not in self.server.hosts."""
        if not super().parse_request():   # (it has sent its own error)
            return False
        if (self.headers["Host"] or "").lower() in self.server.hosts:
            return True
        self.send(403, {"error": "Host must be one of " + ", ".join(sorted(self.server.hosts))})
        return False

    def send(self, status, data, kind="application/json"):
        body = data if isinstance(data, bytes) else json.dumps(data).encode()   # dict: JSON
        with contextlib.suppress(ConnectionError):   # the page may have gone meanwhile
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
            data = json.dumps(app.state)
        self.send(200, data.encode() if path == "/api/state" else app.verdict())

    def do_POST(self):
        app, name, size = self.server.app, self.path[len("/api/"):], self.headers["Content-Length"]
        size = int(size or 0) if (size or "0").isdecimal() else -1   # no header: no body
        if not self.path.startswith("/api/") or name not in ACTIONS:
            return self.send(404, {"error": "no such action: %s" % self.path})
        if size > 64 * 1024:   # read what was sent (some of it), or the reply may be lost
            self.rfile.read(min(size, 2 ** 20))
            return self.send(413, {"error": "the body is over 64 KB"})
        try:   # JSON only: a form on another site cannot send it without the server's consent
            body = json.loads(self.rfile.read(size)) if size > 0 and \
                self.headers.get_content_type() == "application/json" else None
        except (ValueError, RecursionError):   # not JSON, or nested past Python's stack
            body = None
        # Exactly the action's fields, each with a good value (an int only in a range: no True)
        values = app.values   # the game's
        if not isinstance(body, dict) or sorted(body) != ACTIONS[name].split() or any(
                type(v) is not (int if type(values[k]) is range else str) or v not in values[k]
                for k, v in body.items()):
            return self.send(400, {"error": "expected a JSON object {%s}" % ACTIONS[name]})
        with app.lock:   # the answer: the game, an error, or the state right after the action
            try:
                data = getattr(app, name)(**body) or app.state
            except FileError as e:   # FILE cannot be written
                data = {"error": str(e)}
            text = json.dumps(data).encode()
        self.send(409 if "error" in data else 200, text)


def make_server(path, host="127.0.0.1", port=8000, game=None):
    """Return a Server on host:port (0: any free port) with .app, the App of FILE `path`
    (untrained if none, for `game`: a name in GAMES, default FILE's or tic-tac-toe), .page,
    web.html, and .hosts, the Host headers it answers to: 127.0.0.1, localhost, [::1] and
    `host`, with the port. Raises FileError (one line) if FILE cannot be read, is not weights
    or is a net of another game than `game`, its folder cannot take a new file, or the port
    cannot be had."""
    try:
        net, note = load(path), "loaded"
    except FileError as e:
        if not e.missing:   # there but unreadable (a folder, no permission): not an absent file
            raise
        rules = GAMES[game or "tic-tac-toe"]
        net = init_neural_network(random.Random(1), HIDDEN_SIZE, rules)
        note = "does not exist: an untrained net plays (random weights)"
    if game and rules_of(net) is not GAMES[game]:
        raise FileError("%s is a net for %s, not %s (see --game)"
                        % (path, NAMES[rules_of(net)], game))
    with saving(path):   # tried now, as ttt-train tries OUTPUT: not at the first Save
        pass
    try:
        server = Server((host, port), Handler)
    except OSError as e:
        raise FileError("cannot listen on %s port %d: %s" % (host, port, e.strerror or e))
    names, port = {"127.0.0.1", "localhost", "[::1]", host.lower()}, server.server_address[1]
    # A browser leaves out port 80; a page of another site is refused (DNS rebinding).
    server.hosts = {"%s:%d" % (name, port) for name in names} | (names if port == 80 else set())
    server.app = App(path, net, note)
    server.page = resources.files(__package__).joinpath("web.html").read_bytes()
    return server


@command("ttt-web")
def main(argv=None):
    """Run ttt-web on `argv` until Ctrl-C; return 0, 1 (bad FILE, port taken) or 2 (bad flags)."""
    parser = parser_for("ttt-web", "Play, train and inspect the network in a browser.", None)
    parser.add_argument("weights", nargs="?", metavar="FILE", help="weights to play and save "
                        "(default %s; connect four: %s)" % (DEFAULT_WEIGHTS, C4_WEIGHTS))
    parser.add_argument("--game", choices=tuple(GAMES), help="the game of a new net (default: "
                        "FILE's; tic-tac-toe if FILE does not exist)")
    parser.add_argument("--port", type=number(int, 0, 65535), default=8000, help="0: any free")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on, a name the "
                        "page may also be opened by (default 127.0.0.1: this computer)")
    args = parser.parse_intermixed_args(argv)
    if not args.host.strip():
        parser.error("argument --host: expected a name or an address, not an empty one")
    args.weights = args.weights or (C4_WEIGHTS if args.game == CONNECT4 else DEFAULT_WEIGHTS)
    server = make_server(args.weights, args.host, args.port, args.game)
    print("ttt-web: %s %s\nOpen http://%s:%d/ (Ctrl-C stops)" % (
        args.weights, server.app.state["note"], args.host, server.server_address[1]), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:   # how it is stopped: no traceback
        print("\nttt-web: stopped")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
