"""Split source into code and comments, line by line, so rules never fire inside a string.

Each family is one regex over the whole file (multi-line strings and block comments included).
In the code layer, comments become spaces and string contents become spaces between their
quotes; the comment layer holds only comment text. Both keep every newline, so line N of
either layer is line N of the file.
"""

from __future__ import annotations

import re

_PY_STRING = (r"(?P<s>[rRbBuUfF]{0,2}(?:'''.*?(?:'''|\Z)|\"\"\".*?(?:\"\"\"|\Z)"
              r"|'(?:\\.|[^'\\\n])*'|\"(?:\\.|[^\"\\\n])*\"))")
_DQ = r"\"(?:\\.|[^\"\\\n])*\""
_SQ_STRING = r"'(?:\\.|[^'\\\n])*'"
_SQ_CHAR = r"'(?:\\.[^'\n]{0,8}|[^'\\\n])'"  # a char literal; leaves Rust's 'a lifetimes alone
_BLOCK = r"(?P<c2>/\*.*?(?:\*/|\Z))"
_LINE = r"(?P<c>//[^\n]*)"
_HASH = r"(?P<c>#[^\n]*)"

FAMILIES: dict[str, re.Pattern[str]] = {
    "python": re.compile(rf"{_HASH}|{_PY_STRING}", re.S),
    # JS/TS: template literals can span lines
    "js": re.compile(rf"{_LINE}|{_BLOCK}|(?P<s>{_DQ}|{_SQ_STRING}|`(?:\\.|[^`\\])*`)", re.S),
    # Go: raw strings in backticks
    "go": re.compile(rf"{_LINE}|{_BLOCK}|(?P<s>{_DQ}|{_SQ_CHAR}|`[^`]*`)", re.S),
    # C, C++, Java, C#, Rust: '...' is a character, not a string
    "c": re.compile(rf"{_LINE}|{_BLOCK}|(?P<s>{_DQ}|{_SQ_CHAR})", re.S),
    # Kotlin, Scala, Groovy, Swift: also triple-quoted strings
    "jvm": re.compile(rf'{_LINE}|{_BLOCK}|(?P<s>""".*?(?:"""|\Z)|{_DQ}|{_SQ_CHAR})', re.S),
    # PHP: '//' and '#' comments, but '#[...]' is an attribute
    "php": re.compile(rf"(?P<c>(?://|#(?!\[))[^\n]*)|{_BLOCK}|(?P<s>{_DQ}|{_SQ_STRING})", re.S),
    # Ruby: heredocs (<<~EOS ... EOS) are strings too
    "ruby": re.compile(rf"{_HASH}|(?P<s><<[~-]?(?P<hq>[\"'`]?)(?P<hid>[A-Z_][A-Z_0-9]*)(?P=hq).*?^\s*(?P=hid)$"
                       rf"|{_DQ}|{_SQ_STRING})", re.S | re.M),
    # YAML, INI, TOML, Makefile, shell: '#' starts a comment at a line start or after a
    # space; strings stay in the code layer (a CI command is often quoted)
    "conf": re.compile(r"(?P<q>\"(?:\\.|[^\"\\\n])*\"|'[^'\n]*')|(?:(?<=\s)|^)(?P<c>#[^\n]*)",
                       re.M),
    "json": re.compile(r"(?!)"),
}


class Lexed:
    __slots__ = ("code", "comments")

    def __init__(self, code: list[str], comments: list[str]) -> None:
        self.code = code
        self.comments = comments


def _spaces(text: str) -> str:
    return "".join("\n" if ch == "\n" else " " for ch in text)


def lex(text: str, family: str) -> Lexed:
    pattern = FAMILIES[family]
    code: list[str] = []
    comments: list[str] = []
    pos = 0
    for m in pattern.finditer(text):
        kind = m.lastgroup
        start, end = m.span()
        if kind == "q" or start == end:
            continue
        code.append(text[pos:start])
        comments.append(_spaces(text[pos:start]))
        token = m.group(0)
        if kind in ("c", "c2"):
            code.append(_spaces(token))
            comments.append(token)
        else:  # a string: keep its quotes (and prefix) so `assert ""` still reads as a string
            quote_at = len(token) - len(token.lstrip("rRbBuUfF"))
            width = 3 if token[quote_at:quote_at + 3] in ('"""', "'''") else 1
            head, body = token[:quote_at + width], token[quote_at + width:]
            tail_width = width if len(body) >= width and body.endswith(head[-width:]) else 0
            tail = body[len(body) - tail_width:] if tail_width else ""
            inner = body[:len(body) - tail_width]
            code.append(head + _spaces(inner) + tail)
            comments.append(_spaces(token))
        pos = end
    code.append(text[pos:])
    comments.append(_spaces(text[pos:]))
    return Lexed("".join(code).split("\n"), "".join(comments).split("\n"))
