"""One file of a change, scanned: the hits of the rules on the lines it adds, the allowances
beside them, and the lexing both need (computed once, only when a line needs it).

``scan`` drives these over a change or over whole files; ``changes`` judges the change as a whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence

from hooks.core.diff import FileDiff
from hooks.skips.allowances import Allowance
from hooks.skips.allowances import parse_allowance
from hooks.skips.rules import BODY_START_LOOKAHEAD

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hooks.skips.lexer import Lexed
    from hooks.skips.rules import Pack
    from hooks.skips.rules import Rule

MAX_LINE = 20_000  # longer lines are minified bundles, not tests


class Hit:
    """A rule matching a line the change adds."""

    __slots__ = ("col", "line", "path", "rule", "text")

    def __init__(self, path: str, line: int, col: int, rule: Rule, text: str) -> None:
        self.path = path
        self.line = line
        self.col = col
        self.rule = rule
        self.text = text


class FileScan:
    """Rules over the lines a change adds to one file, lexing the file only when needed."""

    def __init__(self, path: str, packs: Sequence[Pack], text: str | None) -> None:
        self.path = path
        self.packs = packs
        self.text = text
        self._raw: list[str] | None = None
        self._lexed: dict[str, Lexed] = {}

    def raw_lines(self) -> list[str]:
        if self._raw is None:
            self._raw = (self.text or "").split("\n")
        return self._raw

    def lexed(self, family: str) -> Lexed:
        if family not in self._lexed:
            from hooks.skips.lexer import lex

            self._lexed[family] = lex(self.text or "", family)
        return self._lexed[family]

    def layer(self, pack: Pack, scope: str, line: int) -> str:
        if scope == "raw":
            lines = self.raw_lines()
        else:
            lexed = self.lexed(pack.family)
            lines = lexed.comments if scope == "comment" else lexed.code
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        return text.strip() if scope == "comment" else text

    def previous_code(self, pack: Pack, line: int) -> str:
        code = self.lexed(pack.family).code
        for i in range(min(line - 1, len(code)) - 1, -1, -1):
            if code[i].strip():
                return code[i]
        return ""

    def candidates(self, added: Sequence[tuple[int, str]],
                   enabled: frozenset[str] = frozenset()) -> list[tuple[int, str, Pack, Rule]]:
        """Rules matching the raw added lines: needs no file content, and most lines stop at
        the needle check. ``hits`` then confirms each on the lexed line. Opt-in rules run
        only when ENABLED names them."""
        found: list[tuple[int, str, Pack, Rule]] = []
        texts = [t for _, t in added]
        if texts and max(map(len, texts)) > MAX_LINE:
            added = [(n, t) for n, t in added if len(t) <= MAX_LINE]
            texts = [t for _, t in added]
        everything = "\n".join(texts)
        for pack in self.packs:
            wanted = [(rule, pack.needles_of(rule) or ("",)) for rule in pack.rules
                      if not (rule.files and not rule.files.search(self.path))
                      and not (rule.opt_in and rule.id not in enabled)
                      and not (rule.tests_only and not pack.is_test_file(self.path))]
            # a rule whose needles appear nowhere in the change is out for the whole file;
            # each distinct needle is looked for once (rules share them)
            present = {n for n in {n for _, needles in wanted for n in needles}
                       if n in everything}
            checks = [(rule, needles) for rule, needles in wanted
                      if not present.isdisjoint(needles)]
            if not checks:
                continue
            added_at = dict(added) if any(r.body_start for r, _ in checks) else {}
            # rule by rule over the lines holding one of its needles (comprehensions: the hot
            # path), then back into the order of a line-by-line scan: by line, then by rule
            matched: list[tuple[int, int, str, Rule]] = []
            for index, (rule, needles) in enumerate(checks):
                if len(needles) == 1:
                    needle = needles[0]
                    lines = [(n, t) for n, t in added if needle in t]
                else:
                    lines = [(n, t) for n, t in added if any(x in t for x in needles)]
                search = rule.pattern.search  # compiled only now: some line has a needle
                if rule.scope == "comment":  # a comment rule reads the comment, indented or not
                    lines = [(n, t) for n, t in lines if search(t.lstrip())]
                else:
                    lines = [(n, t) for n, t in lines if search(t)]
                if rule.body_start is not None:  # most often the next line decides
                    start = rule.body_start
                    lines = [(n, t) for n, t in lines
                             if (start(first) if (first := added_at.get(n + 1, "").strip())
                                 else _may_start(start, added_at, n))]
                matched += [(n, index, t, rule) for n, t in lines]
            matched.sort(key=lambda m: (m[0], m[1]))
            found += [(number, raw, pack, rule) for number, _, raw, rule in matched]
        return found

    def hits(self, candidates: Iterable[tuple[int, str, Pack, Rule]]) -> list[Hit]:
        found: list[Hit] = []
        seen: set[tuple[int, str]] = set()
        for number, raw, pack, rule in candidates:
            m = rule.pattern.search(self.layer(pack, rule.scope, number))
            if not m or (number, rule.id) in seen:  # a line is reported once per rule id
                continue
            if rule.previous and not rule.previous.search(
                    self.previous_code(pack, number)):
                continue
            if rule.confirm is not None and not rule.confirm(
                    self.raw_lines(), self.text or "", number, m.start()):
                continue
            seen.add((number, rule.id))
            found.append(Hit(self.path, number, self.column(pack, rule.scope, number, m),
                             rule, raw))
        return found

    def column(self, pack: Pack, scope: str, line: int, m: re.Match[str]) -> int:
        """The 1-based column, on the raw line, where the construct M matched begins.

        Patterns anchor on ``^\\s*`` or a look-behind, so the match's leading blanks are not
        the construct; a pattern that must read more of the line than its construct marks the
        construct with a group named ``at``. Every layer keeps the raw line's width, except
        that a comment rule reads its comment stripped: its offset in the line is added back.
        """
        if "at" in m.re.groupindex and m.start("at") >= 0:
            start = m.start("at")
        else:
            matched = m.group()
            start = m.start() + len(matched) - len(matched.lstrip())
        if scope == "comment":
            comments = self.lexed(pack.family).comments
            text = comments[line - 1] if 0 < line <= len(comments) else ""
            start += len(text) - len(text.lstrip())
        return start + 1

    def allowance_for(self, hit: Hit, ticket: re.Pattern[str]) -> Allowance | None:
        pack = next(p for p in self.packs if hit.rule in p.rules or hit.rule.scope == "change")
        comments = self.lexed(pack.family).comments
        for number in (hit.line, hit.line - 1):
            if 0 < number <= len(comments):
                allowance = parse_allowance(comments[number - 1], number, ticket)
                if allowance and (not allowance.honoured or hit.rule.id in allowance.ids):
                    return allowance
        return None


def _may_start(body_start: Callable[[str], bool], added_at: dict[int, str], line: int) -> bool:
    """The first non-blank line below LINE may satisfy BODY_START: false only when the added
    lines themselves show it does not (a line below that the change does not add is unknown)."""
    for number in range(line + 1, line + 1 + BODY_START_LOOKAHEAD):
        text = added_at.get(number)
        if text is None:
            return True
        if text.strip():
            return body_start(text.strip())
    return False



class ChangedFile:
    """One file of the change with the packs that read it and the lines it adds."""

    __slots__ = ("added", "diff", "packs", "scan")

    def __init__(self, diff: FileDiff, packs: list[Pack], added: list[tuple[int, str]]) -> None:
        self.diff = diff
        self.packs = packs
        self.added = added
        self.scan = FileScan(diff.path, packs, None)

    def removed(self) -> list[tuple[int, str]]:
        return [(pos, raw.decode("utf-8", "replace")) for pos, raw in self.diff.removed]



def code_blocks(lines: Sequence[tuple[int, str]], family: str,
                 step: int) -> list[tuple[int, str, str, str]]:
    """(position, raw, code, comment) for LINES, each run of adjacent lines lexed together so that a
    comment or a string spanning them is set apart (STEP: 1 for added lines, which number
    consecutively; 0 for removed ones, which share their hunk's position)."""
    from hooks.skips.lexer import lex

    out: list[tuple[int, str, str, str]] = []
    run: list[tuple[int, str]] = []
    for item in [*lines, None]:
        if item is not None and (not run or item[0] == run[-1][0] + step):
            run.append(item)
            continue
        if run:
            lexed = lex("\n".join(t for _, t in run), family)
            out += [(pos, raw, code, comment.strip()) for (pos, raw), code, comment
                    in zip(run, lexed.code, lexed.comments)]
        run = [item] if item is not None else []
    return out
