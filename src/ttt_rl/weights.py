"""The weights file, `ttt_nn.bin`: the format of the C train/play split.

The parameters as little-endian float32 in the order of the C struct: w_ih (18 x H),
w_ho (H x 9), b_h (H), b_o (9); 11236 bytes for the C's H = 100. No header: H is read from the
size; neither the side nor the rule is recorded. to_bytes and load port save_neural_network
and load_neural_network. Writing the bytes safely is lab/files.py's job.

A connect-four net (`c4_nn.bin`) has the same layout with its 84 inputs (connect4.py) and 7
outputs, one per column; expert iteration's has an eighth, its value (nn.py). The size tells
the game and the outputs: 28H + 9 floats, 92H + 7, or 93H + 8. The first two never meet
(28a + 9 = 92b + 7 gives 14a + 1 = 46b, odd = even); 93H + 8 can, for 214 H up to 10,000
(25, as tic-tac-toe's 83; 91, as 92; ...): it loads as the older, and training refuses that H.
"""

import math
import struct

from . import connect4
from . import game as tic_tac_toe
from .nn import HIDDEN_SIZE, NeuralNetwork

FLOAT_BYTES = 4   # float32
FLOAT32_MAX = 3.4028234663852886e38
MAX_HIDDEN_SIZE = 10000   # the largest net loaded: 1.1 MB for tic-tac-toe, 3.7 for connect four
# The layouts a size may tell, the older first: (rules, outputs).
LAYOUTS = ((tic_tac_toe, 9), (connect4, 7), (connect4, 8))


class FileError(Exception):
    """A file that cannot be read or written: str() says why in one line; `missing` is True
    when it does not exist."""
    missing = False


def file_size(hidden_size=HIDDEN_SIZE, rules=tic_tac_toe, outputs=None):
    """Return the size in bytes of a weights file (11236 for 100 units of tic-tac-toe); outputs
    defaults to the game's moves (8: with a value head)."""
    outputs = outputs or rules.OUTPUT_SIZE
    return FLOAT_BYTES * ((rules.INPUT_SIZE + outputs + 1) * hidden_size + outputs)


def layout(size):
    """Return (rules, outputs, hidden units) of a file of `size` bytes, the first of LAYOUTS
    that fits with 1 to MAX_HIDDEN_SIZE units, or None."""
    for rules, outputs in LAYOUTS:
        units, extra = divmod(size // FLOAT_BYTES - outputs, rules.INPUT_SIZE + outputs + 1)
        if not size % FLOAT_BYTES and not extra and 1 <= units <= MAX_HIDDEN_SIZE:
            return rules, outputs, units
    return None


def rules_of(net):
    """Return the game a network plays, from its input size: game (tic-tac-toe) or connect4."""
    return connect4 if len(net.w_ih) == connect4.INPUT_SIZE else tic_tac_toe


def parameters(net):
    """Return the network's parameters as one flat list, in file order."""
    flat = [w for row in net.w_ih for w in row] + [w for row in net.w_ho for w in row]
    return flat + list(net.b_h) + list(net.b_o)


def from_parameters(flat, rules=tic_tac_toe, outputs=None):
    """Return a new NeuralNetwork for `rules` of floats in file order (their number gives H),
    with `outputs` outputs (default the game's moves; one more: a value head)."""
    outputs = outputs or rules.OUTPUT_SIZE
    h = (len(flat) - outputs) // (rules.INPUT_SIZE + outputs + 1)
    ho_start = rules.INPUT_SIZE * h     # where w_ho starts
    bh_start = ho_start + h * outputs   # where b_h starts
    return NeuralNetwork([flat[j:j + h] for j in range(0, ho_start, h)],
                         [flat[j:j + outputs] for j in range(ho_start, bh_start, outputs)],
                         flat[bh_start:bh_start + h], flat[bh_start + h:], rules.OUTPUT_SIZE)


def to_bytes(net):
    """Return the network as the bytes of a weights file. Raises FileError if
    a parameter is NaN, infinite or beyond float32: it could not be loaded."""
    flat = parameters(net)
    # abs(NaN) <= x is False, so this refuses NaN, infinities and overflow.
    if not all(abs(w) <= FLOAT32_MAX for w in flat):
        raise FileError("a weight is not a finite float32 (the learning rate or a "
                        "reward is too large)")
    return struct.pack("<%df" % len(flat), *flat)


def from_bytes(data, name="the data"):
    """Return the NeuralNetwork stored in `data` (a weights file's bytes), of the game its size
    tells (rules_of says which). Raises FileError, naming `name`, for a size that fits no net,
    or a parameter that is NaN or infinite."""
    found = layout(len(data))
    if found is None:
        raise FileError("%s is not a weights file: its %d bytes fit no net (the C's has %d; "
                        "weights.py lists the sizes)" % (name, len(data), file_size()))
    flat = list(struct.unpack("<%df" % (len(data) // FLOAT_BYTES), data))
    for index, w in enumerate(flat):
        if not math.isfinite(w):
            raise FileError("%s is corrupt: parameter %d is %r" % (name, index, w))
    return from_parameters(flat, *found[:2])


def read(path):
    """Return the bytes of file `path`. Raises FileError with a one-line reason
    (`missing` True if the file does not exist)."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        error = FileError("cannot read %s: %s" % (path, e.strerror))
        error.missing = isinstance(e, FileNotFoundError)
        raise error from None


def load(path):
    """Return the NeuralNetwork of a weights file written by `ttt-train` or the
    C `train` (C: load_neural_network). Raises FileError with a one-line
    reason: missing, unreadable, a size that fits no net, a NaN or infinity."""
    return from_bytes(read(path), path)


def to_float32(x):
    """Return the float32 nearest to `x`: what the C computes and prints in float32."""
    return struct.unpack("<f", struct.pack("<f", x))[0]
