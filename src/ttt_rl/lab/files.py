"""Reading a weights file for a command, and the one way a file is written (saving: atomic,
NAME.bak kept, the folder tried before the first game). The C's fopen and fwrite say nothing.
"""

import contextlib
import os
import tempfile

from ..weights import FileError, from_bytes, load, read, to_bytes

ADVICE = "`ttt-train 200 --method policy-iteration` (README, Quick start)"
C4_ADVICE = "`ttt-train --game connect4 --method expert-iteration` (README, Connect four)"


def load_weights(path):
    """Return weights.load(path); for a missing file, FileError says how to make one."""
    try:
        return load(path)
    except FileError as e:
        if not e.missing:
            raise
        raise FileError("%s; train one first: %s" % (e, ADVICE)) from None


@contextlib.contextmanager
def saving(path, weights=True):
    """Prepare to write `path` (None: yield None), then yield save(data), which writes data
    (bytes, or a network for a weights file) atomically: into a tempfile.mkstemp file beside
    `path` (removed if unused), then os.replace. With `weights`, the old bytes are kept as
    `path`.bak and save returns " (the old file is now NAME.bak)", else "". Raises FileError at
    once if `path` is a folder, not empty and not a weights file (with `weights`), or in a
    folder that cannot take the temporary file; save's FileError names the file with the data."""
    if path is None:
        yield None
        return
    if not path:
        raise FileError("an empty name is not a file name")
    # Tried for real, not worked out from the name: reading tells a folder or a file that is
    # not a weights file; creating the temporary file tells a folder that cannot take it
    # (`nosuch/../x.bin` fails here, as it would at the end).
    try:
        old = read(path)   # with `weights`, kept as NAME.bak by the save
        if weights and old:   # an empty file holds nothing to lose
            from_bytes(old, path)
    except FileError as e:
        if not e.missing:
            raise FileError("%s; it is not replaced: choose another name" % e) from None
        old = b""
    # The prefix holds the folder as written: mkstemp would normalise a `dir` ("nosuch/..").
    try:
        fd, temporary = tempfile.mkstemp(prefix=path + ".", suffix=".tmp", dir=os.curdir)
    except OSError as e:
        raise FileError("cannot write a file beside %s: %s" % (path, e.strerror)) from None
    written = []   # once the data is written, a failure keeps it in the temporary file
    umask = os.umask(0)   # read by setting it: a saved file gets a new file's mode, 0666 less it
    os.umask(umask)

    def save(data):
        data = to_bytes(data) if weights and not isinstance(data, bytes) else data
        try:
            with open(fd, "wb", closefd=False) as f:
                os.chmod(f.fileno(), 0o666 & ~umask)   # mkstemp's 0600 would hide it
                f.write(data)
                f.flush()
                os.fsync(f.fileno())   # on disk before it takes the target's name
        except OSError as e:
            raise FileError("cannot write %s: %s" % (temporary, e.strerror)) from None
        written.append(temporary)
        backup = ""
        try:
            if weights and old:   # the old weights, kept as NAME.bak
                backup_fd, backup = tempfile.mkstemp(prefix=path + ".bak.", suffix=".tmp",
                                                     dir=os.curdir)
                with open(backup_fd, "wb") as f:
                    os.chmod(f.fileno(), 0o666 & ~umask)
                    f.write(old)
                os.replace(backup, path + ".bak")
            os.replace(temporary, path)
        except OSError as e:
            with contextlib.suppress(OSError):
                os.unlink(backup)
            raise FileError("cannot replace %s: %s; the data is in %s"
                            % (path, e.strerror, temporary)) from None
        return " (the old file is now %s.bak)" % path if weights and old else ""

    try:
        yield save
    finally:
        os.close(fd)
        if not written:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
