"""The network: 18 inputs, 100 ReLU hidden units, 9 softmax outputs.

A network is a function from a board to 9 probabilities, one per cell: how
much it wants to play there. Here it is nothing but lists of floats and the
arithmetic on them: no files, no games, no printing.

Ports init_neural_network, softmax, forward_pass, get_computer_move and
backprop from antirez's ttt.c; its relu and relu_derivative are written
inline (a comparison with 0 each). The C computes in float32, Python in
float64; docs/c-port.md says where that shows and how the port keeps the
C's digits.

Connect four (connect4.py, the C README's first question) uses the same
code on an 84-H-7 net: the sizes come from the game; nothing else changes.
Expert iteration's net (expert_iteration.py) has one output more, a value:
AlphaZero's second head (Silver et al., Science 2018) on the same hidden
layer, v = tanh(z_7), the expected result for the player to move.
"""

import math
import operator

from . import game as tic_tac_toe
from .game import EMPTY, INPUT_SIZE, OUTPUT_SIZE

# The sizes of the C's net; the input and output sizes are the game's (game.py, connect4.py).
HIDDEN_SIZE = 100  # 2809 parameters in all: 18 x 100 + 100 x 9 + 100 + 9
INIT_RANGE = 0.5   # initial weights are uniform in [-INIT_RANGE, INIT_RANGE)


class NeuralNetwork:
    """The parameters, and the activations of the last forward_pass.

    Parameters (the C struct's arrays, as lists of rows; H hidden units):
      w_ih[j][i]  weight from input j to hidden unit i   W_ih: 18 x H
      w_ho[i][k]  weight from hidden unit i to output k  W_ho: H x 9
      b_h, b_o    hidden and output biases               H and 9
    Activations of the last forward_pass, which backprop reads: hidden (H
    values after ReLU), raw_logits (9), outputs (9 probabilities), and the
    indices of the inputs that are 1 and of the hidden units above 0
    (active_inputs, active_hidden). `moves` is the number of move outputs
    (9, or connect four's 7); a net with one output more has a value head:
    its last logit z gives value = tanh(z) (else value is None).
    """

    def __init__(self, w_ih, w_ho, b_h, b_o, moves=None):
        self.w_ih, self.w_ho, self.b_h, self.b_o = w_ih, w_ho, b_h, b_o
        self.moves = len(b_o) if moves is None else moves
        self.hidden, self.raw_logits, self.outputs, self.value = [], [], [], None
        self.active_inputs, self.active_hidden = [], []


def init_neural_network(rng, hidden_size=HIDDEN_SIZE, rules=tic_tac_toe, value_head=False):
    """Return a NeuralNetwork with every parameter uniform in [-0.5, 0.5).

    Takes a random.Random, the number of hidden units and the game's rules
    (game.py, or connect4.py for an 84-H-7 net: the sizes come from its
    INPUT_SIZE and OUTPUT_SIZE), and draws from rng in the C's order: w_ih,
    w_ho, b_h, b_o (C: init_neural_network). Like the C, this skips the He
    initialization usually paired with ReLU, to keep the example plain.
    With value_head, one output more (84-H-8), and w_ho scaled by
    sqrt(25 / H), b_o set to 0 (a research prototype's choice): the output
    sums, over about H / 2 active units, start as small as with 25 units, so
    the tanh of the value starts unsaturated (its slope 1 - v^2 not near 0).
    """
    def draw(n, scale=1.0):
        return [(rng.random() * 2 * INIT_RANGE - INIT_RANGE) * scale for _ in range(n)]

    outputs = rules.OUTPUT_SIZE + value_head
    scale = math.sqrt(25 / hidden_size) if value_head else 1.0
    w_ih = [draw(hidden_size) for _ in range(rules.INPUT_SIZE)]
    w_ho = [draw(outputs, scale) for _ in range(hidden_size)]
    b_h = draw(hidden_size)
    b_o = [0.0] * outputs if value_head else draw(outputs)
    return NeuralNetwork(w_ih, w_ho, b_h, b_o, rules.OUTPUT_SIZE)


def softmax(logits):
    """Turn scores into probabilities (C: softmax).

    Takes a list of floats; returns as many floats in [0, 1] summing to 1.
    If the sum is not positive (possible only with NaN or infinite logits)
    the result falls back to uniform, as in the C.
    """
    # exp() of a large logit overflows; subtracting the largest first keeps
    # every exp() in (0, 1] and does not change the ratios.
    top = max(logits)
    exps = [math.exp(z - top) for z in logits]
    # Added one by one in the C's order, not with sum() (see docs/c-port.md).
    total = 0.0
    for e in exps:
        total += e
    if total > 0.0:
        return [e / total for e in exps]
    return [1.0 / len(logits)] * len(logits)


def forward_pass(net, inputs):
    """Run the network on a board (C: forward_pass).

    Takes the network and its 18 inputs (floats, each 0.0 or 1.0, from
    game.board_to_inputs; connect four's 84, from connect4.board_to_inputs).
    Returns nothing: the activations go in `net` (see NeuralNetwork);
    net.outputs holds 9 probabilities summing to 1 (connect four: 7), and
    net.value, with a value head, tanh of the last logit, in (-1, 1).

    With H hidden units, x the inputs (18), h the hidden layer (H), z the
    logits (9) and p the probabilities (9):
        h = relu(x W_ih + b_h)     W_ih: 18 x H, b_h: H
        z = h W_ho + b_o           W_ho: H x 9,  b_o: 9
        p = softmax(z)
    The loops below compute the same sums, skipping the zeros: an input is
    0 or 1, and a hidden unit that ReLU zeroed adds nothing.
    """
    # 1. Hidden sums, x W_ih + b_h: start from the biases and add the row of
    # each input that is 1 (at most 9 of the 18 rows).
    net.active_inputs = [j for j, x in enumerate(inputs) if x]
    sums = net.b_h
    for j in net.active_inputs:
        sums = list(map(operator.add, sums, net.w_ih[j]))
    # 2. ReLU, max(0, s): the non-linearity (without it the two layers would
    # collapse into one linear map). Units above 0 are the active ones.
    net.hidden = [s if s > 0.0 else 0.0 for s in sums]
    net.active_hidden = [i for i, h in enumerate(net.hidden) if h]
    # 3. Logits, h W_ho + b_o: only the active units add something.
    logits = list(net.b_o)
    for i in net.active_hidden:
        h, row = net.hidden[i], net.w_ho[i]
        for k in range(len(logits)):
            logits[k] += h * row[k]
    net.raw_logits = logits
    # 4. Softmax: 9 probabilities (connect four: 7; the value's logit is not a move).
    net.outputs = softmax(logits[:net.moves])
    # 5. The value head, if any: v = tanh(z), the result the net expects for the
    # player to move, from -1 (a loss) to +1 (a win).
    if len(logits) > net.moves:
        net.value = math.tanh(logits[net.moves])


def best_move(scores, board=None):
    """Return the cell (0-8) with the highest of 9 `scores` among the empty
    cells of `board` (any cell if board is None); on equal scores the lowest
    cell, as with the C's strict >; -1 if no cell is empty. With connect
    four's 7 scores, the open column (0-6): its top cell, cell `column` of
    the board, is the one tested (connect4.py says why). The net's choice
    rule, used by get_computer_move, by ttt-play's grid for its `*`
    (play.format_probabilities) and by the README's chart (bench/svg.py)."""
    best = -1
    for cell, score in enumerate(scores):
        if (board is None or board[cell] == EMPTY) and (best == -1 or score > scores[best]):
            best = cell
    return best


def get_computer_move(net, board, rules=tic_tac_toe):
    """Return the network's move on `board`: the empty cell (0-8) with the
    highest probability, or -1 on a full board.

    Takes the network, a board (9 cells, see game.py) and the rules (game.py;
    with connect4.py, a board of 42 cells and a move that is an open column,
    0-6). On equal
    probabilities the lowest cell wins, as with the C's strict >. The
    probabilities stay in net.outputs (ttt-play prints them).
    C: get_computer_move, without its printing.
    """
    forward_pass(net, rules.board_to_inputs(board))
    # No sampling: the net always plays its favourite legal move. Occupied
    # cells get some probability too (the net computes a score for every
    # cell), but the rules are applied here: they are never chosen.
    return best_move(net.outputs, board)


def backprop(net, target_probs, learning_rate, reward_scaling, outputs=None,
             value_target=None):
    """One gradient step towards `target_probs` (C: backprop).

    Takes the network right after forward_pass, 9 targets, the learning
    rate (> 0) and a reward whose size scales the step (its sign is already
    in the targets). `outputs` are the values compared with the targets:
    net.outputs (the probabilities) by default, as in the C; qlearn.py
    passes the logits. A net with a value head may take value_target, y in
    [-1, 1], the value's target (expert_iteration.py). Updates the weights
    in place; returns nothing.

    With r the reward scaling, t the targets and lr the learning rate:
        delta_o = |r| (p - t)                      9
        (value head: delta_o, one more: |r| (v - y)(1 - v^2))
        delta_h = (W_ho delta_o) * [h > 0]         H   ([h > 0]: ReLU's slope)
        W_ho -= lr * h (x) delta_o,  b_o -= lr * delta_o
        W_ih -= lr * x (x) delta_h,  b_h -= lr * delta_h
    ((x): outer product.) Weights of inactive inputs and units, and of
    outputs whose delta is 0, stay as they are: they are multiplied by 0.
    """
    # LEARNING OPPORTUNITY (softmax + cross-entropy): for the loss
    # -sum(t * log p), with targets that sum to 1, the gradient with respect
    # to each logit is p - t, so the loss itself is never computed: only its
    # slope is needed. (learn.py's all-zero target is no such loss: p - t
    # = p pushes every logit down; learn.py says when, and the C never does.)
    # Goodfellow, Bengio and Courville, "Deep Learning", 6.2.2 and 6.5.
    scale = abs(reward_scaling)
    outputs = net.outputs if outputs is None else outputs
    output_deltas = [(p - t) * scale for p, t in zip(outputs, target_probs)]
    # AlphaZero's loss adds the value's squared error to the cross-entropy: here
    # (v - y)^2 / 2, weighted 1. Its slope for the value's logit z, through the tanh
    # (dv/dz = 1 - v^2), is (v - y)(1 - v^2): one more output delta, one backprop.
    if value_target is not None:
        v = net.value
        output_deltas.append((v - value_target) * (1.0 - v * v) * scale)
    # A delta of 0 moves no weight (w - 0 x h = w, exactly): visit only the
    # others, as (k, delta): all 9 for the C's rule, 1 for Q-learning's.
    nonzero = [(k, d) for k, d in enumerate(output_deltas) if d]
    # delta_h: each active unit's share of the error, sent back through its
    # weights before any weight moves; inactive units get none (slope 0).
    hidden_deltas = []
    for i in net.active_hidden:
        error, row = 0.0, net.w_ho[i]
        for k, d in nonzero:
            error += d * row[k]
        hidden_deltas.append(error)
    # Every update below is the same rule: weight -= lr x delta x the input
    # that weight saw (1 for a bias).
    output_steps = [(k, learning_rate * d) for k, d in nonzero]
    hidden_steps = [learning_rate * d for d in hidden_deltas]
    # Output layer: its inputs are the hidden values h; h = 0 moves nothing.
    for i in net.active_hidden:
        h, row = net.hidden[i], net.w_ho[i]
        for k, s in output_steps:
            row[k] -= s * h
    for k, s in output_steps:
        net.b_o[k] -= s
    # Hidden layer: its inputs are 0 or 1, so the rows of the inputs that
    # are 1 move by the step itself, in the active units' columns.
    for j in net.active_inputs:
        row = net.w_ih[j]
        for i, s in zip(net.active_hidden, hidden_steps):
            row[i] -= s
    for i, s in zip(net.active_hidden, hidden_steps):
        net.b_h[i] -= s
