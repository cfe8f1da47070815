"""Files that are never half-written, never lost, and checked before work.

A training run can take minutes, so the output path is checked for real
before it starts (check_output), and the file is replaced in one atomic
rename, with the previous file kept as NAME.bak (replace_file). Stop
signals wait while a file is replaced, so it is the old one or the new
one, never a mix. The C's save is a plain fopen and fwrite.
"""

import errno
import os
import signal
import stat
import struct
import tempfile

from ..weights import FileError

try:
    import fcntl
except ImportError:   # Windows
    fcntl = None

TEMP_PREFIX, TEMP_SUFFIX = ".ttt_nn.", ".tmp"   # hidden temporary files
BACKUP_SUFFIX = ".bak"                            # the previous file, kept
# Signals that stop a command (Ctrl-C, `kill`, a closed terminal).
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                     if hasattr(signal, name))
# Linux inode flags (FS_IOC_GETFLAGS): such a file or folder cannot be
# replaced or emptied, even by root.
FS_IOC_GETFLAGS = 0x80086601
FS_IMMUTABLE_FL, FS_APPEND_FL = 0x10, 0x20


class signals_held:
    """Context manager: stop signals wait until the block is left.

    Where the platform cannot block signals (Windows), it does nothing.
    """

    def __enter__(self):
        self.old = None
        if hasattr(signal, "pthread_sigmask"):
            self.old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)

    def __exit__(self, *exc):
        if self.old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.old)


def folder_of(path):
    """Return the folder that holds `path` ('.' for a bare name)."""
    return os.path.dirname(path) or os.curdir


def check_output(path):
    """Return the file that writing `path` must replace, after checking
    that it can be replaced; raise FileError (one line) if not.

    Nothing is created or changed: the checks look at the path, its folder
    and the file, and create one temporary file beside it (removed at
    once) only where the folder lets files be removed again.
    """
    if not path:
        raise FileError("the output file name is empty")
    if path.endswith(os.sep):
        raise FileError("cannot write %s: a file name cannot end with %r" % (path, os.sep))
    target = _follow_link(path)
    folder = folder_of(target)
    if os.path.isdir(target):
        raise FileError("cannot write %s: it is a directory" % path)
    if not os.path.isdir(folder):
        what = "is not a folder" if os.path.exists(folder) else "does not exist"
        raise FileError("cannot write %s: folder %s %s" % (path, folder, what))
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as e:
        raise FileError("cannot write %s: %s" % (path, e.strerror)) from None
    name_length, name_max = len(os.fsencode(os.path.basename(target))), _name_max(folder)
    if name_length > name_max:
        raise FileError("cannot write %s: %s" % (path, os.strerror(errno.ENAMETOOLONG)))
    if name_length + len(BACKUP_SUFFIX) > name_max:
        raise FileError("cannot write %s: the name is too long to add %s for the backup"
                        % (path, BACKUP_SUFFIX))
    if _flags(folder) & (FS_IMMUTABLE_FL | FS_APPEND_FL):
        raise FileError("cannot write %s: folder %s is append-only or immutable" % (path, folder))
    if info is not None:
        _check_replaceable(path, target, info, folder)
    if os.path.isdir(target + BACKUP_SUFFIX):
        raise FileError("cannot keep the old file as %s%s: it is a directory"
                        % (path, BACKUP_SUFFIX))
    try:
        with signals_held():   # never leave the probe file behind
            fd, tmp = tempfile.mkstemp(TEMP_SUFFIX, TEMP_PREFIX, folder)
            os.close(fd)
            os.unlink(tmp)
    except OSError as e:
        raise FileError("cannot write %s: %s" % (path, e.strerror)) from None
    return target


def _follow_link(path):
    """Return the file a symlink `path` points to (or `path` itself).

    A link is followed only where the kernel's protected_symlinks rule
    would let an open follow it: not a link in a sticky, world-writable
    folder (such as /tmp) that belongs to someone else than both the folder
    owner and us, so that a planted link cannot make a root run replace
    any file.
    """
    if not os.path.islink(path):
        return path
    link, folder = os.lstat(path), os.stat(folder_of(path))
    shared = folder.st_mode & stat.S_ISVTX and folder.st_mode & stat.S_IWOTH
    if shared and link.st_uid not in (folder.st_uid, _euid()):
        raise FileError("cannot write %s: it is another user's symlink in a shared "
                        "folder, which is not followed" % path)
    return os.path.realpath(path)


def _check_replaceable(path, target, info, folder):
    """Raise FileError where renaming over the existing `target` would fail."""
    if not stat.S_ISREG(info.st_mode):
        # Renaming over a device such as /dev/null would replace the device.
        raise FileError("cannot write %s: it is not a regular file" % path)
    if _flags(target) & (FS_IMMUTABLE_FL | FS_APPEND_FL):
        raise FileError("cannot write %s: it is append-only or immutable" % path)
    if _is_mount_point(target, info):
        raise FileError("cannot write %s: it is a mount point (a bind-mounted file), "
                        "which cannot be replaced" % path)
    here = os.stat(folder)
    if here.st_mode & stat.S_ISVTX and _euid() not in (0, info.st_uid, here.st_uid):
        raise FileError("cannot write %s: it belongs to another user in a sticky folder"
                        % path)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise FileError("cannot write %s: %s" % (path, os.strerror(errno.EACCES)))


def _euid():
    """Our effective user id (0 where the system has none, as Windows)."""
    return os.geteuid() if hasattr(os, "geteuid") else 0


def _name_max(folder):
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        return 255


def _flags(path):
    """Return the Linux inode flags of `path` (0 where they cannot be read)."""
    if fcntl is None:
        return 0
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return 0
    try:
        # The kernel writes an int, whatever the size of the buffer.
        return struct.unpack("i", fcntl.ioctl(fd, FS_IOC_GETFLAGS, b"\0" * 8)[:4])[0]
    except OSError:
        return 0
    finally:
        os.close(fd)


def _is_mount_point(target, info):
    """True if `target` is mounted over (another device, or in mountinfo)."""
    if info.st_dev != os.stat(folder_of(target)).st_dev:
        return True
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as f:
            points = {line.split()[4] for line in f if len(line.split()) > 4}
    except OSError:
        return False
    return os.path.realpath(target) in points


def replace_file(path, data, keep_backup=True):
    """Write bytes `data` to the file `path` atomically.

    The path is checked first (check_output; a symlink is followed). The
    bytes go to a temporary file beside it, synced, given the old
    file's mode and owner, and renamed over it; with keep_backup, an
    existing file is first kept as TARGET.bak (replacing an older backup).
    Stop signals wait until it is done. Returns the backup's path, or None
    if there was no old file. Raises FileError (one line) if nothing was
    written; the old file is then untouched and no temporary file is left.
    """
    target = check_output(path)
    with signals_held():
        tmp = None
        try:
            try:
                old = os.stat(target)
            except FileNotFoundError:
                old = None
            fd, tmp = tempfile.mkstemp(TEMP_SUFFIX, TEMP_PREFIX, folder_of(target))
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())   # on disk before the rename makes it visible
            _copy_mode_and_owner(tmp, old)
            backup = _keep_backup(target) if keep_backup and old is not None else None
            os.replace(tmp, target)
            tmp = None
            return backup
        except OSError as e:
            raise FileError("cannot write %s: %s" % (path, e.strerror or e)) from None
        finally:
            if tmp is not None:
                os.unlink(tmp)


def _copy_mode_and_owner(tmp, old):
    if old is None:
        umask = os.umask(0)   # the only way to read the umask is to set it
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)   # mkstemp made it private (0600)
        return
    if hasattr(os, "chown") and (old.st_uid, old.st_gid) != (_euid(), os.getegid()):
        try:
            os.chown(tmp, old.st_uid, old.st_gid)
        except PermissionError:
            pass   # only root may give a file away; it stays ours
    os.chmod(tmp, stat.S_IMODE(old.st_mode))


def _keep_backup(target):
    """Make TARGET.bak the current file (a hard link, or a copy where links
    do not work) and return its path; the target itself is not touched."""
    backup = target + BACKUP_SUFFIX
    fd, tmp = tempfile.mkstemp(TEMP_SUFFIX, TEMP_PREFIX, folder_of(target))
    os.close(fd)
    try:
        try:
            os.unlink(tmp)
            os.link(target, tmp)
        except OSError:
            with open(target, "rb") as src, open(tmp, "wb") as dst:
                dst.write(src.read())
        os.replace(tmp, backup)
    except BaseException:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        raise
    return backup
