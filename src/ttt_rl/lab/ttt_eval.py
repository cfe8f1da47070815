"""`ttt-eval`: the exact strength of trained networks, the lab's command.

Loads each weights file and walks every game its net can play (exact.py):
exact win, draw and loss rates against a random opponent, and every line
some opponent strategy wins. It ends with what the C's reward asks for at
best (optimum.py). It lives in the lab because the C has nothing like it:
the C only samples its progress line.
"""

import sys

from ..learn import DEFAULT_SETTINGS
from ..weights import FileError, load
from ..game import BOTH, O, X
from .args import ArgumentParser, file_name, side_or_both
from .cli import EXIT_FAILURE, EXIT_USAGE, command, printable, say
from .exact import complete_share, evaluate_network, optimum
from .text import format_line, json_line, optimum_sentence, side_warning, summary_lines


def eval_parser():
    """Return the ArgumentParser of ttt-eval."""
    parser = ArgumentParser(prog="ttt-eval", epilog="""\
examples:
  ttt-eval ttt_nn.bin                 exact strength of the net as O
  ttt-eval a.bin b.bin --json         one JSON object per file
  ttt-eval x.bin --side X --show-losses   as X, with every lost game
  ttt-eval --check ttt_nn.bin && echo unbeatable   for scripts and CI

Exit status: 0; 1 with --check if a net can be beaten; 2 if a file could
not be read (so not checked) or for a bad command line, as grep and diff.
""", description="Compute the exact strength of trained networks by walking "
                 "every game they can play.")
    parser.add_argument("weights", nargs="+", metavar="WEIGHTS", type=file_name,
                        help="weights file(s) written by ttt-train or the C train")
    parser.add_argument("--side", type=side_or_both, default=O, metavar="{O,X,both}",
                        help="the side the net plays (default O; X moves first; both: "
                             "each side in turn)")
    parser.add_argument("--check", action="store_true",
                        help="exit with status 1 if any net can be beaten")
    # Losing lines are text for a human; they would break the JSON stream.
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true",
                        help="print one JSON object per file, one per line")
    output.add_argument("--show-losses", action="store_true",
                        help="print the moves of every game the net loses, "
                             "to replay in ttt-play")
    return parser


@command("ttt-eval")
def main(argv=None):
    """Entry point of `ttt-eval`; returns the exit status: 0; 1 with --check
    if any net can be beaten; 2 if a file could not be read, or for a bad
    command line. `argv` is the argument list (default sys.argv[1:])."""
    args = eval_parser().parse_args(argv)
    status, read = 0, 0
    for path in args.weights:
        try:
            net = load(path)
        except FileError as e:
            say("ttt-eval", "error: %s" % e)
            status = EXIT_USAGE   # could not check: not the same as beatable
            continue
        read += 1
        result = evaluate_network(net, args.side)
        result["complete_kept"], result["complete_positions"] = complete_share(net, args.side)
        if args.check and not result["unbeatable"]:
            status = status or EXIT_FAILURE
        warning = args.side != BOTH and side_warning(net, args.side, result)
        if warning:
            say("ttt-eval", "%s: %s" % (path, warning))
        lines = [json_line(path, result)] if args.json else \
            [printable(path)] + ["  " + line for line in summary_lines(result)] + [
                "  Under any play: keeps the minimax value in %d of %d positions (%.1f%%)" % (
                    result["complete_kept"], result["complete_positions"],
                    100 * result["complete_kept"] / result["complete_positions"])]
        if args.show_losses:
            lines += ["  lost: " + format_line(moves) for moves in result["losing_lines"]]
        print("\n".join(lines))
    if read and not args.json:
        # What the reward asks for: the best any learner can do with it.
        for side in (O, X) if args.side == BOTH else (args.side,):
            print("Limit: " + optimum_sentence(optimum(DEFAULT_SETTINGS[1:], side),
                                               "the C's reward"))
    return status


if __name__ == "__main__":
    sys.exit(main())
