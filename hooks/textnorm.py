"""Text clean-up shared by the test counter and the fuse's fingerprints."""

from __future__ import annotations

import re

# CSI sequences (colours, cursor moves), OSC sequences (titles, hyperlinks), and lone escapes.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text) if "\x1b" in text else text
