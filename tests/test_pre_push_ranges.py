"""Pushes pre-commit gives the hooks no range for: by URL, a first push to an
empty remote, an orphan branch. The diff hooks must then scan the pushed history no remote has,
never the (empty) index, so a --no-verify commit is still seen; through the real framework."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Repo
from conftest import Result
from conftest import copied
from conftest import precommit_config

SKIP = "import pytest\n\n@pytest.mark.skip\ndef test_pay():\n    assert pay() == 1\n"
SRC = "def pay():\n    return 1\n"


def project(repo: Repo, hook_repo: tuple[str, str]) -> None:
    repo.write(".pre-commit-config.yaml",
               precommit_config(hook_repo, "no-inserted-skips", "require-ledger-hypothesis"))
    repo.write("README.md", "a project\n")
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "project")
    installed = repo.run("pre-commit", "install", "--hook-type", "pre-push")
    assert installed.code == 0, installed.both


def template(base: Path, hook_repo: tuple[str, str], *, pushed: bool) -> Path:
    """The project with the pre-push hook installed and a bare remote: empty, or (PUSHED) with
    main pushed through the installed hook. Built once per module, copied for each test."""
    repo = Repo(base / "repo")
    repo.write(".gitignore", "artifacts/\n__pycache__/\n")
    project(repo, hook_repo)
    repo.add_remote()
    if pushed:  # the real first push: test_a_clean_first_push_... pushes one itself
        first = repo.run("git", "push", "-q", "origin", "main")
        assert first.code == 0, first.both
    return base


@pytest.fixture(scope="module")
def empty_template(tmp_path_factory: pytest.TempPathFactory,
                   hook_repo: tuple[str, str]) -> Path:
    return template(tmp_path_factory.mktemp("empty"), hook_repo, pushed=False)


@pytest.fixture(scope="module")
def published_template(tmp_path_factory: pytest.TempPathFactory,
                       hook_repo: tuple[str, str]) -> Path:
    return template(tmp_path_factory.mktemp("published"), hook_repo, pushed=True)


@pytest.fixture
def empty(empty_template: Path, tmp_path: Path) -> Repo:
    return copied(empty_template, tmp_path)


@pytest.fixture
def published(published_template: Path, tmp_path: Path) -> Repo:
    return copied(published_template, tmp_path)


def commit_no_verify(repo: Repo, name: str, content: str) -> None:
    repo.write(name, content)
    repo.git("add", "-A")
    repo.git("commit", "-q", "--no-verify", "-m", f"add {name}")


BAD_CHANGES = [
    ("tests/test_pay.py", SKIP, "no-inserted-skips", "SKP001"),
    ("src/pay.py", SRC, "require-ledger-hypothesis", "gains no hypothesis"),
]


def assert_refused(push: Result, hook: str, message: str) -> None:
    assert push.code == 1, push.both
    assert "error: failed to push some refs" in push.both
    assert f"{hook}" in push.both and "Failed" in push.both and message in push.both, push.both


@pytest.mark.parametrize(("name", "content", "hook", "message"), BAD_CHANGES)
def test_push_by_url_scans_what_no_remote_has(published: Repo, name: str, content: str,
                                              hook: str, message: str) -> None:
    repo = published
    remote = repo.path.parent / "repo-remote.git"
    repo.git("checkout", "-q", "-b", "feat")
    commit_no_verify(repo, name, content)
    push = repo.run("git", "push", str(remote), "feat")
    assert_refused(push, hook, message)
    # the commits already on the remote are not scanned again: a clean commit goes through
    repo.git("reset", "-q", "--hard", "main")
    commit_no_verify(repo, "notes.txt", "fine\n")
    clean = repo.run("git", "push", str(remote), "feat")
    assert clean.code == 0, clean.both


@pytest.mark.parametrize(("name", "content", "hook", "message"), BAD_CHANGES)
def test_first_push_to_an_empty_remote_scans_the_whole_history(
        empty: Repo, name: str, content: str, hook: str, message: str) -> None:
    repo = empty
    commit_no_verify(repo, name, content)
    assert_refused(repo.run("git", "push", "origin", "main"), hook, message)


@pytest.mark.parametrize(("name", "content", "hook", "message"), BAD_CHANGES)
def test_orphan_branch_push_scans_its_whole_history(published: Repo, name: str, content: str,
                                                    hook: str, message: str) -> None:
    repo = published
    repo.git("checkout", "-q", "--orphan", "fresh")
    repo.git("rm", "-rq", "--cached", "README.md")
    commit_no_verify(repo, name, content)
    assert_refused(repo.run("git", "push", "origin", "fresh"), hook, message)


def test_a_clean_first_push_and_orphan_push_go_through(empty: Repo) -> None:
    repo = empty
    first = repo.run("git", "push", "origin", "main")
    assert first.code == 0, first.both
    repo.git("checkout", "-q", "--orphan", "fresh")
    commit_no_verify(repo, "docs/index.md", "docs\n")
    orphan = repo.run("git", "push", "origin", "fresh")
    assert orphan.code == 0, orphan.both
