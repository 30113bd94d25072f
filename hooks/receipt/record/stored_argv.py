"""The command as a receipt stores it: printable, and small enough for the checker's limit.

Linux accepts an argv of megabytes, the checker reads receipts up to 1 MiB, and an argument may
hold bytes that are not UTF-8. So the receipt stores each byte that is not UTF-8 as ``\\xNN``
(the same spelling every message uses), keeps each argument to MAX_WORD characters and the whole
argv to MAX_ARGV of JSON, and then records ``argv_original``: the sha256, count and size of the
exact argument bytes. Arguments that start with ``-`` are kept past MAX_ARGV (up to HARD_MAX),
so the narrowing check still sees every flag of a long command line.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from hooks.core import digests
from hooks.core.cmdline import command_text
from hooks.core.cmdline import is_shell_form
from hooks.core.text import printable

MAX_WORD = 4096  # JSON characters kept of one argument (a one-string command: MAX_ARGV)
MAX_ARGV = 256 * 1024  # JSON characters of the stored argv, and of the stored command
HARD_MAX = 320 * 1024  # the same, counting the flags kept after MAX_ARGV was reached


def _json_size(text: str) -> int:
    return len(json.dumps(text))


def cut(text: str, limit: int) -> str:
    """TEXT, or its longest prefix whose JSON form fits LIMIT, marked as cut."""
    if len(text) + 2 <= limit and _json_size(text) <= limit:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits, with room for the marker
        middle = (low + high + 1) // 2
        if _json_size(text[:middle]) + 40 <= limit:
            low = middle
        else:
            high = middle - 1
    return f"{text[:low]}...[{len(text) - low} characters cut]"


class StoredArgv:
    """``argv`` and ``command`` as stored; ``original`` describes the exact argv when they
    differ from it (None when they are exact)."""

    __slots__ = ("argv", "command", "notes", "original")

    def __init__(self, argv: list[str], command: str, original: dict[str, object] | None,
                 notes: list[str]) -> None:
        self.argv = argv
        self.command = command
        self.original = original
        self.notes = notes


def store(argv: Sequence[str]) -> StoredArgv:
    words = [printable(w) for w in argv]
    shell = is_shell_form(words)
    stored = [words[0], words[1], cut(words[2], MAX_ARGV)] if shell else _fit(words)
    command = command_text(stored)
    shown = cut(command, MAX_ARGV)
    if words == list(argv) and stored == words and shown == command:
        return StoredArgv(stored, shown, None, [])
    exact = b"".join(_bytes(w) + b"\0" for w in argv)
    original: dict[str, object] = {"sha256": digests.sha256(exact).hexdigest(),
                                   "count": len(argv), "bytes": len(exact)}
    notes = []
    if words != list(argv):
        notes.append("bytes that are not UTF-8 are stored as \\xNN")
    if stored != words or shown != command:
        notes.append(f"the command ({len(argv)} arguments, {len(exact)} bytes) is stored cut "
                     f"to fit the receipt")
    return StoredArgv(stored, shown, original, notes)


def _bytes(word: str) -> bytes:
    try:
        return word.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return word.encode("utf-8", "surrogatepass")


def _fit(words: list[str]) -> list[str]:
    stored: list[str] = []
    size = 0
    dropped = 0
    for word in words:
        kept = cut(word, MAX_WORD)
        cost = _json_size(kept) + 2
        fits = size + cost <= MAX_ARGV or (kept.startswith("-") and size + cost <= HARD_MAX)
        if not fits:
            dropped += 1
            continue
        if dropped:
            stored.append(f"...[{dropped} arguments cut]")
            size += 30
            dropped = 0
        stored.append(kept)
        size += cost
    if dropped:
        stored.append(f"...[{dropped} arguments cut]")
    return stored
