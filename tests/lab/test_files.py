"""Safe files (lab/files.py): atomic replacement with a backup; owner, mode,
ACL and extended attributes kept; no temporary file left."""

import os
import shutil
import signal
import stat
import subprocess
import unittest
from unittest import mock

from ttt_rl.lab.interrupt import Stopped
from ttt_rl.lab.files import FileError, replace_file, signals_held


from ..helpers import TempDirTest, read

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def write(path, data=b"old"):
    with open(path, "wb") as f:
        f.write(data)


class ReplaceFileTest(TempDirTest):
    """The target is the old file or the new one, never a mix; no temp file is left."""

    def test_new_file_follows_the_umask_and_old_mode_is_kept(self):
        target = self.path("w.bin")
        replace_file(target, b"one")
        umask = os.umask(0)
        os.umask(umask)
        self.assertEqual(stat.S_IMODE(os.stat(target).st_mode), 0o666 & ~umask)
        os.chmod(target, 0o640)
        self.assertEqual(replace_file(target, b"two"), target + ".bak")
        self.assertEqual(stat.S_IMODE(os.stat(target).st_mode), 0o640)
        self.assertEqual((read(target), read(target + ".bak")), (b"two", b"one"))

    def test_the_backup_is_replaced_by_the_previous_file_only(self):
        target = self.path("w.bin")
        for data in (b"1", b"2", b"3"):
            replace_file(target, data)
        self.assertEqual((read(target), read(target + ".bak")), (b"3", b"2"))
        replace_file(target, b"4", keep_backup=False)
        self.assertEqual((read(target), read(target + ".bak")), (b"4", b"2"))

    @unittest.skipUnless(IS_ROOT, "needs root to give a file away")
    def test_owner_is_kept(self):
        target = self.path("w.bin")
        write(target)
        os.chown(target, 54321, 54322)
        replace_file(target, b"new")
        info = os.stat(target)
        self.assertEqual((info.st_uid, info.st_gid), (54321, 54322))

    def test_failures_keep_the_old_file_and_leave_no_temp(self):
        target = self.path("w.bin")
        write(target)
        for name, error in (("os.fsync", OSError(5, "Input/output error")),
                            ("os.replace", OSError(28, "No space left on device"))):
            with mock.patch(name, side_effect=error):
                with self.assertRaisesRegex(FileError, error.strerror):
                    replace_file(target, b"new", keep_backup=False)
        with mock.patch("os.replace", side_effect=KeyboardInterrupt):
            with self.assertRaises(KeyboardInterrupt):
                replace_file(target, b"new", keep_backup=False)
        self.assertEqual(read(target), b"old")
        self.assertEqual(os.listdir(self.tmp), ["w.bin"])

    @unittest.skipUnless(hasattr(signal, "pthread_sigmask"), "signals cannot be held here")
    def test_a_signal_during_the_replace_lands_after_it(self):
        target = self.path("w.bin")
        write(target)
        real_replace = os.replace

        def replace_then_signal(src, dst, **kw):
            os.kill(os.getpid(), signal.SIGTERM)   # arrives mid-save
            real_replace(src, dst, **kw)

        def stop(signum, frame):
            raise Stopped(signum)

        previous = signal.signal(signal.SIGTERM, stop)
        self.addCleanup(signal.signal, signal.SIGTERM, previous)
        reached = []
        with self.assertRaises(Stopped):
            with signals_held():
                with mock.patch("os.replace", replace_then_signal):
                    replace_file(target, b"new", keep_backup=False)
                reached.append(True)   # the signal waited for the save
        self.assertEqual(reached, [True])
        self.assertEqual(read(target), b"new")
        self.assertEqual(os.listdir(self.tmp), ["w.bin"])



class ExclusiveTest(TempDirTest):
    """Every file the save makes is new: a link planted at a temporary name
    is never written through, and permissions never widen."""

    def test_a_link_at_the_temporary_name_is_not_followed(self):
        write(self.path("victim"), b"keep")
        write(self.path("w.bin"))
        os.symlink(self.path("victim"), self.path(".ttt_nn.planted.tmp"))
        names = iter(["planted", "fresh1", "fresh2", "fresh3"])
        with mock.patch("secrets.token_hex", lambda n: next(names)), \
                mock.patch("os.link", side_effect=OSError(1, "no hard links here")):
            replace_file(self.path("w.bin"), b"new")   # the copy fallback, too
        self.assertEqual(read(self.path("victim")), b"keep")
        self.assertEqual((read(self.path("w.bin")), read(self.path("w.bin.bak"))),
                         (b"new", b"old"))

    def test_mode_xattrs_and_acl_are_kept_in_the_file_and_its_copied_backup(self):
        target = self.path("w.bin")
        write(target)
        os.chmod(target, 0o640)
        try:
            os.setxattr(target, "user.note", b"mine")
        except (OSError, AttributeError):
            self.skipTest("no extended attributes here")
        acl = shutil.which("setfacl") and subprocess.run(
            ["setfacl", "-m", "u:54321:r", target], capture_output=True).returncode == 0
        before = os.stat(target).st_mode
        with mock.patch("os.link", side_effect=OSError(1, "no hard links here")):
            replace_file(target, b"new")
        for path in (target, target + ".bak"):
            self.assertEqual(os.stat(path).st_mode, before, path)
            self.assertEqual(os.getxattr(path, "user.note"), b"mine", path)
            if acl:
                self.assertIn("user:54321:r", subprocess.run(
                    ["getfacl", "-c", path], capture_output=True, text=True).stdout)


if __name__ == "__main__":
    unittest.main()
