"""The save (lab/files.py): atomic, the old weights kept as NAME.bak, a non-weights file never
replaced, the folder tried before any work, the data kept beside when the rename is refused;
and "did you mean" for a missing weights file."""

import errno
import os
import random
from unittest import mock

from ttt_rl.lab.files import load_weights, saving
from ttt_rl.nn import init_neural_network
from ttt_rl.weights import FileError, to_bytes

from ..helpers import C_FILE, TempDirTest, read


def new_net(seed=1):
    return init_neural_network(random.Random(seed))


class SaveTest(TempDirTest):

    def test_a_save_keeps_the_old_weights_as_bak_and_leaves_no_temporary_file(self):
        target = self.copy_of_c_file("net.bin")
        old = read(target)
        with saving(target) as save:
            save(new_net())
        self.assertEqual(read(target), to_bytes(new_net()))
        self.assertEqual(read(target + ".bak"), old)
        self.assertEqual(sorted(os.listdir(self.tmp)), ["net.bin", "net.bin.bak"])

    def test_a_new_file_has_no_backup(self):
        with saving(self.path("new.bin")) as save:
            save(new_net())
        self.assertEqual(os.listdir(self.tmp), ["new.bin"])

    def test_a_file_that_is_not_weights_is_refused_before_any_work(self):
        target = self.path("notes.txt")
        with open(target, "w") as f:
            f.write("my notes\n")
        with self.assertRaisesRegex(FileError, "notes.txt is not a weights file.*not replaced"):
            with saving(target):
                self.fail("the block must not run")
        self.assertEqual(read(target), b"my notes\n")
        self.assertEqual(os.listdir(self.tmp), ["notes.txt"])

    def test_an_empty_file_may_be_replaced(self):
        open(self.path("empty.bin"), "w").close()
        with saving(self.path("empty.bin")) as save:
            save(new_net())
        self.assertEqual(len(read(self.path("empty.bin"))), 11236)

    def test_the_folder_is_tried_for_real(self):
        os.mkdir(self.path("real"))
        for target in ("nosuch/x.bin", "nosuch/../x.bin", "real"):
            with self.assertRaises(FileError, msg=target):
                with saving(self.path(target)):
                    self.fail("the block must not run")
        self.assertEqual(os.listdir(self.tmp), ["real"])

    def test_a_refused_rename_keeps_the_net_in_the_named_file(self):
        target = self.copy_of_c_file("net.bin")
        real_replace = os.replace

        def refuse(src, dst):
            if dst == target:
                raise OSError(errno.EBUSY, os.strerror(errno.EBUSY))
            real_replace(src, dst)
        with mock.patch("os.replace", refuse):
            with self.assertRaises(FileError) as caught:
                with saving(target) as save:
                    save(new_net())
        message = str(caught.exception)
        kept = message.rsplit(" ", 1)[1]
        self.assertIn("cannot replace %s" % target, message)
        self.assertEqual(read(kept), to_bytes(new_net()))
        self.assertEqual(read(target), read(C_FILE))

    def test_leaving_without_saving_removes_the_temporary_file(self):
        with self.assertRaises(KeyboardInterrupt):
            with saving(self.path("x.bin")):
                raise KeyboardInterrupt   # a second Ctrl-C during training
        self.assertEqual(os.listdir(self.tmp), [])


class LoadTest(TempDirTest):

    def test_did_you_mean(self):
        self.copy_of_c_file("good.bin")
        with self.assertRaisesRegex(FileError, r"cannot read .*good.bni: .*; did you mean "
                                               r".*good.bin\?$"):
            load_weights(self.path("good.bni"))
        with self.assertRaisesRegex(FileError, "make net"):
            load_weights(self.path("nothing-like-it.bin"))
