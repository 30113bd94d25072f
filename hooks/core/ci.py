"""What a CI job is building, read from its environment: a push to the default branch, or a
pull (merge) request and the branch it merges into. GitHub Actions and GitLab CI.

``receipt verify`` asks it where its policy comes from when no ``--policy-from`` or range
says: the default branch's own tip is judged by the config committed in it (that is the
default branch's policy); a pull request by its base.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping

BRANCH_PREFIX = "refs/heads/"
MAX_EVENT_BYTES = 8 << 20  # a GitHub event payload is at most a few MB


class Build:
    """What the job builds: the commit, and either the default branch it is the tip of or the
    base branch a pull request merges into (each None when it is not that)."""

    __slots__ = ("base", "commit", "default_branch", "system")

    def __init__(self, system: str, commit: str | None, default_branch: str | None = None,
                 base: str | None = None) -> None:
        self.system = system
        self.commit = commit
        self.default_branch = default_branch
        self.base = base


def build(env: Mapping[str, str] | None = None) -> Build | None:
    """The build ENV (default: ours) describes, None outside a CI this knows."""
    env = os.environ if env is None else env
    if env.get("GITHUB_EVENT_NAME"):
        return _github(env)
    if env.get("GITLAB_CI") or env.get("CI_DEFAULT_BRANCH"):
        return _gitlab(env)
    return None


def _github(env: Mapping[str, str]) -> Build:
    event = env.get("GITHUB_EVENT_NAME", "")
    commit = env.get("GITHUB_SHA") or None
    if event in ("pull_request", "pull_request_target", "merge_group"):
        return Build("GitHub", commit, base=env.get("GITHUB_BASE_REF") or None)
    ref = env.get("GITHUB_REF", "")
    default = _event_default_branch(env.get("GITHUB_EVENT_PATH"))
    if event == "push" and default and ref == BRANCH_PREFIX + default:
        return Build("GitHub", commit, default_branch=default)
    return Build("GitHub", commit)


def _event_default_branch(path: str | None) -> str | None:
    """The event payload's ``repository.default_branch``; None when it cannot be read."""
    if not path:
        return None
    try:
        with open(path, "rb") as f:
            payload = json.loads(f.read(MAX_EVENT_BYTES))
    except (OSError, ValueError):
        return None
    repository = payload.get("repository") if isinstance(payload, dict) else None
    branch = repository.get("default_branch") if isinstance(repository, dict) else None
    return branch if isinstance(branch, str) and branch else None


def _gitlab(env: Mapping[str, str]) -> Build:
    commit = env.get("CI_COMMIT_SHA") or None
    target = env.get("CI_MERGE_REQUEST_TARGET_BRANCH_NAME")
    if target:
        return Build("GitLab", commit, base=target)
    default = env.get("CI_DEFAULT_BRANCH")
    if default and env.get("CI_COMMIT_BRANCH", env.get("CI_COMMIT_REF_NAME")) == default \
            and not env.get("CI_COMMIT_TAG"):
        return Build("GitLab", commit, default_branch=default)
    return Build("GitLab", commit)
