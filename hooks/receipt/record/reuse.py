"""``receipt run --reuse``: a green receipt from the same command for this tree is enough.

git-test's cache, for agents and CI that retry: the notes already say this exact tree passed
this command (compared as the runner reads it, ``runner_args.normalised``), so running it
again proves nothing new.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hooks.core.config import Config
from hooks.core.times import parse_age
from hooks.receipt.judge.noted_receipts import NotedReceipts
from hooks.receipt.judge.staleness import TreeMatch
from hooks.receipt.judge.verdict import Requirements
from hooks.receipt.judge.verdict import evaluate
from hooks.receipt.store.keyed import comparable
from hooks.receipt.store.keyed import judged_argv
from hooks.receipt.store.notes import receipts_for


def reusable(argv: Sequence[str], tree: str, root: str, policy_file: Config,
             memo: str | None) -> dict[str, Any] | None:
    """The newest receipt in the notes on TREE from ARGV's command that vouches for it."""
    wanted = comparable(argv)
    max_age = policy_file.get("max-age")
    requirements = Requirements(max_age_s=parse_age(max_age) if max_age else None,
                                allow_narrowing=True, require_tests=policy_file.require_tests)
    found = receipts_for([tree], cwd=root).get(tree, [])
    for data in sorted(found, key=lambda d: str(d.get("finished_utc")), reverse=True):
        recorded = judged_argv(data)
        if recorded is None or comparable(recorded) != wanted:
            continue
        if NotedReceipts.load(data, "the note", memo).findings:
            continue
        if not evaluate(data, commit=tree, tree_match=TreeMatch(data.get("git_tree") == tree),
                        shown_path="the note", requirements=requirements):
            return data
    return None
