"""Reading a receipt: bounded, strict JSON, checked against the schema; never an exception."""

from __future__ import annotations

import json
import os

from hooks.core import schemas
from hooks.core.cmdline import quoted
from hooks.core.fileio import UnreadableFile
from hooks.core.fileio import read_bounded
from hooks.core.output import Finding
from hooks.core.text import printable
from hooks.receipt.store.layout import INVALID
from hooks.receipt.store.layout import MAX_RECEIPT_BYTES
from hooks.receipt.store.layout import MISSING
from hooks.receipt.store.layout import rerun_hint
from hooks.receipt.store.layout import schema_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class LoadedReceipt:
    """The parsed receipt (None when unreadable) and what is wrong with it as a document."""

    __slots__ = ("data", "findings")

    def __init__(self, data: dict[str, Any] | None = None,
                 findings: list[Finding] | None = None) -> None:
        self.data = data
        self.findings = findings or []


def load(path: str, shown_path: str, memo: str | None) -> LoadedReceipt:
    """Read and schema-check the receipt at PATH; problems become findings, never exceptions.

    Messages do not name a commit: the caller prefixes the commit they were checked for.
    """

    def bad(message: str, code: int = INVALID, kind: str = "invalid") -> LoadedReceipt:
        hint = quoted(rerun_hint(None))
        return LoadedReceipt(findings=[Finding(
            f"{message}: run {hint}, then push again", code, kind)])

    try:
        raw = read_bounded(path, MAX_RECEIPT_BYTES)
    except FileNotFoundError:
        return bad(f"no receipt at {shown_path}", MISSING, "missing")
    except UnreadableFile as e:
        return bad(f"{shown_path} is not a receipt: it {e}")
    try:
        data = strict_json(raw)
    except RecursionError:
        return bad(f"{shown_path} is not a receipt: JSON nested too deeply")
    except (UnicodeDecodeError, ValueError) as e:
        reason = printable(str(e).splitlines()[0][:120])
        return bad(f"{shown_path} is not a receipt: not JSON ({reason})")
    if not isinstance(data, dict):
        return bad(f"{shown_path} is not a receipt: a JSON {type(data).__name__}, not an object")
    errors = schemas.validate_remembered(schema_file(data), raw, data, memo)
    if errors:
        hint = quoted(rerun_hint(data))
        return LoadedReceipt(data=data, findings=[
            Finding(f"{shown_path} is not a valid receipt: {err}: run {hint}",
                    INVALID, "invalid")
            for err in errors
        ])
    log = data["output"]["log"]
    if log is not None and not inside_repository(log):
        return LoadedReceipt(data=data, findings=[Finding(
            f"{shown_path} is not a valid receipt: output.log {printable(log)!r} is outside the "
            f"repository (a log is named relative to its root): run {quoted(rerun_hint(data))}",
            INVALID, "invalid")])
    return LoadedReceipt(data=data)


def inside_repository(path: str) -> bool:
    """PATH is relative and stays inside the repository (no .., no leading /, not .git)."""
    parts = path.replace("\\", "/").split("/")
    return (not os.path.isabs(path) and not path.startswith("/") and ".." not in parts
            and parts[0] != ".git" and "" not in parts)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"duplicate key {printable(key)!r}")
        seen[key] = value
    return seen


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def strict_json(raw: bytes) -> Any:
    """JSON as RFC 8259 has it: UTF-8 without a byte-order mark, no duplicate keys, no NaN or
    Infinity. Python's json takes all three, and a duplicate key lets a reader and a writer
    see different receipts."""
    if raw.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        raise ValueError("it starts with a byte-order mark")
    return json.loads(raw.decode("utf-8"), object_pairs_hook=_unique_keys,
                      parse_constant=_no_constant)
