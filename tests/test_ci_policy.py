"""Where ``receipt verify`` takes its policy in CI with no origin/HEAD (actions/checkout sets
none): the default branch's own tip by the config committed in it, a pull request by its base,
as the CI's environment says (GitHub Actions, GitLab CI)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import PASSING_TEST
from conftest import Repo

from hooks.core.errors import USAGE_ERROR

PY = sys.executable


@pytest.fixture
def tested(repo: Repo) -> Repo:
    repo.write(".receipt-hooks.toml", f'test-command = "{PY} t.py"\n')
    repo.write("t.py", PASSING_TEST)
    repo.commit("tested")
    assert repo.receipt("run").code == 0
    return repo


def github_push(repo: Repo, default_branch: str = "main", ref: str = "refs/heads/main"
                ) -> dict[str, str]:
    event = repo.path.parent / f"event-{default_branch}-{ref.rsplit('/', 1)[-1]}.json"
    event.write_text(json.dumps({"ref": ref, "repository": {"default_branch": default_branch}}))
    return {"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_REF": ref,
            "GITHUB_EVENT_PATH": str(event), "GITHUB_SHA": repo.git("rev-parse", "HEAD")}


def test_a_push_to_the_default_branch_is_judged_by_its_own_tip(tested: Repo) -> None:
    judged = tested.receipt("verify", "--head", env=github_push(tested))
    assert judged.code == 0, judged.both
    head = tested.git("rev-parse", "--short=7", "HEAD")
    assert judged.err == (f"receipt verify: note: {head} is judged by the policy committed in "
                          f"it, the default branch's own (GitHub builds a push to the default "
                          f"branch main, and this is its tip)\n")
    tested.commit("untested", u="1\n")
    refused = tested.receipt("verify", "--head", env=github_push(tested))
    assert refused.code == 2, refused.both
    assert f"{tested.git('rev-parse', '--short=7', 'HEAD')}: no receipt from '{PY} t.py'" \
        in refused.out
    assert len([line for line in refused.out.splitlines() if line.startswith("::error")]) == 1


def test_a_push_to_another_branch_still_needs_a_policy_named(tested: Repo) -> None:
    for env in (github_push(tested, default_branch="trunk"),
                github_push(tested, ref="refs/heads/feature")):
        refused = tested.receipt("verify", "--head", env=env)
        assert refused.code == USAGE_ERROR, refused.both
        assert refused.err.startswith("receipt verify: no policy to judge by: "
                                      "refs/remotes/origin/HEAD does not exist here and the CI "
                                      "environment names no default-branch push")


def test_a_pull_request_is_judged_by_its_base(tested: Repo) -> None:
    base = tested.git("rev-parse", "HEAD")
    tested.git("update-ref", "refs/remotes/origin/main", base)
    # the pull request narrows its own suite: its base's policy still asks for the suite
    tested.write(".receipt-hooks.toml", 'test-command = "true"\n')
    tested.commit("narrowed", u="1\n")
    env = {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_BASE_REF": "main",
           "GITHUB_REF": "refs/pull/1/merge", "GITHUB_SHA": tested.git("rev-parse", "HEAD")}
    refused = tested.receipt("verify", "--head", env=env)
    assert refused.code == 2, refused.both
    assert f"no receipt from '{PY} t.py'" in refused.out
    assert "note:" not in refused.err


def test_gitlab_default_branch_pipeline_is_judged_by_its_own_tip(tested: Repo) -> None:
    env = {"GITLAB_CI": "true", "CI_DEFAULT_BRANCH": "main", "CI_COMMIT_REF_NAME": "main",
           "CI_COMMIT_BRANCH": "main", "CI_COMMIT_SHA": tested.git("rev-parse", "HEAD")}
    judged = tested.receipt("verify", "--head", env=env)
    assert judged.code == 0, judged.both
    assert "GitLab builds a push to the default branch main" in judged.err
    merge_request = {**env, "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main"}
    refused = tested.receipt("verify", "--head", env=merge_request)
    assert refused.code == USAGE_ERROR and "no policy to judge by" in refused.err


def test_an_unreadable_event_payload_is_no_default_branch(tested: Repo, tmp_path: Path) -> None:
    env = github_push(tested)
    Path(env["GITHUB_EVENT_PATH"]).write_text("{not json")
    refused = tested.receipt("verify", "--head", env=env)
    assert refused.code == USAGE_ERROR and "no policy to judge by" in refused.err
