"""Ledger lines: parsing one line, knowing which kind it is, validating it, reading statuses.

Three kinds of line share one schema (``oneOf``): hypothesis, resolution and event. A line is
validated against the branch its key says it means to be, which names the wrong field where
the ``oneOf`` would only say "not valid under any of the given schemas".
"""

from __future__ import annotations

import json
import secrets

from hooks.core import schemas

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from collections.abc import Iterator
    from typing import Any

# Which of the schema's three kinds a line means to be, by the key only that kind has, and
# the $defs entry that describes it.
KIND_KEYS = (("hypothesis", "hypothesis"), ("resolves", "resolution"), ("event", "fuse event"))
KIND_DEFS = {"hypothesis": "hypothesis", "resolution": "resolution", "fuse event": "fuse_event"}


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


def parse_all(data: bytes, first_number: int = 1) -> list[Line]:
    raws = split_lines(data)
    missing_newline = bool(data) and not data.endswith(b"\n")
    return [parse(first_number + i, raw,
                  last_without_newline=missing_newline and i == len(raws) - 1)
            for i, raw in enumerate(raws)]


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
