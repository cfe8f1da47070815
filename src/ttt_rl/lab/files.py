"""Reading a weights file for a command, and the one way a file is written.

A save is atomic: the bytes go to a temporary file beside the target, then os.replace puts
it in place, so the target holds the old file or the new one, never half of one. The old
weights are kept as NAME.bak. The temporary file is created before the first game: a folder
that cannot take it fails then, not after an hour of training. No C counterpart: the C's
fopen and fwrite report nothing.
"""

import contextlib
import difflib
import os

from ..weights import FileError, from_bytes, load, read, to_bytes


def load_weights(path):
    """Return weights.load(path); for a missing file, FileError says which file nearby has
    a close name ("did you mean good.bin?") or how to make one (`make net`)."""
    try:
        return load(path)
    except FileError as e:
        if not e.missing:
            raise
        folder, name = os.path.split(path)
        try:
            names = os.listdir(folder or ".")
        except OSError:   # a folder that cannot be read: no hint from it
            names = []
        close = difflib.get_close_matches(name, [n for n in names if n.endswith(".bin")], n=1,
                                          cutoff=0.8)
        hint = ("did you mean %s?" % os.path.join(folder, close[0]) if close else
                "train one first: `make net` or `ttt-train` (README, Quick start)")
        raise FileError("%s; %s" % (e, hint)) from None


def previous(path):
    """Return the bytes `path` holds now, b"" if it does not exist. Raises FileError (one line)
    if it cannot be read: a folder, a file without read permission."""
    try:
        return read(path)
    except FileError as e:
        if e.missing:
            return b""
        raise


@contextlib.contextmanager
def saving(path, weights=True):
    """Prepare to write `path`, then yield save(data), which writes data (bytes, or a network
    for a weights file) to `path` atomically, the old file kept as `path`.bak if `weights`.
    Raises FileError at once if `path` cannot be read (a folder), is not empty and not a
    weights file (with `weights`), or its folder cannot take a new file; save raises FileError
    if the final rename is refused, naming the file beside that keeps the data. On leaving the
    block, an unused temporary file is removed. With `path` None, yields None."""
    if path is None:
        yield None
        return
    if not path:
        raise FileError("an empty name is not a file name")
    # Tried for real, not worked out from the name: reading tells a folder or a file that is
    # not a weights file; creating the temporary file tells a folder that cannot take it
    # (`nosuch/../x.bin` fails here, as it would at the end).
    try:
        old = previous(path)
        if weights and old:   # an empty file holds nothing to lose
            from_bytes(old, path)
    except FileError as e:
        raise FileError("%s; it is not replaced: choose another name" % e) from None
    temporary = "%s.%d.tmp" % (path, os.getpid())
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except OSError as e:
        raise FileError("cannot write a file beside %s: %s" % (path, e.strerror)) from None
    kept = []   # what holds the data: `path` once the rename is done, or the temporary file

    def save(data):
        data = to_bytes(data) if weights and not isinstance(data, bytes) else data
        try:
            with open(fd, "wb", closefd=False) as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())   # on disk before it takes the target's name
        except OSError as e:
            raise FileError("cannot write %s: %s" % (temporary, e.strerror)) from None
        kept.append(temporary)   # from here on, a failure keeps the data in it
        backup = path + ".bak.%d.tmp" % os.getpid()
        try:
            old = previous(path) if weights else b""
            if old:   # the old weights, kept as NAME.bak
                with open(backup, "wb") as f:
                    f.write(old)
                os.replace(backup, path + ".bak")
            os.replace(temporary, path)
        except (OSError, FileError) as e:
            with contextlib.suppress(OSError):
                os.unlink(backup)
            raise FileError("cannot replace %s: %s; the data is in %s"
                            % (path, getattr(e, "strerror", None) or e, temporary)) from None
        kept[0] = path

    try:
        yield save
    finally:
        os.close(fd)
        if not kept:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
