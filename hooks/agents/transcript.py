"""The agent's last message, from a JSON Lines transcript: read from the end, bounded.

Claude Code writes ``{"type": "assistant", "message": {"content": [{"type": "text", ...}]}}``
a line; other agents write ``{"role": "assistant", "content": ...}``. Both are read; a line
that is neither is passed over. Only the tail is read: a long session's transcript runs to
megabytes and the hook must answer in well under a second.
"""

from __future__ import annotations

import json
import os

TAIL_BYTES = 2 << 20

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(part.get("text")) for part in content
                         if isinstance(part, dict) and part.get("type") in (None, "text")
                         and isinstance(part.get("text"), str))
    return ""


def message_text(entry: Any) -> str | None:
    """The text of ENTRY when it is an assistant message with text, else None."""
    if not isinstance(entry, dict):
        return None
    message = entry.get("message")
    inner: dict[str, Any] = message if isinstance(message, dict) else {}
    role = entry.get("role") or inner.get("role") or entry.get("type")
    if role not in ("assistant", "model"):
        return None
    text = _text(inner.get("content") if inner else entry.get("content", entry.get("text")))
    return text if text.strip() else None


def last_assistant_message(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            size = f.seek(0, os.SEEK_END)
            f.seek(max(0, size - TAIL_BYTES))
            tail = f.read(TAIL_BYTES)
    except OSError:
        return None
    for raw in reversed(tail.splitlines()):
        try:
            entry = json.loads(raw)
        except ValueError:
            continue  # the first line of the tail is usually cut: pass it over
        text = message_text(entry)
        if text is not None:
            return text
    return None
