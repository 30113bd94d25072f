"""The agent's last message, from a JSON Lines transcript: read from the end, bounded.

Claude Code writes ``{"type": "assistant", "message": {"content": [{"type": "text", ...}]}}``
a line; Gemini CLI ``{"type": "gemini", "content": ...}``; others ``{"role": "assistant",
"content": ...}``. All are read; a line that is none of them is passed over. Only the tail is
read: a long session's transcript runs to megabytes and the hook must answer in well under a
second. The path comes from the event, so it is opened only if it is a regular file (a FIFO
or a device there is refused at once, never waited on) and read against a deadline.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import time

TAIL_BYTES = 2 << 20
READ_SECONDS = 2.0

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
    if role not in ("assistant", "model", "gemini"):
        return None
    text = _text(inner.get("content") if inner else entry.get("content", entry.get("text")))
    return text if text.strip() else None


def _tail(path: str) -> bytes | None:
    """The last TAIL_BYTES of the regular file at PATH; None for anything else or too slow."""
    deadline = time.monotonic() + READ_SECONDS
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        os.lseek(fd, max(0, info.st_size - TAIL_BYTES), os.SEEK_SET)
        chunks: list[bytes] = []
        remaining = TAIL_BYTES
        while remaining > 0:
            if time.monotonic() > deadline:
                return None
            try:
                chunk = os.read(fd, min(remaining, 1 << 18))
            except OSError as e:
                if e.errno == errno.EAGAIN:
                    return None
                raise
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def _message_id(entry: Any) -> object:
    message = entry.get("message") if isinstance(entry, dict) else None
    return message.get("id") if isinstance(message, dict) else None


def last_assistant_message(path: str) -> str | None:
    """The last assistant message's text. Claude Code writes one message as several lines
    (a text block a line, all with the message's ``id``): those lines are read together."""
    tail = _tail(path)
    if tail is None:
        return None
    parts: list[str] = []
    wanted: object = None
    for raw in reversed(tail.splitlines()):
        try:
            entry = json.loads(raw)
        except ValueError:
            continue  # the first line of the tail is usually cut: pass it over
        if parts:  # the rest of the same message, read backwards
            if wanted is None or _message_id(entry) != wanted:
                break
            text = message_text(entry)
            if text is not None:
                parts.append(text)
            continue
        text = message_text(entry)
        if text is not None:
            parts.append(text)
            wanted = _message_id(entry)
            if wanted is None:
                break
    return "\n".join(reversed(parts)) if parts else None
