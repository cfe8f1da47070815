"""The 18-100-9 neural network: forward pass, backprop, and its weights file.

The network reads a board (18 inputs, see game.board_to_inputs), has one
hidden layer of 100 ReLU units, and outputs 9 probabilities, one per cell:
how much it likes playing there. Everything is plain Python lists of floats.

Ports relu, softmax, init_neural_network, forward_pass, get_computer_move and
backprop from antirez's ttt.c, and the save/load functions of the train/play
split. Python floats are 64-bit; the file stores 32-bit floats as the C does.
"""

import math
import operator
import os
import struct
import tempfile

from .game import EMPTY, board_to_inputs

INPUT_SIZE = 18    # 9 cells x 2 inputs (game.board_to_inputs)
HIDDEN_SIZE = 100  # enough to nearly memorize tic-tac-toe's 5478 positions
OUTPUT_SIZE = 9    # one score per cell
LEARNING_RATE = 0.1
INIT_RANGE = 0.5   # initial weights are uniform in [-INIT_RANGE, INIT_RANGE)

# The weights file: every parameter as a little-endian float32, in this order.
PARAM_COUNT = (INPUT_SIZE * HIDDEN_SIZE + HIDDEN_SIZE * OUTPUT_SIZE
               + HIDDEN_SIZE + OUTPUT_SIZE)  # 2809
FILE_FORMAT = "<%df" % PARAM_COUNT
FILE_SIZE = struct.calcsize(FILE_FORMAT)  # 11236 bytes


class NeuralNetwork:
    """The parameters and the last activations of the network (C struct).

    w_ih[j][i]: weight from input j to hidden unit i (C weights_ih[j*H + i]).
    w_ho[j][i]: weight from hidden unit j to output i (C weights_ho[j*O + i]).
    b_h, b_o:   hidden and output biases.
    forward_pass stores what backprop needs, as the C does: active_inputs
    (indices of inputs that are 1), active (indices of hidden units with a
    positive output), hidden (those units' outputs), raw_logits, outputs.
    Sizes come from the lists, so tests can build tiny networks.
    """

    def __init__(self, w_ih, w_ho, b_h, b_o):
        self.w_ih, self.w_ho, self.b_h, self.b_o = w_ih, w_ho, b_h, b_o
        self.set_activations(([], [], [], [], []))

    def activations(self):
        """Return the stored activations, for set_activations later.

        forward_pass builds new lists each time, so what this returns stays
        valid after later passes.
        """
        return (self.active_inputs, self.active, self.hidden,
                self.raw_logits, self.outputs)

    def set_activations(self, saved):
        """Restore activations returned by activations()."""
        (self.active_inputs, self.active, self.hidden,
         self.raw_logits, self.outputs) = saved


def init_neural_network(rng):
    """Return a NeuralNetwork with every parameter uniform in [-0.5, 0.5).

    Takes a random.Random and draws from it in file order: w_ih, w_ho, b_h,
    b_o (C: init_neural_network). Plain uniform weights, not the He
    initialization usually paired with ReLU: at this size it does not matter.
    """
    def draw(n):
        return [rng.random() * 2 * INIT_RANGE - INIT_RANGE for _ in range(n)]

    w_ih = [draw(HIDDEN_SIZE) for _ in range(INPUT_SIZE)]
    w_ho = [draw(OUTPUT_SIZE) for _ in range(HIDDEN_SIZE)]
    return NeuralNetwork(w_ih, w_ho, draw(HIDDEN_SIZE), draw(OUTPUT_SIZE))


def relu(x):
    """Return max(x, 0.0) for a float x (C: relu).

    forward_pass applies it to all 100 sums at once by keeping only the
    units whose sum is positive (nn.active); the C's relu_derivative is the
    same test, 1 for those units and 0 for the rest.
    """
    return x if x > 0.0 else 0.0


def softmax(logits):
    """Turn scores into probabilities (C: softmax).

    Takes a list of floats; returns a list of as many floats in [0, 1]
    summing to 1. The largest logit is subtracted first: exp() of a big
    number overflows, and the shift does not change the result. If the sum
    is not positive (only possible with NaN in the logits) the result falls
    back to uniform, as in the C.
    """
    top = max(logits)
    exps = [math.exp(z - top) for z in logits]
    total = sum(exps)
    if total > 0.0:
        return [e / total for e in exps]
    return [1.0 / len(logits)] * len(logits)


def hidden_sums(nn, active_inputs):
    """Return the hidden pre-activations for the inputs that are 1.

    Takes the network and the indices of the inputs equal to 1.0; returns a
    new list of HIDDEN_SIZE floats: bias + sum of the weights from those
    inputs. This is the C's first forward loop with the zeros skipped.

    LEARNING OPPORTUNITY (sparse inputs): an input of 0 contributes 0 * w,
    and an input of 1 contributes w unchanged. So instead of 18 x 100
    multiply-adds we add one weight row per occupied cell: at most 9 rows,
    no multiplications, and exactly the same numbers.
    """
    sums = list(nn.b_h)
    for j in active_inputs:
        sums = add_input(nn, sums, j)
    return sums


def add_input(nn, sums, j):
    """Return new hidden sums: `sums` (HIDDEN_SIZE floats) plus the weight
    row of input j, i.e. the sums once input j has switched from 0 to 1.
    Part of the C forward_pass, made a step of its own so that training
    can update the sums move by move.
    """
    return list(map(operator.add, sums, nn.w_ih[j]))


def forward_pass(nn, inputs, sums=None):
    """Run the network on `inputs` and store every activation in `nn`.

    Takes 18 floats, each 0.0 or 1.0 (game.board_to_inputs), and optionally
    their hidden pre-activations if the caller already has them (the training
    loop keeps them up to date as moves are made, see train.py). Sets
    nn.active_inputs, nn.active, nn.hidden, nn.raw_logits and nn.outputs (9
    probabilities summing to 1). Returns nothing. C: forward_pass.
    """
    nn.active_inputs = [j for j, x in enumerate(inputs) if x]
    if sums is None:
        sums = hidden_sums(nn, nn.active_inputs)
    # ReLU keeps positive sums and zeroes the rest (about 80 of the 100).
    #
    # LEARNING OPPORTUNITY (sparse activations): a unit whose output is 0
    # adds nothing to the logits, and its ReLU derivative is 0, so backprop
    # neither changes its weights nor sends error through it. Keeping only
    # the active units, as (index, value) pairs, makes everything below about
    # 5x cheaper with the same result: a sparse vector.
    nn.active = [i for i, s in enumerate(sums) if s > 0.0]
    nn.hidden = [sums[i] for i in nn.active]
    # Each logit: its bias plus every active unit's output times its weight.
    # (A plain loop: as fast as any trick on CPython, and PyPy's JIT turns it
    # into machine code, where a zip(*rows) transposition would be 40% slower.)
    logits = list(nn.b_o)
    for i, h in zip(nn.active, nn.hidden):
        row = nn.w_ho[i]
        for k in range(len(logits)):
            logits[k] += h * row[k]
    nn.raw_logits = logits
    nn.outputs = softmax(nn.raw_logits)


def best_legal_move(board, probs):
    """Return the empty cell with the highest probability.

    Takes a board and 9 floats. On equal probabilities the lowest cell wins
    (the C compares with a strict >). Returns -1 on a full board. This is
    the choosing half of C get_computer_move.
    """
    best, best_prob = -1, -1.0
    for cell, p in enumerate(probs):
        if board[cell] == EMPTY and (best == -1 or p > best_prob):
            best, best_prob = cell, p
    return best


def get_computer_move(nn, board):
    """Return the network's move (0-8) on `board`, an unfinished game.

    No sampling: the network plays its most probable legal move, and the
    probabilities stay in nn.outputs for display. C: get_computer_move (the
    printing of the probabilities lives in play.py).
    """
    forward_pass(nn, board_to_inputs(board))
    return best_legal_move(board, nn.outputs)


def backprop(nn, target_probs, learning_rate, reward_scaling):
    """Move the weights so that nn.outputs gets closer to target_probs.

    Takes the network right after forward_pass, 9 target probabilities, the
    learning rate and a reward whose size scales the step (its sign is
    already in the targets). Updates the weights in place, returns nothing.
    C: backprop.
    """
    # LEARNING OPPORTUNITY: with softmax outputs and a cross-entropy loss,
    # the loss gradient with respect to each logit is simply output - target.
    # The loss itself is never computed: we only need its slope.
    scale = abs(reward_scaling)
    deltas = [(p - t) * scale for p, t in zip(nn.outputs, target_probs)]
    # Error reaching each active hidden unit, computed with the old output
    # weights, before any of them move. Inactive units get none (ReLU).
    hidden_deltas = [sum(map(operator.mul, deltas, nn.w_ho[i]))
                     for i in nn.active]
    # Output layer: each weight moves by rate * delta * the input it saw.
    rate_deltas = [learning_rate * d for d in deltas]
    w_ho = nn.w_ho
    for i, h in zip(nn.active, nn.hidden):
        w_ho[i] = [w - g * h for w, g in zip(w_ho[i], rate_deltas)]
    nn.b_o = [b - g for b, g in zip(nn.b_o, rate_deltas)]
    # Hidden layer: only rows of inputs that were 1, only active units.
    steps = [learning_rate * d for d in hidden_deltas]
    for j in nn.active_inputs:
        row = nn.w_ih[j]
        for i, step in zip(nn.active, steps):
            row[i] -= step
    b_h = nn.b_h
    for i, step in zip(nn.active, steps):
        b_h[i] -= step


def to_float32(x):
    """Return the float32 nearest to the float x (as a Python float).

    The C computes in float32; rounding a result this way lets us print
    the same digits it prints.
    """
    return struct.unpack("<f", struct.pack("<f", x))[0]


class WeightsFileError(Exception):
    """A weights file that cannot be read or written; str() says why."""


def parameters(nn):
    """Return all 2809 parameters as one flat list of floats, in the order
    of the C struct's arrays, which is the file order (see save).
    """
    flat = [w for row in nn.w_ih for w in row]
    flat += [w for row in nn.w_ho for w in row]
    return flat + nn.b_h + nn.b_o


def from_parameters(flat):
    """Build a NeuralNetwork from 2809 floats in file order (see parameters)."""
    h_start = INPUT_SIZE * HIDDEN_SIZE
    b_start = h_start + HIDDEN_SIZE * OUTPUT_SIZE
    w_ih = [flat[j:j + HIDDEN_SIZE] for j in range(0, h_start, HIDDEN_SIZE)]
    w_ho = [flat[j:j + OUTPUT_SIZE] for j in range(h_start, b_start, OUTPUT_SIZE)]
    b_h = flat[b_start:b_start + HIDDEN_SIZE]
    return NeuralNetwork(w_ih, w_ho, b_h, flat[b_start + HIDDEN_SIZE:])


def output_problem(path):
    """Return why `path` cannot be written as an output file, or None.

    Checks that its folder exists and is writable, and that `path` is not a
    directory or a device: save renames a finished file over `path`, which
    over /dev/null would replace the device. ttt-train asks before training,
    so that a typo does not cost a long run.
    """
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return "folder %s does not exist" % folder
    if os.path.isdir(path):
        return "%s is a directory" % path
    if os.path.exists(path) and not os.path.isfile(path):
        return "%s is not a regular file" % path
    if not os.access(folder, os.W_OK):
        return "folder %s is not writable" % folder
    return None


def save(nn, path):
    """Write the weights to `path` as 2809 little-endian float32 (11236 bytes).

    The file is written to a temporary file in the same folder and renamed
    over `path` only once complete, so a crash or Ctrl-C never leaves a
    partial file. Raises WeightsFileError (with the reason) on failure.
    """
    try:
        data = struct.pack(FILE_FORMAT, *parameters(nn))
    except OverflowError:
        raise WeightsFileError("%s: a weight is too large for float32" % path)
    problem = output_problem(path)
    if problem:
        raise WeightsFileError("cannot write %s: %s" % (path, problem))
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".ttt_nn.", suffix=".tmp", dir=folder)
    except OSError as e:
        raise WeightsFileError("cannot write %s: %s" % (path, e.strerror))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        # mkstemp makes the file private (0600); give it the usual mode.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException as e:
        os.unlink(tmp)
        if isinstance(e, OSError):
            raise WeightsFileError("cannot write %s: %s" % (path, e.strerror))
        raise


def load(path):
    """Read a weights file written by `ttt-train` or the C `train`.

    Returns a NeuralNetwork. Raises WeightsFileError with a one-line reason
    if the file is missing, unreadable, a directory, not exactly 11236
    bytes, or holds a NaN or infinite weight.
    """
    try:
        with open(path, "rb") as f:
            # Read one byte too many to notice a longer file, but no more:
            # the path might be a huge file or an endless device.
            data = f.read(FILE_SIZE + 1)
            size = os.fstat(f.fileno()).st_size or len(data)
    except OSError as e:
        raise WeightsFileError("cannot read %s: %s" % (path, e.strerror))
    if len(data) != FILE_SIZE:
        if not data:
            problem = "it is empty"
        elif len(data) < FILE_SIZE:
            problem = "it is truncated to %d bytes" % len(data)
        else:
            problem = "it has %d bytes" % size
        raise WeightsFileError("%s is not a weights file: expected exactly %d "
                               "bytes (%d float32), but %s"
                               % (path, FILE_SIZE, PARAM_COUNT, problem))
    flat = list(struct.unpack(FILE_FORMAT, data))
    for index, w in enumerate(flat):
        if not math.isfinite(w):
            raise WeightsFileError("%s is corrupt: parameter %d is %r"
                                   % (path, index, w))
    return from_parameters(flat)
