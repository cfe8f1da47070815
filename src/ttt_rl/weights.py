"""The weights file, `ttt_nn.bin`: the format of the C train/play split.

The parameters as little-endian float32 in the order of the C struct: w_ih (18 x H), w_ho
(H x 9), b_h (H), b_o (9); 11236 bytes for the C's H = 100. No header: H is read from the size;
neither the side nor the rule is recorded. to_bytes and load port save_neural_network and
load_neural_network (fwrite and fread of the four arrays); load also refuses other sizes, NaN
and infinities. Writing the bytes safely is lab/files.py's job.
"""

import math
import struct

from .nn import HIDDEN_SIZE, INPUT_SIZE, OUTPUT_SIZE, NeuralNetwork

FLOAT_BYTES = 4   # float32
FLOAT32_MAX = 3.4028234663852886e38
# Parameters per hidden unit (18 in, 9 out, 1 bias), plus the output biases.
PER_HIDDEN_UNIT = INPUT_SIZE + OUTPUT_SIZE + 1
MAX_HIDDEN_SIZE = 10000   # the largest net loaded: 1.1 MB, evaluated in seconds


class FileError(Exception):
    """A file that cannot be read or written: str() says why in one line; `missing` is True
    when it does not exist."""
    missing = False


def file_size(hidden_size=HIDDEN_SIZE):
    """Return the size in bytes of a weights file (11236 for 100 units)."""
    return FLOAT_BYTES * (PER_HIDDEN_UNIT * hidden_size + OUTPUT_SIZE)


FILE_SIZE = file_size()


def parameters(net):
    """Return the network's parameters as one flat list, in file order."""
    flat = [w for row in net.w_ih for w in row] + [w for row in net.w_ho for w in row]
    return flat + list(net.b_h) + list(net.b_o)


def from_parameters(flat):
    """Return a new NeuralNetwork of floats in file order (their number gives H)."""
    h = (len(flat) - OUTPUT_SIZE) // PER_HIDDEN_UNIT
    ho_start = INPUT_SIZE * h              # where w_ho starts
    bh_start = ho_start + h * OUTPUT_SIZE  # where b_h starts
    return NeuralNetwork([flat[j:j + h] for j in range(0, ho_start, h)],
                         [flat[j:j + OUTPUT_SIZE] for j in range(ho_start, bh_start, OUTPUT_SIZE)],
                         flat[bh_start:bh_start + h], flat[bh_start + h:])


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
    """Return the NeuralNetwork stored in `data` (a weights file's bytes).
    Raises FileError, naming `name`, for a size that fits no hidden size or
    a parameter that is NaN or infinite."""
    units, extra = divmod(len(data) // FLOAT_BYTES - OUTPUT_SIZE, PER_HIDDEN_UNIT)
    if len(data) % FLOAT_BYTES or extra or not 1 <= units <= MAX_HIDDEN_SIZE:
        raise FileError("%s is not a weights file: it has %d bytes, not %d (the C's 100 "
                        "hidden units) or 4 x (28 x units + 9)" % (name, len(data), FILE_SIZE))
    flat = list(struct.unpack("<%df" % (len(data) // FLOAT_BYTES), data))
    for index, w in enumerate(flat):
        if not math.isfinite(w):
            raise FileError("%s is corrupt: parameter %d is %r" % (name, index, w))
    return from_parameters(flat)


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
