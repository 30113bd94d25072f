"""Whether a change to a file touched only its comments (and, in Python, its docstrings).

A change like that cannot change what the code does, so by default it needs no hypothesis
(the config's ``hypothesis-for-comments = true`` asks for one anyway). Python is compared by
its syntax tree with docstrings removed; other languages by their text with comments removed
and blank lines and trailing spaces ignored, strings kept as they are (a string is behaviour).
A file no lexer knows, or one that does not parse, counts as changed code.

Some comments are read by the interpreter or the compiler, and are code here: a shebang; in
Python the coding cookie (PEP 263: it decides what every string holds); in Go the build
constraints (``//go:build``, ``// +build``) and other ``//go:`` directives, ``//export`` and
``//line``, and the cgo preamble (the comment right above ``import "C"``); in JavaScript and
TypeScript the JSX pragmas and ``@ts-`` directives.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ast


def only_comments_changed(path: str, old: bytes | None, new: bytes | None) -> bool:
    if old is None and new is None:  # content git cannot show here: a submodule's commit
        return False
    if old is None or new is None or old == new:
        return old == new
    try:
        before, after = old.decode("utf-8"), new.decode("utf-8")
    except UnicodeDecodeError:
        return False
    if path.endswith((".py", ".pyi")):
        if _python_header(old) != _python_header(new):
            return False
        return _python_shape(old) == _python_shape(new) is not None
    from hooks.skips import packs_for

    families = {pack.family for pack in packs_for(path)}
    if len(families) != 1:
        return False
    family = families.pop()
    return _without_comments(before, family) == _without_comments(after, family)


def _python_header(raw: bytes) -> tuple[str, str] | None:
    """What Python reads from the comments at the top: the shebang and the source encoding
    (the cookie, or a BOM); None when the encoding is not one Python knows."""
    import io
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError:
        return None
    shebang = raw.split(b"\n", 1)[0] if raw.startswith(b"#!") else b""
    return shebang.decode("utf-8", "replace").rstrip(), encoding


def _python_shape(raw: bytes) -> str | None:
    """The syntax tree without docstrings, strings decoded as the file's encoding says."""
    import ast

    try:
        tree = ast.parse(raw)
    except (SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            _drop_docstring(node)
    return ast.dump(tree, include_attributes=False)


def _drop_docstring(node: ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef,
                    ) -> None:
    import ast

    body = node.body
    if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)):
        node.body = body[1:] or [ast.Pass()]


# Comments a compiler or interpreter reads, by lexer family (a shebang is one in every family).
DIRECTIVES: dict[str, re.Pattern[str]] = {
    "go": re.compile(r"^//(?:go:|export |line )|^// ?\+build|^/\*line "),
    "js": re.compile(r"@jsx(?:ImportSource|Frag|Runtime)?\b"
                     r"|@ts-(?:ignore|expect-error|nocheck|check)\b"),
}
# cgo: a comment right above `import "C"` (no blank line between) is C code, the preamble.
_CGO_IMPORT = re.compile(r'[ \t]*\n?[ \t]*import[ \t]*"C"|[ \t]*\n?[ \t]*"C"')
_BETWEEN_COMMENTS = re.compile(r"[ \t]*\n?[ \t]*")  # one run of a preamble: no blank line


def _read_comments(text: str, family: str) -> list[tuple[int, int, bool]]:
    """Every comment in TEXT: (start, end, read by the toolchain)."""
    from hooks.skips.lexer import FAMILIES

    found = [(m.start(), m.end(), False) for m in FAMILIES[family].finditer(text)
             if m.lastgroup in ("c", "c2") and m.start() != m.end()]
    directive = DIRECTIVES.get(family)
    read = [(start == 0 and text.startswith("#!"))
            or bool(directive and directive.search(text[start:end]))
            for start, end, _ in found]
    if family == "go":  # a run of comments ending right above import "C" is the preamble
        for i in range(len(found) - 1, -1, -1):
            end = found[i][1]
            if _CGO_IMPORT.match(text, end):
                j = i
                while j >= 0 and (j == i or _BETWEEN_COMMENTS.fullmatch(
                        text, found[j][1], found[j + 1][0])):
                    read[j] = True
                    j -= 1
    return [(start, end, keep) for (start, end, _), keep in zip(found, read)]


def _without_comments(text: str, family: str) -> list[str]:
    kept: list[str] = []
    pos = 0
    for start, end, read in _read_comments(text, family):
        if read:
            continue  # read by the toolchain: compared as code
        kept.append(text[pos:start])
        pos = end
    kept.append(text[pos:])
    return [line.rstrip() for line in re.split(r"\n", "".join(kept)) if line.strip()]
