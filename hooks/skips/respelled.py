"""A skip respelled in place is not an insertion (SKP001, SKP005): RSpec ``pending`` become
``skip`` on the same line, a test's ``@pytest.mark.xfail(cond)`` become a ``pytest.xfail()``
call inside the same test. Net-new accounting (``changes._net_new``) matches a removed
construct only by its text; this matches one spelling of the same thing by place: the hunk
that removed it and, for a decorator, the body of the test it decorated.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hooks.skips.filescan import ChangedFile
from hooks.skips.filescan import Hit
from hooks.skips.filescan import code_blocks

# (lexer family, removed rule id, added rule id) that spell the same thing: RSpec's ``pending``
# rewritten as ``skip`` (neither reaches a pass); any rule respelled as itself (an ``xfail``
# mark become a ``pytest.xfail()`` call)
_RESPELLINGS = frozenset({("ruby", "SKP005", "SKP001")})


def _respelled(family: str, old: str, new: str) -> bool:
    return old == new or (family, old, new) in _RESPELLINGS


def _region(lines: Sequence[str], added: set[int], pos: int) -> range:
    """The lines a removal at POS stands for: its hunk's added lines and, when the hunk is
    among the decorators of a Python ``def``, that function's body (a decorator's test)."""
    end = pos
    while end in added:
        end += 1
    i = end - 1  # 0-based index of the first line after the hunk
    # to the decorated def: past other decorators, their closing brackets, other added lines
    while i < min(len(lines), end + 8) and not re.match(r"\s*(?:async\s+)?def\s", lines[i]) \
            and (i + 1 in added or not lines[i].strip() or lines[i].lstrip()[:1] in "@)]"):
        i += 1
    if i < len(lines) and re.match(r"\s*(?:async\s+)?def\s", lines[i]):
        indent = len(lines[i]) - len(lines[i].lstrip())
        i += 1
        while i < len(lines) and (not lines[i].strip()
                                  or len(lines[i]) - len(lines[i].lstrip()) > indent):
            i += 1
        end = i + 1
    return range(pos, end)


def respelled_skips(files: Sequence[ChangedFile], hits: list[Hit]) -> list[Hit]:
    """A skip or expected failure that replaces one in the same place, in another spelling of
    the same thing, is not inserted: each removed one excuses one added in its region."""
    suspects = [h for h in hits if h.rule.id in ("SKP001", "SKP005")]
    excused: set[int] = set()
    for f in files:
        mine = [h for h in suspects if h.path == f.diff.path]
        if not mine or not f.diff.removed:
            continue
        family = f.packs[0].family
        rules = [r for p in f.packs for r in p.rules if r.id in ("SKP001", "SKP005")
                 and r.scope == "code"]
        olds = [(pos, rule_id) for pos, _, code, _ in code_blocks(f.removed(), family, 0)
                for rule_id in [next((r.id for r in rules if r.pattern.search(code)), "")]
                if rule_id]
        used: set[int] = set()
        lines = f.scan.raw_lines()
        added = {pos for pos, _ in f.added}
        for hit in mine:
            for n, (pos, old) in enumerate(olds):  # each removed one excuses one added
                if n not in used and _respelled(family, old, hit.rule.id) \
                        and hit.line in _region(lines, added, pos):
                    used.add(n)
                    excused.add(id(hit))
                    break
    return [h for h in hits if id(h) not in excused]
