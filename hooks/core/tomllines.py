"""Where a key sits in TOML text, for error messages that name the line: headers and keys
are read line by line (the TOML parsers report values, not where they came from).

``re`` is imported inside: only a config with an error needs this module's work.
"""

from __future__ import annotations

# compiled on first use by re's own cache: only a config with an error needs them
_HEADER = r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$"
_KEY = (r"^\s*((?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')"
        r"(?:\s*\.\s*(?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*'))*)\s*=")


def _dotted(text: str) -> list[str | int]:
    import re

    parts = re.findall(r"\"([^\"]*)\"|'([^']*)'|([A-Za-z0-9_-]+)", text)
    return [a or b or c for a, b, c in parts]


def line_of(text: str, target: list[str | int]) -> int:
    """The line of TARGET (a path of keys and array indexes) in TOML TEXT, found by reading
    headers and keys: the line whose own path shares the longest start with TARGET."""
    import re

    table: list[str | int] = []
    arrays: dict[tuple[str | int, ...], int] = {}
    best, best_score = 1, -1
    for number, line in enumerate(text.splitlines(), 1):
        header = re.match(_HEADER, line)
        here: list[str | int]
        if header:
            name = _dotted(header.group(2))
            if header.group(1) == "[[":
                index = arrays.get(tuple(name), -1) + 1
                arrays[tuple(name)] = index
                table = [*name, index]
            else:
                table = list(name)
            here = table
        else:
            key = re.match(_KEY, line)
            if not key:
                continue
            here = [*table, *_dotted(key.group(1))]
        if here == target[:len(here)] and len(here) > best_score:
            best, best_score = number, len(here)
    return best
