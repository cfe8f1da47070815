"""Round numbers on a log scale: 1, 2, 5, 10, 20, 50, 100, ...

The progress line's interval, the learning curve's points and the chart's
ticks are all chosen from this one sequence. No C counterpart.
"""


def one_two_five(limit):
    """Return the round numbers 1, 2, 5, 10, 20, 50, ... that are at most
    `limit` (a number), as a list of ints in increasing order."""
    numbers, scale = [], 1
    while scale <= limit:
        numbers += [m * scale for m in (1, 2, 5) if m * scale <= limit]
        scale *= 10
    return numbers


def round_up(value):
    """Return the smallest round number (1, 2, 5 x 10^k) that is at least
    `value`, and at least 1."""
    step = 1
    while step * 10 < value:
        step *= 10
    return next(m * step for m in (1, 2, 5, 10) if m * step >= value)
