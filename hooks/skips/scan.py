"""Scanning: the rules over what a change adds to each file, or over whole files.

Most added lines stop at a substring check (the packs' needles); only lines with a candidate
are read against the lexed file, where strings are blanked and comments set apart, so a rule
never fires inside a string.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from collections.abc import Sequence

from hooks.core import git
from hooks.core.change import Change
from hooks.core.diff import FileDiff
from hooks.skips.allowances import Allowance
from hooks.skips.allowances import parse_allowance

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

    def candidates(self, added: Sequence[tuple[int, str]]) -> list[tuple[int, str, Pack, Rule]]:
        """Rules matching the raw added lines: needs no file content, and most lines stop at
        the needle check. ``hits`` then confirms each on the lexed line."""
        found: list[tuple[int, str, Pack, Rule]] = []
        added = [(n, t) for n, t in added if len(t) <= MAX_LINE]
        everything = "\n".join(t for _, t in added)
        for pack in self.packs:
            # a rule whose needles appear nowhere in the change is out for the whole file
            checks = [(rule, needles) for rule in pack.rules
                      if not (rule.files and not rule.files.search(self.path))
                      for needles in [pack.needles_of(rule) or ("",)]
                      if any(n in everything for n in needles)]
            if not checks:
                continue
            gate = pack.gate.search
            for number, raw in added:  # hot loop: plain loops, no calls it can avoid
                if not gate(raw):
                    continue
                for rule, needles in checks:
                    for needle in needles:
                        if needle in raw:  # only now is the rule's regex compiled and run
                            if rule.pattern.search(raw):
                                found.append((number, raw, pack, rule))
                            break
        return found

    def hits(self, candidates: Iterable[tuple[int, str, Pack, Rule]]) -> list[Hit]:
        found: list[Hit] = []
        for number, raw, pack, rule in candidates:
            m = rule.pattern.search(self.layer(pack, rule.scope, number))
            if not m:
                continue
            if rule.previous and not rule.previous.search(
                    self.previous_code(pack, number)):
                continue
            found.append(Hit(self.path, number, m.start() + 1, rule, raw))
        return found

    def allowance_for(self, hit: Hit, ticket: re.Pattern[str]) -> Allowance | None:
        pack = next(p for p in self.packs if hit.rule in p.rules or hit.rule.scope == "change")
        comments = self.lexed(pack.family).comments
        for number in (hit.line, hit.line - 1):
            if 0 < number <= len(comments):
                allowance = parse_allowance(comments[number - 1], number, ticket)
                if allowance and (not allowance.honoured or hit.rule.id in allowance.ids):
                    return allowance
        return None


def change_hits(diff: FileDiff, packs: Sequence[Pack],
                added: Sequence[tuple[int, str]]) -> list[Hit]:
    """SKP009 and SKP007 judged from what the change removes from a test file."""
    from hooks.skips.rules import REMOVED_ASSERTION
    from hooks.skips.rules import RENAMED_TEST

    found: list[Hit] = []
    removed = [(pos, raw.decode("utf-8", "replace")) for pos, raw in diff.removed]
    added_at = dict(added)
    for pack in packs:
        if pack.assertion and pack.is_test_file(diff.path):
            gone = [(pos, t) for pos, t in removed if pack.assertion.search(t)]
            if gone and not any(pack.assertion.search(t) for _, t in added):
                pos, text = gone[0]
                found.append(Hit(diff.path, pos, 1, REMOVED_ASSERTION, text))
        if pack.test_definition:
            for pos, text in removed:
                if not pack.test_definition.search(text) or pos not in added_at:
                    continue
                replacement = added_at[pos]
                if not pack.test_definition.search(replacement) and _same_stem(text, replacement):
                    found.append(Hit(diff.path, pos, 1, RENAMED_TEST, replacement))
    return found


def _same_stem(before: str, after: str) -> bool:
    """The added line still names the test's subject (test_pay -> _test_pay, TestPay -> testPay)."""
    names = re.findall(r"[A-Za-z_]\w*", before)
    stems = {re.sub(r"(?i)^_*test_*", "", n).lower() for n in names if "test" in n.lower()}
    return any(stem and stem in after.lower() for stem in stems)


def decode(data: bytes | None) -> str | None:
    if data is None or b"\0" in data:
        return None  # absent, or binary
    return data.decode("utf-8", "replace")


def scan_change(found: Change, only: set[str] | None) -> list[tuple[Hit, FileScan]]:
    from hooks.skips import packs_for

    todo: list[tuple[FileDiff, list[Pack], list[tuple[int, str]]]] = []
    for diff in found.diffs():
        if diff.submodule or (only is not None and diff.path not in only):
            continue
        packs = packs_for(diff.path)
        if not packs:
            continue
        added = [(n, raw.decode("utf-8", "replace")) for n, raw in diff.added]
        todo.append((diff, packs, added))
    merging = found.merging
    theirs: dict[str, bytes | None] = {}
    if merging:  # scan what the resolution adds, not what the merged branch brought
        theirs = git.blobs(f"MERGE_HEAD:{d.path}" for d, _, _ in todo)
    results: list[tuple[Hit, FileScan]] = []
    scans = []
    for diff, packs, all_added in todo:
        added = all_added
        if merging:
            merged_lines = set((decode(theirs.get(f"MERGE_HEAD:{diff.path}")) or "").split("\n"))
            added = [(n, t) for n, t in all_added if t not in merged_lines]
        scan = FileScan(diff.path, packs, None)
        scans.append((scan, added, diff, scan.candidates(added)))
    # fetch the staged (or target) content only of files with a candidate line
    contents = git.blobs(found.blob_spec(s.path) for s, _, _, c in scans if c)
    for scan, added, diff, candidates in scans:
        scan.text = decode(contents.get(found.blob_spec(scan.path)))
        hits = scan.hits(candidates) if candidates and scan.text is not None else []
        if not diff.deleted:
            hits += change_hits(diff, scan.packs, added)
        if hits and scan.text is None:
            scan.text = decode(git.blob(found.blob_spec(scan.path))) or ""
        results += [(hit, scan) for hit in hits]
    return results


def scan_whole_files(paths: Iterable[str]) -> list[tuple[Hit, FileScan]]:
    from hooks.skips import packs_for

    results: list[tuple[Hit, FileScan]] = []
    for path in paths:
        packs = packs_for(path)
        if not packs or not os.path.isfile(path) or os.path.islink(path):
            continue
        try:
            with open(path, "rb") as f:
                text = decode(f.read(8 << 20))
        except OSError:
            continue
        if text is None:
            continue
        scan = FileScan(path, packs, text)
        lines = list(enumerate(scan.raw_lines(), 1))
        results += [(hit, scan) for hit in scan.hits(scan.candidates(lines))]
    return results
