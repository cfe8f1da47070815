"""Reading a weights file for a command, and the one way a file is written.

A save is atomic: the bytes go to a temporary file beside the target, then os.replace puts
it in place, so the target holds the old file or the new one, never half of one. The old
weights are kept as NAME.bak. Every temporary file is made by tempfile.mkstemp, created
exclusively under a new random name, never through a link. The first is made before the
first game: a folder that cannot take it fails then, not after an hour of training. No C
counterpart: the C's fopen and fwrite report nothing.
"""

import contextlib
import difflib
import glob
import os
import tempfile

from ..weights import FileError, from_bytes, load, read, to_bytes

ADVICE = "`ttt-train 200 --method policy-iteration` (README, Quick start)"


def load_weights(path):
    """Return weights.load(path); for a missing file, FileError says which file nearby has
    a close name ("did you mean good.bin?") or how to make one (ADVICE)."""
    try:
        return load(path)
    except FileError as e:
        if not e.missing:
            raise
        folder, name = os.path.split(path)
        # glob lists nothing, and raises nothing, for a folder that cannot be read.
        names = [os.path.basename(found) for found in
                 glob.glob(os.path.join(glob.escape(folder), "*.bin"))]
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.8)
        hint = ("did you mean %s?" % os.path.join(folder, close[0]) if close else
                "train one first: " + ADVICE)
        raise FileError("%s; %s" % (e, hint)) from None


def new_file_mode():
    """Return the mode open() gives a new file: 0666 less the umask (read by setting it)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextlib.contextmanager
def saving(path, weights=True):
    """Prepare to write `path`, then yield save(data), which writes data (bytes, or a network
    for a weights file) to `path` atomically, the bytes `path` held at the start kept as
    `path`.bak if `weights`, and returns "" or, if it kept them, " (the old file is now
    NAME.bak)".
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

    def save(data):
        data = to_bytes(data) if weights and not isinstance(data, bytes) else data
        try:
            with open(fd, "wb", closefd=False) as f:
                os.chmod(f.fileno(), new_file_mode())   # mkstemp's 0600 would hide it
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
                    os.chmod(f.fileno(), new_file_mode())
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
