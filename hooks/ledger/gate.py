"""The ledger hook's judgement, as pure functions of the change: append-only, valid added
lines, and a new hypothesis whenever a path that needs one changed."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from hooks.core import git
from hooks.core.change import Change
from hooks.core.cmdline import quoted
from hooks.core.output import Finding
from hooks.ledger import lines
from hooks.ledger import store

FIX = ("receipt ledger add \"<what you believe is wrong>\" --test \"<command that tests it>\", "
       "then {add}")


def add_command(ledger: str) -> str:
    return "git add " + shlex.quote(ledger)


def restore_command(ledger: str, source: str = "HEAD") -> str:
    return f"git checkout {shlex.quote(source)} -- {shlex.quote(ledger)}"


def append_only_problem(old: Sequence[bytes], new: Sequence[bytes], ledger: str,
                        source: str = "HEAD", published: bool = False,
                        ) -> tuple[int, str] | None:
    """(line, message) for the first way NEW fails to extend OLD, or None when it only appends.

    SOURCE names where OLD is from (``HEAD``, or the remote-tracking ref when PUBLISHED).
    """
    where = f" is on the remote ({source}) and" if published else ""
    for i, before in enumerate(old):
        number = i + 1
        if i >= len(new):
            return number, (
                f"{ledger}:{number}: line {number}{where} was deleted ({len(old)} lines "
                f"before, {len(new)} now); the ledger is append-only: restore it with "
                f"{quoted(restore_command(ledger, source))} and append a resolution instead")
        if new[i] != before:
            moved = before in new
            what = "moved" if moved else "edited"
            return number, (
                f"{ledger}:{number}: line {number}{where} was {what}; the ledger is "
                f"append-only: restore it with {quoted(restore_command(ledger, source))}, then "
                f"record a change of mind with "
                f"{quoted('receipt ledger resolve ID --status refuted --evidence ...')}")
    return None


def published_problem(change: Change, ledger: str, new: Sequence[bytes]) -> Finding | None:
    """At pre-push, the ledger must extend what the remote already has, not only the merge
    base: a force-push must not drop or edit lines that are already published."""
    if change.published is None:
        return None
    source, commit = change.published
    remote = lines.split_lines(git.blob(f"{commit}:{ledger}") or b"")
    problem = append_only_problem(remote, new, ledger, source=source, published=True)
    if problem is None:
        return None
    number, message = problem
    return Finding(message, 1, "append-only", path=ledger, line=number)


def describe_paths(paths: Sequence[str]) -> str:
    shown = ", ".join(paths[:3])
    return shown + (f" (and {len(paths) - 3} more)" if len(paths) > 3 else "")


def findings_in_change(change: Change, ledger: str, patterns: Sequence[re.Pattern[str]], *,
                 on_disk: bytes | None = None, comments_need_hypothesis: bool = False,
                 ) -> list[Finding]:
    """Every finding for CHANGE. ON_DISK is the ledger in the work tree when the change is the
    staged one (a hypothesis written but not staged is named as such)."""
    findings: list[Finding] = []
    triggering = [p for p in change.paths if p != ledger and any(r.search(p) for r in patterns)]
    if triggering and not comments_need_hypothesis:
        from hooks.ledger.comments import only_comments_changed

        triggering = [p for p in triggering if not only_comments_changed(
            p, change.old_content(p), change.new_content(p))]
    old = lines.split_lines(change.old_content(ledger) or b"")
    new_data = change.new_content(ledger) or b""
    new = lines.split_lines(new_data)
    problem = append_only_problem(old, new, ledger)
    if problem:
        number, message = problem
        return [Finding(message, 1, "append-only", path=ledger, line=number)]
    rewritten = published_problem(change, ledger, new)
    if rewritten:
        return [rewritten]
    missing_newline = bool(new_data) and not new_data.endswith(b"\n")
    added = [lines.parse(len(old) + 1 + i, raw,
                              last_without_newline=missing_newline and i == len(new) - len(old) - 1)
             for i, raw in enumerate(new[len(old):])]
    lines.validate_lines(added)
    for line in added:
        findings += [Finding(f"{ledger}:{line.number}: {p}", 1, "invalid-line", path=ledger,
                             line=line.number) for p in line.problems]
    hypotheses = [line for line in added if not line.problems and line.entry is not None
                  and lines.kind_of(line.entry) == "hypothesis"]
    if triggering and not hypotheses and _has_new_hypothesis(new_data, on_disk):
        findings.append(Finding(
            f"{describe_paths(triggering)} changed and {ledger} has a new hypothesis that is "
            f"not staged: {add_command(ledger)}", 1, "hypothesis-not-staged", path=ledger))
    elif triggering and not hypotheses:
        findings.append(Finding(
            f"{describe_paths(triggering)} changed but {ledger} gains no hypothesis in this "
            f"change: write down what you believe is wrong first: "
            f"{FIX.format(add=add_command(ledger))}",
            1, "no-hypothesis", path=triggering[0]))
    return findings


def _has_new_hypothesis(staged: bytes, on_disk: bytes | None) -> bool:
    """ON_DISK extends STAGED with at least one valid hypothesis line."""
    if on_disk is None or len(on_disk) <= len(staged) or not on_disk.startswith(staged):
        return False
    first = len(lines.split_lines(staged)) + 1
    extra = [lines.parse(first + i, raw) for i, raw in
             enumerate(lines.split_lines(on_disk[len(staged):]))]
    lines.validate_lines(extra)
    return any(not line.problems and line.entry is not None
               and lines.kind_of(line.entry) == "hypothesis" for line in extra)


def findings_in_ledger(ledger: str) -> list[Finding]:
    try:
        problems = store.invalid_lines(ledger, ledger, store.memo_dir())
    except store.LedgerError as e:
        return [Finding(str(e), 1, "unreadable", path=ledger)]
    return [Finding(text, 1, "invalid-line", path=ledger, line=number)
            for number, text in problems]
