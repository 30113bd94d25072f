"""Repository policy at the receipt check: bookkeeping that does not count, stale messages that
say what changed, the suite that counts, routes, and logged overrides."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import PASSING_TEST
from conftest import Repo
from conftest import Result
from conftest import check_receipt
from conftest import git
from conftest import precommit_config
from conftest import receipt_check

from hooks.core.errors import USAGE_ERROR

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
    added = repo.receipt("ledger", "add", "cart rounds down", "--test", "pytest -q")
    hypothesis = added.out.strip()
    repo.commit("hypothesis")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    resolved = repo.receipt("ledger", "resolve", hypothesis, "--status", "proven",
                        "--evidence", "receipt: 3 passed")
    assert resolved.code == 0, resolved.both
    assert repo.receipt("skips", "--write-baseline").code == 0
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
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    repo.commit("ledger after the run", **{"assumption-ledger.jsonl": '{"ts":"a"}\n{"ts":"b"}\n'})
    clone = tmp_path / "ci"
    git(tmp_path, "clone", "-q", "--no-local", str(repo.path), str(clone))
    (clone / "artifacts").mkdir()
    (clone / RECEIPT).write_text((repo.path / RECEIPT).read_text())
    tested = json.loads((repo.path / RECEIPT).read_text())["git_tree"]
    absent = subprocess.run(("git", "cat-file", "-e", tested), cwd=clone, check=False)
    assert absent.returncode != 0  # the tested tree (ledger left out) was never committed
    result = receipt_check(clone)
    assert result.code == 0, result.both


def test_stale_lists_what_changed_ten_at_most(repo: Repo) -> None:
    repo.write("a-old.txt", "to be deleted\n")
    project(repo)
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    for i in range(12):
        repo.write(f"src/m{i:02}.py", "x\n")
    repo.write("t.py", PASSING_TEST + "# edited\n")
    (repo.path / "a-old.txt").unlink()
    head = repo.commit("many changes")
    result = receipt_check(repo.path)
    assert result.code == 3
    tree = json.loads((repo.path / RECEIPT).read_text())["git_tree"]
    shown = ", ".join(["D a-old.txt", *(f"A src/m{i:02}.py" for i in range(9))])
    assert result.out == (f"stale: {head[:7]} differs from the tested tree in 14 paths: {shown} "
                          f"and 4 more; {RECEIPT} is for tree {tree[:7]}: run 'receipt run -- "
                          f"{PY} t.py', then push again\n")


def test_stale_names_the_receipts_commit_where_the_tested_tree_is_not_here(
        repo: Repo, tmp_path: Path) -> None:
    project(repo)
    repo.write("fix.py", "only in the work tree\n")  # tested, then left out of the commit
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    receipt = json.loads((repo.path / RECEIPT).read_text())
    clone = tmp_path / "ci"
    git(tmp_path, "clone", "-q", "--no-local", str(repo.path), str(clone))
    (clone / "artifacts").mkdir()
    (clone / RECEIPT).write_text(json.dumps(receipt))
    result = receipt_check(clone)
    head = receipt["git_head"]
    assert result.code == 3
    assert result.out.startswith(
        f"stale: {head[:7]} has the tree of the commit the run started from, {head[:7]}, but "
        f"the run also tested uncommitted changes (tree {receipt['git_tree'][:7]}, not in this "
        f"repository);")
    assert "differs from the tested tree in 1 path: D fix.py" in receipt_check(repo.path).out


def test_a_config_change_after_the_run_is_stale_and_says_the_policy_changed(
        repo: Repo) -> None:
    project(repo, "require-tests = true")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    head = repo.commit("age limit", **{".receipt-hooks.toml": "max-age = '7d'\n"})
    result = receipt_check(repo.path)
    assert result.code == 3
    assert result.out.startswith(
        f"stale: {head[:7]} differs from the tested tree in 1 path: M .receipt-hooks.toml "
        f"(the policy in .receipt-hooks.toml changed since the run);")


def test_a_config_that_now_counts_an_ignored_path_makes_the_receipt_stale(repo: Repo) -> None:
    project(repo, "ignore = ['assumption-ledger.jsonl', '.receipt-hooks.toml']")
    repo.write("assumption-ledger.jsonl", "")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    repo.commit("ledger after the run", **{"assumption-ledger.jsonl": '{"ts":"x"}\n'})
    assert receipt_check(repo.path).code == 0  # the ledger is bookkeeping
    head = repo.commit("the ledger counts now",
                       **{".receipt-hooks.toml": "ignore = ['.receipt-hooks.toml']\n"})
    result = receipt_check(repo.path)
    assert result.code == 3, result.both
    assert result.out.startswith(
        f"stale: {head[:7]} holds assumption-ledger.jsonl, which the receipt left out of the "
        f"tree it tested (ignore assumption-ledger.jsonl) and the config (.receipt-hooks.toml) "
        f"now counts;")


PYTEST_PROJECT = {
    ".gitignore": "artifacts/\n__pycache__/\n.pytest_cache/\n.venv/\n",
    "test_cart.py": "def test_total():\n    assert 1 + 2 == 3\n\n\ndef test_tax():\n"
                    "    assert 2 * 3 == 6\n",
    "pay/test_pay.py": "def test_pay():\n    assert 5 - 2 == 3\n",
}


def pytest_project(repo: Repo, hook_repo: tuple[str, str], *config_lines: str) -> None:
    for name, text in PYTEST_PROJECT.items():
        repo.write(name, text)
    repo.write(".receipt-hooks.toml", "".join(line + "\n" for line in config_lines))
    repo.write(".pre-commit-config.yaml", precommit_config(hook_repo, "check-receipt"))
    pytest_script = Path(sys.executable).parent / "pytest"
    (repo.path / ".venv/bin").mkdir(parents=True)
    (repo.path / ".venv/bin/pytest").symlink_to(pytest_script)
    repo.commit("pytest project")
    repo.add_remote()
    assert repo.run("pre-commit", "install", "--hook-type", "pre-push").code == 0


def push(repo: Repo) -> Result:
    return repo.run("git", "push", "-q", "origin", "HEAD:main", timeout=600)


def accepted_then_pushed(repo: Repo) -> None:
    """A push between a test's first and last real ones: the hook's verdict in process (the
    same range: what no remote-tracking ref has), then the remote moved without the hook."""
    checked = check_receipt(repo.path)
    assert checked.code == 0, checked.both
    moved = repo.run("git", "push", "-q", "--no-verify", "origin", "HEAD:main")
    assert moved.code == 0, moved.both


def test_wrong_trial_refused_and_the_suite_accepted_however_pytest_is_started(
        repo: Repo, hook_repo: tuple[str, str]) -> None:
    pytest_project(repo, hook_repo, "test-command = 'pytest -q'")
    head = repo.git("rev-parse", "HEAD")
    assert repo.receipt("run", "--", "true").code == 0
    refused = push(repo)
    assert refused.code == 1
    assert (f"wrong trial: {head[:7]}: the receipt ran 'true', the suite is 'pytest -q': run "
            f"'receipt run', then push again") in refused.out
    assert "- exit code: 6" in refused.out
    narrowed = repo.receipt("run", "--", "pytest", "-k", "total")
    assert narrowed.code == 0, narrowed.both
    refused = check_receipt(repo.path)
    assert refused.code == 6
    assert "wrong trial" in refused.out and "ran 'pytest -k total'" in refused.out
    assert repo.receipt("run", "--", PY, "-m", "pytest").code == 0
    accepted_then_pushed(repo)
    repo.commit("more", **{"test_more.py": "def test_more():\n    assert [1] == [1]\n"})
    assert repo.receipt("run", "--", ".venv/bin/pytest", "-v", "--color=no").code == 0
    accepted = push(repo)
    assert accepted.code == 0, accepted.both
    checked = receipt_check(repo.path)
    assert checked.out.startswith("check-receipt: ")
    assert "vouches for this tree (.venv/bin/pytest -v --color=no)" in checked.out


def test_receipt_run_without_a_command_runs_the_suite(repo: Repo,
                                                     hook_repo: tuple[str, str]) -> None:
    pytest_project(repo, hook_repo, "test-command = ['pytest -q test_cart.py', "
                                    "'pytest -q pay']")
    ran = repo.receipt("run")
    assert ran.code == 0, ran.both
    assert ran.err.count("receipt: wrote artifacts/test-receipt.json: exit 0") == 2
    assert "2 passed" in ran.out and "1 passed" in ran.out
    checked = receipt_check(repo.path)
    assert checked.code == 0, checked.both
    assert "(pytest -q test_cart.py, pytest -q pay)" in checked.out


def test_a_route_refuses_a_push_touching_its_paths_without_its_commands_receipt(
        repo: Repo, hook_repo: tuple[str, str]) -> None:
    pytest_project(repo, hook_repo, "test-command = 'pytest'", "[[route]]",
                   "paths = '^pay/'", "command = 'pytest pay'")
    assert repo.receipt("run", "--", "pytest", "pay").code == 0
    assert repo.receipt("run").code == 0
    assert push(repo).code == 0  # a whole new history touches pay/: both receipts needed
    head = repo.commit("pay change", **{"pay/fee.py": "FEE = 3\n"})
    assert repo.receipt("run").code == 0
    refused = push(repo)
    assert refused.code == 1
    assert (f"wrong trial: {head[:7]}: the receipt ran 'pytest', the change touches "
            f"pay/fee.py (route '^pay/'), which needs a receipt from 'pytest pay': run "
            f"'receipt run -- pytest pay', then push again") in refused.out
    assert repo.receipt("run", "--", "pytest", "pay").code == 0
    accepted_then_pushed(repo)
    repo.commit("cart only", **{"cart.py": "X = 1\n"})
    assert repo.receipt("run").code == 0
    assert push(repo).code == 0, "a change outside pay/ needs only the suite"


def test_an_override_lets_the_push_through_and_is_said_every_time(
        repo: Repo, hook_repo: tuple[str, str]) -> None:
    pytest_project(repo, hook_repo, "test-command = 'pytest'")
    head = repo.git("rev-parse", "HEAD")
    assert push(repo).code == 1
    overridden = repo.receipt("override", "--reason", "INC-42 hotfix, suite runs after")
    assert overridden.code == 0, overridden.both
    tree = repo.git("rev-parse", "HEAD^{tree}")
    event = json.loads((repo.path / "assumption-ledger.jsonl").read_text())
    assert {k: event[k] for k in ("event", "who", "what", "why", "tree", "commit")} == {
        "event": "override", "who": "test@example.invalid", "what": "check-receipt",
        "why": "INC-42 hotfix, suite runs after", "tree": tree, "commit": head}
    unseen = check_receipt(repo.path)  # an override counts only once committed: it travels
    assert unseen.code == 2                # with the push
    assert (f"check-receipt: {head[:7]}: the override in assumption-ledger.jsonl is not "
            f"committed in {head[:7]}, so it does not count") in unseen.err
    head = repo.commit("override INC-42", "assumption-ledger.jsonl")
    said = (f"check-receipt: {head[:7]}: overridden by test@example.invalid because INC-42 "
            f"hotfix, suite runs after")
    pushed = push(repo)
    assert pushed.code == 0, pushed.both
    for argv in (["receipt", "check"], ["receipt", "show"]):
        result = repo.run(*argv)
        assert result.code == 0, result.both
        assert said in result.out
    later = repo.commit("later", **{"x.py": "1\n"})
    refused = receipt_check(repo.path)
    assert refused.code == 2 and "overridden" not in refused.out
    assert refused.out.startswith(f"{later[:7]}: no receipt at {RECEIPT}")


def test_a_fuse_cap_is_refused_then_overridden_with_a_reason_logged(repo: Repo) -> None:
    project(repo, "[fuse]", "max-steps = 3", "budget = 600")
    within = repo.receipt("fuse", "--", "false")
    assert within.code == 42
    assert "receipt fuse: step 1/3: false" in within.err  # the cap is the default
    for argv, env in ((["--max-steps", "5"], {}), ([], {"MAX_STEPS": "5"})):
        refused = repo.receipt("fuse", *argv, "--", "false", env=env)
        assert refused.code == USAGE_ERROR
        assert refused.err == (
            "receipt fuse: --max-steps 5 (cap 3) goes past the cap committed in "
            ".receipt-hooks.toml fuse: stay within it, or pass --override \"REASON\" (logged in "
            "the ledger)\n")
    ledger = repo.path / "assumption-ledger.jsonl"
    before = ledger.read_text().splitlines()
    overridden = repo.receipt("fuse", "--max-steps", "5", "--budget", "900",
                          "--override", "INC-9 flaky infra, watching it", "--", "false")
    assert overridden.code == 42
    assert ("receipt fuse: --max-steps 5 (cap 3), --budget 900 (cap 600) past the cap in "
            ".receipt-hooks.toml fuse: overridden by test@example.invalid because INC-9 flaky "
            "infra, watching it") in overridden.err
    assert "step 1/5" in overridden.err
    added = [json.loads(line) for line in ledger.read_text().splitlines()[len(before):]]
    assert [e["event"] for e in added] == ["override", "start", "fuse_blown"]
    assert {k: added[0][k] for k in ("who", "what", "why")} == {
        "who": "test@example.invalid", "what": "fuse --max-steps 5 (cap 3), --budget 900 (cap 600)",
        "why": "INC-9 flaky infra, watching it"}
    assert repo.receipt("ledger", "check").code == 0
