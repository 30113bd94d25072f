"""Which receipt decides, through real git: for a tree, the newest run of a command wins. A red,
tree-changing or zero-test run after a green one on the same tree leaves it unvouched (at
pre-push, in ``receipt check`` and in ``receipt verify``); green then red is refused as flaky,
naming both runs; with no ``test-command`` the newest receipt on the tree decides whatever it
ran; ``--require-log`` counts a receipt from the notes only when its own log is here."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from conftest import Repo
from conftest import built_template
from conftest import copied
from conftest import receipt_check
from conftest import receipt_main

PY = sys.executable
NOTES = "refs/notes/receipts"
RECEIPT = "artifacts/test-receipt.json"

# t.py's outcome is chosen by a file outside the repository, so its tree stays the same
SWITCHED_TEST = """import os, sys
mode = open({switch!r}).read().strip() if os.path.exists({switch!r}) else "green"
if mode == "red":
    print("=== 1 failed, 2 passed in 0.01s ===")
    sys.exit(1)
if mode == "writes":
    open("t.py", "a").write("# touched\\n")
if mode == "none":
    print("=== 3 skipped in 0.01s ===")
    sys.exit(0)
print("=== 3 passed in 0.01s ===")
"""


def switch_of(repo: Repo) -> Path:
    return repo.path.parent / "switch"


def build(repo: Repo) -> None:
    """t.py (green unless switched), the suite configured, committed, the pre-push hook on."""
    repo.write("t.py", SWITCHED_TEST.format(switch=str(switch_of(repo))))
    repo.write(".receipt-hooks.toml", f"test-command = '{PY} t.py'\n")
    repo.commit("init")
    repo.add_remote()
    assert repo.receipt("install-hook").code == 0


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_template(tmp_path_factory, build)


@pytest.fixture
def project(template: Path, tmp_path: Path) -> Repo:
    repo = copied(template, tmp_path)
    # the switch path is baked into t.py: point the copy's t.py at the copy's switch
    repo.write("t.py", SWITCHED_TEST.format(switch=str(switch_of(repo))))
    repo.commit("switch here")
    return repo


def run_as(repo: Repo, mode: str, *argv: str) -> int:
    switch_of(repo).write_text(mode)
    return repo.receipt("run", *argv).code


def finished(repo: Repo) -> str:
    return str(json.loads((repo.path / RECEIPT).read_text())["finished_utc"])


def test_a_red_run_after_a_green_one_on_the_same_tree_fails_the_push_as_flaky(
        project: Repo) -> None:
    repo = project
    head = repo.git("rev-parse", "HEAD")
    tree = repo.git("rev-parse", "HEAD^{tree}")
    assert run_as(repo, "green") == 0
    green_at = finished(repo)
    assert run_as(repo, "red") == 1
    red_at = finished(repo)
    pushed = repo.run("git", "push", "-q", "origin", "HEAD:main")
    assert pushed.code == 1, pushed.both
    def said(red_in: str) -> str:
        return (f"{head[:7]}: flaky: '{PY} t.py' passed on tree {tree[:7]} at {green_at} "
                f"({NOTES} on tree {tree[:7]}), then failed on the same tree at {red_at} "
                f"({red_in}, exit_code 1): the newest run decides; fix the flaky tests, then "
                f"run 'receipt run -- {PY} t.py'")

    assert said(RECEIPT) in pushed.out
    checked = receipt_check(repo.path)
    assert checked.code == 4 and said(RECEIPT) in checked.out
    verified = receipt_main(repo.path, "verify", "--rev", "HEAD", "--policy-from", "HEAD")
    assert verified.code == 4 and said(f"{NOTES} on tree {tree[:7]}") in verified.out
    assert run_as(repo, "green") == 0  # green again: the newest run decides
    assert receipt_check(repo.path).code == 0


def test_a_run_that_changed_the_tree_after_a_green_one_does_not_let_the_green_vouch(
        project: Repo) -> None:
    repo = project
    head = repo.git("rev-parse", "HEAD")
    assert run_as(repo, "green") == 0
    green_at = finished(repo)
    assert run_as(repo, "writes") == 0
    repo.git("checkout", "--", "t.py")  # the tree the push sends is the tested one again
    pushed = repo.run("git", "push", "-q", "origin", "HEAD:main")
    assert pushed.code == 1, pushed.both
    assert f"{head[:7]}: the run changed the files it tested" in pushed.out
    assert (f"(the newest run on tree {repo.git('rev-parse', 'HEAD^{tree}')[:7]}: the green "
            f"run at {green_at}, {NOTES} on tree") in pushed.out
    assert receipt_check(repo.path).code == 3


def test_a_run_that_tested_nothing_after_a_green_one_leaves_the_tree_unvouched(
        project: Repo) -> None:
    repo = project
    head = repo.git("rev-parse", "HEAD")
    assert run_as(repo, "green") == 0
    assert run_as(repo, "none") == 0
    checked = receipt_check(repo.path)
    assert checked.code == 4, checked.both
    assert checked.out.startswith(f"{head[:7]}: no test passed (3 skipped) in the run of "
                                  f"'{PY} t.py'")
    assert "does not vouch)" in checked.out


def test_with_no_test_command_the_newest_receipt_on_the_tree_decides_whatever_it_ran(
        repo: Repo) -> None:
    repo.write("t.py", "print('=== 3 passed in 0.01s ===')\n")
    repo.write("f.py", "import sys\nprint('=== 1 failed, 2 passed in 0.01s ===')\nsys.exit(1)\n")
    head = repo.commit("init")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    assert receipt_check(repo.path).code == 0
    assert repo.receipt("run", "--", PY, "f.py").code == 1
    checked = receipt_check(repo.path)
    assert checked.code == 4, checked.both
    assert checked.out.startswith(f"{head[:7]}: the recorded run failed (exit_code 1 from "
                                  f"'{PY} f.py'")
    assert "flaky" not in checked.out  # another command: red, not flaky
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    assert receipt_check(repo.path).code == 0


def test_require_log_does_not_count_a_receipt_from_the_notes_whose_log_is_not_here(
        project: Repo) -> None:
    repo = project
    head = repo.git("rev-parse", "HEAD")
    tree = repo.git("rev-parse", "HEAD^{tree}")
    assert run_as(repo, "green") == 0
    assert receipt_check(repo.path, "--require-log").code == 0
    (repo.path / RECEIPT).unlink()
    shutil.rmtree(repo.path / "artifacts/receipts")  # only the notes hold the receipt now
    (repo.path / "artifacts/test-output.log").write_text("another run's output\n")
    assert receipt_check(repo.path).code == 0  # without --require-log the note still vouches
    checked = receipt_check(repo.path, "--require-log")
    assert checked.code == 2, checked.both
    assert (f"{head[:7]}: the log of the receipt in {NOTES} on tree {tree[:7]} is not here "
            f"(artifacts/test-output.log holds another run's output) and --require-log is "
            f"set: run 'receipt run -- {PY} t.py' here, then push again") in checked.out
