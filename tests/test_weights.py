"""The weights file (weights.py): layout, round trip, checks, safe saving."""

import os
import random
import stat
import struct
import tempfile
import unittest
from unittest import mock

from ttt_rl.nn import init_neural_network
from ttt_rl.weights import (FILE_SIZE, WeightsFileError, as_saved, from_parameters, load,
                            parameters, resolve_output, save)

from .helpers import DATA


def distinct_network():
    """A network whose parameter k is k / 4: exact in float32, easy to find."""
    return from_parameters([k / 4 for k in range(2809)])


class WeightsFileTest(unittest.TestCase):
    """A file is 2809 little-endian float32 in the C's order; bad files are refused."""

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
        self.assert_load_error("it has more than 11236 bytes")

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

    def test_resolve_output_refuses_what_cannot_be_written(self):
        # Each of these used to pass the early check and fail after training.
        self.assertEqual(resolve_output(self.path), self.path)
        self.assertEqual(os.listdir(self.tmp.name), [])   # the probe left nothing
        for path, reason in (("", "empty"),
                             (self.path + "/", "cannot end with"),
                             (os.path.join(self.tmp.name, "x" * 300), "too long"),
                             (os.path.join(self.tmp.name, "no", "..", "x.bin"), "does not exist"),
                             (os.path.join(self.tmp.name, "no", "x.bin"), "does not exist"),
                             (self.tmp.name, "is a directory"),
                             (os.devnull, "not a regular file")):
            with self.assertRaisesRegex(WeightsFileError, reason, msg=path):
                resolve_output(path)
        self.assertEqual(os.listdir(self.tmp.name), [])

    def test_a_symlink_is_followed_and_kept(self):
        real = os.path.join(self.tmp.name, "real.bin")
        save(distinct_network(), real)
        os.symlink("real.bin", self.path)
        save(init_neural_network(random.Random(3)), self.path)
        self.assertTrue(os.path.islink(self.path))
        self.assertEqual(load(real).b_o, load(self.path).b_o)
        self.assertNotEqual(load(real).b_o, distinct_network().b_o)

    def test_existing_mode_is_kept_and_new_files_follow_the_umask(self):
        save(distinct_network(), self.path)
        umask = os.umask(0)
        os.umask(umask)
        self.assertEqual(stat.S_IMODE(os.stat(self.path).st_mode), 0o666 & ~umask)
        os.chmod(self.path, 0o640)
        save(distinct_network(), self.path)
        self.assertEqual(stat.S_IMODE(os.stat(self.path).st_mode), 0o640)

    def test_failed_fsync_keeps_old_file(self):
        save(distinct_network(), self.path)
        with mock.patch("os.fsync", side_effect=OSError(5, "Input/output error")):
            with self.assertRaisesRegex(WeightsFileError, "Input/output error"):
                save(init_neural_network(random.Random(1)), self.path)
        self.assertEqual(load(self.path).b_o, distinct_network().b_o)
        self.assertEqual(os.listdir(self.tmp.name), ["w.bin"])

    def test_as_saved_is_what_the_file_holds(self):
        net = init_neural_network(random.Random(6))
        save(net, self.path)
        self.assertEqual(parameters(as_saved(net)), parameters(load(self.path)))
        self.assertNotEqual(parameters(as_saved(net)), parameters(net))   # rounded

    def test_save_never_replaces_a_device(self):
        with self.assertRaisesRegex(WeightsFileError, "not a regular file"):
            save(distinct_network(), os.devnull)
        self.assertFalse(os.path.isfile(os.devnull))

    def test_save_into_missing_folder(self):
        with self.assertRaisesRegex(WeightsFileError, "cannot write"):
            save(distinct_network(), os.path.join(self.tmp.name, "no", "w.bin"))


