"""An open folder (lab/folder.py): mount points, even with escaped names."""

import unittest

from ttt_rl.lab import folder
from ttt_rl.lab.paths import FileError, check_output

from ..helpers import TempDirTest
from .test_files import IS_ROOT, write
from .test_paths import run_or_skip


class MountTest(TempDirTest):

    def test_mount_points_with_escaped_names(self):
        # mountinfo writes a space as \040: "my file.bin" is "my\040file.bin".
        self.assertEqual(folder._unescape(b"/a/my\\040file\\011x\\134y"), b"/a/my file\tx\\y")
        write(self.path("my file.bin"))
        write(self.path("host.bin"))
        # As `docker -v file:file` makes: renaming over it fails with EBUSY.
        if not IS_ROOT:
            self.skipTest("mount --bind needs root")
        run_or_skip(self, ["mount", "--bind", self.path("host.bin"), self.path("my file.bin")],
                    ["umount", self.path("my file.bin")])
        with self.assertRaisesRegex(FileError, "mount point"):
            check_output(self.path("my file.bin"))


if __name__ == "__main__":
    unittest.main()
