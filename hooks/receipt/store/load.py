"""Reading a receipt: bounded, strict JSON, checked against the schema; never an exception."""

from __future__ import annotations

import json
import os

from hooks.core import schemas
from hooks.core.cmdline import quoted
from hooks.core.exits import INVALID
from hooks.core.exits import MISSING
from hooks.core.fileio import UnreadableFile
from hooks.core.fileio import read_bounded
from hooks.core.output import Finding
from hooks.core.text import printable
from hooks.receipt.store.layout import MAX_RECEIPT_BYTES
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
    problem = beyond_schema(data)
    if problem:
        return LoadedReceipt(data=data, findings=[Finding(
            f"{shown_path} is not a valid receipt: {problem}: run {quoted(rerun_hint(data))}",
            INVALID, "invalid")])
    return LoadedReceipt(data=data)


def beyond_schema(data: dict[str, Any]) -> str | None:
    """What makes schema-valid DATA no receipt all the same: text that is not text (a lone
    surrogate, which JSON's "\\ud800" escape can write), or a log named outside the repository."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, RecursionError):
        return "it holds a lone surrogate (a \\ud800-style escape), which is not text"
    output = data.get("output")
    log = output.get("log") if isinstance(output, dict) else None
    if isinstance(log, str) and not inside_repository(log):
        return (f"output.log {printable(log)!r} is outside the repository (a log is named "
                f"relative to its root)")
    return None


def inside_repository(path: str) -> bool:
    """PATH is relative and stays inside the repository (no .., no leading /, not .git)."""
    parts = path.replace("\\", "/").split("/")
    return (not os.path.isabs(path) and not path.startswith("/") and ".." not in parts
            and parts[0] != ".git" and "" not in parts and "\0" not in path)


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
