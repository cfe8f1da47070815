"""An open folder, and what the kernel says of the entries in it.

A Folder is opened once; names inside it are then used relative to it
(the dir_fd of os functions), so that a link swapped in above it later
changes nothing. Here too: inode flags (chattr +i, +a), mount points, and
new files created exclusively. No C counterpart.
"""

import os
import secrets
import struct

try:
    import fcntl
except ImportError:   # Windows
    fcntl = None

TEMP_PREFIX = ".ttt_nn."   # hidden temporary files, beside the target
# Linux inode flags (FS_IOC_GETFLAGS): such a file cannot be replaced, even by root.
FS_IOC_GETFLAGS = 0x80086601
FS_IMMUTABLE_FL, FS_APPEND_FL = 0x10, 0x20
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
DIR_FDS = os.open in os.supports_dir_fd and hasattr(os, "O_DIRECTORY")


class Folder:
    """An open folder (path: how it was named); names inside it are used
    relative to it."""

    def __init__(self, path):
        self.path = path
        self.fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY) if DIR_FDS else None

    def at(self, name):
        """Return (name, keywords) to pass to an os function for `name`."""
        if self.fd is None:
            return os.path.join(self.path, name), {}
        return name, {"dir_fd": self.fd}

    def open(self, name, flags, mode=0o600):
        name, kw = self.at(name)
        return os.open(name, flags | NOFOLLOW, mode, **kw)

    def lstat(self, name):
        """Return the stat of `name` (not following a link), or None."""
        name, kw = self.at(name)
        try:
            return os.stat(name, follow_symlinks=False, **kw)
        except FileNotFoundError:
            return None

    def rename(self, old, new):
        if self.fd is None:
            return os.replace(*(os.path.join(self.path, n) for n in (old, new)))
        os.replace(old, new, src_dir_fd=self.fd, dst_dir_fd=self.fd)

    def link(self, old, new):
        if self.fd is None:
            return os.link(*(os.path.join(self.path, n) for n in (old, new)))
        os.link(old, new, src_dir_fd=self.fd, dst_dir_fd=self.fd, follow_symlinks=False)

    def unlink(self, name):
        name, kw = self.at(name)
        os.unlink(name, **kw)

    def close(self):
        """Close the folder (once; a second call does nothing)."""
        if self.fd is not None and not getattr(self, "closed", False):
            self.closed = True
            os.close(self.fd)


def create_temp(folder, mode):
    """Create a new file with a fresh hidden name in `folder`, exclusively
    (it cannot be a file or link someone else put there); returns (fd, name)."""
    while True:
        name = TEMP_PREFIX + secrets.token_hex(6) + ".tmp"
        try:
            return folder.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode), name
        except FileExistsError:
            continue


def name_max(folder):
    try:
        return os.fpathconf(folder.fd, "PC_NAME_MAX") if folder.fd is not None else 255
    except (OSError, ValueError):
        return 255


def flags(folder, name):
    """Return the Linux inode flags of `name` in `folder` (of the folder
    itself for None); 0 where they cannot be read."""
    if fcntl is None or folder.fd is None:
        return 0
    try:
        fd = folder.open(name, os.O_RDONLY | os.O_NONBLOCK) if name else os.dup(folder.fd)
    except OSError:
        return 0
    try:
        # The kernel writes an int, whatever the size of the buffer.
        return struct.unpack("i", fcntl.ioctl(fd, FS_IOC_GETFLAGS, b"\0" * 8)[:4])[0]
    except OSError:
        return 0
    finally:
        os.close(fd)


def is_mount_point(folder, name):
    """True if `name` in `folder` is a mount point in /proc/self/mountinfo,
    whose fifth field writes a space, tab, newline or backslash as \\ooo."""
    try:
        real = os.path.join(os.readlink("/proc/self/fd/%d" % folder.fd), name)
        with open("/proc/self/mountinfo", "rb") as f:
            points = {line.split()[4] for line in f if len(line.split()) > 4}
    except (OSError, TypeError):
        return False
    return any(_unescape(p) == os.fsencode(real) for p in points)


def _unescape(field):
    """Decode the \\ooo octal escapes of a mountinfo field (bytes)."""
    parts = field.split(b"\\")
    out = parts[0]
    for part in parts[1:]:
        if len(part) >= 3 and part[:3].isdigit():
            out += bytes([int(part[:3], 8)]) + part[3:]
        else:
            out += b"\\" + part
    return out
