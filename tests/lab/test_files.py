"""Safe files (lab/files.py): output paths checked before any work, without
side effects; atomic replacement with a backup, mode and owner kept."""

import os
import shutil
import signal
import stat
import subprocess
import unittest
from unittest import mock

from ttt_rl.lab import files
from ttt_rl.lab.interrupt import Stopped
from ttt_rl.lab.files import FileError, check_output, replace_file, signals_held

from ttt_rl.weights import FILE_SIZE

from ..helpers import TempDirTest, read, start_module

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def write(path, data=b"old"):
    with open(path, "wb") as f:
        f.write(data)


class CheckOutputTest(TempDirTest):
    """A path that cannot be replaced is refused at once; nothing is created."""

    def test_refused_paths(self):
        write(self.path("a_file"))
        os.mkdir(self.path("b.bin.bak"))
        for path, reason in (("", "empty"),
                             (self.path("w.bin") + "/", "cannot end with"),
                             (self.path("x" * 300), "too long"),
                             (self.path("no/../x.bin"), "does not exist"),
                             (self.path("no/x.bin"), "folder .*no does not exist"),
                             (self.path("a_file/x.bin"), "folder .*a_file is not a folder"),
                             (self.tmp, "is a directory"),
                             (os.devnull, "not a regular file"),
                             (self.path("b.bin"), "cannot keep the old file as .*b.bin.bak")):
            with self.assertRaisesRegex(FileError, reason, msg=path):
                check_output(path)
        self.assertEqual(sorted(os.listdir(self.tmp)), ["a_file", "b.bin.bak"])

    def test_dev_stdout_stays_a_link(self):
        # /dev/stdout is a link to what stdout is: a pipe is refused, a
        # regular file is written through the link, and the link stays.
        if not os.path.islink("/dev/stdout"):
            self.skipTest("/dev/stdout is not a symlink here")
        with open(self.path("out.bin"), "w") as f:
            proc = start_module("train", "10", "/dev/stdout", "--seed", "1", stdout=f)
            proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 0)
        self.assertTrue(os.path.islink("/dev/stdout"))
        self.assertEqual(os.path.getsize(self.path("out.bin")), FILE_SIZE)
        proc = start_module("train", "10", "/dev/stdout", "--seed", "1")
        out, err = proc.communicate(timeout=60)
        self.assertEqual((proc.returncode, out), (1, b""))
        self.assert_one_line(err, "cannot write /dev/stdout")

    def test_a_missing_file_is_not_created(self):
        # Creating and removing it could delete a file another run saved.
        self.assertEqual(check_output(self.path("w.bin")), self.path("w.bin"))
        self.assertEqual(os.listdir(self.tmp), [])

    def test_a_symlink_is_followed_and_kept(self):
        write(self.path("real.bin"))
        os.symlink("real.bin", self.path("link.bin"))
        self.assertEqual(check_output(self.path("link.bin")), self.path("real.bin"))
        replace_file(self.path("link.bin"), b"new")
        self.assertTrue(os.path.islink(self.path("link.bin")))
        self.assertEqual(read(self.path("real.bin")), b"new")

    @unittest.skipUnless(IS_ROOT, "needs root to plant another user's link")
    def test_another_users_link_in_a_sticky_folder_is_not_followed(self):
        # As the kernel's protected_symlinks rule: /tmp-like folders.
        shared = self.path("shared")
        os.mkdir(shared)
        os.chmod(shared, 0o1777)
        write(self.path("victim"))
        os.symlink(self.path("victim"), os.path.join(shared, "w.bin"))
        os.lchown(os.path.join(shared, "w.bin"), 54321, 54321)
        with self.assertRaisesRegex(FileError, "another user's symlink"):
            check_output(os.path.join(shared, "w.bin"))
        self.assertEqual(read(self.path("victim")), b"old")

    def test_a_real_append_only_file_is_refused(self):
        # chattr +a: the rename over it would fail after training.
        write(self.path("w.bin"))
        done = subprocess.run(["chattr", "+a", self.path("w.bin")], capture_output=True) \
            if shutil.which("chattr") else None
        if done is None or done.returncode != 0:
            self.skipTest("chattr +a is not possible here")
        self.addCleanup(subprocess.run, ["chattr", "-a", self.path("w.bin")])
        with self.assertRaisesRegex(FileError, "append-only"):
            check_output(self.path("w.bin"))

    def test_another_users_file_in_a_sticky_folder_is_refused(self):
        # Renaming over it fails (EPERM) unless we own it or the folder.
        shared = self.path("shared")
        os.mkdir(shared)
        os.chmod(shared, 0o1777)
        write(os.path.join(shared, "w.bin"))
        someone_else = os.stat(shared).st_uid + 1
        with mock.patch.object(files, "_euid", return_value=someone_else):
            with self.assertRaisesRegex(FileError, "another user in a sticky folder"):
                check_output(os.path.join(shared, "w.bin"))
            check_output(os.path.join(shared, "new.bin"))   # a new file is fine

    def test_append_only_file_is_refused(self):
        write(self.path("w.bin"))
        with mock.patch.object(files, "_flags", return_value=files.FS_APPEND_FL):
            with self.assertRaisesRegex(FileError, "append-only"):
                check_output(self.path("w.bin"))

    def test_a_real_bind_mount_is_refused(self):
        # As `docker -v file:file` makes: renaming over it fails with EBUSY.
        write(self.path("w.bin"))
        write(self.path("host.bin"))
        done = subprocess.run(["mount", "--bind", self.path("host.bin"), self.path("w.bin")],
                              capture_output=True) if shutil.which("mount") and IS_ROOT else None
        if done is None or done.returncode != 0:
            self.skipTest("mount --bind is not possible here")
        self.addCleanup(subprocess.run, ["umount", self.path("w.bin")])
        with self.assertRaisesRegex(FileError, "mount point"):
            check_output(self.path("w.bin"))

    def test_bind_mounted_file_is_refused(self):
        # /etc/hosts is bind-mounted into most containers; elsewhere a
        # file on another device than its folder is the same case.
        write(self.path("w.bin"))
        info = os.stat(self.path("w.bin"))
        fake = os.stat_result((info.st_mode, info.st_ino, info.st_dev + 1) + tuple(info)[3:])
        with mock.patch.object(files.os, "stat", side_effect=lambda p, *a, **k: (
                fake if p == self.path("w.bin") else os.lstat(p))):
            with self.assertRaisesRegex(FileError, "mount point"):
                check_output(self.path("w.bin"))


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

        def replace_then_signal(src, dst):
            os.kill(os.getpid(), signal.SIGTERM)   # arrives mid-save
            real_replace(src, dst)

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


if __name__ == "__main__":
    unittest.main()
