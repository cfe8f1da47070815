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
from .args import eval_parser
from .cli import EXIT_FAILURE, command, printable, say
from .exact import evaluate_network
from .optimum import optimum
from .text import format_line, json_line, optimum_sentence, side_warning, summary_lines


@command("ttt-eval")
def main(argv=None):
    """Entry point of `ttt-eval`; returns the exit status: 0; 1 if any file
    could not be read, or with --check if any net can be beaten; 2 for a
    bad command line. `argv` is the argument list (default sys.argv[1:])."""
    args = eval_parser().parse_args(argv)
    status, read = 0, 0
    for path in args.weights:
        try:
            net = load(path)
        except FileError as e:
            say("ttt-eval", "error: %s" % e)
            status = EXIT_FAILURE
            continue
        read += 1
        result = evaluate_network(net, args.side)
        if args.check and not result["unbeatable"]:
            status = EXIT_FAILURE
        warning = side_warning(net, args.side, result)
        if warning:
            say("ttt-eval", "%s: %s" % (path, warning))
        lines = [json_line(path, result)] if args.json else \
            [printable(path)] + ["  " + line for line in summary_lines(result)]
        if args.show_losses:
            lines += ["  lost: " + format_line(moves) for moves in result["losing_lines"]]
        print("\n".join(lines))
    if read and not args.json:
        # What the reward asks for: the best any learner can do with it.
        rewards = DEFAULT_SETTINGS[1:]
        print("Limit: " + optimum_sentence(optimum(rewards, args.side), "the C's reward"))
    return status


if __name__ == "__main__":
    sys.exit(main())
