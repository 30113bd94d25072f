"""Which commits need a receipt: the config's ``require``, one rule for every gate.

``"tip"`` (the default): the newest commit of each pushed ref, or of each ``--range``.
``"every-commit"``: every commit the push or range adds (for teams that bisect).

The pre-push hook, a server's ``receipt verify --pre-receive`` and ``receipt verify --range``
all ask this module, so a push one of them accepts is accepted by the others; each names the
rule it judged by when it refuses, and ``verify`` in its summary.
"""

from __future__ import annotations

from collections.abc import Sequence

from hooks.core import git
from hooks.core.config import REQUIRE_EVERY_COMMIT
from hooks.core.config import Config

# What the other side already has, as rev-list's ref sets: a pre-push hook's remote-tracking
# refs, a server's branches before the push.
ON_REMOTES = "--remotes"
ON_SERVER = "--branches"
MEANING = {
    "tip": "the newest commit of each pushed ref or range needs a receipt",
    REQUIRE_EVERY_COMMIT: "every commit a push or range adds needs a receipt",
}


class Pushed:
    """A tip and what the receiving side already has of its history: commit ids, or one of
    the ref sets ON_REMOTES / ON_SERVER; nothing when only the tip itself is known."""

    __slots__ = ("has", "tip")

    def __init__(self, tip: str, has: Sequence[str] = ()) -> None:
        self.tip = tip
        self.has = tuple(has)


def required_commits(pushed: Sequence[Pushed], rule: str, root: str | None) -> list[str]:
    """The commits RULE needs a receipt for, newest first: the tips, or under "every-commit"
    every commit of each tip's history the other side lacks (one rev-list per tip)."""
    commits: list[str] = []
    for push in pushed:
        if rule != REQUIRE_EVERY_COMMIT or not push.has:
            commits.append(push.tip)
            continue
        ref_sets = [h for h in push.has if h.startswith("--")]
        ids = [f"^{h}" for h in push.has if not h.startswith("--")]
        args = ["rev-list", "--ignore-missing"]
        if ref_sets:
            args += ["--not", *ref_sets, "--not"]
        listed = git.text(*args, "--end-of-options", push.tip, *ids, cwd=root).split()
        commits += listed or [push.tip]
    return list(dict.fromkeys(commits))


def rule_said(label: str, policy_file: Config) -> str:
    """'LABEL: judged by require = "tip" (the default): ...', for refusals and summaries."""
    rule = policy_file.require
    where = policy_file.where("require") if "require" in policy_file.data else "the default"
    return f'{label}: judged by require = "{rule}" ({where}): {MEANING.get(rule, rule)}'
