"""The ledger file: bounded reads, locked appends, and validation remembered by prefix.

Appends take an exclusive lock on the ledger file itself and write each line with one
``write`` on an ``O_APPEND`` descriptor, then fsync: concurrent writers never tear or lose a
line, and nothing already in the file is rewritten.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import stat

from hooks.core import digests
from hooks.core import git_index
from hooks.core import schemas
from hooks.core.errors import UserError
from hooks.ledger.lines import parse_all
from hooks.ledger.lines import validate_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DEFAULT_LEDGER = "assumption-ledger.jsonl"
MAX_LEDGER_BYTES = 256 << 20


class LedgerError(UserError):
    """The ledger cannot be read or written; the message is the one line to show."""


def memo_dir() -> str | None:
    """Where validations are remembered: inside the git dir, never in the work tree."""
    from hooks.core import git

    try:
        return os.path.join(git.repo_paths().common_dir, "receipt-hooks")
    except git.GitError:
        return None


def read_bytes(path: str) -> bytes:
    """The ledger's bytes; b'' when it does not exist. Refuses what is not a regular file."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return b""
    except OSError as e:
        raise LedgerError(f"{path}: cannot read it ({e.strerror})") from e
    if stat.S_ISLNK(info.st_mode):
        raise LedgerError(f"{path} is a symlink; the ledger must be a regular file in the "
                          f"repository")
    if stat.S_ISDIR(info.st_mode):
        raise LedgerError(f"{path} is a directory; the ledger is a JSON Lines file")
    if not stat.S_ISREG(info.st_mode):
        raise LedgerError(f"{path} is not a regular file")
    if info.st_size > MAX_LEDGER_BYTES:
        raise LedgerError(f"{path} is {info.st_size} bytes, over the {MAX_LEDGER_BYTES} limit")
    with open(path, "rb") as f:
        return f.read(MAX_LEDGER_BYTES + 1)


def read_as_committed(path: str) -> bytes:
    """The ledger as git would commit it: a checkout with CRLF endings (core.autocrlf, an
    eol attribute) is read with the LF endings git stores; CRLF that git would keep stays."""
    data = read_bytes(path)
    if b"\r\n" not in data:
        return data
    lf = data.replace(b"\r\n", b"\n")
    from hooks.core import git

    try:
        return lf if git_index.commits_as(path, data, lf) else data
    except git.GitError:  # not in a repository: nothing converts it
        return data


def invalid_lines(path: str, shown: str, memo_dir: str | None = None) -> list[tuple[int, str]]:
    """(line, message) for every problem in the ledger at PATH; the message names the line.

    With MEMO_DIR, a prefix of the file already found valid (same bytes, same schema) is not
    validated again: the ledger is append-only, so a later check only pays for new lines.
    """
    data = read_as_committed(path)
    memo = _prefix_memo_path(path, memo_dir) if memo_dir else None
    start = _valid_prefix_length(data, memo) if memo else 0
    lines = parse_all(data[start:], first_number=data.count(b"\n", 0, start) + 1)
    validate_lines(lines)
    problems = [(line.number, f"{shown}:{line.number}: {p}")
                for line in lines for p in line.problems]
    if memo and not problems and data.endswith(b"\n"):
        _remember_valid_prefix(data, memo)
    return problems


def _prefix_memo_path(path: str, memo_dir: str) -> str:
    key = digests.sha256(os.path.realpath(path).encode("utf-8", "surrogateescape")).hexdigest()
    return os.path.join(memo_dir, f"ledger-{key[:16]}.json")


def _memo_stamp(prefix: bytes) -> dict[str, object]:
    return {"size": len(prefix), "sha256": digests.sha256(prefix).hexdigest(),
            "schema": schemas.schema_identity(schemas.LEDGER_ENTRY).decode("utf-8", "replace")}


def _valid_prefix_length(data: bytes, memo: str) -> int:
    try:
        with open(memo, encoding="utf-8") as f:
            stamp = json.load(f)
        size = int(stamp["size"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0
    if size <= len(data) and _memo_stamp(data[:size]) == stamp:
        return size
    return 0


def _remember_valid_prefix(data: bytes, memo: str) -> None:
    from hooks.core.fileio import atomic_write

    with contextlib.suppress(OSError):  # read-only git dir: the next check validates it all
        atomic_write(memo, json.dumps(_memo_stamp(data)).encode())


def _open_for_append(path: str) -> int:
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    try:
        mode: int | None = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISLNK(mode) or stat.S_ISDIR(mode)):
        # (a FIFO would hold the open until something reads it: forever)
        raise LedgerError(f"{path} is not a regular file")
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as e:
        if os.path.islink(path):
            raise LedgerError(f"{path} is a symlink; the ledger must be a regular file") from e
        if os.path.isdir(path):
            raise LedgerError(f"{path} is a directory; the ledger is a JSON Lines file") from e
        raise LedgerError(f"{path}: cannot write it ({e.strerror})") from e
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise LedgerError(f"{path} is not a regular file")
    return fd


def append(path: str, entries: list[dict[str, Any]]) -> None:
    """Append ENTRIES as whole lines, under an exclusive lock on the ledger file, with the
    line ending the file already uses (a CRLF checkout stays all CRLF: git stores it as LF)."""
    texts = [json.dumps(e, ensure_ascii=False, separators=(",", ":")).encode() for e in entries]
    fd = _open_for_append(path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            size = os.fstat(fd).st_size
            tail = b""
            if size:
                with open(path, "rb") as f:
                    f.seek(max(size - 2, 0))
                    tail = f.read(2)
            eol = b"\r\n" if tail.endswith(b"\r\n") else b"\n"
            payload = b"".join(t + eol for t in texts)
            if tail and not tail.endswith(b"\n"):
                payload = eol + payload  # a last line without its newline would swallow ours
            view = memoryview(payload)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
