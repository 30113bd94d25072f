"""The stop gate: may the agent end its turn here?

Held ("blocked") while the work tree differs from the last green receipt's tree, or while the
last message claims success that no receipt covers; with no green receipt at all, what HEAD
holds is the baseline, so a turn that changed nothing and claims nothing ends freely.
Let through when a green receipt covers the tree; when the last message says NO RECEIPT (the
contract's honest exit, logged in the ledger); and after MAX_BLOCKS blocks in a row for the
same reason in one agent session (the fuse's idea, logged as a fuse event), so an agent that
cannot make the suite pass is never trapped in a loop.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os

from hooks.agents.coverage import Coverage
from hooks.agents.formats import HookInput
from hooks.claims.scan import Claim
from hooks.core import git
from hooks.core.fileio import atomic_write
from hooks.core.times import utc_now

DEFAULT_MAX_BLOCKS = 3
ESCAPE = "If the suite cannot run here, say NO RECEIPT and why, and stop."


class Decision:
    __slots__ = ("block", "event", "kind", "reason")

    def __init__(self, block: bool, kind: str, reason: str,
                 event: dict[str, object] | None = None) -> None:
        self.block = block
        self.kind = kind  # covered, unchanged, no_receipt, capped, claim, failing, untested
        self.reason = reason
        self.event = event  # a ledger line to append, when the decision is one to remember


def why_blocked(cov: Coverage, claims: list[Claim]) -> tuple[str, str] | None:
    """(kind, reason) when the stop must be held, None when it may go."""
    if cov.covered:
        return None
    run = f"run {cov.command} and finish only when it exits 0"
    tree = git.short(cov.tree)
    if claims:
        quoted = "; ".join(f'"{c.sentence}"' for c in claims[:3])
        return "claim", (f"your last message claims success ({quoted}) but no green receipt "
                         f"covers this work tree (tree {tree}): {run}")
    failing = cov.failing
    if failing:
        j = failing[0]
        code = j.data.get("exit_code") if j.data else None
        return "failing", (f"the suite ran on this tree and did not pass ({j.shown}: exit "
                           f"{code}; {j.problem.split(': run ')[0]}): fix it, then {run}")
    greens = cov.green_trees()
    if greens:
        return "untested", (f"the work tree changed since the last green receipt (now tree "
                            f"{tree}, tested {git.short(greens[0])}): {run}")
    if cov.tree != cov.head_tree:
        return "untested", (f"the work tree has changes no receipt covers (tree {tree}, "
                            f"HEAD's is {git.short(cov.head_tree)}): {run}")
    return None


def decide(hook: HookInput, agent: str, cov: Coverage | None, claims: list[Claim],
           no_receipt: bool, state_dir: str, max_blocks: int) -> Decision:
    state = _state_path(state_dir, agent, hook.session)
    if no_receipt:
        _forget(state)
        return Decision(False, "no_receipt", "the agent said NO RECEIPT", {
            "event": "no_receipt", "agent": agent, "session": hook.session,
            "message": " ".join((hook.message or "").split())[:500],
            "tree": cov.tree if cov else None})
    found = why_blocked(cov, claims) if cov else None
    if found is None:
        _forget(state)
        return Decision(False, "covered" if cov and cov.covered else "unchanged", "")
    kind, reason = found
    count = _count(state, kind) + 1
    if count > max_blocks:
        _forget(state)
        message = (f"stop let through after {max_blocks} blocks in a row for the same reason "
                   f"({kind}): {reason}")
        return Decision(False, "capped", message, {
            "event": "fuse_blown", "reason": "blocked_stops", "agent": agent,
            "session": hook.session, "occurrences": max_blocks, "message": message[:500],
            "tree": cov.tree if cov else None})
    _save(state, kind, count)
    return Decision(True, kind, f"receipt: {reason}. {ESCAPE} (block {count} of {max_blocks} "
                                f"for this reason)")


def record(ledger: str, event: dict[str, object]) -> str | None:
    """Append EVENT to the ledger; the problem as a line when it could not be written."""
    from hooks.ledger import lines
    from hooks.ledger import store

    entry = {"ts": utc_now(), **event}
    problems = lines.validation_errors(entry)
    if problems:
        return f"event not recorded: {problems[0]}"
    try:
        store.append(ledger, [entry])
    except store.LedgerError as e:
        return f"event not recorded: {e}"
    return None


def _state_path(state_dir: str, agent: str, session: str) -> str:
    key = hashlib.sha256(f"{agent}\0{session}".encode("utf-8", "surrogateescape")).hexdigest()
    return os.path.join(state_dir, f"{agent}-{key[:16]}.json")


def _count(path: str, kind: str) -> int:
    try:
        with open(path, encoding="utf-8") as f:
            state = json.load(f)
        return int(state["count"]) if state.get("kind") == kind else 0
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return 0


def _save(path: str, kind: str, count: int) -> None:
    atomic_write(path, json.dumps({"kind": kind, "count": count, "ts": utc_now()}).encode())


def _forget(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
