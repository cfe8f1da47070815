"""The lab's command `ttt-eval`: the exact strength of trained networks (exact.py), and the best
that the C's reward asks for. The C has nothing like it: it only samples."""

import sys

from ..game import BOTH, O, X
from ..learn import DEFAULT_SETTINGS
from ..weights import FileError, load
from .args import ArgumentParser, file_name, side_or_both
from .cli import EXIT_FAILURE, EXIT_USAGE, command, printable, say
from .exact import complete_share, evaluate_network, net_policy, optimum
from .text import format_line, json_line, optimum_sentence, side_warning, summary_lines

SHARE = "Under any play: keeps the minimax value in %d of %d positions (%.1f%%)"
EPILOG = """examples:
  ttt-eval ttt_nn.bin                       exact strength of the net as O
  ttt-eval a.bin b.bin --json               one JSON object per file
  ttt-eval x.bin --side X --show-losses     as X, with every lost game
  ttt-eval both.bin --side both             both sides of a --side both net
  ttt-eval --check ttt_nn.bin && echo ok    for scripts and CI: 0 unbeatable

Exit status: 0; 1 with --check if a net can be beaten; 2 if a file could
not be read (so not checked) or for a bad command line, as grep and diff."""


def eval_parser():
    """Return the ArgumentParser of ttt-eval."""
    parser = ArgumentParser(prog="ttt-eval", epilog=EPILOG, description="Compute the exact "
                            "strength of trained networks by walking every game they can play.")
    parser.add_argument("weights", nargs="+", metavar="WEIGHTS", type=file_name,
                        help="weights file(s) written by ttt-train or the C train")
    parser.add_argument("--side", type=side_or_both, default=O, metavar="{O,X,both}", help="the "
                        "side the net plays (default O; X moves first; both: each side in turn)")
    output = parser.add_mutually_exclusive_group()   # losing lines would break the JSON stream
    for group, flag, text in (
            (parser, "--check", "exit with status 1 if any net can be beaten"),
            (output, "--json", "print one JSON object per file, one per line"),
            (output, "--show-losses", "print the moves of every game the net loses, to replay in "
                                      "ttt-play")):
        group.add_argument(flag, action="store_true", help=text)
    return parser


@command("ttt-eval")
def main(argv=None):
    """Run ttt-eval on `argv` (default sys.argv[1:]); return the exit status: 0; 1 with --check if
    a net can be beaten; 2 if a file could not be read, or for a bad command line."""
    args = eval_parser().parse_args(argv)
    status, read = 0, False
    for path in args.weights:
        try:
            net = load(path)
        except FileError as e:
            say("ttt-eval", "error: %s" % e)
            status = EXIT_USAGE   # could not check: not the same as beatable
            continue
        result, read = evaluate_network(net, args.side), True
        kept, positions = complete_share(net_policy(net), args.side)
        result.update(complete_kept=kept, complete_positions=positions)
        if args.check and not result["unbeatable"]:
            status = status or EXIT_FAILURE
        if args.side != BOTH and (warning := side_warning(net, args.side, result)):
            say("ttt-eval", "%s: %s" % (path, warning))
        lines = summary_lines(result) + [SHARE % (kept, positions, 100 * kept / positions)]
        if args.show_losses:
            lines += ["lost: " + format_line(moves) for moves in result["losing_lines"]]
        print(json_line(path, result) if args.json else "\n  ".join([printable(path)] + lines))
    if read and not args.json:   # what the reward asks for: the best any learner can do
        for side in (O, X) if args.side == BOTH else (args.side,):
            print("Limit:", optimum_sentence(optimum(DEFAULT_SETTINGS[1:], side), "the C's reward"))
    return status


if __name__ == "__main__":
    sys.exit(main())
