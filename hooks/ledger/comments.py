"""Whether a change to a file touched only its comments (and, in Python, its docstrings).

A change like that cannot change what the code does, so by default it needs no hypothesis
(the config's ``hypothesis-for-comments = true`` asks for one anyway). Python is compared by
its syntax tree with docstrings removed; other languages by their text with comments removed
and blank lines and trailing spaces ignored, strings kept as they are (a string is behaviour).
A file no lexer knows, or one that does not parse, counts as changed code.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ast


def only_comments_changed(path: str, old: bytes | None, new: bytes | None) -> bool:
    if old is None or new is None or old == new:
        return old == new
    try:
        before, after = old.decode("utf-8"), new.decode("utf-8")
    except UnicodeDecodeError:
        return False
    if path.endswith((".py", ".pyi")):
        return _python_shape(before) == _python_shape(after) is not None
    from hooks.skips import packs_for

    families = {pack.family for pack in packs_for(path)}
    if len(families) != 1:
        return False
    family = families.pop()
    return _without_comments(before, family) == _without_comments(after, family)


def _python_shape(text: str) -> str | None:
    import ast

    try:
        tree = ast.parse(text)
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


def _without_comments(text: str, family: str) -> list[str]:
    from hooks.skips.lexer import FAMILIES

    kept: list[str] = []
    pos = 0
    for m in FAMILIES[family].finditer(text):
        if m.lastgroup in ("c", "c2") and m.start() != m.end():
            kept.append(text[pos:m.start()])
            pos = m.end()
    kept.append(text[pos:])
    return [line.rstrip() for line in re.split(r"\n", "".join(kept)) if line.strip()]
