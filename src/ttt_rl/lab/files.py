"""Files: the paths of a run checked before its first game, and the one
way a command writes a file.

save() writes a temporary file beside the target (tempfile.mkstemp: a new
name, O_EXCL, mode 0600), syncs it, gives it the old file's owner, mode and
extended attributes (ACLs are extended attributes), keeps the old file as
NAME.bak (os.link, or shutil.copy2 where links are refused) and renames the
new one over the target (os.replace). The kernel decides every step; what
it refuses costs nothing: the data then goes to a new file beside the
target, and the error names it. No C counterpart: the C calls fopen.
"""

import os
import shutil
import stat
import tempfile

from ..weights import FileError, from_bytes, read

BACKUP, PREFIX = ".bak", ".ttt_nn."   # the old file's new name; temporary files' (hidden)


def leads_to(path):
    """Return the file that writing `path` replaces: `path` itself, or for a
    link, the file the kernel opens through it (Linux /proc tells which).
    The kernel follows the link or refuses it; nothing is resolved here."""
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
    """Before any work, check `path`: a file can be created beside it (one is,
    and removed: the kernel's answer, not a guess), and what is there now is
    a regular file, with `weights` a weights file, and so is its backup
    (anything else may be the only copy of something). Returns the bytes
    `path` holds (None if nothing); raises FileError with the reason."""
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
    """Write bytes `data` to `path` (see the module's docstring). With
    `expect` (the bytes the file held when it was read, None if it did not
    exist), a file that changed since is not replaced: another session
    saved it; one removed meanwhile is written anew. Returns the
    backup's name, or None if there was no old file. Raises FileError if
    `data` could not go to `path`: the data is then in a new file beside
    it, which the one-line reason names; the old file is untouched."""
    made = []   # our temporary names, removed whatever happens
    try:
        target = leads_to(path)
        if expect is not False and _current(target) not in (expect, None):
            raise OSError(0, "it changed since it was loaded (another session saved it?)")
        fd, tmp = _mkstemp(target, ".tmp")
        made.append(tmp)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())   # on disk before the rename shows it
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


def _current(path):
    """Return the bytes of weights file `path`, None if there is none."""
    try:
        return read(path)
    except FileError as e:
        if e.missing:
            return None   # removed or moved away: nothing would be overwritten
        raise OSError(0, str(e)) from None


def _copy_metadata(old, new):
    """Give file `new` the owner, mode and extended attributes of `old`, and
    no more: shutil.copystat adds the old file's attributes (ACLs included)
    but keeps the new one's, so those the old file lacks go first (a
    folder's default ACL would otherwise grant a named user more)."""
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
    """Return a new hidden name beside `target` for the same file (a hard
    link; a copy where links are refused): the backup-to-be."""
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
    """Write `data` to a new file NAME-1.bin, NAME-2.bin, ... beside `path`
    (or in the temporary folder), a name that did not exist, mode 0600;
    return what to say about it."""
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
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
                return "it is kept in %s" % name
            except OSError:   # a full disk: the next place
                os.unlink(name)
                break
    return "and it could not be kept anywhere else"
