"""Results in words: the verdict on a net, the summary lines, the ranked
table of --runs, and the warning for a net of the other side.

Everything here turns the numbers of exact.py and optimum.py into text;
nothing is computed that a number elsewhere does not already say, except
the side warning's rule. No C counterpart.
"""

import json
import os
import struct

from ..game import opponent
from .exact import best_safe_win_rate, evaluate_network, strength

# Warn that a net was trained for the other side when it plays that side
# well (strength) and much better than the side asked for (gap).
SIDE_WARNING_STRENGTH, SIDE_WARNING_GAP = 0.75, 0.5
JSON_KEYS = ("file", "side", "win", "draw", "loss", "lines", "lines_lost",
             "positions", "optimal_positions", "unbeatable")


def to_float32(x):
    """Return the float32 nearest to the float x, as a Python float: the
    C computes in float32, and a number rounded so prints the C's digits.
    Raises OverflowError if x is too large for a float32."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def plural(count, word):
    """Return '1 line' or '4 lines'."""
    return "%d %s%s" % (count, word, "" if count == 1 else "s")


def verdict(result):
    """Return a short verdict: 'unbeatable, 87.8% wins' or 'loses 10 lines,
    83.7% wins'."""
    lost = result["lines_lost"]
    head = "unbeatable" if not lost else "loses " + plural(lost, "line")
    return "%s, %.1f%% wins" % (head, 100 * result["win"])


def format_outcomes(result):
    """Return 'win 88.042%, draw 11.958%, loss 0.000%' for an evaluation."""
    return "win %.3f%%, draw %.3f%%, loss %.3f%%" % (
        100 * result["win"], 100 * result["draw"], 100 * result["loss"])


def summary_lines(result):
    """Return the human summary of an evaluation, as a list of strings."""
    verdict_word = "unbeatable" if result["unbeatable"] else "beatable"
    other = opponent(result["side"])
    return [
        "Exact as %s vs random %s: %s" % (result["side"], other, format_outcomes(result)),
        "Every %s strategy: %d lines, %d lost: %s"
        % (other, result["lines"], result["lines_lost"], verdict_word),
        "Optimal moves: %d of %d positions (%.1f%%)"
        % (result["optimal_positions"], result["positions"],
           100 * result["optimal_positions"] / max(result["positions"], 1)),
    ]


def saved_sentence(result, subject="The saved net"):
    """Return one sentence on a net (its exact evaluation; `subject` names
    it): whether some opponent can beat it, and its exact win rate against
    a random one."""
    side, limit = result["side"], 100 * best_safe_win_rate(side=result["side"])
    if result["unbeatable"]:
        return ("%s is unbeatable as %s: no %s strategy wins against it; it wins "
                "%.2f%% against a random %s (at most %.2f%% is possible without losing)."
                % (subject, side, opponent(side), 100 * result["win"], opponent(side), limit))
    return ("%s can be beaten as %s: it loses %s against some %s strategy "
            "(it wins %.2f%% against a random %s)."
            % (subject, side, plural(result["lines_lost"], "line"), opponent(side),
               100 * result["win"], opponent(side)))


def next_step(prog, games, output=None):
    """Return what to run when a net can be beaten: one line naming the
    command `prog` as the user ran it (with `output`, a ttt-train file;
    without, ttt-rl, which has no --runs)."""
    if output is None:
        return "For an unbeatable net, try: %s 200000 --method q-learning" % prog
    return ("For an unbeatable net, try: %s %d %s --runs 16 --until-unbeatable, or %s "
            "200000 %s --method q-learning" % (prog, games, output, prog, output))


def optimum_sentence(result, label):
    """Return one sentence on the optimum of a reward (optimum.optimum's
    dict), `label` naming the reward (such as "the C's reward")."""
    side, other = result["side"], opponent(result["side"])
    win, tie, loss = result["rewards"]
    kind = "an unbeatable" if result["unbeatable"] else "a beatable"
    return ("%s (win %g, tie %g, loss %g) is best served by %s %s that wins %.2f%% "
            "against a random %s%s." % (
                label, win, tie, loss, kind, side,
                100 * result["win"], other,
                "" if result["unbeatable"] else
                " and loses " + plural(result["lines_lost"], "line")))


def side_warning(net, side, result=None):
    """Return a one-line warning if `net` plays much better on the other
    side than on `side` (it was trained for the other side), else None."""
    result = result or evaluate_network(net, side)
    other = evaluate_network(net, opponent(side))
    if strength(other) >= SIDE_WARNING_STRENGTH and \
            strength(other) - strength(result) >= SIDE_WARNING_GAP:
        return ("warning: this net plays %s much better (%s) than %s; it was probably "
                "trained with --side %s" % (other["side"], verdict(other), side, other["side"]))
    return None


def format_line(moves):
    """Return a game's moves as 'X 0, O 4, X 8, ...' (X moves first)."""
    return ", ".join("%s %d" % ("XO"[i % 2], m) for i, m in enumerate(moves))


def ranked_table(runs):
    """Return the ranked table of --runs (dicts with seed and result, best
    first), as a list of lines."""
    lines = ["%4s %11s %8s %8s %8s %11s %14s" % ("rank", "seed", "win %", "draw %", "loss %",
                                                  "lines lost", "optimal moves")]
    for rank, run in enumerate(runs, 1):
        r = run["result"]
        line = "%4d %11d %8.3f %8.3f %8.3f %5d of %-3d %6d of %-4d" % (
            rank, run["seed"], 100 * r["win"], 100 * r["draw"], 100 * r["loss"],
            r["lines_lost"], r["lines"], r["optimal_positions"], r["positions"])
        lines.append(line.rstrip())
    return lines


def json_line(path, result):
    """Return ttt-eval's JSON object for the file `path` and its evaluation,
    on one line."""
    # A name that is not UTF-8 shows its bytes as \\xNN: JSON has no way to
    # hold them, and a lone surrogate would break readers.
    name = os.fsencode(path).decode("utf-8", "backslashreplace")
    return json.dumps({"file": name, **{k: result[k] for k in JSON_KEYS[1:]}})
