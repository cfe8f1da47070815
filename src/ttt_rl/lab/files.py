"""Files: a run's paths checked before its first game, and the one way a
command writes a file. save(): tempfile.mkstemp beside the target, fsync,
the old file's owner, mode and xattrs (ACLs too), the old file kept as
NAME.bak (os.link, or a copy), os.replace. The kernel decides each step; a refusal
costs nothing: the data goes to a new file beside, which the error names.
No C counterpart: the C calls fopen.
"""

import os
import shutil
import stat
import tempfile

from ..weights import FileError, from_bytes, read

BACKUP, PREFIX = ".bak", ".ttt_nn."   # the old file's new name; temporary files' (hidden)


def leads_to(path):
    """Return the file that writing `path` replaces: `path`, or for a link the
    file the kernel opens through it (/proc tells which): nothing is resolved here."""
    if not os.path.islink(path) or not os.path.isdir("/proc/self/fd"):
        return path
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        raise FileError("cannot write %s: %s (a link)" % (path, e.strerror)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):   # /dev/stdout: a pipe, a terminal
            raise FileError("cannot write %s: it is not a regular file" % path)
        return os.readlink("/proc/self/fd/%d" % fd)
    finally:
        os.close(fd)


def check_output(path, weights=True):
    """Return the bytes `path` holds now (None if nothing), once a file was
    created beside it (the kernel's answer, not a guess) and it and its backup
    are regular files, with `weights` weights files (anything else may be the
    only copy of something). Raises FileError with the reason."""
    if path.endswith(("/", os.sep)):
        raise FileError("cannot write %s: a file name cannot end with %r" % (path, path[-1]))
    target, now = leads_to(path), None
    for name in (target + BACKUP, target):
        try:
            mode = os.stat(name).st_mode
        except FileNotFoundError:
            continue   # nothing there (a backup may be a link to nothing): nothing to keep
        except OSError as e:
            raise FileError("cannot write %s: %s" % (name, e.strerror)) from None
        if not stat.S_ISREG(mode):
            raise FileError("cannot write %s: it is %s" % (
                name, "a folder" if stat.S_ISDIR(mode) else "not a regular file"))
        try:
            data = read(name) if weights else None
            if data:
                from_bytes(data, name)
        except FileError as e:
            raise FileError("%s; it is not replaced: choose another name, or move it away"
                            % e) from None
        now = data if name == target else now
    try:
        fd, tmp = _mkstemp(target)
        os.close(fd)
        os.unlink(tmp)
    except OSError as e:
        raise FileError("cannot write %s: %s" % (path, e.strerror)) from None
    return now


def save(path, data, expect=False):
    """Write bytes `data` to `path`; return the old file's new name (None if
    there was none). With `expect` (its bytes when read; None: no file), a
    file changed since (another session saved) is not replaced. Raises
    FileError if `data` cannot go to `path`: it is then in a new file beside,
    which the reason names, and the old file is untouched."""
    made = []   # our temporary names, removed whatever happens
    try:
        target = leads_to(path)
        if expect is not False and _current(target) not in (expect, None):
            raise OSError(0, "it changed since it was loaded (another session saved it?)")
        fd, tmp = _mkstemp(target, ".tmp")
        made.append(tmp)
        _write(fd, data)   # on disk before the rename shows it
        if not os.path.lexists(target):   # a new file: what open() gives
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
            os.replace(tmp, target)
            return None
        _copy_metadata(target, tmp)
        os.utime(tmp)   # but the new file is new
        made.append(_second_name(target))
        os.replace(tmp, target)
        backup = made.pop()   # the old file's second name: kept
    except (OSError, FileError) as e:
        reason = "cannot write %s: %s" % (path, e.strerror or e) if isinstance(e, OSError) \
            else str(e)
        raise FileError("%s; %s" % (reason, _keep_beside(path, data))) from None
    finally:
        for name in made:
            if os.path.lexists(name):
                os.unlink(name)
    # The old file becomes the backup only now that the new one is in place,
    # so that a refused rename leaves the old backup as it was.
    try:
        os.replace(backup, target + BACKUP)
    except OSError:
        return backup   # the old file stays under its hidden name: still kept
    if os.path.lexists(backup):   # the old backup was this file: nothing was renamed
        os.unlink(backup)
    return target + BACKUP


def _mkstemp(target, suffix=""):   # a new hidden file beside `target`: (fd, name)
    return tempfile.mkstemp(prefix=PREFIX, suffix=suffix, dir=os.path.dirname(target) or ".")


def _write(fd, data):   # write, then sync: the bytes are on disk when it returns
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def _current(path):
    """Return the bytes of weights file `path`, None if there is none."""
    try:
        return read(path)
    except FileError as e:
        if e.missing:
            return None   # removed or moved away: nothing would be overwritten
        raise OSError(0, str(e)) from None


def _copy_metadata(old, new):
    """Give file `new` the owner, mode and xattrs of `old`, and no more."""
    # shutil.copystat adds old's xattrs (ACLs too) but keeps new's: those old
    # lacks go first (a folder's default ACL would grant a named user more).
    if hasattr(os, "listxattr"):
        for key in set(os.listxattr(new)) - set(os.listxattr(old)):
            try:
                os.removexattr(new, key)
            except OSError:
                pass   # not ours to remove (a security label): it grants nothing
    info = os.stat(old)
    try:
        os.chown(new, info.st_uid, info.st_gid)
    except PermissionError:
        pass   # only root may give a file away; it stays ours
    shutil.copystat(old, new)


def _second_name(target):
    """Return a new hidden name of file `target` (a link, or a copy where
    links are refused): the backup-to-be."""
    fd, tmp = _mkstemp(target, ".bak")
    os.close(fd)
    try:
        os.unlink(tmp)
        os.link(target, tmp)
    except OSError:
        shutil.copyfile(target, tmp)
        _copy_metadata(target, tmp)
    return tmp


def _keep_beside(path, data):
    """Write `data` to a new file NAME-1.bin, NAME-2.bin, ... (mode 0600)
    beside `path`, else in the temporary folder; return what to say of it."""
    stem, ext = os.path.splitext(path)
    for place in (stem, os.path.join(tempfile.gettempdir(), os.path.basename(stem))):
        for n in range(1, 1000):
            name = "%s-%d%s" % (place, n, ext)
            try:
                fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                continue
            except OSError:
                break   # this folder takes no new file: the next place
            try:
                _write(fd, data)
                return "it is kept in %s" % name
            except OSError:   # a full disk: the next place
                os.unlink(name)
                break
    return "and it could not be kept anywhere else"
