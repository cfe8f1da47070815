"""`ttt-eval`: the exact strength of trained networks (lab/evaluate.py).

No C counterpart: the C only samples its progress line.
"""

import json
import os
import sys

from ..game import opponent
from ..weights import load
from .args import ArgumentParser, add_side
from .cli import EXIT_FAILURE, command, say
from .evaluate import (best_safe_win_rate, evaluate_network, format_line, side_warning,
                       summary_lines)
from .files import FileError

JSON_KEYS = ("file", "side", "win", "draw", "loss", "lines", "lines_lost",
             "positions", "optimal_positions", "unbeatable")


@command("ttt-eval")
def main(argv=None):
    """Entry point of `ttt-eval`; returns the exit status (0, or 1 if any
    file could not be read). `argv` is the argument list (default
    sys.argv[1:]). No C counterpart: the C only samples.
    """
    parser = ArgumentParser(prog="ttt-eval", epilog="""\
examples:
  ttt-eval ttt_nn.bin                 exact strength of the net as O
  ttt-eval a.bin b.bin --json         one JSON object per file
  ttt-eval x.bin --side X --show-losses   as X, with every lost game
""", description="Compute the exact strength of trained networks by walking "
                 "every game they can play.")
    parser.add_argument("weights", nargs="+", metavar="WEIGHTS",
                        help="weights file(s) written by ttt-train or the C train")
    add_side(parser, "plays")
    # Losing lines are text for a human; they would break the JSON stream.
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true",
                        help="print one JSON object per file, one per line")
    output.add_argument("--show-losses", action="store_true",
                        help="print the moves of every game the net loses, "
                             "to replay in ttt-play")
    args = parser.parse_args(argv)
    status = 0
    for path in args.weights:
        try:
            net = load(path)
        except FileError as e:
            say("ttt-eval", "error: %s" % e)
            status = EXIT_FAILURE
            continue
        result = evaluate_network(net, args.side)
        warning = side_warning(net, args.side, result)
        if warning:
            say("ttt-eval", "%s: %s" % (path, warning))
        if args.json:
            # A name that is not UTF-8 shows its bytes as \\xNN: JSON has no
            # way to hold them, and a lone surrogate would break readers.
            name = os.fsencode(path).decode("utf-8", "backslashreplace")
            print(json.dumps({"file": name, **{k: result[k] for k in JSON_KEYS[1:]}}))
        else:
            print(path)
            for line in summary_lines(result):
                print("  " + line)
        if args.show_losses:
            for moves in result["losing_lines"]:
                print("  lost: " + format_line(moves))
    if not args.json:
        other = opponent(args.side)
        print("Limit: an %s that never loses wins at most %.2f%% vs random %s."
              % (args.side, 100 * best_safe_win_rate(side=args.side), other))
    return status


if __name__ == "__main__":
    sys.exit(main())
