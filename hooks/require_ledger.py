"""Hook ``require-ledger-hypothesis``: write down what you believe is wrong before changing code.

A change that touches a path matching ``--paths`` (default ``^src/``) must add at least one valid
hypothesis line to the ledger in the same change. Whatever paths changed, every added ledger
line must validate and no earlier line may be edited, reordered or deleted. With nothing staged
and no refs (``--all-files``, pre-commit.ci), the whole ledger is validated instead.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Sequence

from hooks import changes
from hooks import git_repo
from hooks.output import ArgumentParser
from hooks.output import Finding
from hooks.output import guarded
from hooks.output import print_findings
from hooks.output import regex_argument

DEFAULT_PATHS = r"^src/"
FIX = ("receipt ledger add \"<what you believe is wrong>\" --test \"<command that tests it>\", "
       "then git add {ledger}")


def append_only_problem(old: Sequence[bytes], new: Sequence[bytes], ledger: str,
                        ) -> tuple[int, str] | None:
    """(line, message) for the first way NEW fails to extend OLD, or None when it only appends."""
    for i, before in enumerate(old):
        number = i + 1
        if i >= len(new):
            return number, (
                f"{ledger}:{number}: line {number} was deleted ({len(old)} lines before, "
                f"{len(new)} now); the ledger is append-only: restore it with "
                f"'git checkout HEAD -- {ledger}' and append a resolution instead")
        if new[i] != before:
            moved = before in new
            what = "moved" if moved else "edited"
            return number, (
                f"{ledger}:{number}: line {number} was {what}; the ledger is append-only: "
                f"restore it with 'git checkout HEAD -- {ledger}', then record a change of "
                f"mind with 'receipt ledger resolve ID --status refuted --evidence ...'")
    return None


def describe_paths(paths: Sequence[str]) -> str:
    shown = ", ".join(paths[:3])
    return shown + (f" (and {len(paths) - 3} more)" if len(paths) > 3 else "")


def check_change(change: changes.Change, ledger: str, patterns: Sequence[re.Pattern[str]],
                 ) -> list[Finding]:
    from hooks import ledger as ledger_mod  # only when the ledger or src/ is involved

    findings: list[Finding] = []
    triggering = [p for p in change.paths if p != ledger and any(r.search(p) for r in patterns)]
    old = ledger_mod.split_lines(change.old_content(ledger) or b"")
    new_data = change.new_content(ledger) or b""
    new = ledger_mod.split_lines(new_data)
    problem = append_only_problem(old, new, ledger)
    if problem:
        number, message = problem
        return [Finding(message, 1, "append-only", path=ledger, line=number)]
    missing_newline = bool(new_data) and not new_data.endswith(b"\n")
    added = [ledger_mod.parse(len(old) + 1 + i, raw,
                              last_without_newline=missing_newline and i == len(new) - len(old) - 1)
             for i, raw in enumerate(new[len(old):])]
    ledger_mod.validate_lines(added)
    for line in added:
        findings += [Finding(f"{ledger}:{line.number}: {p}", 1, "invalid-line", path=ledger,
                             line=line.number) for p in line.problems]
    hypotheses = [line for line in added if not line.problems and line.entry is not None
                  and ledger_mod.kind_of(line.entry) == "hypothesis"]
    if triggering and not hypotheses:
        findings.append(Finding(
            f"{describe_paths(triggering)} changed but {ledger} gains no hypothesis in this "
            f"change: write down what you believe is wrong first: {FIX.format(ledger=ledger)}",
            1, "no-hypothesis", path=triggering[0]))
    return findings


def check_whole_ledger(ledger: str) -> list[Finding]:
    from hooks import ledger as ledger_mod
    from hooks import ledger_command

    try:
        problems = ledger_mod.check_file(ledger, ledger, ledger_command.memo_dir())
    except ledger_mod.LedgerError as e:
        return [Finding(str(e), 1, "unreadable", path=ledger)]
    return [Finding(text, 1, "invalid-line", path=ledger, line=number)
            for number, text in problems]


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="require-ledger-hypothesis",
                            description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--paths", action="append", metavar="REGEX", type=regex_argument,
                        help=f"paths that need a hypothesis (repeatable; default {DEFAULT_PATHS})")
    parser.add_argument("--ledger", default="assumption-ledger.jsonl", metavar="PATH",
                        help="the ledger, relative to the repository root")
    parser.add_argument("--from-ref", metavar="REV", help="check the range FROM...TO")
    parser.add_argument("--to-ref", metavar="REV")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("filenames", nargs="*", help=argparse.SUPPRESS)
    return parser


@guarded("require-ledger-hypothesis")
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        root = git_repo.toplevel_if_not_here()
        if root:
            os.chdir(root)
        change = changes.detect(args.from_ref, args.to_ref)
    except (git_repo.GitError, ValueError) as e:
        print_findings([Finding(f"require-ledger-hypothesis: {e}", 1, "usage")],
                       fmt=args.format, exit_code=1)
        return 1
    ledger = os.path.normpath(args.ledger).replace(os.sep, "/")
    patterns = [re.compile(p) for p in args.paths or [DEFAULT_PATHS]]
    if change.is_empty:
        findings = check_whole_ledger(ledger) if os.path.lexists(ledger) else []
    elif ledger in change.paths or any(r.search(p) for p in change.paths for r in patterns):
        findings = check_change(change, ledger, patterns)
    else:
        return 0  # the common commit: one git call, no ledger read, no jsonschema
    code = 1 if findings else 0
    print_findings(findings, fmt=args.format, exit_code=code)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
