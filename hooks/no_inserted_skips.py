"""Hook ``no-inserted-skips`` (and ``receipt skips``): refuse changes that add skipped, focused,
vacuous or disabled tests, or CI escape hatches.

Only what the change adds is read: the staged diff, or ``FROM...TO`` at pre-push and with
``--from-ref/--to-ref``. With nothing staged and no refs (``--all-files``, pre-commit.ci), whole
files are compared with the committed baseline ``.skips-baseline.json`` instead.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterable
from collections.abc import Sequence

from hooks import changes
from hooks import git_repo
from hooks.output import ArgumentParser
from hooks.output import Finding
from hooks.output import guarded
from hooks.output import print_findings
from hooks.output import regex_argument

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hooks.skips.lexer import Lexed
    from hooks.skips.rules import Pack
    from hooks.skips.rules import Rule

BASELINE = ".skips-baseline.json"
DEFAULT_TICKET = r"[A-Z][A-Z0-9]+-\d+|#\d+|https?://\S+/(?:issues|pull|pulls|merge_requests)/\d+"
MAX_LINE = 20_000  # longer lines are minified bundles, not tests
# compiled by re's own cache on first use: most commits never read an allowance
_ALLOW = r"receipt:\s*allow\b(?P<ids>[^\n]*?)(?:\s--\s*(?P<reason>.*?))?\s*(?:\*/)?$"
_IDS = r"\bSKP\d{3}\b"


class Hit:
    """A rule matching a line the change adds."""

    __slots__ = ("col", "line", "path", "rule", "text")

    def __init__(self, path: str, line: int, col: int, rule: Rule, text: str) -> None:
        self.path = path
        self.line = line
        self.col = col
        self.rule = rule
        self.text = text


class Allowance:
    __slots__ = ("honoured", "ids", "line", "reason", "why")

    def __init__(self, line: int, ids: list[str], reason: str, honoured: bool, why: str) -> None:
        self.line = line
        self.ids = ids
        self.reason = reason
        self.honoured = honoured
        self.why = why


def parse_allowance(comment: str, line: int, ticket: re.Pattern[str]) -> Allowance | None:
    if "receipt:" not in comment:
        return None
    m = re.search(_ALLOW, comment)
    if not m:
        return None
    ids = re.findall(_IDS, m.group("ids") or "")
    reason = (m.group("reason") or "").strip()
    if not ids:
        return Allowance(line, ids, reason, False, "it names no rule id (blanket allowances are "
                                                   "not honoured)")
    if not ticket.search(reason):
        return Allowance(line, ids, reason, False, f"its reason has no ticket matching "
                                                   f"--ticket-pattern '{ticket.pattern}'")
    return Allowance(line, ids, reason, True, "")


# ---- scanning one file ---------------------------------------------------------------------

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


def change_hits(diff: git_repo.FileDiff, packs: Sequence[Pack],
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


# ---- the whole change --------------------------------------------------------------------------

def decode(data: bytes | None) -> str | None:
    if data is None or b"\0" in data:
        return None  # absent, or binary
    return data.decode("utf-8", "replace")


def scan_change(diffs: Sequence[git_repo.FileDiff], only: set[str] | None, target: str | None,
                ) -> list[tuple[Hit, FileScan]]:
    from hooks.skips import packs_for

    merging = target is None and git_repo.merge_in_progress()
    todo: list[tuple[git_repo.FileDiff, list[Pack], list[tuple[int, str]]]] = []
    for diff in diffs:
        if diff.submodule or (only is not None and diff.path not in only):
            continue
        packs = packs_for(diff.path)
        if not packs:
            continue
        added = [(n, raw.decode("utf-8", "replace")) for n, raw in diff.added]
        todo.append((diff, packs, added))
    theirs: dict[str, bytes | None] = {}
    if merging:  # scan what the resolution adds, not what the merged branch brought
        theirs = git_repo.blobs(f"MERGE_HEAD:{d.path}" for d, _, _ in todo)
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
    prefix = f"{target}:" if target else ":"
    contents = git_repo.blobs(prefix + s.path for s, _, _, c in scans if c)
    for scan, added, diff, candidates in scans:
        scan.text = decode(contents.get(prefix + scan.path))
        found = scan.hits(candidates) if candidates and scan.text is not None else []
        if not diff.deleted:
            found += change_hits(diff, scan.packs, added)
        if found and scan.text is None:
            scan.text = decode(git_repo.blob(prefix + scan.path)) or ""
        results += [(hit, scan) for hit in found]
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


# ---- baseline (pre-commit.ci: no diff exists) --------------------------------------------------

def baseline_key(hit: Hit) -> tuple[str, str, str]:
    return (hit.path, hit.rule.id, " ".join(hit.text.split()))


def load_baseline(path: str) -> dict[tuple[str, str, str], int] | None:
    import json

    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        entries = doc["findings"]
        counts: dict[tuple[str, str, str], int] = {}
        for e in entries:
            key = (str(e["path"]), str(e["rule"]), str(e["text"]))
            counts[key] = counts.get(key, 0) + 1
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{path} is not a skips baseline ({e}): rewrite it with "
                         f"'receipt skips --write-baseline'") from e
    return counts


def write_baseline(path: str, hits: Sequence[Hit]) -> None:
    import json

    from hooks.fileio import atomic_write

    doc = {"version": 1, "comment": "findings that existed when this was written; "
                                    "no-inserted-skips --all-files reports only new ones",
           "findings": [{"path": p, "rule": r, "text": t}
                        for p, r, t in sorted(baseline_key(h) for h in hits)]}
    atomic_write(path, (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode())


def not_in_baseline(results: list[tuple[Hit, FileScan]],
                    baseline: dict[tuple[str, str, str], int]) -> list[tuple[Hit, FileScan]]:
    remaining = dict(baseline)
    fresh: list[tuple[Hit, FileScan]] = []
    for hit, scan in results:
        key = baseline_key(hit)
        if remaining.get(key, 0) > 0:
            remaining[key] -= 1
        else:
            fresh.append((hit, scan))
    return fresh


# ---- output ------------------------------------------------------------------------------------

def report(results: list[tuple[Hit, FileScan]], *, allow: bool, ticket: str, fmt: str,
           prog: str) -> int:
    ticket_re = re.compile(ticket)
    findings: list[Finding] = []
    allowed: list[str] = []
    for hit, scan in sorted(results, key=lambda r: (r[0].path, r[0].line, r[0].rule.id)):
        allowance = scan.allowance_for(hit, ticket_re) if allow else None
        where = f"{hit.path}:{hit.line}:{hit.col}"
        if allowance and allowance.honoured:
            allowed.append(f"allowed: {hit.path}:{hit.line}: {hit.rule.id} -- {allowance.reason}")
            continue
        findings.append(Finding(f"{where}: {hit.rule.id} {hit.rule.message}", 1, hit.rule.id,
                                path=hit.path, line=hit.line, col=hit.col))
        if allowance:
            findings.append(Finding(
                f"{hit.path}:{allowance.line}:1: allowance not honoured: {allowance.why}",
                1, "allowance", path=hit.path, line=allowance.line, col=1))
    code = 1 if findings else 0
    if fmt == "json":
        print_findings(findings, fmt=fmt, exit_code=code, extra={"allowed": allowed})
        return code
    print_findings(findings, fmt=fmt, exit_code=code)
    for line in allowed:
        print(line)
    if findings:
        files = len({f.path for f in findings})
        print(f"{prog}: {sum(f.kind != 'allowance' for f in findings)} finding(s) in {files} "
              f"file(s){f', {len(allowed)} allowed' if allowed else ''}: fix the test instead "
              f"of skipping it, or justify one on the line or the line above with a comment "
              f"'receipt: allow SKPnnn -- <ticket> <reason>'")
    elif allowed:
        print(f"{prog}: no findings; {len(allowed)} allowed (listed above)")
    return code


def list_rules() -> int:
    from hooks.skips import all_packs
    from hooks.skips.rules import CHANGE_RULES
    from hooks.skips.rules import RULE_TITLES

    for rule_id, title in RULE_TITLES.items():
        print(f"{rule_id}  {title}")
        seen: set[int] = set()
        for pack in all_packs():
            for rule in pack.rules:
                if rule.id != rule_id or id(rule) in seen:
                    continue
                seen.add(id(rule))
                example = rule.bad.strip().splitlines()
                shown = next((ln.strip() for ln in example if rule.pattern.search(ln)),
                             example[0].strip())
                print(f"  {pack.name:<11} {rule.message}\n  {'':<11} e.g. {shown}")
        for rule in CHANGE_RULES:
            if rule.id == rule_id:
                print(f"  {'any':<11} {rule.message}\n  {'':<11} e.g. "
                      f"{rule.before.strip().splitlines()[-1].strip() if rule.before else ''}"
                      f" removed")
    return 0


# ---- command line ------------------------------------------------------------------------------

def build_parser(prog: str) -> ArgumentParser:
    parser = ArgumentParser(prog=prog, description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("filenames", nargs="*", help="limit the scan to these files")
    parser.add_argument("--from-ref", metavar="REV", help="scan the range FROM...TO")
    parser.add_argument("--to-ref", metavar="REV")
    parser.add_argument("--no-allow", action="store_true",
                        help="honour no 'receipt: allow' comments")
    parser.add_argument("--ticket-pattern", type=regex_argument, default=DEFAULT_TICKET,
                        metavar="REGEX", help="what an allowance's reason must contain")
    parser.add_argument("--baseline", default=BASELINE, metavar="PATH",
                        help=f"baseline for whole-file scans (default {BASELINE})")
    parser.add_argument("--write-baseline", action="store_true",
                        help="scan every tracked file and write the baseline")
    parser.add_argument("--list-rules", action="store_true", help="print every rule and exit")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    return parser


def run(argv: Sequence[str] | None, prog: str) -> int:
    args = build_parser(prog).parse_args(argv)
    if args.list_rules:
        return list_rules()
    try:
        root = git_repo.toplevel_if_not_here()
        if root:
            os.chdir(root)
        if args.write_baseline:
            results = scan_whole_files(git_repo.tracked_files())
            write_baseline(args.baseline, [hit for hit, _ in results])
            print(f"{prog}: wrote {args.baseline} with {len(results)} existing finding(s); "
                  f"commit it so --all-files runs report only new ones")
            return 0
        base, target = changes.resolve_refs(args.from_ref, args.to_ref)
        diffs = git_repo.diff(base, target)
    except (git_repo.GitError, ValueError) as e:
        print_findings([Finding(f"{prog}: {e}", 1, "usage")], fmt=args.format, exit_code=1)
        return 1
    only = set(args.filenames) if args.filenames else None
    if not diffs and target is None:
        return whole_file_mode(args, prog)
    results = scan_change(diffs, only, target)
    return report(results, allow=not args.no_allow, ticket=args.ticket_pattern,
                  fmt=args.format, prog=prog)


def whole_file_mode(args: argparse.Namespace, prog: str) -> int:
    """Nothing staged and no refs: compare whole files with the committed baseline."""
    baseline_path: str = args.baseline
    try:
        baseline = load_baseline(baseline_path)
    except ValueError as e:
        print(f"{prog}: {e}")
        return 1
    if baseline is None:
        print(f"{prog}: nothing staged and no refs, so no diff to scan; to check whole files "
              f"(pre-commit run --all-files, pre-commit.ci) against what exists today, run "
              f"'receipt skips --write-baseline' and commit {baseline_path}")
        return 0
    fresh = not_in_baseline(scan_whole_files(args.filenames or git_repo.tracked_files()),
                            baseline)
    return report(fresh, allow=not args.no_allow, ticket=args.ticket_pattern, fmt=args.format,
                  prog=prog)


@guarded("no-inserted-skips")
def main(argv: Sequence[str] | None = None) -> int:
    return run(argv, "no-inserted-skips")


if __name__ == "__main__":
    sys.exit(main())
