"""The ledger's past is the remote's past: a force-push must not drop or edit
hypothesis lines the remote already has, even when they were added after the merge base."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import Repo
from conftest import copied
from conftest import precommit_config

LEDGER = "assumption-ledger.jsonl"
HOOK = "require-ledger-hypothesis"


def hypothesis(text: str) -> str:
    return json.dumps({"ts": "2026-09-07T22:11:00Z", "hypothesis": text, "tests": ["pytest"],
                       "status": "unproven"}) + "\n"


def commit(repo: Repo, message: str, **files: str) -> str:
    for name, text in files.items():
        repo.write(name, text)
    repo.git("add", "-A")
    repo.git("commit", "-q", "--no-verify", "-m", message)
    return repo.git("rev-parse", "HEAD")


@pytest.fixture(scope="module")
def published_template(tmp_path_factory: pytest.TempPathFactory,
                       hook_repo: tuple[str, str]) -> Path:
    """main on a bare remote: 'one' (with the first src change), then 'two' (with a second),
    both pushed through the installed pre-push hook; built once, copied for each test."""
    repo = Repo(tmp_path_factory.mktemp("published") / "repo")
    repo.write(".pre-commit-config.yaml", precommit_config(hook_repo, HOOK))
    commit(repo, "first", **{LEDGER: hypothesis("one"), "src/a.py": "1\n"})
    repo.add_remote()
    assert repo.run("pre-commit", "install", "--hook-type", "pre-push").code == 0
    first = repo.run("git", "push", "-q", "origin", "main")
    assert first.code == 0, first.both
    commit(repo, "second", **{LEDGER: hypothesis("one") + hypothesis("two"), "src/a.py": "2\n"})
    second = repo.run("git", "push", "-q", "origin", "main")
    assert second.code == 0, second.both
    repo.git("reset", "-q", "--hard", "HEAD~1")  # back to the merge base: 'two' is gone here
    return repo.path.parent


@pytest.fixture
def published(published_template: Path, tmp_path: Path) -> Repo:
    """A copy of the template's repository and bare remote, the remote's URL pointed at the copy."""
    return copied(published_template, tmp_path)


REWRITES = {
    "replaced": ({LEDGER: hypothesis("one") + hypothesis("three"), "src/a.py": "3\n"},
                 "line 2 is on the remote (origin/main) and was edited"),
    "dropped": ({"docs.md": "unrelated\n"},
                "line 2 is on the remote (origin/main) and was deleted (2 lines before, 1 now)"),
    "edited": ({LEDGER: hypothesis("one") + hypothesis("two, reworded"), "src/a.py": "3\n"},
               "line 2 is on the remote (origin/main) and was edited"),
}


@pytest.mark.parametrize("case", sorted(REWRITES))
def test_a_force_push_cannot_rewrite_published_lines(published: Repo, case: str) -> None:
    files, message = REWRITES[case]
    commit(published, f"rewrite: {case}", **files)
    push = published.run("git", "push", "--force", "origin", "main")
    assert push.code == 1, push.both
    assert f"{LEDGER}:2: {message}" in push.both, push.both
    assert f"restore it with 'git checkout origin/main -- {LEDGER}'" in push.both
    remote = published.path.parent / "repo-remote.git"
    assert published.git("--git-dir", str(remote), "log", "-1", "--format=%s") == "second"


def test_a_force_push_that_keeps_published_lines_goes_through(published: Repo) -> None:
    commit(published, "redo", **{LEDGER: hypothesis("one") + hypothesis("two")
                                 + hypothesis("three"), "src/a.py": "3\n"})
    push = published.run("git", "push", "--force", "origin", "main")
    assert push.code == 0, push.both


def test_a_force_push_by_url_finds_the_remote_by_its_url(published: Repo) -> None:
    commit(published, "drop", **{"docs.md": "unrelated\n"})
    remote = published.path.parent / "repo-remote.git"
    push = published.run("git", "push", "--force", str(remote), "main")
    assert push.code == 1, push.both
    assert "line 2 is on the remote (origin/main) and was deleted" in push.both
