"""An open folder (lab/folder.py): mount points, even with escaped names."""

import shutil
import subprocess
import unittest

from ttt_rl.lab import folder
from ttt_rl.lab.paths import FileError, check_output

from ..helpers import TempDirTest
from .test_files import IS_ROOT, write


class MountTest(TempDirTest):

    def test_mount_points_with_escaped_names(self):
        # mountinfo writes a space as \040: "my file.bin" is "my\040file.bin".
        self.assertEqual(folder._unescape(b"/a/my\\040file\\011x\\134y"), b"/a/my file\tx\\y")
        write(self.path("my file.bin"))
        write(self.path("host.bin"))
        done = subprocess.run(["mount", "--bind", self.path("host.bin"), self.path("my file.bin")],
                              capture_output=True) if shutil.which("mount") and IS_ROOT else None
        if done is None or done.returncode != 0:
            self.skipTest("mount --bind is not possible here")
        self.addCleanup(subprocess.run, ["umount", self.path("my file.bin")])
        with self.assertRaisesRegex(FileError, "mount point"):
            check_output(self.path("my file.bin"))


if __name__ == "__main__":
    unittest.main()
