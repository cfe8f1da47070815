"""The save (lab/files.py): atomic, the old weights kept as NAME.bak, a non-weights file never
replaced, the folder tried before any work, the data kept beside when the rename is refused;
and how to make a missing weights file."""

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
        # Both get a new file's mode under the umask, not mkstemp's owner-only 0600.
        umask = os.umask(0o027)
        try:
            with saving(target) as save:
                save(new_net())
        finally:
            os.umask(umask)
        for name in ("net.bin", "net.bin.bak"):
            self.assertEqual(os.stat(self.path(name)).st_mode & 0o777, 0o640, name)

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

    def test_a_link_planted_at_a_temporary_name_is_never_followed(self):
        # Another account that can write in the folder plants links at the names the save
        # once used (NAME.PID.tmp, NAME.bak.PID.tmp) and at a few likely ones.
        target, outside = self.copy_of_c_file("net.bin"), self.path("outside")
        os.mkdir(outside)
        victim = os.path.join(outside, "victim")
        with open(victim, "wb") as f:
            f.write(b"mine")
        for name in ("net.bin.%d.tmp" % os.getpid(), "net.bin.bak.%d.tmp" % os.getpid()):
            os.symlink(victim, self.path(name))
        for _ in range(3):
            with saving(target) as save:
                save(new_net())
        self.assertEqual(read(victim), b"mine")
        self.assertEqual(read(target), to_bytes(new_net()))

    def test_a_save_works_after_a_refused_one(self):
        target = self.copy_of_c_file("net.bin")
        with mock.patch("os.replace", side_effect=OSError(errno.EBUSY, "busy")):
            with self.assertRaises(FileError):
                with saving(target) as save:
                    save(new_net(1))
        with saving(target) as save:
            self.assertEqual(save(new_net(2)), " (the old file is now %s.bak)" % target)
        self.assertEqual(read(target), to_bytes(new_net(2)))
        self.assertEqual(read(target + ".bak"), read(C_FILE))

    def test_leaving_without_saving_removes_the_temporary_file(self):
        with self.assertRaises(KeyboardInterrupt):
            with saving(self.path("x.bin")):
                raise KeyboardInterrupt   # a second Ctrl-C during training
        self.assertEqual(os.listdir(self.tmp), [])


class LoadTest(TempDirTest):

    def test_a_missing_file_says_how_to_make_one(self):
        self.copy_of_c_file("good.bin")
        for name in ("good.bni", "nothing-like-it.bin"):
            with self.assertRaisesRegex(FileError, r"cannot read .*%s: .*; train one first: "
                                                   r"`ttt-train 200 --method policy-iteration`"
                                        % name):
                load_weights(self.path(name))
