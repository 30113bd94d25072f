"""Bounded reads and atomic writes: nothing a user wrote is torn or lost.

``tempfile`` is imported by the writers only: a hook's read path stays light.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat


class UnreadableFile(Exception):
    """The path exists but is not a regular file we can read within the limit."""


def read_bounded(path: str, limit: int) -> bytes:
    """The bytes of a regular file no larger than LIMIT.

    Opened non-blocking and checked with fstat before reading, so a FIFO, a directory, a
    device (a symlink to /dev/zero) or a huge file is refused at once, never read or waited on.
    Raises FileNotFoundError when nothing is there, UnreadableFile otherwise.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise
    except OSError as e:
        if e.errno == errno.ENOENT:
            raise FileNotFoundError(path) from e
        raise UnreadableFile(e.strerror or str(e)) from e
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise UnreadableFile("is a directory")
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFile("is not a regular file")
        if info.st_size > limit:
            raise UnreadableFile(f"is {info.st_size} bytes, over the {limit} byte limit")
        chunks = []
        remaining = limit + 1
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:
            raise UnreadableFile(f"is over the {limit} byte limit")
        return data
    except OSError as e:
        raise UnreadableFile(e.strerror or str(e)) from e
    finally:
        os.close(fd)


def atomic_write(path: str, data: bytes) -> None:
    """Write DATA to PATH so readers see the old file or the new one, never a part."""
    import tempfile
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
