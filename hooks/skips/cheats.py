"""Confirmations for the rules about test code that fakes a green run: an assertion failure
swallowed by an ``except`` that does nothing, a process exit that is a child's own (a forked
child, a Go helper process), a summary line written from code rather than test data.

Each is a rule's ``confirm``: (the file's raw lines, its text, line, column) -> reported? The
rule's regex finds the candidate line cheaply; these decide. A file that does not parse
confirms nothing.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Sequence

# what catches a failing assert: bare except, AssertionError and its bases
_CATCHES_ASSERT = frozenset({"AssertionError", "Exception", "BaseException"})
# a call that asserts: unittest's self.assert*/fail*, mock's assert_called*, assert_* helpers
_ASSERTING_CALL = re.compile(r"^(?:assert|fail)")


def _caught_names(node: ast.expr | None) -> set[str]:
    if node is None:
        return {"BaseException"}
    if isinstance(node, ast.Tuple):
        return set().union(*(_caught_names(e) for e in node.elts)) if node.elts else set()
    if isinstance(node, ast.Attribute):  # builtins.AssertionError
        return {node.attr}
    return {node.id} if isinstance(node, ast.Name) else set()


def _asserts(body: Sequence[ast.stmt]) -> bool:
    """BODY (a try block) holds an assert statement or an asserting call, not in a nested
    function or class (defining one asserts nothing)."""
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Assert):
            return True
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if _ASSERTING_CALL.match(name):
                return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                 ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))
    return False


def _leaves_early(body: Sequence[ast.stmt]) -> bool:
    """BODY breaks or returns: a retry loop, where what follows the loop decides."""
    return any(isinstance(n, (ast.Break, ast.Return)) for s in body for n in ast.walk(s))


def _does_nothing(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Pass) or (
        isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
        and stmt.value.value is Ellipsis)


@functools.lru_cache(maxsize=8)
def _swallowing_lines(text: str) -> frozenset[int]:
    """The lines of do-nothing handler bodies (``pass``, ``...``) of excepts that catch a
    failing assertion from a try block that asserts, with no ``else:`` (the old 'expect it to
    raise' form fails in its else) and no ``break`` or ``return`` (a retry loop)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    found: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try) or node.orelse or not _asserts(node.body) \
                or _leaves_early(node.body):
            continue
        for handler in node.handlers:
            if _caught_names(handler.type) & _CATCHES_ASSERT and all(
                    _does_nothing(s) for s in handler.body):
                found |= {s.lineno for s in handler.body}
    return frozenset(found)


def confirm_swallowed_assertion(_lines: Sequence[str], text: str, line: int,
                                _col: int) -> bool:
    return line in _swallowing_lines(text)


def confirm_not_forked(_lines: Sequence[str], text: str, _line: int, _col: int) -> bool:
    """``os._exit`` in a file that forks is the child's own exit, not the test run's."""
    return re.search(r"\bfork\w*\s*\(", text) is None


def confirm_not_helper_process(_lines: Sequence[str], text: str, _line: int,
                               _col: int) -> bool:
    """A Go test file that runs its own binary as a helper (``exec.Command(os.Args[0],
    "-test.run=TestHelperProcess")``) exits 0 in the helper, not in the test run."""
    return "os.Args[0]" not in text and "-test.run" not in text


@functools.lru_cache(maxsize=8)
def _code_lines(text: str) -> list[str]:
    from hooks.skips.lexer import lex

    return lex(text, "python").code


def confirm_in_code(lines: Sequence[str], text: str, line: int, col: int) -> bool:
    """A raw-scope match starts in code, not inside a string (pytester's test data) or a
    comment: the code layer keeps code as it is and blanks the rest."""
    code = _code_lines(text)
    raw = lines[line - 1] if 0 < line <= len(lines) else ""
    here = code[line - 1] if 0 < line <= len(code) else ""
    return col < len(raw) and here[col:col + 1] == raw[col:col + 1] and not raw[col].isspace()


def confirm_not_made_failed(lines: Sequence[str], _text: str, line: int, col: int) -> bool:
    """An outcome set to "failed" makes the run stricter (fail on a warning), not greener."""
    raw = lines[line - 1] if 0 < line <= len(lines) else ""
    return "failed" not in raw[col:]


def confirm_not_doc_comment(lines: Sequence[str], _text: str, line: int, _col: int) -> bool:
    """A comment rule's match is not in a documentation comment (``///``, ``//!``, a
    ``/** ... */`` or ``/*! ... */`` block): a rustdoc or Javadoc example, a doctest, is
    documentation, not a test commented out."""
    raw = lines[line - 1].lstrip() if 0 < line <= len(lines) else ""
    if raw.startswith(("///", "//!")):
        return False
    for number in range(line, max(line - 200, 0), -1):  # the block comment it sits in
        text = lines[number - 1]
        opened = text.rfind("/*")
        if text.rfind("*/") > opened and number != line:
            return True  # a block closed above: this line is in none
        if opened >= 0:
            return text[opened + 2:opened + 3] not in ("*", "!") or \
                text[opened:opened + 4] == "/**/"
    return True


_RETURN_AFTER = re.compile(r"[;{]\s*return\b|^\s*return\b")


def confirm_returns_after(lines: Sequence[str], _text: str, line: int, col: int) -> bool:
    """The 'skipping' message is code (not a comment) and the test returns right after it:
    on the same line, or as the next non-blank line."""
    raw = lines[line - 1] if 0 < line <= len(lines) else ""
    if raw.lstrip().startswith(("//", "#", "*", "/*", "--")):
        return False
    if _RETURN_AFTER.search(raw[col:]):
        return True
    following = next((t for t in lines[line:line + 3] if t.strip()), "")
    return _RETURN_AFTER.match(following) is not None
