"""ttt-web's page (src/ttt_rl/web.html) in Chromium, through its accessible names: a game played
by clicking, the hint switch, a new game dropping the net's late answer to the game before, a
training run and Stop, policy iteration's description and a stable run of it, saving, a phone's
width and a desktop's. Tests wait for the board not busy before they click (a click while the
net answers is ignored). Skipped without Playwright for Python or /usr/bin/chromium
(.ci/browser has both).
With WEB_SCREENSHOT=docs/web.png, the screenshot of a game in progress is saved there too.
Connect four (ConnectFourPageTest): a whole game by clicking columns, the hints (checked
against hand-made positions), the C's rule and then expert iteration trained, stopped and
saved, a phone's width; with WEB_C4_SCREENSHOT=docs/web-c4.png, its screenshot.
"""

import json
import os
import re
import shutil
import tempfile
import threading
import unittest
from unittest import mock

from ttt_rl import web
from ttt_rl.policy_iteration import minimax

try:
    from playwright.sync_api import sync_playwright
except ImportError:   # the main suite runs without it
    sync_playwright = None

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
RESULT = {1: "win", 0: "draw", -1: "loss"}
# Where to save the screenshot as well (read now: the tests change the working folder).
SCREENSHOT = os.environ.get("WEB_SCREENSHOT") and os.path.abspath(os.environ["WEB_SCREENSHOT"])
C4_SCREENSHOT = os.environ.get("WEB_C4_SCREENSHOT") and os.path.abspath(
    os.environ["WEB_C4_SCREENSHOT"])


class Browser(unittest.TestCase):
    """One server (FILE absent at first) and one browser for all; a new page per test."""
    FILE, GAME = "ttt_nn.bin", None

    @classmethod
    def setUpClass(cls):
        if sync_playwright is None:
            raise unittest.SkipTest("Playwright for Python is not installed")
        if not os.path.exists(CHROMIUM):
            raise unittest.SkipTest("no %s" % CHROMIUM)
        cls.folder, cls.cwd = tempfile.mkdtemp(), os.getcwd()
        os.chdir(cls.folder)   # FILE is ttt_nn.bin, as in `ttt-web` (and in the screenshot)
        cls.path = os.path.join(cls.folder, cls.FILE)
        cls.server = web.Server(cls.FILE, "127.0.0.1", 0, cls.GAME)
        threading.Thread(target=cls.server.serve_forever, args=(0.05,), daemon=True).start()
        cls.url = "http://127.0.0.1:%d/" % cls.server.server_address[1]
        cls.playwright = sync_playwright().start()
        cls.browser = cls.playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)

    @classmethod
    def tearDownClass(cls):
        cls.browser.close()
        cls.playwright.stop()
        cls.server.app.stop()
        cls.server.shutdown()
        cls.server.server_close()
        os.chdir(cls.cwd)
        shutil.rmtree(cls.folder)

    def setUp(self):
        self.open(1400, 900)

    def open(self, width, height, url=None, ready="cell 8"):
        """Open the page (of `url`, default the class's server) at this viewport, until the
        button named `ready` shows; JavaScript errors are kept in self.errors."""
        self.errors = []
        self.page = self.browser.new_page(viewport={"width": width, "height": height})
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url or self.url)
        self.page.get_by_role("button", name=re.compile("^%s(,|$)" % ready)).wait_for()

    def tearDown(self):
        self.page.close()
        self.assertEqual(self.errors, [], "errors in the browser's console")

    def check_widths(self, buttons, least, name):
        """At 375 and 1400 px wide: no sideways scrolling, and each of buttons() (locators)
        inside the page and at least `least` px wide, big enough for a finger; a full-page
        screenshot, NAME-WIDTH.png in self.folder, is a PNG."""
        for width, height in ((375, 800), (1400, 900)):
            self.page.close()
            self.open(width, height)
            self.assertLessEqual(self.page.evaluate(
                "document.documentElement.scrollWidth"), width)
            for button in buttons():
                box = button.bounding_box()
                self.assertLessEqual(box["x"] + box["width"], width)
                self.assertGreaterEqual(box["width"], least)
            path = os.path.join(self.folder, "%s-%d.png" % (name, width))
            self.page.screenshot(path=path, full_page=True)
            with open(path, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def cell(self, n):
        """The button of cell n, found by its accessible name."""
        return self.page.get_by_role("button", name=re.compile(r"^cell %d(,|$)" % n))

    def board(self):
        """Return the board as the page shows it: 9 characters of '.', 'X', 'O'."""
        return "".join(self.cell(n).text_content() or "." for n in range(9))

    def labels(self):
        return [self.cell(n).get_attribute("aria-label") for n in range(9)]

    def wait_for_turn(self, pieces):
        """Wait until the board has `pieces` pieces or the game is over."""
        self.page.wait_for_function(
            """n => [...document.querySelectorAll('#board button')]
                     .filter(b => b.textContent).length >= n
                   || /win|draw/.test(document.getElementById('status').textContent)""",
            arg=pieces)

    def wait_for_the_net(self):
        """Wait until the board is no longer busy: the net has answered (a click meanwhile is
        ignored)."""
        self.page.locator('#board[aria-busy="false"]').wait_for()

    def wait_idle(self):
        """Wait until no training runs (Start is enabled again)."""
        self.page.wait_for_function("!document.getElementById('start').disabled",
                                    timeout=30000)



class PageTest(Browser):
    """Tic-tac-toe's page."""

    def test_page_loads_with_every_control_labelled(self):
        for label in ("hint", "you play", "method", "side", "games", "seed"):
            self.assertEqual(self.page.get_by_label(label, exact=True).count(), 1, label)
        for name in ("New game", "Start", "Stop", "Save"):
            self.assertEqual(self.page.get_by_role("button", name=name).count(), 1, name)
        self.assertEqual(self.page.get_by_role("img", name="learning curve").count(), 1)
        self.assertEqual(self.page.get_by_role("progressbar").count(), 1)
        self.assertIn("ttt_nn.bin", self.page.locator("#note").text_content())
        self.page.get_by_text("Exact as O vs random X").wait_for()   # the verdict, both sides
        self.page.get_by_text("Exact as X vs random O").wait_for()
        self.assertIn("softmax over the empty cells", self.page.locator("#play").text_content())

    def test_policy_iteration_says_what_it_is_and_why_the_side_is_both(self):
        self.wait_idle()
        method, side = (self.page.get_by_label(name, exact=True) for name in ("method", "side"))
        why = self.page.get_by_text("policy iteration learns both sides")
        method.select_option("q-learning")
        self.assertFalse(why.is_visible())
        method.select_option("policy-iteration")
        self.assertEqual((side.input_value(), side.is_disabled()), ("both", True))
        self.assertTrue(why.is_visible())
        note = self.page.locator("#method-note").text_content()
        for words in ("Policy iteration (Sutton and Barto 4.3)", "exact evaluation by backward "
                      "induction over the whole game tree", "(dynamic programming, no play-outs,"
                      " no sampling)", "the net learns the improved moves (approximate policy "
                      "iteration)"):
            self.assertIn(words, note)
        self.assertNotRegex(self.page.content().lower(), "rollout|exploring start")
        self.assertNotIn("monte carlo", note.lower())
        method.select_option("monte-carlo")
        self.assertEqual((side.input_value(), side.is_disabled(), why.is_visible()),
                         ("O", False, False))

    def test_a_stable_policy_iteration_fills_the_bar_and_shows_each_side(self):
        def stable_at_sweep_3(net, sweeps, rng, learning_rate, report):   # as it reports
            for sweep in range(1, 4):
                report(net, sweep, 3 - sweep)
            return 3, 0
        server = web.Server(os.path.join(self.folder, "stable.bin"), "127.0.0.1", 0)
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        self.page.close()   # a page of its own server: the others' keep their training
        self.open(1400, 900, "http://127.0.0.1:%d/" % server.server_address[1])
        self.page.get_by_label("method", exact=True).select_option("policy-iteration")
        self.page.get_by_label("games (sweeps, at most)", exact=True).fill("200")
        with mock.patch("ttt_rl.lab.cli.train_policy_iteration", stable_at_sweep_3):
            self.page.get_by_role("button", name="Start").click()
            self.page.get_by_text("stable after 3 sweeps. Done").wait_for()
        progress = self.page.get_by_role("progressbar")
        self.assertEqual((progress.get_attribute("aria-valuenow"),
                          progress.get_attribute("aria-valuemax")), ("3", "3"))
        self.assertEqual(self.page.evaluate("document.querySelector('#progress div')"
                                            ".style.width"), "100%")   # a full bar
        legend = self.page.locator("#legend").text_content()
        self.assertRegex(legend, r"win as O \d+\.\d%, as X \d+\.\d%")
        self.assertIn("the mean of the two sides", legend)
        self.assertEqual(self.page.locator("#telling figure").count(), 6)   # both sides'

    def test_a_whole_game_played_by_clicking(self):
        self.page.get_by_label("you play", exact=True).select_option("X")
        self.page.get_by_role("button", name="New game").click()
        self.wait_for_the_net()
        self.page.get_by_label("hint", exact=True).check()
        self.page.wait_for_function("document.querySelectorAll('#board [data-hint]').length")
        score = self.page.locator(".score").text_content()
        pieces = 0
        while not re.search("win|draw", self.page.locator("#status").text_content()):
            labels = self.labels()
            # The person plays well: a winning cell, else a drawing one, else any.
            cell = min((n for n in range(9) if self.cell(n).text_content() == ""),
                       key=lambda n: ("win" not in labels[n], "draw" not in labels[n], n))
            self.cell(cell).click()
            pieces += 2
            self.wait_for_turn(pieces)
            if self.board().count("O"):   # the net has moved: its wishes and its move show
                labels = self.labels()
                self.assertTrue(any("the net's move" in label for label in labels))
                for n, piece in enumerate(self.board()):
                    if piece == ".":
                        self.assertRegex(labels[n], r"^cell %d, \d+%%" % n)
        self.assertNotEqual(self.page.locator(".score").text_content(), score)
        self.assertIsNone(re.search("loss", " ".join(self.labels())))   # no hints at the end

    def test_hints_are_minimax_results_for_the_player_to_move(self):
        self.page.get_by_label("you play", exact=True).select_option("O")   # the net opens
        self.wait_for_turn(1)
        self.assertNotRegex(" ".join(self.labels()), "win|draw|loss")
        self.page.get_by_label("hint", exact=True).check()
        position = self.board()
        for n, label in enumerate(self.labels()):
            if position[n] == ".":
                after = position[:n] + "O" + position[n + 1:]
                self.assertTrue(label.endswith(RESULT[minimax(after)]), label)
        self.page.get_by_label("hint", exact=True).uncheck()
        self.assertNotRegex(" ".join(self.labels()), "win|draw|loss")

    def test_a_new_game_drops_the_answer_to_the_game_before(self):
        self.wait_for_the_net()
        held = []   # the browser holds the net's opening move until told

        def hold(route):
            if not held and json.loads(route.request.post_data)["you"] == "O":
                return held.append(route)
            route.continue_()
        self.page.route("**/api/play", hold)
        with self.page.expect_request("**/api/play"):
            self.page.get_by_label("you play", exact=True).select_option("O")   # the net opens
        self.assertEqual(self.page.locator("#board").get_attribute("aria-busy"), "true")
        self.page.get_by_label("you play", exact=True).select_option("X")   # no: a new game
        self.wait_for_the_net()
        with self.page.expect_response("**/api/play"):
            held[0].continue_()   # the net's opening arrives, late
        self.cell(4).click()
        self.wait_for_turn(2)
        self.assertEqual(sorted(self.board().replace(".", "")), ["O", "X"])
        self.assertEqual(self.board()[4], "X")

    def test_training_moves_the_progress_bar_and_the_chart_then_stops(self):
        self.wait_idle()
        self.page.get_by_label("method", exact=True).select_option("monte-carlo")
        self.page.get_by_label("side", exact=True).select_option("O")
        self.page.get_by_label("games", exact=True).fill("5000")
        self.page.get_by_label("seed", exact=True).fill("2")
        self.page.get_by_role("button", name="Start").click()
        progress = self.page.get_by_role("progressbar")
        self.page.wait_for_function("""() => {
            const bar = document.querySelector('[role=progressbar]');
            const line = document.querySelector('#chart polyline');
            return bar.getAttribute('aria-valuemax') === '5000'
                   && +bar.getAttribute('aria-valuenow') > 100
                   && line.getAttribute('points').split(' ').length >= 5; }""")
        self.assertEqual(self.page.locator("#telling figure").count(), 3)   # heat maps
        self.page.get_by_role("button", name="Stop").click()
        self.wait_idle()
        self.assertIn("Stopped", self.page.locator("#progress-text").text_content())
        self.assertLess(int(progress.get_attribute("aria-valuenow")), 5000)

    def test_saving_writes_the_file(self):
        self.page.get_by_role("button", name="Save").click()
        self.page.get_by_text(re.compile(r"^saved( \(the old file is now ttt_nn\.bin\.bak\))?$")
                              ).wait_for()
        self.assertTrue(os.path.exists(self.path))

    def test_a_phone_and_a_desktop_show_everything_without_sideways_scrolling(self):
        self.check_widths(lambda: [self.cell(n) for n in range(9)], 44, "page")

    def test_screenshot_of_a_game_in_progress_after_training(self):
        self.wait_idle()
        self.page.get_by_label("method", exact=True).select_option("monte-carlo")
        self.page.get_by_label("games", exact=True).fill("3000")
        self.page.get_by_label("seed", exact=True).fill("1")
        self.page.get_by_role("button", name="Start").click()
        self.page.get_by_text("Done: you now play this net").wait_for(timeout=60000)
        self.page.get_by_label("you play", exact=True).select_option("X")
        self.wait_for_the_net()
        for pieces, cell in ((2, 0), (4, 2)):   # (then this net lets X win: the hints show it)
            self.cell(cell).click()
            self.wait_for_turn(pieces)
        self.page.get_by_label("hint", exact=True).check()
        self.page.get_by_text("Exact as O vs random X").wait_for()
        path = SCREENSHOT or os.path.join(self.folder, "web.png")
        self.page.screenshot(path=path, full_page=True)
        self.assertGreater(os.path.getsize(path), 10000)


class ConnectFourPageTest(Browser):
    """The page of `ttt-web --game connect4` (c4_nn.bin, absent at first)."""
    FILE, GAME = "c4_nn.bin", "connect4"

    def open(self, width, height, url=None):
        super().open(width, height, url, ready="column 6")

    def column(self, n):
        return self.page.get_by_role("button", name=re.compile(r"^column %d(,|$)" % n))

    def board(self):
        """Return the board as the page's cell names say it: 42 characters of '.', 'X', 'O'."""
        names = self.page.eval_on_selector_all("#board td", "tds => tds.map(td => "
                                               "td.getAttribute('aria-label'))")
        self.assertEqual(names[3], "row 0 column 3: " + names[3].split(": ")[1])
        return "".join({"empty": "."}.get(n.split(": ")[1], n.split(": ")[1]) for n in names)

    def test_a_whole_game_played_by_clicking_columns_with_hints(self):
        self.page.get_by_label("you play", exact=True).select_option("X")
        self.page.get_by_role("button", name="New game").click()
        self.wait_for_the_net()
        self.page.get_by_label("hint", exact=True).check()
        for n in range(7):
            self.assertEqual(self.column(n).count(), 1)
        pieces = 0
        while not re.search("win|draw", self.page.locator("#status").text_content()):
            names = [self.column(n).get_attribute("aria-label") for n in range(7)]
            board = self.board()
            # A good player: a winning column, a blocking one, not one that loses; the first.
            move = min((n for n in range(7) if board[n] == "."), key=lambda n: (
                "wins" not in names[n], "blocks" not in names[n], "loses" in names[n], n))
            self.column(move).click()
            pieces += 2
            self.page.wait_for_function(
                """n => [...document.querySelectorAll('#board td')].filter(td =>
                     !td.getAttribute('aria-label').endsWith('empty')).length >= n
                   || /win|draw/.test(document.getElementById('status').textContent)""",
                arg=pieces)
            if "O" in self.board() and not re.search("win|draw", self.page.locator(
                    "#status").text_content()):   # the net's wishes, its move marked
                names = [self.column(n).get_attribute("aria-label") for n in range(7)]
                self.assertTrue(any("the net's move" in name for name in names))
                self.assertTrue(all(re.match(r"column \d, \d+%", name) for n, name in
                                    enumerate(names) if self.board()[n] == "."))
        self.assertRegex(self.page.locator(".score").text_content(), "[1-9]")

    def test_with_its_search_the_net_shows_the_searchs_shares_under_its_own(self):
        self.page.get_by_label("you play", exact=True).select_option("X")
        self.page.get_by_label("with its search (200 simulations)", exact=True).check()
        self.wait_for_the_net()
        self.column(3).click()
        self.page.get_by_text("; its search ").wait_for()
        names = [self.column(n).get_attribute("aria-label") for n in range(7)]
        self.assertTrue(all(re.match(r"column \d, \d+%, search \d+%", name) for name in names),
                        names)
        self.page.get_by_label("with its search (200 simulations)", exact=True).uncheck()

    def test_hints_say_wins_blocks_loses_and_when_nothing_saves_the_game(self):
        def hints(board):   # the page's, for the player to move; row 0 on top
            return self.page.evaluate("board => c4Hints(board)", board)
        empty = "." * 28
        # X to move: a fourth X in the bottom row wins (and would block O's too).
        self.assertEqual(hints(empty + "......." + "XXX.OOO"), [None, None, None, "wins",
                                                               None, None, None])
        # X to move: O would make four in the bottom row.
        self.assertEqual(hints(empty + "....X.." + "OOO.XX."), [None, None, None, "blocks",
                                                               None, None, None])
        # O to move: O at the bottom of column 2 lets X make four in the row above.
        self.assertEqual(hints(empty + "XX.X..." + "OX.OO..")[2], "loses")
        # X to move: O makes four at column 0 and at column 4; no column saves the game.
        doomed = empty + ".XXX..." + ".OOO..."
        self.assertEqual(hints(doomed), ["blocks", None, None, None, "blocks", None, None])
        self.page.get_by_label("hint", exact=True).check()
        self.page.evaluate("""board => { Object.assign(game, {board, you: "X", last: null,
                                                        over: null, hints: c4Hints(board)});
                                          renderBoard(); }""", doomed)
        self.assertIn("No column saves the game", self.page.locator("#status").text_content())
        self.assertEqual(self.column(0).get_attribute("aria-label"), "column 0, blocks")
        self.assertEqual(self.page.get_by_role("cell", name="row 5 column 1: O").count(), 1)
        self.assertEqual(self.page.get_by_role("cell", name="row 5 column 0: empty").count(), 1)

    def test_training_the_cs_rule_then_expert_iteration_stop_and_save(self):
        self.wait_idle()
        method, games = (self.page.get_by_label(name, exact=True) for name in ("method", "games"))
        self.assertEqual(self.page.get_by_label("side", exact=True).input_value(), "both")
        method.select_option("monte-carlo")
        games.fill("300")
        self.page.get_by_role("button", name="Start").click()   # (a run before may be Done)
        self.page.get_by_text("300 of 300 games. Done").wait_for(timeout=180000)
        legend = self.page.locator("#legend").text_content()
        self.assertRegex(legend, r"wins against random as X \d+\.\d%, as O \d+\.\d%")
        self.assertRegex(legend, r"kept, the net alone \d+\.\d%kept with a 50-simulation "
                                 r"search \(200 positions\) \d+\.\d%")
        method.select_option("expert-iteration")
        self.assertIn("Expert iteration", self.page.locator("#method-note").text_content())
        self.page.get_by_label("games (self-play)", exact=True).fill("300")
        self.page.get_by_role("button", name="Start").click()
        self.page.wait_for_function("document.querySelectorAll('#chart .previous').length")
        self.assertEqual(self.page.get_by_role("progressbar").get_attribute("aria-valuemax"),
                         "300")
        self.page.wait_for_timeout(3000)
        self.page.get_by_role("button", name="Stop").click()
        self.wait_idle()
        self.assertIn("Stopped", self.page.locator("#progress-text").text_content())
        self.assertIn("faded: the training before (monte-carlo)",
                      self.page.locator("#legend").text_content())
        self.page.get_by_role("button", name="Save").click()
        self.page.get_by_text(re.compile(r"^saved( \(the old file is now c4_nn\.bin\.bak\))?$")
                              ).wait_for()
        # Stopped in its first round: expert iteration's new net, 150 units and a value
        self.assertEqual(os.path.getsize(self.path), 55832)   # 93 x 150 + 8 floats

    def test_a_phone_and_a_desktop_show_everything_without_sideways_scrolling(self):
        self.check_widths(lambda: [self.column(n) for n in range(7)], 43, "c4")

    def test_screenshot_of_a_game_in_progress_after_training(self):
        self.wait_idle()
        self.page.get_by_label("method", exact=True).select_option("monte-carlo")
        self.page.get_by_label("games", exact=True).fill("5000")
        self.page.get_by_role("button", name="Start").click()
        self.page.get_by_text("Done: you now play this net").wait_for(timeout=120000)
        self.page.get_by_label("you play", exact=True).select_option("X")
        self.wait_for_the_net()
        self.page.get_by_label("hint", exact=True).check()
        for pieces, column in ((2, 3), (4, 3), (6, 2)):
            self.column(column).click()
            self.page.wait_for_function(
                "n => [...document.querySelectorAll('#board td span')].filter(s => "
                "s.textContent).length >= n", arg=pieces)
        self.page.get_by_text("Against the tactical player as O").wait_for(timeout=60000)
        path = C4_SCREENSHOT or os.path.join(self.folder, "web-c4.png")
        self.page.screenshot(path=path, full_page=True)
        self.assertGreater(os.path.getsize(path), 10000)


if __name__ == "__main__":
    unittest.main()
