"""The assumption ledger: JSON Lines, append-only, validated line by line.

Appends take an exclusive lock on the ledger file itself and write each line with one
``write`` on an ``O_APPEND`` descriptor, then fsync: concurrent writers never tear or lose a
line, and nothing already in the file is rewritten.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import secrets
import stat

from hooks import schemas

DEFAULT_LEDGER = "assumption-ledger.jsonl"
MAX_LEDGER_BYTES = 256 << 20

# Which of the schema's three kinds a line means to be, by the key only that kind has, and
# the $defs entry that describes it.
KIND_KEYS = (("hypothesis", "hypothesis"), ("resolves", "resolution"), ("event", "fuse event"))
KIND_DEFS = {"hypothesis": "hypothesis", "resolution": "resolution", "fuse event": "fuse_event"}

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from collections.abc import Iterator
    from typing import Any


class LedgerError(Exception):
    """The ledger cannot be read or written; the message is the one line to show."""


def kind_of(entry: dict[str, Any]) -> str | None:
    for key, kind in KIND_KEYS:
        if key in entry:
            return kind
    return None


def new_id() -> str:
    return "h-" + secrets.token_hex(4)


class Line:
    """One line of the ledger as read: its number, its bytes, and what is wrong with it."""

    __slots__ = ("entry", "number", "problems", "raw")

    def __init__(self, number: int, raw: bytes) -> None:
        self.number = number
        self.raw = raw
        self.entry: dict[str, Any] | None = None
        self.problems: list[str] = []


def split_lines(data: bytes) -> list[bytes]:
    """Lines without their LF; a final line with no LF is kept (and reported by ``parse``)."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def parse(number: int, raw: bytes, *, last_without_newline: bool = False) -> Line:
    """Decode and parse one line; schema validation is separate (``validate_lines``)."""
    line = Line(number, raw)
    if raw.endswith(b"\r"):
        line.problems.append("ends with CRLF; the ledger is JSON Lines with LF endings "
                             "(convert it with dos2unix, do not edit the lines)")
        raw = raw[:-1]
    nul = raw.find(b"\0")
    if nul >= 0:
        line.problems.append(f"contains a NUL byte (column {nul + 1})")
        return line
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line.problems.append(f"is not UTF-8 (byte {e.start + 1})")
        return line
    if not text.strip():
        line.problems.append("is blank; every line is one JSON object")
        return line
    try:
        value = json.loads(text)
    except RecursionError:
        line.problems.append("is JSON nested too deeply")
        return line
    except ValueError as e:
        line.problems.append(f"is not JSON ({str(e).splitlines()[0]})")
        return line
    if not isinstance(value, dict):
        line.problems.append(f"is a JSON {type(value).__name__}, not an object")
        return line
    line.entry = value
    if last_without_newline:
        line.problems.append("has no newline at its end; appending after it would join two "
                             "lines (add the newline, or let 'receipt ledger add' append)")
    return line


def validation_errors(entry: dict[str, Any]) -> list[str]:
    """Schema errors for one entry, against the kind of line it means to be."""
    kind = kind_of(entry)
    if kind is None:
        return ["is none of hypothesis (needs \"hypothesis\"), resolution (needs \"resolves\") "
                "or fuse event (needs \"event\")"]
    return [f"{kind}: {e}" for e in schemas.validate_def(schemas.LEDGER_ENTRY, KIND_DEFS[kind],
                                                         entry)]


def validate_lines(lines: Iterable[Line]) -> None:
    """Add schema problems to each parsed line (imports jsonschema: call only with lines)."""
    for line in lines:
        if line.entry is not None:
            line.problems.extend(validation_errors(line.entry))


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


def parse_all(data: bytes, first_number: int = 1) -> list[Line]:
    raws = split_lines(data)
    missing_newline = bool(data) and not data.endswith(b"\n")
    return [parse(first_number + i, raw,
                  last_without_newline=missing_newline and i == len(raws) - 1)
            for i, raw in enumerate(raws)]


def check_file(path: str, shown: str, memo_dir: str | None = None) -> list[tuple[int, str]]:
    """(line, message) for every problem in the ledger at PATH; the message names the line.

    With MEMO_DIR, a prefix of the file already found valid (same bytes, same schema) is not
    validated again: the ledger is append-only, so a later check only pays for new lines.
    """
    data = read_bytes(path)
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
    key = hashlib.sha256(os.path.realpath(path).encode("utf-8", "surrogateescape")).hexdigest()
    return os.path.join(memo_dir, f"ledger-{key[:16]}.json")


def _memo_stamp(prefix: bytes) -> dict[str, object]:
    return {"size": len(prefix), "sha256": hashlib.sha256(prefix).hexdigest(),
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
    from hooks.fileio import atomic_write

    with contextlib.suppress(OSError):  # read-only git dir: the next check validates it all
        atomic_write(memo, json.dumps(_memo_stamp(data)).encode())


def _open_for_append(path: str) -> int:
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
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
    """Append ENTRIES as whole lines, under an exclusive lock on the ledger file."""
    payload = b"".join(
        json.dumps(e, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        for e in entries)
    fd = _open_for_append(path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            size = os.fstat(fd).st_size
            if size:
                # a last line without its newline would swallow ours: end it first
                with open(path, "rb") as f:
                    f.seek(size - 1)
                    if f.read(1) != b"\n":
                        payload = b"\n" + payload
            view = memoryview(payload)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def hypotheses_with_status(lines: Iterable[Line]) -> Iterator[tuple[str, dict[str, Any], str]]:
    """(id, hypothesis, latest status) for each hypothesis, resolutions applied in order."""
    found: dict[str, dict[str, Any]] = {}
    status: dict[str, str] = {}
    for line in lines:
        entry = line.entry
        if entry is None or line.problems:
            continue
        kind = kind_of(entry)
        if kind == "hypothesis":
            hid = str(entry.get("id") or f"line-{line.number}")
            found[hid] = entry
            status[hid] = str(entry.get("status", "unproven"))
        elif kind == "resolution" and entry.get("resolves") in found:
            status[str(entry["resolves"])] = str(entry["status"])
    for hid, entry in found.items():
        yield hid, entry, status[hid]
