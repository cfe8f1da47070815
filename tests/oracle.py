"""A deliberately plain transcription of the C network, for differential tests.

Every loop runs over every input, hidden unit and output, in the order of
ttt.c, with no sparsity or reuse. It is slow and obviously faithful; the
product (src/ttt_rl) must play the same games and reach the same weights.
The weights are kept in the C's flat layout (index j*H + i).
"""

import math

from ttt_rl.game import EMPTY, O, TIE, X, board_to_inputs, check_game_over, get_random_move

N_IN, N_HID, N_OUT = 18, 100, 9
LEARNING_RATE = 0.1


class OracleNet:
    """Flat C-layout copy of a ttt_rl NeuralNetwork."""

    def __init__(self, net):
        self.w_ih = [w for row in net.w_ih for w in row]
        self.w_ho = [w for row in net.w_ho for w in row]
        self.b_h = list(net.b_h)
        self.b_o = list(net.b_o)
        self.inputs = [0.0] * N_IN
        self.hidden = [0.0] * N_HID
        self.outputs = [0.0] * N_OUT

    def flat(self):
        return self.w_ih + self.w_ho + self.b_h + self.b_o


def forward_pass(net, inputs):
    net.inputs = list(inputs)
    for i in range(N_HID):
        total = net.b_h[i]
        for j in range(N_IN):
            total += inputs[j] * net.w_ih[j * N_HID + i]
        net.hidden[i] = total if total > 0 else 0.0
    logits = [0.0] * N_OUT
    for i in range(N_OUT):
        logits[i] = net.b_o[i]
        for j in range(N_HID):
            logits[i] += net.hidden[j] * net.w_ho[j * N_OUT + i]
    top = logits[0]
    for i in range(1, N_OUT):
        if logits[i] > top:
            top = logits[i]
    total = 0.0
    for i in range(N_OUT):
        net.outputs[i] = math.exp(logits[i] - top)
        total += net.outputs[i]
    for i in range(N_OUT):
        net.outputs[i] /= total


def get_computer_move(net, board):
    forward_pass(net, board_to_inputs(board))
    best, best_prob = -1, -1.0
    for i in range(9):
        if board[i] == EMPTY and (best == -1 or net.outputs[i] > best_prob):
            best, best_prob = i, net.outputs[i]
    return best


def backprop(net, target, learning_rate, reward_scaling):
    out_d = [0.0] * N_OUT
    hid_d = [0.0] * N_HID
    for i in range(N_OUT):
        out_d[i] = (net.outputs[i] - target[i]) * abs(reward_scaling)
    for i in range(N_HID):
        error = 0.0
        for j in range(N_OUT):
            error += out_d[j] * net.w_ho[i * N_OUT + j]
        hid_d[i] = error * (1.0 if net.hidden[i] > 0 else 0.0)
    for i in range(N_HID):
        for j in range(N_OUT):
            net.w_ho[i * N_OUT + j] -= learning_rate * out_d[j] * net.hidden[i]
    for j in range(N_OUT):
        net.b_o[j] -= learning_rate * out_d[j]
    for i in range(N_IN):
        for j in range(N_HID):
            net.w_ih[i * N_HID + j] -= learning_rate * hid_d[j] * net.inputs[i]
    for j in range(N_HID):
        net.b_h[j] -= learning_rate * hid_d[j]


def learn_from_game(net, history, winner):
    reward = 0.3 if winner == TIE else (1.0 if winner == O else -2.0)
    for move_idx in range(len(history)):
        if move_idx % 2 != 1:
            continue
        board = [EMPTY] * 9
        for i in range(move_idx):
            board[history[i]] = X if i % 2 == 0 else O
        forward_pass(net, board_to_inputs(board))
        move = history[move_idx]
        scaled = reward * (0.5 + 0.5 * move_idx / len(history))
        target = [0.0] * 9
        if scaled >= 0:
            target[move] = 1.0
        else:
            other = 1.0 / (9 - move_idx - 1)
            for i in range(9):
                if board[i] == EMPTY and i != move:
                    target[i] = other
        backprop(net, target, LEARNING_RATE, scaled)


def play_random_game(net, rng):
    """Returns (winner, history), like ttt_rl.train.play_random_game."""
    board = [EMPTY] * 9
    history = []
    player = 0
    while check_game_over(board) is None:
        if player == 0:
            move = get_random_move(board, rng)
        else:
            move = get_computer_move(net, board)
        board[move] = X if player == 0 else O
        history.append(move)
        player = 1 - player
    winner = check_game_over(board)
    learn_from_game(net, history, winner)
    return winner, history
