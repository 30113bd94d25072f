"""Python read with ``ast`` where a line regex cannot judge: a skip condition that is a
constant however it is spelled (``1 == 1``, ``not 0``, ``condition=True``, ``"True"``), and a test
body that ends before it checks anything (an early ``return``, only a docstring).

Each check is a rule's ``confirm``: the rule's regex finds the candidate line cheaply, the parse
decides. A file that does not parse confirms nothing.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence

from hooks.skips.packs.python import opens_string
from hooks.skips.rules import BODY_START_LOOKAHEAD

_NOT_CONSTANT = object()
_NO_NAMES: Mapping[str, object] = {}


def constant(node: ast.AST, names: Mapping[str, object] = _NO_NAMES) -> object:
    """NODE's value when it is made only of literals, operators and NAMES (a module's own
    constants), else ``_NOT_CONSTANT``."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return names.get(node.id, _NOT_CONSTANT)
    if isinstance(node, ast.UnaryOp):
        value = constant(node.operand, names)
        if value is _NOT_CONSTANT:
            return value
        ops = {ast.Not: lambda v: not v, ast.USub: lambda v: -v, ast.UAdd: lambda v: +v}
        op = ops.get(type(node.op))
        return _NOT_CONSTANT if op is None else _safely(op, value)
    if isinstance(node, ast.BoolOp):
        values = [constant(v, names) for v in node.values]
        if any(v is _NOT_CONSTANT for v in values):
            return _NOT_CONSTANT
        result = values[0]
        for v in values[1:]:
            result = (result and v) if isinstance(node.op, ast.And) else (result or v)
        return result
    if isinstance(node, ast.Compare):
        left = constant(node.left, names)
        rights = [constant(c, names) for c in node.comparators]
        if left is _NOT_CONSTANT or any(r is _NOT_CONSTANT for r in rights):
            return _NOT_CONSTANT
        compare = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b,
                   ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b,
                   ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
                   ast.Is: lambda a, b: a is b, ast.IsNot: lambda a, b: a is not b}
        for cmp, right in zip(node.ops, rights):
            fn = compare.get(type(cmp))
            outcome = _NOT_CONSTANT if fn is None else _safely(fn, left, right)
            if outcome is _NOT_CONSTANT or not outcome:
                return outcome
            left = right
        return True
    if isinstance(node, ast.BinOp):
        a, b = constant(node.left, names), constant(node.right, names)
        arith = {ast.Add: lambda x, y: x + y, ast.Sub: lambda x, y: x - y,
                 ast.Mult: lambda x, y: x * y}
        fn = arith.get(type(node.op))
        if fn is None or a is _NOT_CONSTANT or b is _NOT_CONSTANT:
            return _NOT_CONSTANT
        if isinstance(a, (str, bytes)) or isinstance(b, (str, bytes)):
            return _NOT_CONSTANT  # "x" * 10**9: not evaluated
        return _safely(fn, a, b)
    return _NOT_CONSTANT


def _safely(fn: object, *args: object) -> object:
    try:
        return fn(*args)  # type: ignore[operator]
    except Exception:  # 1 < "a": not a constant we can judge
        return _NOT_CONSTANT


def _condition_always_skips(name: str, node: ast.AST, names: Mapping[str, object]) -> bool:
    value = constant(node, names)
    if isinstance(value, str) and name == "skipif":  # pytest evaluates a string condition
        try:
            value = constant(ast.parse(value.strip(), mode="eval").body, names)
        except (SyntaxError, ValueError):
            return False
    if value is _NOT_CONSTANT:
        return False
    return not value if name == "skipUnless" else bool(value)


def _call_at(lines: Sequence[str], line: int, col: int) -> ast.Call | None:
    """The call that starts at LINE:COL (1-based line), read across up to 10 lines."""
    text = "\n".join(lines[line - 1:line + 9])[col:]
    for end in (i for i, ch in enumerate(text) if ch == ")"):
        try:
            node = ast.parse(text[:end + 1].strip(), mode="eval").body
        except (SyntaxError, ValueError):
            continue
        return node if isinstance(node, ast.Call) else None
    return None


def constant_skip_condition(lines: Sequence[str], text: str, line: int, col: int) -> bool:
    """The skipif/skipIf/skipUnless call at LINE:COL skips whatever happens."""
    call = _call_at(lines, line, col)
    if call is None:
        return False
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name not in ("skipif", "skipIf", "skipUnless"):
        return False
    conditions: list[ast.AST] = list(call.args if name == "skipif" else call.args[:1])
    conditions += [k.value for k in call.keywords if k.arg == "condition"]
    names = _findings(text).constants
    return any(_condition_always_skips(name, c, names) for c in conditions)


def _tests(body: Sequence[ast.stmt]) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The test functions (test*) of a module or class body, and of the classes in it; not
    inside functions (pytest collects none there), so a big file is not walked node by node."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name.startswith("test"):
                yield node
        elif isinstance(node, (ast.ClassDef, ast.If, ast.Try)):  # Test classes; version checks
            yield from _tests(node.body)


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
        and isinstance(stmt.value.value, str)


def _does_nothing(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.Expr) and isinstance(
        stmt.value, ast.Constant) and stmt.value.value is Ellipsis)


def _bare_return(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Return) and (
        stmt.value is None or constant(stmt.value) is None)


def _return_lines(stmt: ast.stmt) -> set[int]:
    """The lines of ``return`` or of ``if <constant true>: return`` (both of its lines)."""
    if _bare_return(stmt):
        return {stmt.lineno}
    if isinstance(stmt, ast.If) and stmt.body and _bare_return(stmt.body[0]):
        value = constant(stmt.test)
        if value is not _NOT_CONSTANT and bool(value):
            return {stmt.lineno, stmt.body[0].lineno}
    return set()


class _Findings:
    """What one parse of a file says: the lines of early returns and of docstring-only tests."""

    __slots__ = ("constants", "docstring_only", "early_returns")

    def __init__(self, text: str) -> None:
        self.early_returns: set[int] = set()
        self.docstring_only: set[int] = set()
        self.constants: dict[str, object] = {}  # SKIP = True: names bound once, to a constant
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return
        bound: dict[str, int] = {}
        for stmt in tree.body:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [
                stmt.target] if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) else []
            for t in targets:
                if isinstance(t, ast.Name):
                    bound[t.id] = bound.get(t.id, 0) + 1
                    value = getattr(stmt, "value", None)
                    if value is not None and isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                        self.constants[t.id] = constant(value)
        self.constants = {k: v for k, v in self.constants.items()
                          if v is not _NOT_CONSTANT and bound[k] == 1 and _bound_once(k, text)}
        for test in _tests(tree.body):
            body = test.body
            if body and _is_docstring(body[0]) and all(_does_nothing(s) for s in body[1:]):
                self.docstring_only.add(test.lineno)
            rest = body[1:] if body and _is_docstring(body[0]) else body
            for i, stmt in enumerate(rest):
                # a return with statements after it (never run), or that is all the test does
                if i < len(rest) - 1 or len(rest) == 1:
                    self.early_returns |= _return_lines(stmt)


def _bound_once(name: str, text: str) -> bool:
    """NAME is bound once in the whole file (not also set in a try, a function, a loop)."""
    n = re.escape(name)
    binding = (rf"(?<![\w.])(?:{n}\s*(?::=|[-+*/|&]?=(?!=)|:[^=\n]*=)|(?:as|for)\s+{n}\b"
               rf"|global\b[^\n]*\b{n}\b|^\s*{n}\s*,[^=\n(]*=(?!=))")
    return len(re.findall(binding, text, re.M)) == 1


@functools.lru_cache(maxsize=8)
def _findings(text: str) -> _Findings:
    return _Findings(text)


def returns_before_checking(text: str, line: int) -> bool:
    """LINE holds a return in a test body with statements after it, or all the body does."""
    return line in _findings(text).early_returns


def only_a_docstring(text: str, line: int) -> bool:
    """LINE defines a test whose body is only its docstring (and pass or ...)."""
    return line in _findings(text).docstring_only


# The rules' ``confirm`` hooks: (the file's raw lines, its text, line, column) -> reported?
def confirm_constant_condition(lines: Sequence[str], text: str, line: int, col: int) -> bool:
    return constant_skip_condition(lines, text, line, col)


def confirm_unconditional_xfail(lines: Sequence[str], text: str, line: int, col: int) -> bool:
    """The xfail at LINE:COL holds whatever happens: bare, with no condition, or with a constant
    one (``xfail(True)``). An xfail under a runtime condition (``xfail(sys.platform ==
    "win32")``) is not reported, as a skipif under one is not; ``pytest.xfail()`` in a test's
    body and ``expectedFailure`` are judged as they are written."""
    call = _call_at(lines, line, col)
    if call is None or not isinstance(call.func, ast.Attribute) or call.func.attr != "xfail":
        return True
    receiver = call.func.value
    if not ((isinstance(receiver, ast.Attribute) and receiver.attr == "mark")
            or (isinstance(receiver, ast.Name) and receiver.id == "mark")):
        return True  # pytest.xfail("reason"): called where the test stops
    conditions: list[ast.AST] = list(call.args[:1])
    conditions += [k.value for k in call.keywords if k.arg == "condition"]
    if not conditions:
        return True
    names = _findings(text).constants
    return any(_condition_always_skips("skipif", c, names) for c in conditions)


def confirm_early_return(_lines: Sequence[str], text: str, line: int, _col: int) -> bool:
    return returns_before_checking(text, line)


def confirm_docstring_only(lines: Sequence[str], text: str, line: int, _col: int) -> bool:
    # most tests start with code: no parse unless the body's first line opens a string
    first = next((t.strip() for t in lines[line:line + BODY_START_LOOKAHEAD] if t.strip()), "")
    return opens_string(first) and only_a_docstring(text, line)


def confirm_module_alias(_lines: Sequence[str], text: str, line: int, col: int) -> bool:
    """The receiver of ``X.skip`` / ``X.mark.skip`` at LINE:COL is pytest or unittest imported
    under another name (``import pytest as pt``)."""
    receiver = re.match(r"\w+", _lines[line - 1][col:]) if 0 < line <= len(_lines) else None
    return receiver is not None and re.search(
        rf"^\s*import\s+(?:pytest|unittest)\s+as\s+{re.escape(receiver.group(0))}\s*$",
        text, re.M) is not None
