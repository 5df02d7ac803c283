"""Files the tray keeps and reads: read only what is a regular file of a bounded size, and
write so that a power cut leaves the new file or the old one, whole.

Rule files and event logs, frames, calibrations and teaching files all come and go
through these two.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "note.txt"
>>> write_durably(path, b"kept")
>>> read_bytes(path, 10)
b'kept'
"""

from __future__ import annotations

import errno
import os
import stat
from contextlib import suppress
from pathlib import Path

__all__ = ["read_bytes", "sync_folder", "write_durably"]


def read_bytes(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; OSError otherwise.

    Opening does not block on a FIFO, and a device, folder or FIFO is refused before
    anything is read, so ``/dev/zero`` ends at once. Rule files and event logs are read
    through it, and so are the reader's frames, calibrations and teaching files.

    >>> read_bytes("/dev/zero", 10)
    Traceback (most recent call last):
    ...
    OSError: [Errno 22] not a regular file: '/dev/zero'
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder", os.fspath(path))
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", os.fspath(path))
        if info.st_size > limit:
            raise OSError(errno.EFBIG, f"larger than {limit:,} bytes", os.fspath(path))
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:  # grew while being read
        raise OSError(errno.EFBIG, f"larger than {limit:,} bytes", os.fspath(path))
    return data


def write_durably(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` so that after a power cut the file is the new one or the
    old one, whole: written beside it under a temporary name, synced, renamed over it, and
    the rename synced. OSError when it cannot be written (the old file is then untouched
    and no temporary file is left)."""
    path = Path(path)
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        with open(temporary, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
        sync_folder(path.parent)  # the rename itself is on disk
    except OSError:
        with suppress(OSError):
            temporary.unlink(missing_ok=True)
        raise


def sync_folder(folder: str | os.PathLike[str]) -> None:
    """Make the names in ``folder`` (a file made, renamed or moved there) last a power cut."""
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
