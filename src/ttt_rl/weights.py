"""The weights file, `ttt_nn.bin`: the format of the C train/play split.

The file is the network's 2809 parameters as little-endian float32, in the
order of the C struct: w_ih (18 x 100), w_ho (100 x 9), b_h (100), b_o (9).
It has no header, so it does not say which side the net was trained for.
A file written here plays in the C `play`, and the other way round.

Writing is careful, because a training run can take minutes: the bytes go
to a temporary file in the same folder, which is renamed over the target
only when complete. Nothing else in the project writes weights. save and
load port save_neural_network and load_neural_network of the split, which
write and read with plain fwrite/fread and no checks.
"""

import math
import os
import signal
import struct
import tempfile

from .nn import HIDDEN_SIZE, INPUT_SIZE, OUTPUT_SIZE, NeuralNetwork

PARAM_COUNT = (INPUT_SIZE * HIDDEN_SIZE + HIDDEN_SIZE * OUTPUT_SIZE
               + HIDDEN_SIZE + OUTPUT_SIZE)          # 2809
FILE_FORMAT = "<%df" % PARAM_COUNT                  # little-endian float32
FILE_SIZE = struct.calcsize(FILE_FORMAT)            # 11236 bytes
TEMP_PREFIX, TEMP_SUFFIX = ".ttt_nn.", ".tmp"       # hidden temporary files
# Signals that stop a command (Ctrl-C, `kill`, a closed terminal). They wait
# while a file is being replaced, so it is either the old or the new one.
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                     if hasattr(signal, name))


class WeightsFileError(Exception):
    """A weights file that cannot be read or written; str() says why, and
    `missing` tells whether the file does not exist."""

    missing = False


def to_float32(x):
    """Return the float32 nearest to the float x, as a Python float.

    The C computes in float32; rounding a result this way prints the digits
    it prints. Raises OverflowError if x is too large for a float32.
    """
    return struct.unpack("<f", struct.pack("<f", x))[0]


def parameters(nn):
    """Return the network's 2809 parameters as one flat list, in file order."""
    flat = [w for row in nn.w_ih for w in row]
    flat += [w for row in nn.w_ho for w in row]
    return flat + list(nn.b_h) + list(nn.b_o)


def from_parameters(flat):
    """Return a new NeuralNetwork built from 2809 floats in file order."""
    h_start = INPUT_SIZE * HIDDEN_SIZE
    b_start = h_start + HIDDEN_SIZE * OUTPUT_SIZE
    w_ih = [flat[j:j + HIDDEN_SIZE] for j in range(0, h_start, HIDDEN_SIZE)]
    w_ho = [flat[j:j + OUTPUT_SIZE] for j in range(h_start, b_start, OUTPUT_SIZE)]
    b_h = flat[b_start:b_start + HIDDEN_SIZE]
    return NeuralNetwork(w_ih, w_ho, b_h, flat[b_start + HIDDEN_SIZE:])


def to_bytes(nn):
    """Return the network as the 11236 bytes of a weights file.

    Raises WeightsFileError if a parameter does not fit a float32.
    """
    try:
        return struct.pack(FILE_FORMAT, *parameters(nn))
    except OverflowError:
        raise WeightsFileError("a weight is too large for float32") from None


def from_bytes(data, name="the data"):
    """Return the NeuralNetwork stored in `data` (exactly 11236 bytes).

    Raises WeightsFileError, naming `name`, if the size is wrong or a
    parameter is NaN or infinite.
    """
    if len(data) != FILE_SIZE:
        if not data:
            problem = "it is empty"
        elif len(data) < FILE_SIZE:
            problem = "it is truncated to %d bytes" % len(data)
        else:
            problem = "it has more than %d bytes" % FILE_SIZE
        raise WeightsFileError("%s is not a weights file: expected exactly %d bytes "
                               "(%d float32), but %s"
                               % (name, FILE_SIZE, PARAM_COUNT, problem))
    flat = list(struct.unpack(FILE_FORMAT, data))
    for index, w in enumerate(flat):
        if not math.isfinite(w):
            raise WeightsFileError("%s is corrupt: parameter %d is %r" % (name, index, w))
    return from_parameters(flat)


def as_saved(nn):
    """Return a copy of `nn` with every parameter rounded to float32, the
    network a file holds after save(nn, ...)."""
    return from_bytes(to_bytes(nn))


def load(path):
    """Read a weights file written by `ttt-train` or the C `train`.

    Returns a NeuralNetwork. Raises WeightsFileError with a one-line reason
    if the file is missing, unreadable, not exactly 11236 bytes, or holds a
    NaN or infinite weight.
    """
    try:
        with open(path, "rb") as f:
            # One byte too many tells a longer file, and no more is read:
            # the path might be a huge file or an endless device.
            data = f.read(FILE_SIZE + 1)
    except OSError as e:
        error = WeightsFileError("cannot read %s: %s" % (path, e.strerror))
        error.missing = isinstance(e, FileNotFoundError)
        raise error from None
    return from_bytes(data, path)


def resolve_output(path):
    """Return the file that writing `path` must replace, after checking
    that it can be written; raise WeightsFileError (one line) if not.

    A symlink is followed: its target is written and the link stays. The
    check is real: it opens the file for appending (which changes nothing)
    or creates and removes it, and it creates a temporary file beside it,
    so a path that cannot work fails before a long training run, not after.
    """
    if not path:
        raise WeightsFileError("the output file name is empty")
    target = os.path.realpath(path) if os.path.islink(path) else path
    if os.path.isdir(target):
        raise WeightsFileError("cannot write %s: it is a directory" % path)
    if path.endswith(os.sep):
        raise WeightsFileError("cannot write %s: a file name cannot end with %r"
                               % (path, os.sep))
    if os.path.exists(target) and not os.path.isfile(target):
        # Renaming over a device such as /dev/null would replace the device.
        raise WeightsFileError("cannot write %s: it is not a regular file" % path)
    if not os.path.isdir(_folder(target)):
        raise WeightsFileError("cannot write %s: folder %s does not exist"
                               % (path, _folder(target)))
    existed = os.path.exists(target)
    try:
        with signals_held():   # never leave the probe files behind
            os.close(os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666))
            if not existed:
                os.unlink(target)
            fd, tmp = tempfile.mkstemp(TEMP_SUFFIX, TEMP_PREFIX, _folder(target))
            os.close(fd)
            os.unlink(tmp)
    except OSError as e:
        raise WeightsFileError("cannot write %s: %s" % (path, e.strerror)) from None
    return target


def _folder(path):
    return os.path.dirname(path) or os.curdir


def save(nn, path):
    """Write the network to `path` as a weights file (11236 bytes).

    Checks `path` with resolve_output, writes a temporary file beside the
    target and renames it into place: the target is the old file or the new
    one, never a mix, and no temporary file is left, even if a stop signal
    (Ctrl-C, SIGTERM, SIGHUP) arrives meanwhile; such a signal waits until
    save returns. An existing file keeps its permissions. Raises
    WeightsFileError (one line) if nothing was written.
    """
    try:
        data = to_bytes(nn)
    except WeightsFileError as e:
        raise WeightsFileError("cannot write %s: %s" % (path, e)) from None
    target = resolve_output(path)
    with signals_held():
        try:
            mode = os.stat(target).st_mode & 0o7777
        except OSError:
            umask = os.umask(0)   # the only way to read the umask is to set it
            os.umask(umask)
            mode = 0o666 & ~umask
        tmp = None
        try:
            fd, tmp = tempfile.mkstemp(TEMP_SUFFIX, TEMP_PREFIX, _folder(target))
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())   # on disk before the rename makes it visible
            os.chmod(tmp, mode)        # mkstemp made it private (0600)
            os.replace(tmp, target)
        except BaseException as e:
            if tmp is not None:
                os.unlink(tmp)
            if isinstance(e, OSError):
                raise WeightsFileError("cannot write %s: %s" % (path, e.strerror)) from None
            raise


class signals_held:
    """Context manager: stop signals wait until the block is left.

    Where the platform cannot block signals (Windows), it does nothing.
    """

    def __enter__(self):
        self.old = None
        if hasattr(signal, "pthread_sigmask"):
            self.old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)

    def __exit__(self, *exc):
        if self.old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.old)
