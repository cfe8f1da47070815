"""Files (lab/files.py): the one save (a new file beside, synced, the old
file's owner, mode and extended attributes, the old file kept as .bak, one
rename) and what it does when the kernel refuses a step; the paths checked
before a run."""

import os
import shutil
import stat
import struct
import subprocess
import unittest
from unittest import mock

from ttt_rl.lab.files import check_output, save
from ttt_rl.weights import FileError

from ..helpers import C_FILE, TempDirTest, read

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
HAS_XATTR = hasattr(os, "setxattr")


def write(path, data=b"old"):
    with open(path, "wb") as f:
        f.write(data)


def umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def default_acl(test, folder, user):
    """Give `folder` a default ACL that grants `user` rwx (setfacl, or the
    kernel's own xattr format), or skip `test`."""
    if shutil.which("setfacl"):
        if subprocess.run(["setfacl", "-d", "-m", "u:%d:rwx" % user, folder],
                          capture_output=True).returncode == 0:
            return
    # struct posix_acl_xattr_header (version 2), then (tag, perm, id) entries:
    # USER_OBJ, USER, GROUP_OBJ, MASK, OTHER.
    entries = ((0x01, 7, -1), (0x02, 7, user), (0x04, 7, -1), (0x10, 7, -1), (0x20, 7, -1))
    value = struct.pack("<I", 2) + b"".join(struct.pack("<HHI", tag, perm, ident & 0xffffffff)
                                             for tag, perm, ident in entries)
    try:
        os.setxattr(folder, "system.posix_acl_default", value)
    except (OSError, AttributeError):
        test.skipTest("no ACLs here")


class SaveTest(TempDirTest):
    """The target is the old file or the new one, never a mix; the old file
    is kept as .bak; no temporary file is left."""

    def assert_only(self, *names):
        self.assertEqual(sorted(os.listdir(self.tmp)), sorted(names))

    def test_a_new_file_follows_the_umask_and_has_no_backup(self):
        target = self.path("w.bin")
        self.assertIsNone(save(target, b"one"))
        self.assertEqual(stat.S_IMODE(os.stat(target).st_mode), 0o666 & ~umask())
        self.assertEqual(read(target), b"one")
        self.assert_only("w.bin")

    def test_the_old_file_is_kept_as_bak_with_its_mode(self):
        target = self.path("w.bin")
        write(target, b"one")
        os.chmod(target, 0o640)
        inode = os.stat(target).st_ino
        self.assertEqual(save(target, b"two"), target + ".bak")
        self.assertEqual(stat.S_IMODE(os.stat(target).st_mode), 0o640)
        self.assertEqual((read(target), read(target + ".bak")), (b"two", b"one"))
        self.assertEqual(os.stat(target + ".bak").st_ino, inode)   # a link, not a copy
        save(target, b"three")   # one backup: the previous file
        self.assertEqual((read(target), read(target + ".bak")), (b"three", b"two"))
        self.assert_only("w.bin", "w.bin.bak")

    def test_a_backup_that_is_already_a_link_of_the_target(self):
        # The rename of a second name over the same file does nothing (and
        # leaves that name): class 10.
        target = self.path("w.bin")
        write(target)
        os.link(target, target + ".bak")
        self.assertEqual(save(target, b"new"), target + ".bak")
        self.assertEqual((read(target), read(target + ".bak")), (b"new", b"old"))
        self.assert_only("w.bin", "w.bin.bak")

    @unittest.skipUnless(IS_ROOT, "needs root to give a file away")
    def test_the_owner_is_kept(self):
        target = self.path("w.bin")
        write(target)
        os.chown(target, 54321, 54322)
        save(target, b"new")
        info = os.stat(target)
        self.assertEqual((info.st_uid, info.st_gid), (54321, 54322))

    @unittest.skipUnless(HAS_XATTR, "no extended attributes here")
    def test_mode_and_xattrs_are_kept_in_the_file_and_its_copied_backup(self):
        target = self.path("w.bin")
        write(target)
        os.chmod(target, 0o604)
        try:
            os.setxattr(target, "user.note", b"mine")
        except OSError:
            self.skipTest("no user extended attributes here")
        with mock.patch("os.link", side_effect=PermissionError(1, "no hard links here")):
            save(target, b"new")
        self.assertEqual(read(target + ".bak"), b"old")
        for path in (target, target + ".bak"):
            self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o604, path)
            self.assertEqual(os.getxattr(path, "user.note"), b"mine", path)
        self.assert_only("w.bin", "w.bin.bak")

    @unittest.skipUnless(HAS_XATTR, "no extended attributes here")
    def test_a_folders_default_acl_does_not_widen_a_replaced_file(self):
        target = self.path("w.bin")
        write(target)
        os.chmod(target, 0o600)
        default_acl(self, self.tmp, 54321)   # new files here grant user 54321 access
        save(target, b"new")
        self.assertNotIn("system.posix_acl_access", os.listxattr(target))
        self.assertEqual(stat.S_IMODE(os.stat(target).st_mode), 0o600)

    def test_a_symlink_stays_and_the_file_it_leads_to_is_replaced(self):
        write(self.path("real.bin"))
        os.symlink("real.bin", self.path("link.bin"))
        self.assertEqual(save(self.path("link.bin"), b"new"), self.path("real.bin.bak"))
        self.assertTrue(os.path.islink(self.path("link.bin")))
        self.assertEqual((read(self.path("real.bin")), read(self.path("real.bin.bak"))),
                         (b"new", b"old"))

    def test_a_refused_rename_keeps_the_data_beside(self):
        target = self.path("ttt_nn.bin")
        write(target)
        write(self.path("ttt_nn-1.bin"), b"someone's")   # never an existing name
        real = os.replace

        def refuse(src, dst, **kwargs):
            if dst == target:
                raise PermissionError(1, "Operation not permitted")
            return real(src, dst, **kwargs)

        with mock.patch("os.replace", refuse):
            with self.assertRaises(FileError) as caught:
                save(target, b"new")
        self.assertEqual(str(caught.exception),
                         "cannot write %s: Operation not permitted; it is kept in %s"
                         % (target, self.path("ttt_nn-2.bin")))
        self.assertEqual(read(target), b"old")
        self.assertEqual(read(self.path("ttt_nn-1.bin")), b"someone's")
        self.assertEqual(read(self.path("ttt_nn-2.bin")), b"new")
        self.assertFalse([n for n in os.listdir(self.tmp) if n.startswith(".ttt_nn.")])

    def test_a_failed_sync_or_a_stop_leaves_no_temporary_file(self):
        target = self.path("w.bin")
        write(target)
        # The first sync fails (the target's disk); the one of the kept file works.
        with mock.patch("os.fsync", side_effect=[OSError(5, "Input/output error"), None]):
            with self.assertRaisesRegex(FileError, "Input/output error; it is kept in "):
                save(target, b"new")
        with mock.patch("os.replace", side_effect=KeyboardInterrupt):
            with self.assertRaises(KeyboardInterrupt):
                save(target, b"new")
        self.assertEqual(read(target), b"old")
        self.assert_only("w.bin", "w-1.bin")

    def test_a_full_disk_beside_sends_the_kept_net_to_the_temporary_folder(self):
        target, elsewhere = self.path("w.bin"), self.path("tmp")
        write(target)
        os.mkdir(elsewhere)
        # The rename is refused; the copy beside hits a full disk at its sync.
        syncs = [None, OSError(28, "No space left on device"), None]
        with mock.patch("os.replace", side_effect=PermissionError(1, "Operation not "
                                                                   "permitted")), \
                mock.patch("os.fsync", side_effect=syncs), \
                mock.patch("tempfile.gettempdir", return_value=elsewhere):
            with self.assertRaisesRegex(FileError, "not permitted; it is kept in .*tmp/w-1.bin$"):
                save(target, b"new")
        self.assertEqual(read(os.path.join(elsewhere, "w-1.bin")), b"new")
        self.assert_only("w.bin", "tmp")   # no empty w-1.bin left beside

    def test_a_file_changed_since_it_was_read_is_not_replaced(self):
        target = self.path("w.bin")
        write(target, b"another session's")
        with self.assertRaisesRegex(FileError, "changed since it was loaded.*; it is kept in "
                                               ".*w-1.bin$"):
            save(target, b"mine", expect=b"what was read")
        self.assertEqual((read(target), read(self.path("w-1.bin"))),
                         (b"another session's", b"mine"))
        self.assertIsNone(save(self.path("gone.bin"), b"mine", expect=b"what was read"))
        self.assertEqual(read(self.path("gone.bin")), b"mine")   # removed meanwhile: anew
        self.assertEqual(save(target, b"mine", expect=b"another session's"), target + ".bak")


class CheckOutputTest(TempDirTest):
    """A path that cannot be replaced is refused before any work, in one
    line; nothing is created; what is there now is returned."""

    def test_refused_paths(self):
        write(self.path("notes.bin"), b"my only copy")
        shutil.copy(C_FILE, self.path("w.bin"))
        write(self.path("w.bin.bak"), b"my only copy")
        os.mkdir(self.path("dir.bin"))
        for path, reason in ((self.path("x.bin") + "/", "cannot end with '/'"),
                             (self.path("no/x.bin"), "No such file or directory"),
                             (self.tmp, "it is a folder"),
                             (os.devnull, "it is not a regular file"),
                             (self.path("notes.bin"), "notes.bin is not a weights file: .*; it "
                                                      "is not replaced: choose another name"),
                             (self.path("w.bin"), "w.bin.bak is not a weights file")):
            with self.assertRaisesRegex(FileError, reason, msg=path) as caught:
                check_output(path)
            self.assertEqual(len(str(caught.exception).splitlines()), 1)
        self.assertEqual(sorted(os.listdir(self.tmp)),
                         ["dir.bin", "notes.bin", "w.bin", "w.bin.bak"])

    def test_returns_what_is_there_now(self):
        self.assertIsNone(check_output(self.path("w.bin")))
        self.assertEqual(os.listdir(self.tmp), [])   # a missing file is not created
        target = shutil.copy(C_FILE, self.path("w.bin"))
        self.assertEqual(check_output(target), read(C_FILE))
        write(self.path("c.csv"), b"games,wins\n")
        self.assertEqual(check_output(self.path("c.csv"), weights=False), None)


if __name__ == "__main__":
    unittest.main()
