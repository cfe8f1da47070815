"""What a valid argument is: the argparse types of every command line, and
the words after "--", which are positionals whatever they look like.

Each type takes the text of one argument and returns its value, or raises
argparse.ArgumentTypeError with the reason, which argparse prints as one
line. No C counterpart: the C reads its one number with atoi.
"""

import argparse
import os
import sys

from ..game import O, X
from ..weights import MAX_HIDDEN_SIZE

MAX_DIGITS = 18         # game counts stay below 10**18
MAX_SEED_DIGITS = 60    # any seed that is printed can be typed back
CURVE_TYPES = (".svg", ".csv")


def count(text, digits=MAX_DIGITS):
    """argparse type: a non-negative integer written in ASCII digits only.

    Returns the int; raises argparse.ArgumentTypeError for anything else,
    including ' 7', '1_0', '1e6' and non-ASCII digits, which int() takes.
    """
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError("%r is not a non-negative integer" % text[:40])
    if len(text) > digits:
        raise argparse.ArgumentTypeError("%s... is too large" % text[:20])
    return int(text)


def at_least_one(text):
    """argparse type: a count of 1 or more (--runs)."""
    value = count(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def seed(text):
    """argparse type: an integer seed, negative or not, of up to 60 digits."""
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()):
        raise argparse.ArgumentTypeError("%r is not an integer" % text[:40])
    value = count(digits, MAX_SEED_DIGITS)
    return -value if text.startswith("-") else value


def hidden_units(text):
    """argparse type: a number of hidden units from 1 to MAX_HIDDEN_SIZE."""
    value = count(text)
    if not 1 <= value <= MAX_HIDDEN_SIZE:
        raise argparse.ArgumentTypeError("%s is not from 1 to %d" % (text, MAX_HIDDEN_SIZE))
    return value


def file_name(text):
    """argparse type: a file name, which cannot be empty."""
    if not text:
        raise argparse.ArgumentTypeError("a file name cannot be empty")
    return text


def probability(text):
    """argparse type: a float from 0 to 1 (an exploration rate, a discount)."""
    value = finite_float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError("%r is not from 0 to 1" % text)
    return value


def finite_float(text):
    """argparse type: a finite float, such as a reward."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number" % text[:40]) from None
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError("%r is not a finite number" % text[:40])
    return value


def positive_float(text):
    """argparse type: a finite float > 0 (a learning rate)."""
    value = finite_float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("%r is not greater than 0" % text)
    return value


def side(text):
    """argparse type: X or O, in either case."""
    if text.upper() not in (O, X):
        raise argparse.ArgumentTypeError("%r is not a side: use X or O" % text[:20])
    return text.upper()


def curve_file(text):
    """argparse type: a file name ending in .svg or .csv."""
    file_name(text)
    if os.path.splitext(text)[1].lower() not in CURVE_TYPES:
        raise argparse.ArgumentTypeError("%r must end in .svg (a chart) or .csv (rows)"
                                         % text[:80])
    return text


def shield_after_dashes(args, is_negative_number):
    """After "--" every word is a positional, even one that starts with "-"
    (a file named -x.bin), but Python 3.9-3.13's intermixed parsing forgets
    it. Return (args, typed): `args` (default sys.argv[1:]) with each such
    word written ./-x.bin, the same file, and {written: as typed}.
    Negative numbers are left as they are: argparse takes them as values."""
    args = sys.argv[1:] if args is None else list(args)
    typed = {}
    if "--" in args:
        for i in range(args.index("--") + 1, len(args)):
            if args[i].startswith("-") and not is_negative_number(args[i]):
                typed["./" + args[i]] = args[i]
                args[i] = "./" + args[i]
    return args, typed


def unshield(namespace, positionals, typed):
    """Put back in `namespace` the positionals as typed (shield_after_dashes)."""
    for action in positionals:
        value = getattr(namespace, action.dest, None)
        if isinstance(value, list):
            setattr(namespace, action.dest, [typed.get(v, v) for v in value])
        elif isinstance(value, str):
            setattr(namespace, action.dest, typed.get(value, value))
