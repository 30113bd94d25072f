"""Needles: literal substrings that every match of a rule's regex must contain.

A line without any of a rule's needles cannot match it, and ``in`` costs a fraction of a regex
search, so most added lines are dismissed before any regex runs. The needles are read from the
regex's own source by the small parser below (public API only; ``re``'s internal parser differs
between Python versions). It is conservative: whatever it does not understand gives no needle,
which only costs speed, never a missed match.

Parsing every regex a commit touches costs a hook ~2 ms, so the needles of the shipped rules and
pack file patterns are kept, computed, in ``needle_table.py``: ``literals`` reads them from
there and parses only a source the table lacks. ``hooks.skips.needle_build.write_table()`` rewrites the table; a test
fails when it is not current.
"""

from __future__ import annotations

# An item of a parsed sequence: a literal character, a group (its alternatives, each a
# sequence), or None for anything that matches without a fixed literal (classes, anchors,
# lookarounds, optional items). ``+`` after a literal or group keeps it but ends the run.
_Seq = list[object]
_ZERO_WIDTH_OR_CLASS = set("bBAZzdDwWsS")
_ESCAPED_CONTROL = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a"}


class _Unsupported(Exception):
    pass


class _Parser:
    def __init__(self, source: str) -> None:
        self.s = source
        self.i = 0

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def alternation(self) -> list[_Seq]:
        branches = [self.sequence()]
        while self.peek() == "|":
            self.i += 1
            branches.append(self.sequence())
        return branches

    def sequence(self) -> _Seq:
        items: _Seq = []
        while self.peek() not in ("", "|", ")"):
            atom = self.atom()
            low, _ = self.quantifier()
            if low == 0:
                items.append(None)
            elif low == 1 and self.last_quantifier_exact:
                items.append(atom)
            else:  # repeated at least once: required, but what follows is not adjacent
                items.extend((atom, None))
        return items

    last_quantifier_exact = True

    def quantifier(self) -> tuple[int, bool]:
        c = self.peek()
        self.last_quantifier_exact = True
        low = 1
        if c in ("?", "*", "+"):
            self.i += 1
            low = 1 if c == "+" else 0
            self.last_quantifier_exact = c not in ("+",)
        elif c == "{":
            end = self.s.find("}", self.i)
            body = self.s[self.i + 1:end] if end > 0 else ""
            parts = body.split(",")
            # {m}, {m,}, {m,n}, and {,n}: zero to n
            if end > 0 and 1 <= len(parts) <= 2 and (parts[0].isdigit() or (
                    parts[0] == "" and len(parts) == 2 and parts[1].isdigit())) and \
                    all(p.isdigit() or p == "" for p in parts[1:]):
                self.i = end + 1
                low = int(parts[0] or "0")
                self.last_quantifier_exact = body == "1"
            else:
                return 1, True  # a literal '{', read by atom() next time round
        if self.peek() in ("?", "+") and c in ("?", "*", "+", "{"):
            self.i += 1  # lazy or possessive: same literals
        return low, True

    def atom(self) -> object:
        c = self.peek()
        self.i += 1
        if c == "\\":
            e = self.peek()
            self.i += 1
            if not e or e in _ZERO_WIDTH_OR_CLASS or e.isdigit() or e in "xuUNpP":
                if e in "xuUNpP":
                    raise _Unsupported(e)
                return None
            return _ESCAPED_CONTROL.get(e, e)
        if c == "[":
            self.char_class()
            return None
        if c == "(":
            return self.group()
        if c in (".", "^", "$"):
            return None
        if c in ("*", "+", "?", ")"):
            raise _Unsupported(c)
        return c

    def char_class(self) -> None:
        if self.peek() == "^":
            self.i += 1
        if self.peek() == "]":
            self.i += 1
        while self.peek() not in ("", "]"):
            self.i += 2 if self.peek() == "\\" else 1
        if self.peek() != "]":
            raise _Unsupported("[")
        self.i += 1

    def group(self) -> object:
        lookaround = False
        if self.peek() == "?":
            rest = self.s[self.i + 1:self.i + 3]
            if rest[:1] in ("=", "!") or rest in ("<=", "<!"):
                lookaround = True
                self.i += 2 if rest[:1] in ("=", "!") else 3
            elif rest[:1] == ":":
                self.i += 2
            elif rest[:1] == "P" and self.s[self.i + 2:self.i + 3] == "<":
                self.i = self.s.index(">", self.i) + 1
            else:
                raise _Unsupported("(?")  # inline flags, conditionals, comments
        branches = self.alternation()
        if self.peek() != ")":
            raise _Unsupported("(")
        self.i += 1
        return None if lookaround else branches


def _of_sequence(items: _Seq) -> tuple[str, ...] | None:
    candidates: list[tuple[str, ...]] = []
    run: list[str] = []

    def flush() -> None:
        if len(run) >= 2:
            candidates.append(("".join(run),))
        run.clear()

    for item in items:
        if isinstance(item, str):
            run.append(item)
            continue
        flush()
        if isinstance(item, list):
            branches = [_of_sequence(b) for b in item]
            if all(branches):
                candidates.append(tuple(n for b in branches if b for n in b))
    flush()
    if not candidates:
        return None
    return max(candidates, key=lambda c: min(len(n) for n in c))


def required_literals(source: str) -> tuple[str, ...] | None:
    """Any-of literals that every match of SOURCE must contain, or None.

    A run of literal characters in a sequence is required; a group is required when its
    content is; an alternation gives one literal per branch, and only when every branch has
    one. Of the candidates in a sequence, the most selective is kept.
    """
    if "(?i" in source:  # case-folded literals would need case-folded checks
        return None
    parser = _Parser(source)
    try:
        branches = parser.alternation()
        if parser.i != len(source):
            return None
    except (_Unsupported, ValueError, IndexError):
        return None
    return _of_sequence([branches])


_ABSENT = object()


def literals(source: str) -> tuple[str, ...] | None:
    """``required_literals(SOURCE)``, from the computed table when it holds SOURCE."""
    from hooks.skips.needle_table import NEEDLES

    found = NEEDLES.get(source, _ABSENT)
    if found is _ABSENT:
        return required_literals(source)
    return found  # type: ignore[return-value]  # the table's values are what it computed
