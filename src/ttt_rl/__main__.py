"""`python -m ttt_rl` runs `ttt-rl`; the console scripts start here too.

A command's module is imported only inside launch(), so that a Ctrl-C or
an error while Python imports it is one line too, not a traceback.
"""

import importlib
import sys

NAMES = {"train": "ttt-train", "play": "ttt-play", "ttt": "ttt-rl", "lab.ttt_eval": "ttt-eval"}


def launch(module):
    """Import ttt_rl.MODULE and return its main()'s exit status."""
    try:
        main = importlib.import_module("ttt_rl." + module).main
    except KeyboardInterrupt:
        sys.stderr.write("%s: interrupted\n" % NAMES[module])
        return 130
    except Exception as e:   # noqa: BLE001 (one line, never a traceback)
        sys.stderr.write("%s: error: %s\n" % (NAMES[module], e))
        return 1
    return main()


def ttt_train():
    return launch("train")


def ttt_play():
    return launch("play")


def ttt_rl():
    return launch("ttt")


def ttt_eval():
    return launch("lab.ttt_eval")


if __name__ == "__main__":
    sys.exit(ttt_rl())
