"""The network: 18 inputs, 100 ReLU hidden units, 9 softmax outputs.

A network is a function from a board to 9 probabilities, one per cell: how
much it wants to play there. Here it is nothing but lists of floats and the
arithmetic on them: no files, no games, no printing.

Ports init_neural_network, softmax, forward_pass, get_computer_move and
backprop from antirez's ttt.c (relu and relu_derivative are one line each,
inline). The C computes in 32-bit floats, Python in 64-bit: the weights
file, the progress percentages and the probability grid round to float32
where the C's digits matter.
"""

import math
import operator

from .game import EMPTY, board_to_inputs

INPUT_SIZE = 18    # 9 cells x 2 inputs (game.board_to_inputs)
HIDDEN_SIZE = 100  # 2809 parameters in all, against 5478 board positions
OUTPUT_SIZE = 9    # one score per cell
INIT_RANGE = 0.5   # initial weights are uniform in [-INIT_RANGE, INIT_RANGE)


class NeuralNetwork:
    """The parameters, and the activations of the last forward_pass.

    Parameters (the C struct's arrays, as lists of rows):
      w_ih[j][i]  weight from input j to hidden unit i  (C weights_ih[j*H + i])
      w_ho[i][k]  weight from hidden unit i to output k (C weights_ho[i*O + k])
      b_h, b_o    hidden and output biases (one float per unit)
    Activations of the last forward_pass, which backprop reads:
      hidden, outputs               hidden outputs (after ReLU), probabilities
      active_inputs, active_hidden  indices of the inputs that are 1 and of
                                    the hidden units whose output is > 0
      raw_logits                    the outputs before softmax (for a reader;
                                    backprop does not need them)
    Sizes come from the lists: HIDDEN_SIZE by default, any size works.
    """

    def __init__(self, w_ih, w_ho, b_h, b_o):
        self.w_ih, self.w_ho, self.b_h, self.b_o = w_ih, w_ho, b_h, b_o
        self.hidden, self.raw_logits, self.outputs = [], [], []
        self.active_inputs, self.active_hidden = [], []


def init_neural_network(rng, hidden_size=HIDDEN_SIZE):
    """Return a NeuralNetwork with every parameter uniform in [-0.5, 0.5).

    Takes a random.Random and the number of hidden units, and draws from rng
    in the C's order: w_ih, w_ho, b_h, b_o (C: init_neural_network). Like
    the C, this skips the He initialization usually paired with ReLU, to
    keep the example plain.
    """
    def draw(n):
        return [rng.random() * 2 * INIT_RANGE - INIT_RANGE for _ in range(n)]

    w_ih = [draw(hidden_size) for _ in range(INPUT_SIZE)]
    w_ho = [draw(OUTPUT_SIZE) for _ in range(hidden_size)]
    return NeuralNetwork(w_ih, w_ho, draw(hidden_size), draw(OUTPUT_SIZE))


def softmax(logits):
    """Turn scores into probabilities (C: softmax).

    Takes a list of floats; returns as many floats in [0, 1] summing to 1.
    If the sum is not positive (only possible with NaN logits) the result
    falls back to uniform, as in the C.
    """
    # exp() of a large logit overflows; subtracting the largest first keeps
    # every exp() in (0, 1] and does not change the ratios.
    top = max(logits)
    exps = [math.exp(z - top) for z in logits]
    # Added one by one from 0.0, in the C's order. (Not with sum(): since
    # Python 3.12 it compensates rounding errors, which changes the last
    # bits. Floating-point addition is not associative: order is part of
    # a sum, and the same order gives the same file on every Python.)
    total = 0.0
    for e in exps:
        total += e
    if total > 0.0:
        return [e / total for e in exps]
    return [1.0 / len(logits)] * len(logits)


def forward_pass(net, inputs):
    """Run the network on a board (C: forward_pass).

    Takes the network and its 18 inputs (floats, each 0.0 or 1.0, from
    game.board_to_inputs). Stores the activations in `net` (see
    NeuralNetwork); net.outputs holds 9 probabilities summing to 1.
    Returns nothing.
    """
    # 1. Hidden sums: each unit adds its bias and its weighted inputs.
    # Speed: an input is 0 or 1, so instead of 18 x 100 multiply-adds we
    # start from the biases and add the weight row of each input that is 1
    # (at most 9 rows). The rows come in input order, the C's order, so the
    # sums are those of the C's loops computed in float64.
    net.active_inputs = [j for j, x in enumerate(inputs) if x]
    sums = net.b_h
    for j in net.active_inputs:
        sums = list(map(operator.add, sums, net.w_ih[j]))
    # 2. ReLU, max(0, s): the non-linearity (without it the two layers would
    # collapse into one linear map). It keeps the positive sums, the units we
    # call active, and zeroes the others.
    net.active_hidden = [i for i, s in enumerate(sums) if s > 0.0]
    net.hidden = [0.0] * len(sums)
    for i in net.active_hidden:
        net.hidden[i] = sums[i]
    # 3. Logits: each output adds its bias and the hidden outputs times their
    # weights. Speed: a unit that outputs 0 adds nothing, so only the active
    # units are visited, in the C's order.
    logits = list(net.b_o)
    for i in net.active_hidden:
        h, row = net.hidden[i], net.w_ho[i]
        for k in range(len(logits)):
            logits[k] += h * row[k]
    net.raw_logits = logits
    # 4. Softmax: 9 probabilities.
    net.outputs = softmax(logits)


def get_computer_move(net, board):
    """Return the network's move on `board`: the empty cell (0-8) with the
    highest probability, or -1 on a full board.

    Takes the network and a board (9 cells, see game.py). On equal
    probabilities the lowest cell wins, as with the C's strict >. The
    probabilities stay in net.outputs (ttt-play prints them).
    C: get_computer_move, without its printing.
    """
    forward_pass(net, board_to_inputs(board))
    # No sampling: the net always plays its favourite legal move. Occupied
    # cells get some probability too (the net is never told the rules),
    # they are just never chosen.
    best, best_prob = -1, -1.0
    for cell, p in enumerate(net.outputs):
        if board[cell] == EMPTY and (best == -1 or p > best_prob):
            best, best_prob = cell, p
    return best


def backprop(net, target_probs, learning_rate, reward_scaling):
    """One gradient step towards `target_probs` (C: backprop).

    Takes the network right after forward_pass, 9 target probabilities
    (summing to 1, or all 0), the learning rate (> 0) and a reward whose
    size scales the step (its sign is already in the targets). Updates the
    weights in place; returns nothing.
    """
    # LEARNING OPPORTUNITY (softmax + cross-entropy): for the loss
    # -sum(t * log p) the gradient with respect to each logit is simply
    # p - t, so the loss itself is never computed: only its slope is needed.
    # Goodfellow, Bengio and Courville, "Deep Learning", sections 6.2.2 and
    # 6.5, derive it with the rest of backpropagation.
    scale = abs(reward_scaling)
    output_deltas = [(p - t) * scale for p, t in zip(net.outputs, target_probs)]
    # Each hidden unit's share of the error: the output deltas sent back
    # through its weights (before any weight moves), times ReLU's slope,
    # which is 1 for active units and 0 for the rest, so only active units
    # get an error at all.
    hidden_deltas = []
    for i in net.active_hidden:
        error = 0.0
        for d, w in zip(output_deltas, net.w_ho[i]):
            error += d * w
        hidden_deltas.append(error)
    # A step is learning rate x delta. Every update below is the same rule,
    # in place: weight -= step x the input that weight saw (1 for a bias).
    output_steps = [learning_rate * d for d in output_deltas]
    hidden_steps = [learning_rate * d for d in hidden_deltas]
    # Output layer: its inputs are the hidden outputs. Speed: units that
    # output 0 would move by 0, so only the active units' rows are visited.
    for i in net.active_hidden:
        h, row = net.hidden[i], net.w_ho[i]
        for k, s in enumerate(output_steps):
            row[k] -= s * h
    for k, s in enumerate(output_steps):
        net.b_o[k] -= s
    # Hidden layer: its inputs are 0 or 1, so only the rows of inputs that
    # are 1 move, by the step itself, and in them only the active units.
    for j in net.active_inputs:
        row = net.w_ih[j]
        for i, s in zip(net.active_hidden, hidden_steps):
            row[i] -= s
    for i, s in zip(net.active_hidden, hidden_steps):
        net.b_h[i] -= s
