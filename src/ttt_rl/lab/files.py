"""Files that are never half-written, never lost, and checked before work.

replace_file(path, data) is the one way the commands write a file, the way
trusted tools (mkstemp, coreutils' install) do it: the kernel resolves the
path (paths.py, which also checks everything first), and from the open
folder on no name is looked up twice. The temporary file is created
exclusively (O_CREAT | O_EXCL | O_NOFOLLOW), written, synced, and given the
old file's owner, mode, ACL and extended attributes, so that it grants no
one more; the old file is kept as NAME.bak (a hard link, or a copy made the
same way), and the temporary file is renamed over the target. Stop signals
wait meanwhile. docs/failures.md lists what is refused, and why.
"""

import os
import secrets
import signal
import stat

from ..weights import FileError
from .folder import TEMP_PREFIX, create_temp
from .paths import BACKUP_SUFFIX, open_target

# Signals that stop a command (Ctrl-C, `kill`, a closed terminal).
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                     if hasattr(signal, name))


class signals_held:
    """Context manager: stop signals wait until the block is left.
    Where the platform cannot block signals (Windows), it does nothing."""

    def __enter__(self):
        self.old = None
        if hasattr(signal, "pthread_sigmask"):
            self.old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)

    def __exit__(self, *exc):
        if self.old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.old)


def replace_file(path, data, keep_backup=True):
    """Write bytes `data` to the file `path` atomically (see the module's
    docstring); with keep_backup, an existing file is first kept as
    TARGET.bak. Returns the backup's path, or None if there was no old file.
    Raises FileError (one line) if nothing was written: the old file is
    then untouched and no temporary file is left."""
    with signals_held():
        folder, name, target, old = open_target(path)
        made = []   # temporary names to remove if anything fails
        try:
            # A new file gets what the kernel gives (umask, default ACL);
            # a replacement starts private and then takes the old file's.
            fd, tmp = create_temp(folder, 0o600 if old else 0o666)
            made.append(tmp)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())   # on disk before the rename makes it visible
                if old is not None:
                    _copy_metadata(folder, name, f.fileno(), old)
            backup = None
            if keep_backup and old is not None:
                backup = target + BACKUP_SUFFIX
                made.append(_keep_backup(folder, name, old))
                folder.rename(made[-1], name + BACKUP_SUFFIX)
                made.pop()
            folder.rename(tmp, name)
            made.pop()
            if folder.fd is not None:
                os.fsync(folder.fd)   # the rename itself on disk
            return backup
        except OSError as e:
            raise FileError("cannot write %s: %s" % (path, e.strerror or e)) from None
        finally:
            for leftover in made:
                folder.unlink(leftover)
            folder.close()


def _copy_metadata(folder, name, fd, old):
    """Give the open file `fd` the owner, mode, ACL and extended attributes
    of `name` (stat `old`). What cannot be copied is left out: the file then
    grants less, never more."""
    if hasattr(os, "fchown") and (old.st_uid, old.st_gid) != (os.geteuid() if hasattr(os, "geteuid") else 0, os.getegid()):
        try:
            os.fchown(fd, old.st_uid, old.st_gid)
        except PermissionError:
            pass   # only root may give a file away; it stays ours
    os.fchmod(fd, stat.S_IMODE(old.st_mode))
    if not hasattr(os, "listxattr"):
        return
    try:
        src = folder.open(name, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return
    try:
        # An ACL is the xattr system.posix_acl_access: copied with the rest.
        for key in os.listxattr(src):
            try:
                os.setxattr(fd, key, os.getxattr(src, key))
            except OSError:
                pass
    except OSError:
        pass
    finally:
        os.close(src)


def _keep_backup(folder, name, old):
    """Make a new name for the current file `name` (a hard link, or an
    exclusive copy with its metadata where links fail) and return it; the
    caller renames it to NAME.bak. The target itself is not touched."""
    while True:
        tmp = TEMP_PREFIX + secrets.token_hex(6) + ".bak"
        try:
            folder.link(name, tmp)   # link() never follows or replaces what is at tmp
            return tmp
        except FileExistsError:
            continue
        except OSError:
            break
    fd, tmp = create_temp(folder, 0o600)
    try:
        with os.fdopen(fd, "wb") as dst, os.fdopen(folder.open(name, os.O_RDONLY), "rb") as src:
            dst.write(src.read())
            dst.flush()
            os.fsync(dst.fileno())
            _copy_metadata(folder, name, dst.fileno(), old)
    except BaseException:
        folder.unlink(tmp)
        raise
    return tmp
