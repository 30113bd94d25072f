"""Reading a receipt: bounded, strict JSON, checked against the schema; never an exception."""

from __future__ import annotations

import json

from hooks.core import schemas
from hooks.core.fileio import UnreadableFile
from hooks.core.fileio import read_bounded
from hooks.core.output import Finding
from hooks.receipt.model import INVALID
from hooks.receipt.model import MAX_RECEIPT_BYTES
from hooks.receipt.model import MISSING
from hooks.receipt.model import rerun_hint
from hooks.receipt.model import schema_file

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
        hint = rerun_hint(None)
        return LoadedReceipt(findings=[Finding(
            f"{message}: run '{hint}', then push again", code, kind)])

    try:
        raw = read_bounded(path, MAX_RECEIPT_BYTES)
    except FileNotFoundError:
        return bad(f"no receipt at {shown_path}", MISSING, "missing")
    except UnreadableFile as e:
        return bad(f"{shown_path} is not a receipt: it {e}")
    try:
        data = json.loads(raw)
    except RecursionError:
        return bad(f"{shown_path} is not a receipt: JSON nested too deeply")
    except (UnicodeDecodeError, ValueError) as e:
        reason = str(e).splitlines()[0][:120]
        return bad(f"{shown_path} is not a receipt: not JSON ({reason})")
    if not isinstance(data, dict):
        return bad(f"{shown_path} is not a receipt: a JSON {type(data).__name__}, not an object")
    errors = schemas.validate_remembered(schema_file(data), raw, data, memo)
    if errors:
        hint = rerun_hint(data)
        return LoadedReceipt(data=data, findings=[
            Finding(f"{shown_path} is not a valid receipt: {err}: run '{hint}'",
                    INVALID, "invalid")
            for err in errors
        ])
    return LoadedReceipt(data=data)
