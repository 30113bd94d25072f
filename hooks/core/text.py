"""Text from command output: cutting a byte stream into lines, the line a terminal shows, and
text any terminal can print."""

from __future__ import annotations

import re

# CSI sequences (colours, cursor moves), OSC sequences (titles, hyperlinks), and lone escapes.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


def printable(text: str) -> str:
    """TEXT with each byte that is not UTF-8 (kept by Python as a surrogate) written ``\\xNN``."""
    if text.isascii():
        return text
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a surrogate that did not come from a byte
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


_C_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def printable_path(path: str) -> str:
    """PATH as part of a one-line message: plain when it is, else C-quoted as git quotes it
    (``"new\\nline.txt"``), so a name holding a newline or an escape cannot split the line or
    drive the terminal; bytes that are not UTF-8 are written ``\\xNN`` as by ``printable``."""
    if not any(ord(c) < 0x20 or ord(c) == 0x7F for c in path):
        return printable(path)
    quoted = "".join(_C_ESCAPES.get(c) or (f"\\{ord(c):03o}" if ord(c) < 0x20 or ord(c) == 0x7F
                                           else c) for c in path)
    return printable(f'"{quoted}"')


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text) if "\x1b" in text else text


def visible(line: str) -> str:
    """What a terminal shows of LINE: no colours, and of a line redrawn in place with carriage
    returns (a progress bar), only its last state."""
    line = strip_ansi(line).rstrip("\r")
    return line.rsplit("\r", 1)[-1] if "\r" in line else line


class LineBuffer:
    """Cut a byte stream into lines as it arrives, never holding more than MAX_LINE bytes of
    one line: a longer line is kept to its first MAX_LINE bytes (summaries and failure lines
    are short; what is cut is noise)."""

    def __init__(self, max_line: int) -> None:
        self.max_line = max_line
        self._partial = b""

    def feed(self, data: bytes) -> list[bytes]:
        lines = (self._partial + data).split(b"\n")
        self._partial = lines.pop()[: self.max_line]
        return [line[: self.max_line] for line in lines]

    def close(self) -> list[bytes]:
        rest, self._partial = self._partial, b""
        return [rest] if rest else []


_ANSI_BYTES = re.compile(_ANSI.pattern.encode())
_LONGEST_HELD = 256  # an escape sequence still open after this many bytes is not one


class AnsiStripper:
    """Remove colour and cursor codes from a byte stream as it arrives: a sequence cut in two
    by a chunk boundary is held back until its end comes."""

    def __init__(self) -> None:
        self._held = b""

    def feed(self, data: bytes) -> bytes:
        data = self._held + data
        self._held = b""
        start = data.rfind(b"\x1b")
        if start < 0:
            return data
        tail = data[start:]
        if len(tail) < _LONGEST_HELD and not _ANSI_BYTES.match(tail):
            data, self._held = data[:start], tail
        return _ANSI_BYTES.sub(b"", data)

    def close(self) -> bytes:
        rest, self._held = self._held, b""
        return rest
