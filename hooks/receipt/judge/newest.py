"""Which receipt decides: for a tree, the newest run of a command.

A tree can hold several receipts of one command (run here, in CI, again after a fix). An older
green run must not outvote a newer one that failed, changed the files it tested or tested
nothing: the newest evidence wins. With no ``test-command`` the newest receipt on the tree
decides, whatever it ran. A green run followed by a red one of the same command on the same
tree is a flaky suite, and the refusal names both runs.

Only the outcome is weighed here (did it pass, leave the tree alone, test something); whether a
green receipt also meets the requirements (age, platform, signer, narrowing) is the verdict's.
"""

from __future__ import annotations

from collections.abc import Sequence

from hooks.core import git
from hooks.core.cmdline import quoted
from hooks.core.exits import FAILED
from hooks.core.output import Finding
from hooks.receipt.store.layout import rerun_hint

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hooks.receipt.judge.verdict import Requirements

# the verdict's kinds that say how a run ended, not whether it meets the requirements
OUTCOME_KINDS = frozenset({"failed", "tests-failed", "no-tests", "none-passed", "not-counted",
                           "changed-during-run"})
RED_KINDS = frozenset({"failed", "tests-failed"})


def _when(data: dict[str, Any]) -> tuple[str, str]:
    return str(data.get("finished_utc")), str(data.get("started_utc"))


def outcome_problems(data: dict[str, Any], commit: str, shown: str,
                     requirements: Requirements) -> list[Finding]:
    """The verdict's findings on how the run of DATA ended (its tree taken as COMMIT's)."""
    from hooks.receipt.judge.staleness import TreeMatch
    from hooks.receipt.judge.verdict import evaluate

    return [f for f in evaluate(data, commit=commit, tree_match=TreeMatch(True),
                                shown_path=shown, requirements=requirements)
            if f.kind in OUTCOME_KINDS]


def refusal(commit: str, on_tree: Sequence[tuple[dict[str, Any], str]], same: bool,
            requirements: Requirements) -> list[Finding] | None:
    """The findings when the newest of ON_TREE (receipts on COMMIT's tree, with where each was
    found, listed newest first within a second) ran red, changed its tree or tested nothing
    while an older one ran green: that one must not vouch. None when the newest ran green, or
    when no receipt on the tree did (the usual verdict then says what is wrong). SAME: every
    receipt listed is of one command (the policy's), so green then red is flaky; otherwise
    flaky needs a green run of the newest run's command."""
    from hooks.receipt.store.keyed import comparable
    from hooks.receipt.store.keyed import judged_argv
    from hooks.receipt.store.notes import digest

    seen: dict[str, tuple[dict[str, Any], str]] = {}
    for data, shown in on_tree:  # a file's receipt is in the notes too: counted once
        seen.setdefault(digest(data), (data, shown))
    unique = list(seen.values())
    if not unique:
        return None
    # a stable sort keeps ON_TREE's order for runs that finished in one second
    unique.sort(key=lambda item: _when(item[0]), reverse=True)
    newest, where = unique[0]
    problems = outcome_problems(newest, commit, where, requirements)
    if not problems:
        return None
    greens = [(data, shown) for data, shown in unique[1:]
              if not outcome_problems(data, commit, shown, requirements)]
    if not greens:
        return None
    argv = judged_argv(newest)
    ran_as = comparable(argv) if argv is not None else None
    same_greens = greens if same else [
        (d, s) for d, s in greens if (a := judged_argv(d)) is not None and comparable(a) == ran_as]
    label, tree = git.short(commit), git.short(str(newest.get("git_tree")))
    if same_greens and any(f.kind in RED_KINDS for f in problems):
        green, green_where = same_greens[0]
        return [Finding(
            f"{label}: flaky: {quoted(str(newest.get('command', '')))} passed on tree {tree} at "
            f"{green.get('finished_utc')} ({green_where}), then failed on the same tree at "
            f"{newest.get('finished_utc')} ({where}, exit_code {newest.get('exit_code')}): the "
            f"newest run decides; fix the flaky tests, then run {quoted(rerun_hint(newest))}",
            FAILED, "flaky", commit=commit)]
    green, green_where = greens[0]
    said = (f" (the newest run on tree {tree}: the green run at {green.get('finished_utc')}, "
            f"{green_where}, is older and does not vouch)")
    return [Finding(f.message + said, f.code, f.kind, commit=commit) for f in problems]
