"""The stop gate: may the agent end its turn here?

Held ("blocked") while the work tree differs from the last green receipt's tree, or while the
last message claims success that no receipt covers; with no green receipt at all, what HEAD
holds is the baseline, so a turn that changed nothing and claims nothing ends freely (unless
HEAD was committed after the last run, which did not pass: that work is untested).
Let through when a green receipt covers the tree; when the last message says NO RECEIPT and
claims nothing (the contract's honest exit, logged in the ledger); and after MAX_BLOCKS blocks
in a row for the same reason in one agent session (the fuse's idea, logged as a fuse event), so
an agent that cannot make the suite pass is never trapped in a loop. A client that says a stop
starts a new chain (``stop_hook_active: false``) starts the count over; Cursor's ``loop_count``
is its own count, and Cursor stops following up at its ``loop_limit`` (5 unless set), so the
cap there is at most that: the fuse event is logged while the hook can still be heard.

A refusal names its specific cause when the receipts show one: the last run on this tree
failed or tested nothing, or the run itself created the files that now differ from the tree
it tested.
"""

from __future__ import annotations

import contextlib
import json
import os
import re

from hooks.agents.coverage import Coverage
from hooks.agents.coverage import Judged
from hooks.agents.formats import HookInput
from hooks.claims.scan import Claim
from hooks.core import digests
from hooks.core import git
from hooks.core.fileio import atomic_write
from hooks.core.times import utc_now

CURSOR_LOOP_LIMIT = 5  # Cursor's default loop_limit for a stop hook
ESCAPE = "If the suite cannot run here, say NO RECEIPT and why, and stop."


class Decision:
    __slots__ = ("block", "event", "kind", "reason")

    def __init__(self, block: bool, kind: str, reason: str,
                 event: dict[str, object] | None = None) -> None:
        self.block = block
        self.kind = kind  # covered, unchanged, no_receipt, capped, claim, failing, untested
        self.reason = reason
        self.event = event  # a ledger line to append, when the decision is one to remember


_TESTED_NOTHING = ("no-tests", "none-passed", "not-counted")


def _created_by_run(cov: Coverage) -> tuple[Judged, list[str]] | None:
    """The receipt whose run left the work tree as it is now, having changed the tree it
    tested, and the paths it changed: what differs is the run's own output, not the agent's."""
    for j in cov.judged:
        data = j.data or {}
        before, after = data.get("git_tree"), data.get("git_tree_after")
        if after == cov.tree and isinstance(before, str) and before != after:
            try:
                changes = git.tree_changes(before, cov.tree)
            except git.GitError:
                changes = []
            return j, [path for _, path in changes]
    return None


def _why(j: Judged) -> str:
    """J's problem without the commit it is for and the fix the receipt check would name (the
    gate names its own): 'the recorded run failed (exit_code 1 from ..., PATH)'."""
    problem = re.sub(r"^[0-9a-f]{4,64}: ", "", j.problem)
    cut = problem.find("): ")
    return problem[:cut + 1] if cut >= 0 else problem.split(": run ")[0]


def _specific(cov: Coverage, run: str) -> tuple[str, str] | None:
    """What the receipts say about this very tree, when they say something particular."""
    failing = cov.failing
    if failing:
        j = failing[0]
        if j.kind in _TESTED_NOTHING:
            return "untested", (f"the last run on this tree tested nothing, so its receipt "
                                f"does not vouch ({j.shown}: {_why(j)}): make the suite run "
                                f"its tests, then {run}")
        if j.kind == "changed-during-run":
            return "run_changed_tree", (
                f"the last run on this tree changed it while it ran, so its receipt does not "
                f"vouch ({_why(j)}): ignore what the suite writes (add it to .gitignore, e.g. "
                f"__pycache__/) or stop it writing there, then {run}")
        code = j.data.get("exit_code") if j.data else None
        return "failing", (f"the suite ran on this tree and did not pass ({j.shown}: exit "
                           f"{code}; {_why(j)}): fix it, then {run}")
    created = _created_by_run(cov)
    if created is None:
        return None
    j, paths = created
    listed = ", ".join(paths[:5]) + (f" and {len(paths) - 5} more" if len(paths) > 5 else "")
    only = (f"the work tree differs from the tree {j.shown} tested only by what that run "
            f"wrote ({listed or 'its own output'})")
    if j.kind != "changed-during-run":
        return ("failing" if j.kind in ("failed", "tests-failed") else "untested"), (
            f"the last run did not pass on this code ({_why(j)}; {only}): fix it, ignore what "
            f"the suite writes, then {run}")
    return "run_changed_tree", (
        f"{only}, so its receipt does not vouch: ignore what the suite writes (add it to "
        f".gitignore, e.g. __pycache__/) or stop it writing there, then {run}")


def why_blocked(cov: Coverage, claims: list[Claim],
                said_no_receipt: bool = False) -> tuple[str, str] | None:
    """(kind, reason) when the stop must be held, None when it may go."""
    if cov.covered:
        return None
    run = f"run {cov.command} and finish only when it exits 0"
    tree = git.short(cov.tree)
    specific = _specific(cov, run)
    if claims:
        quoted = "; ".join(f'"{c.sentence}"' for c in claims[:3])
        also = (" (it also says NO RECEIPT: an honest NO RECEIPT claims nothing)"
                if said_no_receipt else "")
        if specific is not None:
            kind, why = specific
            return kind, f"your last message claims success ({quoted}){also}, but {why}"
        return "claim", (f"your last message claims success ({quoted}){also} but no green "
                         f"receipt covers this work tree (tree {tree}): {run}")
    if specific is not None:
        return specific
    greens = cov.green_trees()
    if greens:
        return "untested", (f"the work tree changed since the last green receipt (now tree "
                            f"{tree}, tested {git.short(greens[0])}): {run}")
    if cov.committed_since_run is not None:
        j = cov.committed_since_run
        return "untested", (f"the last run did not pass ({j.shown}: {_why(j)}) and what was "
                            f"committed since has not been tested (now tree {tree}): {run}")
    if cov.tree != cov.head_tree:
        return "untested", (f"the work tree has changes no receipt covers (tree {tree}, "
                            f"HEAD's is {git.short(cov.head_tree)}): {run}")
    return None


def client_cap(agent: str, max_blocks: int, root: str) -> int:
    """MAX_BLOCKS, or less where the client stops listening sooner (Cursor's loop_limit in the
    project's .cursor/hooks.json, 5 when unset; null there is no limit)."""
    if agent != "cursor":
        return max_blocks
    from hooks.agents.formats import FORMATS
    from hooks.agents.install import hook_command

    limit: object = CURSOR_LOOP_LIMIT
    try:
        with open(os.path.join(root, FORMATS[agent].settings), encoding="utf-8") as f:
            settings = json.load(f)
        for entry in settings["hooks"][FORMATS[agent].event]:
            if isinstance(entry, dict) and entry.get("command") == hook_command(agent):
                limit = entry.get("loop_limit", CURSOR_LOOP_LIMIT)
    except (OSError, ValueError, KeyError, TypeError):
        pass
    if limit is None:
        return max_blocks
    return min(max_blocks, limit) if type(limit) is int and limit >= 1 else max_blocks


def decide(hook: HookInput, agent: str, cov: Coverage | None, claims: list[Claim],
           no_receipt: bool, state_dir: str, max_blocks: int,
           said_no_receipt: bool = False) -> Decision:
    state = state_path(state_dir, agent, hook.session)
    if no_receipt:
        _forget(state)
        return Decision(False, "no_receipt", "the agent said NO RECEIPT", {
            "event": "no_receipt", "agent": agent, "session": hook.session,
            "message": " ".join((hook.message or "").split())[:500],
            "tree": cov.tree if cov else None})
    found = why_blocked(cov, claims, said_no_receipt) if cov else None
    if found is None:
        _forget(state)
        return Decision(False, "covered" if cov and cov.covered else "unchanged", "")
    kind, reason = found
    return held(hook, agent, kind, reason, state, max_blocks, cov.tree if cov else None)


def held(hook: HookInput, agent: str, kind: str, reason: str, state: str, max_blocks: int,
         tree: str | None) -> Decision:
    """A block for KIND, counted: let through (a fuse event) past MAX_BLOCKS in a row."""
    if hook.loop_count is not None:  # the client's own count of follow-ups this turn
        before = hook.loop_count
    elif hook.continued is False:  # the client says no block precedes this stop
        before = 0
    else:
        before = _count(state, kind)
    count = before + 1
    if count > max_blocks:
        _forget(state)
        message = (f"stop let through after {max_blocks} blocks in a row for the same reason "
                   f"({kind}): {reason}")
        return Decision(False, "capped", message, {
            "event": "fuse_blown", "reason": "blocked_stops", "agent": agent,
            "session": hook.session, "occurrences": max_blocks, "message": message[:500],
            "tree": tree})
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


def state_path(state_dir: str, agent: str, session: str) -> str:
    key = digests.sha256(f"{agent}\0{session}".encode("utf-8", "surrogateescape")).hexdigest()
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
