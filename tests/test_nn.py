"""The network (nn.py): softmax, forward pass, move choice, backprop, init."""

import math
import random
import unittest

from ttt_rl import connect4
from ttt_rl.game import board_to_inputs
from ttt_rl.nn import (NeuralNetwork, backprop, forward_pass, get_computer_move,
                       init_neural_network, softmax)
from ttt_rl.weights import from_parameters, parameters

from .oracle import OracleNet, forward_pass as oracle_forward


class SoftmaxTest(unittest.TestCase):
    """softmax gives probabilities that keep the logits' order and ratios."""

    def test_sums_to_one_and_keeps_order(self):
        probs = softmax([1.0, 2.0, 3.0, -1.0])
        self.assertAlmostEqual(sum(probs), 1.0, places=15)
        self.assertEqual(sorted(range(4), key=probs.__getitem__), [3, 0, 1, 2])
        self.assertAlmostEqual(probs[2] / probs[1], math.e, places=12)

    def test_survives_huge_logits(self):
        probs = softmax([1000.0, 1000.0, -1000.0, 999.0])
        self.assertAlmostEqual(sum(probs), 1.0, places=15)
        self.assertAlmostEqual(probs[0], probs[1], places=15)
        self.assertEqual(probs[2], 0.0)
        self.assertAlmostEqual(probs[3], probs[0] / math.e, places=12)

    def test_nan_falls_back_to_uniform(self):
        self.assertEqual(softmax([float("nan")] * 3), [1 / 3] * 3)


def tiny_network():
    """2 inputs, 2 hidden units, 2 outputs, with easy numbers."""
    return NeuralNetwork(w_ih=[[1.0, -2.0], [0.5, 1.0]], w_ho=[[2.0, -1.0], [3.0, 1.0]],
                         b_h=[0.25, 0.5], b_o=[0.0, 1.0])


class ForwardPassTest(unittest.TestCase):
    """forward_pass computes relu(b + W x), then softmax(b + W h), as the C does."""

    def test_hand_computed_tiny_case(self):
        net = tiny_network()
        forward_pass(net, [1.0, 0.0])
        # hidden sums: 0.25 + 1.0 = 1.25 and 0.5 - 2.0 = -1.5 -> ReLU: 1.25, 0
        self.assertEqual(net.active_inputs, [0])
        self.assertEqual(net.active_hidden, [0])
        self.assertEqual(net.hidden, [1.25, 0.0])
        # logits: 0 + 1.25 * 2 = 2.5 and 1 + 1.25 * -1 = -0.25
        self.assertEqual(net.raw_logits, [2.5, -0.25])
        e = math.exp(-2.75)
        self.assertAlmostEqual(net.outputs[0], 1 / (1 + e), places=15)
        self.assertAlmostEqual(net.outputs[1], e / (1 + e), places=15)

    def test_no_active_hidden_unit_gives_softmax_of_biases(self):
        net = tiny_network()
        net.b_h = [-10.0, -10.0]
        forward_pass(net, [1.0, 1.0])
        self.assertEqual(net.active_hidden, [])
        self.assertEqual(net.hidden, [0.0, 0.0])
        self.assertEqual(net.raw_logits, [0.0, 1.0])

    def test_matches_dense_c_loops_on_real_boards(self):
        # The sparse pass adds in the C's order, so it equals the dense
        # loop-by-loop transcription bit for bit.
        net = init_neural_network(random.Random(11))
        oracle = OracleNet(net)
        for text in ("." * 9, "X" + "." * 8, "XO..X...O", "XOXOXO...", "XOXXOOOX."):
            inputs = board_to_inputs(list(text))
            forward_pass(net, inputs)
            oracle_forward(oracle, inputs)
            self.assertEqual(net.hidden, oracle.hidden, text)
            self.assertEqual(net.outputs, oracle.outputs, text)
            self.assertEqual(net.active_hidden, [i for i, h in enumerate(oracle.hidden) if h])


class GetComputerMoveTest(unittest.TestCase):
    """The net plays its most probable empty cell; ties go to the lowest."""

    def net_preferring(self, logits):
        # No hidden unit is ever active, so the logits are the output biases.
        return NeuralNetwork([[0.0]] * 18, [[0.0] * 9], [-1.0], list(logits))

    def test_skips_occupied_cells(self):
        net = self.net_preferring([9.0, 0.0, 2.0, 2.0, 5.0, 0.0, 0.0, 0.0, 0.0])
        self.assertEqual(get_computer_move(net, list("X...O....")), 2)   # 0 and 4 taken
        self.assertEqual(get_computer_move(net, list(".........")), 0)

    def test_ties_and_full_board(self):
        net = self.net_preferring([0.0] * 9)
        self.assertEqual(get_computer_move(net, list("XOXOXOXO.")), 8)
        self.assertEqual(get_computer_move(net, list("XOX.XO...")), 3)
        self.assertEqual(get_computer_move(net, list("XOXOXOXOX")), -1)


def cross_entropy(net, inputs, target, scale):
    forward_pass(net, inputs)
    return -scale * sum(t * math.log(p) for t, p in zip(target, net.outputs) if t)


class BackpropTest(unittest.TestCase):
    """backprop steps by learning_rate times the gradient of |reward| * cross-entropy."""

    def check_against_finite_differences(self, board, target, reward, loss=None, stride=7):
        loss = loss or cross_entropy
        net = init_neural_network(random.Random(5))
        inputs = board_to_inputs(board)
        before = parameters(net)
        forward_pass(net, inputs)
        if loss is cross_entropy:
            backprop(net, target, 0.1, reward)
        else:   # Q-learning's use: the logits against targets
            backprop(net, target(net.raw_logits), 0.1, reward, outputs=net.raw_logits)
        step = [(a - b) / 0.1 for a, b in zip(before, parameters(net))]
        eps = 1e-6
        checked = nonzero = 0
        for index in range(0, len(before), stride):   # a spread of every layer
            plus, minus = list(before), list(before)
            plus[index] += eps
            minus[index] -= eps
            grad = (loss(from_parameters(plus), inputs, target, abs(reward))
                    - loss(from_parameters(minus), inputs, target, abs(reward))
                    ) / (2 * eps)
            self.assertAlmostEqual(step[index], grad, delta=1e-6, msg=index)
            checked += 1
            nonzero += abs(grad) > 1e-6
        self.assertGreater(nonzero, 30)   # the comparison saw real gradients
        return checked

    def test_positive_reward(self):
        board = list("X...O...X")
        target = [0.0] * 9
        target[2] = 1.0
        self.check_against_finite_differences(board, target, 0.75)

    def test_negative_reward_spreads_target(self):
        board = list("XX..O....")
        target = [0.0] * 9
        for cell in (3, 5, 6, 7, 8):
            target[cell] = 0.2
        self.check_against_finite_differences(board, target, -1.5)

    def test_one_logit_towards_a_value(self):
        # Q-learning: only logit 6 has a target, 0.4; the loss is (z6 - 0.4)^2 / 2.
        def one_changed(logits):
            return logits[:6] + [0.4] + logits[7:]

        def squared_error(net, inputs, target, scale):
            forward_pass(net, inputs)
            return scale * (net.raw_logits[6] - 0.4) ** 2 / 2
        # Fewer weights move (one output's column), so more are sampled.
        self.check_against_finite_differences(list("X...O...."), one_changed, 1.0,
                                              loss=squared_error, stride=2)

    def test_the_value_head_adds_its_squared_error(self):
        # Expert iteration's net, 84-H-8: the loss is the policy's cross-entropy over the 7
        # columns plus (v - z)^2 / 2, v = tanh(z_7); one backprop steps down both.
        net = init_neural_network(random.Random(6), 6, connect4, value_head=True)
        board = connect4.init_game()
        for column in (3, 3, 2):
            connect4.play_move(board, column, connect4.to_move(board))
        inputs, target, z = connect4.board_to_inputs(board), [0, 0, 0.5, 0, 0.5, 0, 0], -1.0

        def loss(flat):
            other = from_parameters(flat, connect4, 8)
            return cross_entropy(other, inputs, target, 1.0) + (other.value - z) ** 2 / 2
        before = parameters(net)
        forward_pass(net, inputs)
        self.assertEqual((len(net.outputs), net.value), (7, math.tanh(net.raw_logits[7])))
        backprop(net, target, 0.1, 1.0, value_target=z)
        step = [(a - b) / 0.1 for a, b in zip(before, parameters(net))]
        nonzero = 0
        for index in range(len(before)):   # every parameter
            plus, minus = list(before), list(before)
            plus[index] += 1e-6
            minus[index] -= 1e-6
            grad = (loss(plus) - loss(minus)) / 2e-6
            self.assertAlmostEqual(step[index], grad, delta=1e-6, msg=index)
            nonzero += abs(grad) > 1e-6
        self.assertGreater(nonzero, 30)

    def test_untouched_weights_stay_bit_identical(self):
        net = init_neural_network(random.Random(8))
        forward_pass(net, board_to_inputs(list("X........")))
        w_ih_before = [list(r) for r in net.w_ih]
        inactive = [i for i in range(100) if i not in net.active_hidden]
        w_ho_before = [list(net.w_ho[i]) for i in inactive]
        backprop(net, [1.0] + [0.0] * 8, 0.1, 1.0)
        self.assertEqual(net.w_ih[1:], w_ih_before[1:])   # input 0 is the only 1
        self.assertEqual([net.w_ho[i] for i in inactive], w_ho_before)
        self.assertNotEqual(net.w_ih[0], w_ih_before[0])


class InitTest(unittest.TestCase):
    """Initial weights are uniform in [-0.5, 0.5) and depend only on the seed."""

    def test_uniform_in_range_and_seeded(self):
        a = parameters(init_neural_network(random.Random(4)))
        b = parameters(init_neural_network(random.Random(4)))
        self.assertEqual(a, b)
        self.assertEqual(len(a), 2809)
        self.assertTrue(all(-0.5 <= w < 0.5 for w in a))
        self.assertAlmostEqual(sum(a) / len(a), 0.0, delta=0.03)
        self.assertGreater(max(a), 0.49)
        self.assertLess(min(a), -0.49)


if __name__ == "__main__":
    unittest.main()
