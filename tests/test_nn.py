import math
import os
import random
import struct
import tempfile
import unittest
from unittest import mock

from ttt_rl import nn as nnmod
from ttt_rl.game import board_to_inputs
from ttt_rl.nn import (FILE_SIZE, NeuralNetwork, WeightsFileError, backprop,
                       best_legal_move, forward_pass, from_parameters,
                       init_neural_network, load, parameters, relu, save,
                       softmax)

from .helpers import DATA
from .oracle import OracleNet, forward_pass as oracle_forward


class SoftmaxTest(unittest.TestCase):
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

    def test_relu(self):
        self.assertEqual([relu(x) for x in (-2.0, 0.0, 3.5)], [0.0, 0.0, 3.5])


def tiny_network():
    """2 inputs, 2 hidden units, 2 outputs, with easy numbers."""
    return NeuralNetwork(w_ih=[[1.0, -2.0], [0.5, 1.0]], w_ho=[[2.0, -1.0], [3.0, 1.0]],
                         b_h=[0.25, 0.5], b_o=[0.0, 1.0])


class ForwardPassTest(unittest.TestCase):
    def test_hand_computed_tiny_case(self):
        net = tiny_network()
        forward_pass(net, [1.0, 0.0])
        # hidden sums: 0.25 + 1.0 = 1.25 and 0.5 - 2.0 = -1.5 -> ReLU: 1.25, 0
        self.assertEqual(net.active, [0])
        self.assertEqual(net.hidden, [1.25])
        # logits: 0 + 1.25 * 2 = 2.5 and 1 + 1.25 * -1 = -0.25
        self.assertEqual(net.raw_logits, [2.5, -0.25])
        e = math.exp(-2.75)
        self.assertAlmostEqual(net.outputs[0], 1 / (1 + e), places=15)
        self.assertAlmostEqual(net.outputs[1], e / (1 + e), places=15)

    def test_no_active_hidden_unit_gives_softmax_of_biases(self):
        net = tiny_network()
        net.b_h = [-10.0, -10.0]
        forward_pass(net, [1.0, 1.0])
        self.assertEqual(net.active, [])
        self.assertEqual(net.raw_logits, [0.0, 1.0])

    def test_matches_dense_c_loops_on_real_boards(self):
        rng = random.Random(11)
        net = init_neural_network(rng)
        oracle = OracleNet(net)
        for text in ("." * 9, "X" + "." * 8, "XO..X...O", "XOXOXO..."):
            inputs = board_to_inputs(list(text))
            forward_pass(net, inputs)
            oracle_forward(oracle, inputs)
            for p, q in zip(net.outputs, oracle.outputs):
                self.assertAlmostEqual(p, q, delta=1e-12)
            dense = [0.0] * 100
            for i, h in zip(net.active, net.hidden):
                dense[i] = h
            self.assertEqual(len(net.active), sum(h > 0 for h in oracle.hidden))
            for a, b in zip(dense, oracle.hidden):
                self.assertAlmostEqual(a, b, delta=1e-12)

    def test_precomputed_sums_give_the_same_pass(self):
        net = init_neural_network(random.Random(2))
        inputs = board_to_inputs(list("X...O...."))
        forward_pass(net, inputs)
        expected = net.outputs
        forward_pass(net, inputs, nnmod.hidden_sums(net, [0, 9]))
        self.assertEqual(net.outputs, expected)

    def test_best_legal_move_skips_occupied_and_prefers_first_on_ties(self):
        board = list("X...O....")
        probs = [0.9, 0.0, 0.02, 0.02, 0.06, 0.0, 0.0, 0.0, 0.0]
        self.assertEqual(best_legal_move(board, probs), 2)
        self.assertEqual(best_legal_move(list("XOXOXOXO."), [0.0] * 9), 8)
        self.assertEqual(best_legal_move(list("XOXOXOXOX"), [0.1] * 9), -1)


def cross_entropy(net, inputs, target, scale):
    forward_pass(net, inputs)
    return -scale * sum(t * math.log(p) for t, p in zip(target, net.outputs) if t)


class BackpropTest(unittest.TestCase):
    """backprop's step must be learning_rate * gradient of |reward| * loss."""

    def check_against_finite_differences(self, board, target, reward):
        net = init_neural_network(random.Random(5))
        inputs = board_to_inputs(board)
        before = parameters(net)
        forward_pass(net, inputs)
        backprop(net, target, 0.1, reward)
        step = [(a - b) / 0.1 for a, b in zip(before, parameters(net))]
        eps = 1e-6
        checked = nonzero = 0
        for index in range(0, len(before), 7):   # a spread of every layer
            plus, minus = list(before), list(before)
            plus[index] += eps
            minus[index] -= eps
            grad = (cross_entropy(from_parameters(plus), inputs, target, abs(reward))
                    - cross_entropy(from_parameters(minus), inputs, target, abs(reward))
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

    def test_untouched_weights_stay_bit_identical(self):
        net = init_neural_network(random.Random(8))
        forward_pass(net, board_to_inputs(list("X........")))
        w_ih_before = [list(r) for r in net.w_ih]
        inactive = [i for i in range(100) if i not in net.active]
        w_ho_before = [list(net.w_ho[i]) for i in inactive]
        backprop(net, [1.0] + [0.0] * 8, 0.1, 1.0)
        self.assertEqual(net.w_ih[1:], w_ih_before[1:])   # input 0 is the only 1
        self.assertEqual([net.w_ho[i] for i in inactive], w_ho_before)
        self.assertNotEqual(net.w_ih[0], w_ih_before[0])


def distinct_network():
    """A network whose parameter k is k / 4: exact in float32, easy to find."""
    return from_parameters([k / 4 for k in range(2809)])


class WeightsFileTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "w.bin")

    def tearDown(self):
        self.tmp.cleanup()

    def read_float(self, data, index):
        return struct.unpack_from("<f", data, 4 * index)[0]

    def test_layout_known_values_at_known_offsets(self):
        net = distinct_network()
        self.assertEqual(net.w_ih[3][7], (3 * 100 + 7) / 4)
        save(net, self.path)
        with open(self.path, "rb") as f:
            data = f.read()
        self.assertEqual(len(data), 11236)
        self.assertEqual(FILE_SIZE, 11236)
        self.assertEqual(self.read_float(data, 3 * 100 + 7), net.w_ih[3][7])
        self.assertEqual(self.read_float(data, 1800 + 42 * 9 + 5), net.w_ho[42][5])
        self.assertEqual(self.read_float(data, 2700 + 99), net.b_h[99])
        self.assertEqual(self.read_float(data, 2800 + 8), net.b_o[8])
        self.assertEqual(data[4:8], struct.pack("<f", 0.25))   # little-endian

    def test_round_trip_is_bit_exact(self):
        src = os.path.join(DATA, "c_trained.bin")
        save(load(src), self.path)
        with open(src, "rb") as a, open(self.path, "rb") as b:
            self.assertEqual(a.read(), b.read())

    def test_save_rounds_to_float32(self):
        net = init_neural_network(random.Random(1))
        save(net, self.path)
        loaded = parameters(load(self.path))
        for a, b in zip(parameters(net), loaded):
            self.assertEqual(b, struct.unpack("<f", struct.pack("<f", a))[0])

    def write(self, data):
        with open(self.path, "wb") as f:
            f.write(data)

    def assert_load_error(self, pattern, path=None):
        with self.assertRaisesRegex(WeightsFileError, pattern):
            load(path or self.path)

    def test_bad_files(self):
        self.assert_load_error("cannot read .*: No such file", self.path + ".missing")
        self.assert_load_error("cannot read .*: Is a directory", self.tmp.name)
        self.write(b"")
        self.assert_load_error("expected exactly 11236 bytes .* it is empty")
        self.write(b"\0" * 1000)
        self.assert_load_error("truncated to 1000 bytes")
        self.write(b"\0" * 11237)
        self.assert_load_error("it has 11237 bytes")

    def test_non_finite_weights(self):
        for bad in (float("nan"), float("inf"), -float("inf")):
            values = [0.0] * 2809
            values[1234] = bad
            self.write(struct.pack("<2809f", *values))
            self.assert_load_error("parameter 1234 is (nan|inf|-inf)")

    def test_failed_save_keeps_old_file_and_leaves_no_temp(self):
        save(distinct_network(), self.path)
        with open(self.path, "rb") as f:
            original = f.read()
        huge = distinct_network()
        huge.b_o[0] = 1e300   # does not fit a float32
        with self.assertRaisesRegex(WeightsFileError, "too large for float32"):
            save(huge, self.path)
        with mock.patch("os.replace", side_effect=OSError(28, "No space left on device")):
            with self.assertRaisesRegex(WeightsFileError, "No space left"):
                save(init_neural_network(random.Random(1)), self.path)
        with mock.patch("os.replace", side_effect=KeyboardInterrupt):
            with self.assertRaises(KeyboardInterrupt):
                save(init_neural_network(random.Random(1)), self.path)
        with open(self.path, "rb") as f:
            self.assertEqual(f.read(), original)
        self.assertEqual(os.listdir(self.tmp.name), ["w.bin"])

    def test_output_problem(self):
        self.assertIsNone(nnmod.output_problem(self.path))
        self.assertIn("does not exist",
                      nnmod.output_problem(os.path.join(self.tmp.name, "no", "x.bin")))
        self.assertIn("is a directory", nnmod.output_problem(self.tmp.name))
        self.assertIn("not a regular file", nnmod.output_problem(os.devnull))

    def test_save_never_replaces_a_device(self):
        with self.assertRaisesRegex(WeightsFileError, "not a regular file"):
            save(distinct_network(), os.devnull)
        self.assertFalse(os.path.isfile(os.devnull))

    def test_save_into_missing_folder(self):
        with self.assertRaisesRegex(WeightsFileError, "cannot write"):
            save(distinct_network(), os.path.join(self.tmp.name, "no", "w.bin"))


class InitTest(unittest.TestCase):
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
