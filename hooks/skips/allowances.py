"""Justified exceptions: ``receipt: allow SKP001 -- ABC-123 reason`` on the line or above.

Rule ids are required (no blanket allowance) and the reason must name a ticket, so every
exception can be traced; the report lists each one it honours, so none is added unseen.
"""

from __future__ import annotations

import re

DEFAULT_TICKET = r"[A-Z][A-Z0-9]+-\d+|#\d+|https?://\S+/(?:issues|pull|pulls|merge_requests)/\d+"
# compiled by re's own cache on first use: most commits never read an allowance
_ALLOW = r"receipt:\s*allow\b(?P<ids>[^\n]*?)(?:\s--\s*(?P<reason>.*?))?\s*(?:\*/)?$"
_IDS = r"\bSKP\d{3}\b"


class Allowance:
    __slots__ = ("honoured", "ids", "line", "reason", "why")

    def __init__(self, line: int, ids: list[str], reason: str, honoured: bool, why: str) -> None:
        self.line = line
        self.ids = ids
        self.reason = reason
        self.honoured = honoured
        self.why = why


def parse_allowance(comment: str, line: int, ticket: re.Pattern[str]) -> Allowance | None:
    if "receipt:" not in comment:
        return None
    m = re.search(_ALLOW, comment)
    if not m:
        return None
    ids = re.findall(_IDS, m.group("ids") or "")
    reason = (m.group("reason") or "").strip()
    if not ids:
        return Allowance(line, ids, reason, False, "it names no rule id (blanket allowances are "
                                                   "not honoured)")
    if not ticket.search(reason):
        return Allowance(line, ids, reason, False, f"its reason has no ticket matching "
                                                   f"--ticket-pattern '{ticket.pattern}'")
    return Allowance(line, ids, reason, True, "")
