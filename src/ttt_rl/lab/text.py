"""Results in words: verdicts, summaries, the table of --runs, the warning
for a net of the other side, and the commands a message suggests."""

import json
import os
import shlex
import shutil
import struct
import sys

from ..game import BOTH, O, opponent
from .args import MONTE_CARLO, PLAYOUTS, RANDOM, RULES
from .exact import best_safe_win_rate, evaluate_network, strength

# Warn that a net was trained for the other side when it plays that side
# well (strength) and much better than the side asked for (gap).
SIDE_WARNING_STRENGTH, SIDE_WARNING_GAP = 0.75, 0.5
JSON_KEYS = ("side", "win", "draw", "loss", "lines", "lines_lost", "positions",
             "optimal_positions", "unbeatable", "complete_kept", "complete_positions")
# The flags a printed command repeats when they differ from their default.
FLAGS = ("side", "method", "opponent", "playouts", "hidden", "init", "learning_rate",
         "reward_win", "reward_tie", "reward_loss", "epsilon", "gamma", "explore",
         "temperature", "save")
COMMANDS = {"train": "ttt-train", "play": "ttt-play", "ttt": "ttt-rl"}


def to_float32(x):
    """Return the float32 nearest to `x`: the C computes in float32."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def plural(count, word, ending="s"):   # '1 line', '4 lines', '2 processes'
    return "%d %s%s" % (count, word, "" if count == 1 else ending)


def format_seconds(seconds):
    """Return `seconds` as '42s', '3m05s' or '1h02m'."""
    seconds = int(round(seconds))
    if seconds >= 3600:
        return "%dh%02dm" % (seconds // 3600, seconds % 3600 // 60)
    return "%ds" % seconds if seconds < 60 else "%dm%02ds" % divmod(seconds, 60)


def verdict(result):
    """Return 'unbeatable, 87.8% wins' or 'loses 10 lines, 83.7% wins' (both
    sides: 'as O ...; as X ...')."""
    if "sides" in result:
        return "; ".join("as %s %s" % (r["side"], verdict(r)) for r in result["sides"])
    lost = result["lines_lost"]
    return "%s, %.1f%% wins" % ("loses " + plural(lost, "line") if lost else "unbeatable",
                                100 * result["win"])


def format_outcomes(result):
    """Return 'win 88.042%, draw 11.958%, loss 0.000%' for an evaluation."""
    return "win %.3f%%, draw %.3f%%, loss %.3f%%" % tuple(
        100 * result[k] for k in ("win", "draw", "loss"))


def summary_lines(result):
    """Return the summary of an exact evaluation, as a list of lines."""
    if "sides" in result:
        return [line for r in result["sides"] for line in summary_lines(r)]
    other = opponent(result["side"])
    return ["Exact as %s vs random %s: %s" % (result["side"], other, format_outcomes(result)),
            "Every %s strategy: %d lines, %d lost: %s" % (
                other, result["lines"], result["lines_lost"],
                "unbeatable" if result["unbeatable"] else "beatable"),
            "Optimal moves: %d of %d positions (%.1f%%)" % (
                result["optimal_positions"], result["positions"],
                100 * result["optimal_positions"] / max(result["positions"], 1))]


def saved_sentence(result, subject="The saved net"):
    """Return one sentence: can some opponent beat the net, how often it wins."""
    if "sides" in result:
        return " ".join(saved_sentence(r, subject) for r in result["sides"])
    side, other, win = result["side"], opponent(result["side"]), 100 * result["win"]
    if result["unbeatable"]:
        return ("%s is unbeatable as %s: no %s strategy wins against it; it wins %.2f%% "
                "against a random %s (at most %.2f%% is possible without losing)."
                % (subject, side, other, win, other, 100 * best_safe_win_rate(side=side)))
    return ("%s can be beaten as %s: it loses %s against some %s strategy (it wins %.2f%% "
            "against a random %s)." % (subject, side, plural(result["lines_lost"], "line"),
                                       other, win, other))


def shell_word(word):
    """Return `word` quoted for a shell: shlex.quote, or where it would keep a
    control character raw or bytes are not UTF-8, $'...' with \\xHH (bash, zsh)."""
    if word.isprintable():
        return shlex.quote(word)
    return "$'%s'" % "".join(chr(b) if 32 <= b < 127 and b not in b"\\'" else "\\x%02x" % b
                             for b in os.fsencode(word))


def invoked_as(module):
    """Return the words that run command `module` ("train") as this one was
    run: the console script, or `python3 -m` with PYTHONPATH."""
    script, name = sys.argv[0] or "", COMMANDS[module]
    src = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if not script.endswith(".py") or os.path.basename(src) != "src" and shutil.which(name):
        # A console script (or an installed package): the command of that name.
        return [name if shutil.which(name) else os.path.join(os.path.dirname(script), name)]
    python = "python3" if shutil.which("python3") == sys.executable else sys.executable
    try:
        here = os.path.relpath(src)
    except OSError:   # the current folder is gone
        here = src
    return ["PYTHONPATH=" + shell_word(src if here.startswith("..") else here), python, "-m",
            "ttt_rl" if module == "ttt" else "ttt_rl." + module]


def command_line(words, args, games, output=None, **changes):
    """Return, quoted, command `words` (invoked_as's) on `games` and `output`
    with the flags of `args` that are not defaults, then `changes` (flag ->
    value; None drops it), as --name=value: a negative value stays one word."""
    defaults = dict(RULES[args.method][0]._asdict(), side=O, method=MONTE_CARLO,
                    opponent=RANDOM, playouts=PLAYOUTS)
    flags = {n: getattr(args, n, None) for n in FLAGS}
    flags = dict({n: v for n, v in flags.items() if v != defaults.get(n)}, **changes)
    options = ["--" + n.replace("_", "-") + ("" if v is True else "=%s" % v)
               for n, v in flags.items() if v is not None]
    # (A name typed as -x.bin after "--" was read as ./-x.bin: no "--" needed.)
    quoted = words[-1:] + [str(games)] + ([output] if output else []) + options
    return " ".join(words[:-1] + [shell_word(w) for w in quoted])


def next_step(words, args, output=None):
    """Return, for a net that can be beaten, what to run to get an unbeatable one,
    the user's flags kept: more seeds (ttt-train has --runs) or Q-learning."""
    # The measured recipes (README): 200,000 games of Q-learning a side, or
    # runs of at least 20,000 games of the C's rule.
    q = command_line(words, args, 400000 if args.side == BOTH else 200000, output,
                     method="q-learning", learning_rate=None, opponent=None, playouts=None)
    if output is None or args.method != MONTE_CARLO:
        return "For an unbeatable net, try: " + q
    runs = command_line(words, args, max(args.games, 20000), output, runs=16,
                        until_unbeatable=True, opponent=None, playouts=None)
    return "For an unbeatable net, try: %s, or %s" % (runs, q)


def optimum_sentence(result, label):
    """Return one sentence on exact.optimum's `result` for the reward `label`."""
    side, other = result["side"], opponent(result["side"])
    return "%s (win %g, tie %g, loss %g) is best served by %s %s that wins %.2f%% against " \
           "a random %s%s." % (label, *result["rewards"],
                               "an unbeatable" if result["unbeatable"] else "a beatable",
                               side, 100 * result["win"], other,
                               "" if result["unbeatable"] else
                               " and loses " + plural(result["lines_lost"], "line"))


def side_warning(net, side, result=None):
    """Return a warning if `net` plays the other side much better than `side`
    (`result`: its evaluation as `side`, if known), else None."""
    result, other = result or evaluate_network(net, side), evaluate_network(net, opponent(side))
    if strength(other) >= SIDE_WARNING_STRENGTH and \
            strength(other) - strength(result) >= SIDE_WARNING_GAP:
        return ("warning: this net plays %s much better (%s) than %s; it was probably "
                "trained with --side %s" % (other["side"], verdict(other), side, other["side"]))
    return None


def format_line(moves):
    """Return a game's moves (X first) as 'X 0, O 4, X 8, ...'."""
    return ", ".join("%s %d" % ("XO"[i % 2], m) for i, m in enumerate(moves))


def ranked_table(runs):
    """Return the lines of the table of --runs (seed and result dicts, best first)."""
    lines = ["%4s %11s %8s %8s %8s %11s %14s" % ("rank", "seed", "win %", "draw %", "loss %",
                                                  "lines lost", "optimal moves")]
    for rank, run in enumerate(runs, 1):
        r = run["result"]
        lines.append(("%4d %11d %8.3f %8.3f %8.3f %5d of %-3d %6d of %-4d" % (
            rank, run["seed"], 100 * r["win"], 100 * r["draw"], 100 * r["loss"],
            r["lines_lost"], r["lines"], r["optimal_positions"], r["positions"])).rstrip())
    if runs and "sides" in runs[0]["result"]:
        lines.append("(both sides: rates are the means of O's and X's; counts, their sums)")
    return lines


def json_line(path, result):
    """Return ttt-eval's JSON line; a name's non-UTF-8 bytes show as \\xNN."""
    name = os.fsencode(path).decode("utf-8", "backslashreplace")
    return json.dumps({"file": name, **{k: result[k] for k in JSON_KEYS}})
