"""Files written whole or not at all, and never over what is not a file.

A regular file (or nothing) at the path is replaced atomically: a temporary file beside it,
renamed into place on success. A pipe, a device or the standard output (``/dev/stdout``, ``-``)
is written to directly, as ``tee`` would; a symbolic link is followed, and its target replaced,
never the link itself.
"""
from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

#: Names of the standard streams, written through the stream itself.
STREAMS = {"-": "stdout", "/dev/stdout": "stdout", "/dev/stderr": "stderr"}


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def is_special(path: str | Path) -> bool:
    """Whether ``path`` names a standard stream, or something that is neither a regular file
    nor a folder (a pipe, a device, a socket), links followed."""
    if str(path) in STREAMS:
        return True
    try:
        mode = os.stat(path).st_mode
    except OSError:  # nothing there (yet), or a dangling link: a file will be made
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def sidecar(path: str | Path) -> Path | None:
    """Where the provenance of an output written to ``path`` goes (``path.json``), or None when
    ``path`` is a pipe, a device or a stream, beside which nothing is written."""
    return None if is_special(path) else Path(str(path) + ".json")


@contextlib.contextmanager
def atomic_write(path: str | Path, mode: str = "w") -> Iterator:
    """Write ``path`` whole or not at all (see the module): a regular file is written to a
    temporary file beside it and renamed into place only on success, with the permissions a
    plain ``open`` would give it (``mkstemp`` makes it private)."""
    if str(path) in STREAMS:
        stream = getattr(sys, STREAMS[str(path)])
        stream.flush()
        fh = stream.buffer if "b" in mode else stream
        yield fh
        fh.flush()
        return
    if is_special(path):
        with open(path, mode) as fh:
            yield fh
        return
    path = Path(os.path.realpath(path))  # a link: write its target, keep the link
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, mode) as fh:
            yield fh
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
