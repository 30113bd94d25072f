"""Repository policy at the receipt check: bookkeeping that does not count, stale messages that
say what changed, the suite that counts, routes, and logged overrides."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import PASSING_TEST
from conftest import Repo
from conftest import git
from conftest import precommit_config

PY = sys.executable
RECEIPT = "artifacts/test-receipt.json"


def project(repo: Repo, *config_lines: str) -> None:
    if config_lines:
        repo.write(".receipt-hooks.toml", "".join(line + "\n" for line in config_lines))
    repo.write("t.py", PASSING_TEST)
    repo.commit("project")


def test_ledger_resolution_and_baseline_committed_after_the_run_are_accepted_at_push(
        repo: Repo, hook_repo: tuple[str, str]) -> None:
    repo.write(".pre-commit-config.yaml", precommit_config(hook_repo, "check-receipt"))
    project(repo)
    repo.add_remote()
    assert repo.run("pre-commit", "install", "--hook-type", "pre-push").code == 0
    added = repo.run("receipt", "ledger", "add", "cart rounds down", "--test", "pytest -q")
    hypothesis = added.out.strip()
    repo.commit("hypothesis")
    assert repo.run("receipt", "run", "--", PY, "t.py").code == 0
    resolved = repo.run("receipt", "ledger", "resolve", hypothesis, "--status", "proven",
                        "--evidence", "receipt: 3 passed")
    assert resolved.code == 0, resolved.both
    assert repo.run("receipt", "skips", "--write-baseline").code == 0
    repo.commit("resolution and baseline")
    pushed = repo.run("git", "push", "origin", "main", timeout=600)
    assert pushed.code == 0, pushed.both
    assert "check-receipt" in pushed.both and "Passed" in pushed.both
    receipt = json.loads((repo.path / RECEIPT).read_text())
    assert receipt["ignored"] == ["assumption-ledger.jsonl", ".skips-baseline.json"]


def test_the_tree_match_needs_only_the_commit(repo: Repo, tmp_path: Path) -> None:
    """A clone that has the commit but not the run's objects gives the same answer."""
    repo.write("assumption-ledger.jsonl", '{"ts":"a"}\n')
    project(repo)
    assert repo.run("receipt", "run", "--", PY, "t.py").code == 0
    repo.commit("ledger after the run", **{"assumption-ledger.jsonl": '{"ts":"a"}\n{"ts":"b"}\n'})
    clone = tmp_path / "ci"
    git(tmp_path, "clone", "-q", "--no-local", str(repo.path), str(clone))
    (clone / "artifacts").mkdir()
    (clone / RECEIPT).write_text((repo.path / RECEIPT).read_text())
    tested = json.loads((repo.path / RECEIPT).read_text())["git_tree"]
    absent = subprocess.run(("git", "cat-file", "-e", tested), cwd=clone, check=False)
    assert absent.returncode != 0  # the tested tree (ledger left out) was never committed
    result = Repo.run(Repo.__new__(Repo), "receipt", "check", cwd=clone)
    assert result.code == 0, result.both


def test_stale_lists_what_changed_ten_at_most(repo: Repo) -> None:
    project(repo)
    assert repo.run("receipt", "run", "--", PY, "t.py").code == 0
    for i in range(12):
        repo.write(f"src/m{i:02}.py", "x\n")
    repo.write("t.py", PASSING_TEST + "# edited\n")
    (repo.path / ".gitignore").unlink()
    head = repo.commit("many changes")
    result = repo.run("receipt", "check")
    assert result.code == 3
    tree = json.loads((repo.path / RECEIPT).read_text())["git_tree"]
    shown = ", ".join(["D .gitignore", *(f"A src/m{i:02}.py" for i in range(9))])
    assert result.out == (f"stale: {head[:7]} differs from the tested tree in 14 paths: {shown} "
                          f"and 4 more; {RECEIPT} is for tree {tree[:7]}: run 'receipt run -- "
                          f"{PY} t.py', then push again\n")


def test_stale_names_the_receipts_commit_where_the_tested_tree_is_not_here(
        repo: Repo, tmp_path: Path) -> None:
    project(repo)
    repo.write("fix.py", "only in the work tree\n")  # tested, then left out of the commit
    assert repo.run("receipt", "run", "--", PY, "t.py").code == 0
    receipt = json.loads((repo.path / RECEIPT).read_text())
    clone = tmp_path / "ci"
    git(tmp_path, "clone", "-q", "--no-local", str(repo.path), str(clone))
    (clone / "artifacts").mkdir()
    (clone / RECEIPT).write_text(json.dumps(receipt))
    result = Repo.run(Repo.__new__(Repo), "receipt", "check", cwd=clone)
    head = receipt["git_head"]
    assert result.code == 3
    assert result.out.startswith(
        f"stale: {head[:7]} has the tree of the commit the run started from, {head[:7]}, but "
        f"the run also tested uncommitted changes (tree {receipt['git_tree'][:7]}, not in this "
        f"repository);")
    assert "differs from the tested tree in 1 path: D fix.py" in repo.run("receipt", "check").out


def test_a_config_change_after_the_run_is_stale_and_says_the_policy_changed(
        repo: Repo) -> None:
    project(repo, "require-tests = true")
    assert repo.run("receipt", "run", "--", PY, "t.py").code == 0
    head = repo.commit("suite named", **{".receipt-hooks.toml": "test-command = 'pytest'\n"})
    result = repo.run("receipt", "check")
    assert result.code == 3
    assert result.out.startswith(
        f"stale: {head[:7]} differs from the tested tree in 1 path: M .receipt-hooks.toml "
        f"(the policy in .receipt-hooks.toml changed since the run);")


def test_a_config_that_now_counts_an_ignored_path_makes_the_receipt_stale(repo: Repo) -> None:
    project(repo, "ignore = ['assumption-ledger.jsonl', '.receipt-hooks.toml']")
    repo.write("assumption-ledger.jsonl", "")
    assert repo.run("receipt", "run", "--", PY, "t.py").code == 0
    repo.commit("ledger after the run", **{"assumption-ledger.jsonl": '{"ts":"x"}\n'})
    assert repo.run("receipt", "check").code == 0  # the ledger is bookkeeping
    head = repo.commit("the ledger counts now",
                       **{".receipt-hooks.toml": "ignore = ['.receipt-hooks.toml']\n"})
    result = repo.run("receipt", "check")
    assert result.code == 3, result.both
    assert result.out.startswith(
        f"stale: {head[:7]} holds assumption-ledger.jsonl, which the receipt left out of the "
        f"tree it tested (ignore assumption-ledger.jsonl) and the config (.receipt-hooks.toml) "
        f"now counts;")
