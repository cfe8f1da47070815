"""The weights file (weights.py): the C's layout, any hidden size, checked
loading, and bytes that are never made of what cannot be loaded again."""

import os
import random
import struct
import unittest

from ttt_rl import connect4
from ttt_rl import game as tic_tac_toe
from ttt_rl.nn import init_neural_network
from ttt_rl.weights import (MAX_HIDDEN_SIZE, FileError, file_size, from_parameters,
                            layout, load, parameters, rules_of, to_bytes, to_float32)

from .helpers import C_FILE, TempDirTest, read


def save(net, path):
    """Write `net` as a weights file (the commands use lab/files.py)."""
    with open(path, "wb") as f:
        f.write(to_bytes(net))


def distinct_network():
    """A network whose parameter k is k / 4: exact in float32, easy to find."""
    return from_parameters([k / 4 for k in range(2809)])


class FileLayoutTest(TempDirTest):
    """A file is the parameters as little-endian float32, in the C struct's order."""

    def read_float(self, data, index):
        return struct.unpack_from("<f", data, 4 * index)[0]

    def test_known_values_at_known_offsets(self):
        net = distinct_network()
        self.assertEqual(net.w_ih[3][7], (3 * 100 + 7) / 4)
        data = to_bytes(net)
        self.assertEqual((len(data), file_size()), (11236, 11236))
        self.assertEqual(self.read_float(data, 3 * 100 + 7), net.w_ih[3][7])
        self.assertEqual(self.read_float(data, 1800 + 42 * 9 + 5), net.w_ho[42][5])
        self.assertEqual(self.read_float(data, 2700 + 99), net.b_h[99])
        self.assertEqual(self.read_float(data, 2800 + 8), net.b_o[8])
        self.assertEqual(data[4:8], struct.pack("<f", 0.25))   # little-endian

    def test_c_file_round_trip_is_bit_exact(self):
        save(load(C_FILE), self.path("w.bin"))
        self.assertEqual(read(self.path("w.bin")), read(C_FILE))

    def test_the_hidden_size_is_read_from_the_file_size(self):
        # --hidden N: the same layout with N in place of 100.
        net = init_neural_network(random.Random(2), hidden_size=25)
        save(net, self.path("small.bin"))
        self.assertEqual(os.path.getsize(self.path("small.bin")), file_size(25))
        self.assertEqual(file_size(25), 4 * (28 * 25 + 9))
        loaded = load(self.path("small.bin"))
        self.assertEqual((len(loaded.w_ih), len(loaded.w_ih[0]), len(loaded.w_ho),
                          len(loaded.b_h), len(loaded.b_o)), (18, 25, 25, 25, 9))
        self.assertEqual(parameters(loaded), [to_float32(w) for w in parameters(net)])

    def test_the_size_tells_the_game(self):
        # Connect four: 84 inputs, 7 outputs, the same layout; no size is both games'.
        net = init_neural_network(random.Random(3), 12, connect4)
        save(net, self.path("c4.bin"))
        self.assertEqual(os.path.getsize(self.path("c4.bin")), 4 * (92 * 12 + 7))
        self.assertEqual(file_size(12, connect4), 4 * (92 * 12 + 7))
        loaded = load(self.path("c4.bin"))
        self.assertIs(rules_of(loaded), connect4)
        self.assertEqual((len(loaded.w_ih), len(loaded.w_ho[0]), len(loaded.b_o)), (84, 7, 7))
        self.assertIs(rules_of(load(C_FILE)), tic_tac_toe)
        sizes = {file_size(h) for h in range(1, MAX_HIDDEN_SIZE + 1)}
        self.assertFalse(sizes & {file_size(h, connect4) for h in range(1, MAX_HIDDEN_SIZE + 1)})

    def test_a_value_head_is_one_output_more_and_a_colliding_size_loads_as_the_older(self):
        net = init_neural_network(random.Random(3), 12, connect4, value_head=True)
        save(net, self.path("v.bin"))
        self.assertEqual(os.path.getsize(self.path("v.bin")), file_size(12, connect4, 8))
        self.assertEqual(file_size(12, connect4, 8), 4 * (93 * 12 + 8))
        loaded = load(self.path("v.bin"))
        self.assertEqual((rules_of(loaded), loaded.moves, len(loaded.b_o)), (connect4, 7, 8))
        # 93 x 91 + 8 = 92 x 92 + 7, and 93 x 25 + 8 = 28 x 83 + 9: the older layout wins.
        self.assertEqual(layout(file_size(91, connect4, 8)), (connect4, 7, 92))
        self.assertEqual(layout(file_size(25, connect4, 8)), (tic_tac_toe, 9, 83))
        self.assertEqual(layout(file_size(150, connect4, 8)), (connect4, 8, 150))

    def test_saving_rounds_to_float32(self):
        # A file holds each parameter as to_float32 rounds it.
        net = init_neural_network(random.Random(6))
        save(net, self.path("w.bin"))
        saved = parameters(load(self.path("w.bin")))
        self.assertEqual(saved, [to_float32(w) for w in parameters(net)])
        self.assertNotEqual(saved, parameters(net))   # rounding changed some

    def test_to_float32_rounds_to_the_nearest_float32(self):
        self.assertEqual(to_float32(0.1), 0.10000000149011612)
        self.assertEqual(to_float32(0.25), 0.25)                 # exact: kept
        self.assertEqual(to_float32(1 + 2 ** -24), 1.0)          # halfway: to even
        self.assertEqual(to_float32(1 + 3 * 2 ** -25), 1 + 2 ** -23)
        # Why the C's percentages print otherwise in float64: 0.15 is 0.1499... there,
        # 0.150000006 in float32.
        self.assertEqual(("%.1f" % 0.15, "%.1f" % to_float32(0.15)), ("0.1", "0.2"))


class LoadTest(TempDirTest):
    """A file that is missing, of a size that fits no network, or not finite is refused."""

    def write(self, data):
        with open(self.path("w.bin"), "wb") as f:
            f.write(data)

    def assert_load_error(self, pattern, path=None):
        with self.assertRaisesRegex(FileError, pattern):
            load(path or self.path("w.bin"))

    def test_bad_files(self):
        self.assert_load_error("cannot read .*: No such file", self.path("missing"))
        self.assert_load_error("cannot read .*: Is a directory", self.tmp)
        for size in (0, 1000, 11237, 11236 + 4, 4 * 9):
            self.write(b"\0" * size)
            self.assert_load_error("not a weights file: its %d bytes fit no net \\(the C's has "
                                   "11236; " % size)
        # Past the largest --hidden: refused at once, not evaluated for minutes.
        too_large = file_size(MAX_HIDDEN_SIZE + 1)
        self.write(b"\0" * too_large)
        self.assert_load_error("not a weights file: its %d bytes fit no net" % too_large)

    def test_missing_is_told_apart(self):
        with self.assertRaises(FileError) as caught:
            load(self.path("missing"))
        self.assertTrue(caught.exception.missing)

    def test_non_finite_weights(self):
        for bad in (float("nan"), float("inf"), -float("inf")):
            values = [0.0] * 2809
            values[1234] = bad
            self.write(struct.pack("<2809f", *values))
            self.assert_load_error("parameter 1234 is (nan|inf|-inf)")


class ToBytesTest(unittest.TestCase):
    """to_bytes never makes a file that cannot be loaded again."""

    def test_non_finite_or_huge_weights_are_refused(self):
        for bad in (1e300, float("inf"), float("nan")):
            net = distinct_network()
            net.w_ho[3][2] = bad
            with self.assertRaisesRegex(FileError, "not a finite float32 .*learning rate"):
                to_bytes(net)


if __name__ == "__main__":
    unittest.main()
