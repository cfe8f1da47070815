"""Where a path leads, and whether what is there can be replaced.

The kernel resolves the path: it opens the folder, and follows a link only
where its protected_symlinks rule allows (where that sysctl is off, the
same rule is checked here first). What follows happens relative to that
open folder (a Folder), so no name is looked up twice. Everything a save
needs is checked before a run starts (check_output): the name, the folder,
the file and its backup. No C counterpart: the C calls fopen.
"""

import errno
import os
import stat

from ..weights import FileError
from .folder import (FS_APPEND_FL, FS_IMMUTABLE_FL, Folder, create_temp, flags, is_mount_point,
                     name_max)

BACKUP_SUFFIX = ".bak"     # the previous file, kept


def check_output(path):
    """Check that writing `path` can replace what is there, before any work;
    return the file it will replace (the target of a link). Raises FileError
    (one line). Nothing is left behind: one temporary file is made beside
    the target and removed, to ask the kernel whether we may."""
    folder, name, target, _ = open_target(path)
    try:
        tmp = create_temp(folder, 0o600)
        os.close(tmp[0])
        folder.unlink(tmp[1])
    except OSError as e:
        raise FileError("cannot write %s: %s" % (path, e.strerror)) from None
    finally:
        folder.close()
    return target


def open_target(path):
    """Return (Folder, name, target path, stat or None) for `path`, the
    kernel having followed any link, after every check; raise FileError."""
    if not path:
        raise FileError("the output file name is empty")
    if path.endswith(os.sep):
        raise FileError("cannot write %s: a file name cannot end with %r" % (path, os.sep))
    _check_links(path)
    head, name = os.path.split(path)
    folder = _open_folder(path, head or os.curdir)
    try:
        info = folder.lstat(name)
        if info is not None and stat.S_ISLNK(info.st_mode):
            folder.close()
            real = _kernel_target(path)   # a link: where the kernel says it leads
            head, name = os.path.split(real)
            folder = _open_folder(path, head)
            info = folder.lstat(name)
        _check_replaceable(path, folder, name, info)
    except BaseException as e:
        folder.close()
        if isinstance(e, OSError):
            raise FileError("cannot write %s: %s" % (path, e.strerror)) from None
        raise
    return folder, name, os.path.join(head, name) if head else name, info


def _open_folder(path, head):
    try:
        return Folder(head)
    except FileNotFoundError:
        raise FileError("cannot write %s: folder %s does not exist" % (path, head)) from None
    except NotADirectoryError:
        raise FileError("cannot write %s: folder %s is not a folder" % (path, head)) from None
    except OSError as e:
        raise FileError("cannot write %s: %s" % (path, e.strerror)) from None


def _kernel_target(path):
    """Return the real path the kernel reaches through the link `path`."""
    flags = getattr(os, "O_PATH", None)
    if flags is None or not os.path.isdir("/proc/self/fd"):
        return os.path.realpath(path)   # no O_PATH (not Linux): ask in user space
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise FileError("cannot write %s: it is a link to a missing file" % path) from None
    except OSError as e:   # EACCES: protected_symlinks refused the link
        raise FileError("cannot write %s: %s (a link the kernel does not follow)"
                        % (path, e.strerror)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileError("cannot write %s: it is not a regular file" % path)
        return os.readlink("/proc/self/fd/%d" % fd)
    finally:
        os.close(fd)


def _check_links(path):
    """Where the kernel's protected_symlinks rule is off, refuse what it
    would refuse: a link on the way, in a sticky world-writable folder (such
    as /tmp), that belongs to neither that folder's owner nor us."""
    try:
        with open("/proc/sys/fs/protected_symlinks") as f:
            if f.read().strip() != "0":
                return   # the kernel enforces it
    except OSError:
        return   # no such rule here
    done, todo = "/" if os.path.isabs(path) else "", path.split(os.sep)
    for hops in range(40):   # the kernel's limit on links in one path
        while todo and not todo[0]:
            todo.pop(0)
        if not todo:
            return
        here = os.path.join(done or os.curdir, todo[0])
        if not os.path.islink(here):
            done, todo = os.path.join(done, todo.pop(0)), todo
            continue
        link, parent = os.lstat(here), os.stat(done or os.curdir)
        if parent.st_mode & stat.S_ISVTX and parent.st_mode & stat.S_IWOTH \
                and link.st_uid not in (parent.st_uid, _euid()):
            raise FileError("cannot write %s: %s is another user's link in a shared "
                            "folder, which is not followed" % (path, here))
        dest = os.readlink(here)
        todo = dest.split(os.sep) + todo[1:]
        done = "/" if os.path.isabs(dest) else done


def _check_replaceable(path, folder, name, info):
    """Raise FileError where replacing `name` or keeping its backup fails."""
    longest = name_max(folder)
    if len(os.fsencode(name)) > longest:
        raise FileError("cannot write %s: %s" % (path, os.strerror(errno.ENAMETOOLONG)))
    if len(os.fsencode(name + BACKUP_SUFFIX)) > longest:
        raise FileError("cannot write %s: the name is too long to add %s for the backup"
                        % (path, BACKUP_SUFFIX))
    here = os.fstat(folder.fd) if folder.fd is not None else os.stat(folder.path)
    if flags(folder, None) & (FS_IMMUTABLE_FL | FS_APPEND_FL):
        raise FileError("cannot write %s: folder %s is append-only or immutable"
                        % (path, folder.path))
    backup = folder.lstat(name + BACKUP_SUFFIX)
    for what, entry, st in (("", name, info), (BACKUP_SUFFIX, name + BACKUP_SUFFIX, backup)):
        if st is None:
            continue
        shown = path + what if what else path
        lead = "cannot keep the old file as %s" % shown if what else "cannot write %s" % path
        if stat.S_ISDIR(st.st_mode):
            raise FileError("%s: it is a directory" % lead)
        if not stat.S_ISREG(st.st_mode) and not (what and stat.S_ISLNK(st.st_mode)):
            # Renaming over a device such as /dev/null would replace the device.
            raise FileError("%s: it is not a regular file" % lead)
        if flags(folder, entry) & (FS_IMMUTABLE_FL | FS_APPEND_FL):
            raise FileError("%s: it is append-only or immutable" % lead)
        if st.st_dev != here.st_dev or is_mount_point(folder, entry):
            raise FileError("%s: it is a mount point (a bind-mounted file), which cannot "
                            "be replaced" % lead)
        if here.st_mode & stat.S_ISVTX and _euid() not in (0, st.st_uid, here.st_uid):
            raise FileError("%s: it belongs to another user in a sticky folder" % lead)


def _euid():
    """Our effective user id (0 where the system has none, as Windows)."""
    return os.geteuid() if hasattr(os, "geteuid") else 0
