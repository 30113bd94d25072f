"""What the skip guard prints: findings, honoured allowances, and the rule list."""

from __future__ import annotations

import re

from hooks.core.output import Finding
from hooks.core.output import print_findings
from hooks.core.output import print_line
from hooks.core.text import printable_path
from hooks.skips.filescan import FileScan
from hooks.skips.filescan import Hit


def report(results: list[tuple[Hit, FileScan]], *, allow: bool, ticket: str, fmt: str,
           prog: str) -> int:
    ticket_re = re.compile(ticket)
    findings: list[Finding] = []
    allowed: list[str] = []
    for hit, scan in sorted(results, key=lambda r: (r[0].path, r[0].line, r[0].rule.id)):
        allowance = scan.allowance_for(hit, ticket_re) if allow else None
        # (a name holding a newline or an escape is C-quoted: it cannot start a line of its
        # own, such as a CI runner's "::stop-commands::")
        shown = printable_path(hit.path)
        where = f"{shown}:{hit.line}:{hit.col}"
        if allowance and allowance.honoured:
            allowed.append(f"allowed: {shown}:{hit.line}: {hit.rule.id} -- {allowance.reason}")
            continue
        findings.append(Finding(f"{where}: {hit.rule.id} {hit.rule.message}", 1, hit.rule.id,
                                path=hit.path, line=hit.line, col=hit.col))
        if allowance:
            findings.append(Finding(
                f"{shown}:{allowance.line}:1: allowance not honoured: {allowance.why}",
                1, "allowance", path=hit.path, line=allowance.line, col=1))
    code = 1 if findings else 0
    if fmt == "json":
        print_findings(findings, fmt=fmt, exit_code=code, extra={"allowed": allowed})
        return code
    print_findings(findings, fmt=fmt, exit_code=code)
    for line in allowed:
        print_line(line)
    if findings:
        files = len({f.path for f in findings})
        print_line(f"{prog}: {sum(f.kind != 'allowance' for f in findings)} finding(s) in {files} "
              f"file(s){f', {len(allowed)} allowed' if allowed else ''}: fix the test instead "
              f"of skipping it, or justify one on the line or the line above with a comment "
              f"'receipt: allow SKPnnn -- <ticket> <reason>'")
    elif allowed:
        print_line(f"{prog}: no findings; {len(allowed)} allowed (listed above)")
    return code


def list_rules() -> int:
    from hooks.skips import all_packs
    from hooks.skips.rules import CHANGE_RULES
    from hooks.skips.rules import RULE_TITLES

    for rule_id, title in RULE_TITLES.items():
        print_line(f"{rule_id}  {title}")
        seen: set[int] = set()
        for pack in all_packs():
            for rule in pack.rules:
                if rule.id != rule_id or id(rule) in seen:
                    continue
                seen.add(id(rule))
                example = rule.bad.strip().splitlines()
                shown = next((ln.strip() for ln in example if rule.pattern.search(ln)),
                             example[0].strip())
                off = " (opt-in: --enable " + rule.id + ")" if rule.opt_in else ""
                print_line(f"  {pack.name:<11} {rule.message}{off}\n  {'':<11} e.g. {shown}")
        for rule in CHANGE_RULES:
            if rule.id == rule_id:
                print_line(f"  {'any':<11} {rule.message}\n  {'':<11} e.g. "
                      f"{rule.before.strip().splitlines()[-1].strip() if rule.before else ''}"
                      f" removed" + (f"\n  {'':<11} why: {rule.why}" if rule.why else ""))
    return 0
