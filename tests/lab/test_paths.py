"""Where a path leads (lab/paths.py): output paths checked before any work,
without side effects; links followed only as the kernel allows."""

import os
import shutil
import subprocess
import unittest
from unittest import mock

from ttt_rl.lab import paths
from ttt_rl.lab.folder import FS_APPEND_FL
from ttt_rl.lab.files import replace_file
from ttt_rl.lab.paths import FileError, check_output
from ttt_rl.weights import FILE_SIZE

from ..helpers import TempDirTest, read
from .test_files import IS_ROOT, write


def run_or_skip(test, command, undo):
    """Run a root-only shell `command` (a list) or skip `test`; undo it at the end."""
    done = subprocess.run(command, capture_output=True) if shutil.which(command[0]) else None
    if done is None or done.returncode != 0:
        test.skipTest("%s is not possible here" % " ".join(command[:2]))
    test.addCleanup(subprocess.run, undo, capture_output=True)


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
            proc = self.start_module("train", "10", "/dev/stdout", "--seed", "1", stdout=f)
            proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 0)
        self.assertTrue(os.path.islink("/dev/stdout"))
        self.assertEqual(os.path.getsize(self.path("out.bin")), FILE_SIZE)
        proc = self.start_module("train", "10", "/dev/stdout", "--seed", "1")
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
        with self.assertRaisesRegex(FileError, "another user's link"):
            check_output(os.path.join(shared, "w.bin"))
        self.assertEqual(read(self.path("victim")), b"old")

    def test_a_real_append_only_file_is_refused(self):
        # chattr +a: the rename over it would fail after training.
        write(self.path("w.bin"))
        run_or_skip(self, ["chattr", "+a", self.path("w.bin")], ["chattr", "-a", self.path("w.bin")])
        with self.assertRaisesRegex(FileError, "append-only"):
            check_output(self.path("w.bin"))

    def test_another_users_file_in_a_sticky_folder_is_refused(self):
        # Renaming over it fails (EPERM) unless we own it or the folder.
        shared = self.path("shared")
        os.mkdir(shared)
        os.chmod(shared, 0o1777)
        write(os.path.join(shared, "w.bin"))
        someone_else = os.stat(shared).st_uid + 1
        with mock.patch.object(paths, "_euid", return_value=someone_else):
            with self.assertRaisesRegex(FileError, "another user in a sticky folder"):
                check_output(os.path.join(shared, "w.bin"))
            check_output(os.path.join(shared, "new.bin"))   # a new file is fine

    def test_append_only_file_is_refused(self):
        write(self.path("w.bin"))
        with mock.patch.object(paths, "flags", return_value=FS_APPEND_FL):
            with self.assertRaisesRegex(FileError, "append-only"):
                check_output(self.path("w.bin"))


@unittest.skipUnless(IS_ROOT, "needs root to plant another user's links")
class PlantedLinkTest(TempDirTest):
    """Links that another user planted in a sticky world-writable folder are
    not followed, wherever they stand in the path: as the kernel's
    protected_symlinks rule, and here also where that sysctl is off."""

    def setUp(self):
        super().setUp()
        self.shared = self.path("shared")
        os.mkdir(self.shared)
        os.chmod(self.shared, 0o1777)
        write(self.path("victim"), b"root only")
        os.mkdir(self.path("private"))

    def plant(self, name, target):
        link = os.path.join(self.shared, name)
        os.symlink(target, link)
        os.lchown(link, 54321, 54321)
        return link

    def test_a_chain_through_a_planted_link(self):
        planted = self.plant("evil", self.path("victim"))
        os.symlink(planted, self.path("mine.bin"))   # our own link, to theirs
        with self.assertRaisesRegex(FileError, "another user's link"):
            check_output(self.path("mine.bin"))
        self.assertEqual(read(self.path("victim")), b"root only")

    def test_a_planted_link_in_the_folder_part(self):
        self.plant("dir", self.path("private"))
        with self.assertRaisesRegex(FileError, "another user's link"):
            check_output(os.path.join(self.shared, "dir", "w.bin"))
        self.assertEqual(os.listdir(self.path("private")), [])

    def test_our_own_links_are_followed(self):
        os.symlink(self.path("private"), os.path.join(self.shared, "ours"))
        target = os.path.join(self.shared, "ours", "w.bin")
        self.assertEqual(check_output(target), target)


class BackupPathTest(TempDirTest):
    """The backup's name is checked before any work, and named when refused."""

    @unittest.skipUnless(IS_ROOT, "needs root to give files away")
    def test_another_users_backup_in_a_sticky_folder(self):
        shared = self.path("shared")
        os.mkdir(shared)
        os.chmod(shared, 0o1777)
        for name, owner in (("w.bin", 1000), ("w.bin.bak", 54321)):
            write(os.path.join(shared, name))
            os.chown(os.path.join(shared, name), owner, owner)
        with mock.patch.object(paths, "_euid", return_value=1000):   # we own w.bin only
            with self.assertRaisesRegex(FileError, "cannot keep the old file as .*w.bin.bak: "
                                                   "it belongs to another user"):
                check_output(os.path.join(shared, "w.bin"))

    def test_an_immutable_backup(self):
        write(self.path("w.bin"))
        bak = self.path("w.bin.bak")
        write(bak)
        run_or_skip(self, ["chattr", "+i", bak], ["chattr", "-i", bak])
        with self.assertRaisesRegex(FileError, "cannot keep the old file as .*w.bin.bak: it is "
                                               "append-only or immutable"):
            check_output(self.path("w.bin"))


if __name__ == "__main__":
    unittest.main()
