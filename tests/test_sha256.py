"""SHA-256 repositories: 64-hex ids are accepted everywhere, the empty tree
is the format's own, and a deletion is the all-zero id of either length."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import PASSING_TEST
from conftest import Repo
from conftest import git
from conftest import precommit_config

from hooks.core import schemas

PY = sys.executable
EMPTY_SHA256_TREE = "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321"


class Sha256Repo(Repo):
    def __init__(self, path: Path) -> None:
        self.path = path
        git(path.parent, "init", "-q", "--template=", "--object-format=sha256", str(path))

    def add_remote(self) -> Path:
        remote = self.path.parent / (self.path.name + "-remote.git")
        git(self.path.parent, "init", "-q", "--bare", "--template=", "--object-format=sha256",
            str(remote))
        self.git("remote", "add", "origin", str(remote))
        return remote


@pytest.fixture
def repo256(tmp_path: Path) -> Sha256Repo:
    r = Sha256Repo(tmp_path / "repo")
    r.write(".gitignore", "artifacts/\n__pycache__/\n")
    assert r.git("rev-parse", "--show-object-format") == "sha256"
    return r


def test_receipt_run_and_check_receipt(repo256: Sha256Repo) -> None:
    repo256.write("t.py", PASSING_TEST)
    head = repo256.commit("tests")
    assert len(head) == 64
    ran = repo256.receipt("run", "--", PY, "t.py")
    assert ran.code == 0, ran.both
    data = json.loads((repo256.path / "artifacts/test-receipt.json").read_text())
    assert schemas.validate(schemas.RECEIPT_V2, data) == []  # run no longer validates it
    assert data["git_head"] == head and len(data["git_tree"]) == 64
    checked = repo256.run("check-receipt")
    assert checked.code == 0, checked.both
    assert f"check-receipt: {head[:7]}: artifacts/test-receipt.json vouches" in checked.out
    repo256.commit("untested", x="1\n")
    assert repo256.run("check-receipt").code == 3


def test_unborn_branch_run_compares_with_the_sha256_empty_tree(repo256: Sha256Repo) -> None:
    # nothing but ignored files: the tree is the (SHA-256) empty tree, so nothing is dirty
    (repo256.path / ".gitignore").unlink()
    (repo256.path / ".git/info").mkdir(exist_ok=True)
    (repo256.path / ".git/info/exclude").write_text("artifacts/\n")
    ran = repo256.receipt("run", "--", PY, "-c", "print('1 passed in 0.01s')")
    assert ran.code == 0, ran.both
    assert "(uncommitted changes)" not in ran.err
    data = json.loads((repo256.path / "artifacts/test-receipt.json").read_text())
    assert data["git_head"] is None
    assert data["git_tree"] == EMPTY_SHA256_TREE and data["git_dirty"] is False


def test_plain_pre_push_hook_and_a_deletion(repo256: Sha256Repo) -> None:
    repo256.write("t.py", PASSING_TEST)
    repo256.commit("tests")
    repo256.add_remote()
    assert repo256.receipt("install-hook").code == 0
    refused = repo256.run("git", "push", "origin", "main")
    assert refused.code == 1
    assert "no receipt at artifacts/test-receipt.json" in refused.both
    assert repo256.receipt("run", "--", PY, "t.py").code == 0
    accepted = repo256.run("git", "push", "origin", "main", "main:old")
    assert accepted.code == 0, accepted.both
    repo256.commit("untested", x="1\n")  # a deletion has nothing to vouch for: not refused
    deleted = repo256.run("git", "push", "origin", ":old")
    assert deleted.code == 0, deleted.both


def test_diff_hooks_staged_and_at_pre_push(repo256: Sha256Repo,
                                           hook_repo: tuple[str, str]) -> None:
    repo256.write(".pre-commit-config.yaml",
                  precommit_config(hook_repo, "no-inserted-skips", "require-ledger-hypothesis"))
    repo256.commit("config")
    repo256.write("tests/test_a.py", "import pytest\n\n@pytest.mark.skip\ndef test_a():\n"
                                     "    assert f()\n")
    repo256.write("src/a.py", "def f():\n    return 1\n")
    repo256.git("add", "-A")
    skips = repo256.run("no-inserted-skips")
    assert skips.code == 1 and "SKP001" in skips.both, skips.both
    ledger = repo256.run("require-ledger-hypothesis")
    assert ledger.code == 1 and "gains no hypothesis" in ledger.both, ledger.both
    repo256.git("commit", "-q", "--no-verify", "-m", "skip and src")
    repo256.add_remote()
    assert repo256.run("pre-commit", "install", "--hook-type", "pre-push").code == 0
    push = repo256.run("git", "push", "origin", "main")
    assert push.code == 1, push.both
    assert "SKP001" in push.both and "gains no hypothesis" in push.both, push.both
    assert "internal error" not in push.both
