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
        raise UnreadableFile(f"cannot be read ({e.strerror or e})") from e
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
        raise UnreadableFile(f"cannot be read ({e.strerror or e})") from e
    finally:
        os.close(fd)


def _umask() -> int:
    """The process's umask (reading it means setting it: put back at once)."""
    current = os.umask(0o022)
    os.umask(current)
    return current


def symlink_target(path: str, root: str) -> str | None:
    """Where the symlink PATH leads when that is outside ROOT (None: not a link, or inside)."""
    if not os.path.islink(path):
        return None
    target = os.path.realpath(path)
    inside = os.path.commonpath([os.path.realpath(root), target]) == os.path.realpath(root)
    return None if inside else target


def atomic_write(path: str, data: bytes) -> None:
    """Write DATA to PATH so readers see the old file or the new one, never a part.

    A file rewritten keeps its mode; a new one gets the umask's (mkstemp's own is 600). A
    symlink is written through: its target gets the content and the link stays a link
    (callers that must not follow one outside the project check ``symlink_target`` first)."""
    import stat
    import tempfile
    if os.path.islink(path):
        path = os.path.realpath(path)
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mode = 0o666 & ~_umask()
    fd, temp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            if hasattr(os, "fchmod"):
                os.fchmod(f.fileno(), mode)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
