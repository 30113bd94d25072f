"""Receipts as git notes on the tested tree: written by run, read by check, moved by
publish/fetch without loss, --reuse, and the plain pre-push hook on a two-ref push."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from conftest import PASSING_TEST
from conftest import Repo
from conftest import check_receipt
from conftest import git

from hooks.core.errors import USAGE_ERROR
from hooks.receipt.store import notes

PY = sys.executable
NOTES = "refs/notes/receipts"
# a test that leaves a mark each time it really runs: --reuse must not run it
MARKING_TEST = ("import sys\nopen('ran.marks', 'a').write('x')\n"
                "print('=== 3 passed in 0.01s ===')\nsys.exit(0)\n")


def note(repo: Repo, rev: str = "HEAD") -> list[dict[str, Any]]:
    tree = repo.git("rev-parse", f"{rev}^{{tree}}")
    data: list[dict[str, Any]] = json.loads(repo.git("notes", "--ref", "receipts", "show", tree))
    return data


def run_tested(repo: Repo, name: str = "t.py", script: str = PASSING_TEST) -> str:
    repo.write(name, script)
    head = repo.commit(f"add {name}")
    result = repo.receipt("run", "--", PY, name)
    assert result.code == 0, result.both
    return head


def test_run_adds_its_receipt_to_the_note_on_the_tested_tree(repo: Repo) -> None:
    repo.write("u.py", PASSING_TEST)
    run_tested(repo)
    first = note(repo)
    assert [r["argv"] for r in first] == [[PY, "t.py"]]
    assert first[0]["git_tree"] == repo.git("rev-parse", "HEAD^{tree}")
    file_receipt = json.loads((repo.path / "artifacts/test-receipt.json").read_text())
    assert first == [file_receipt]
    assert repo.receipt("run", "--", PY, "u.py").code == 0
    # a receipt's times are to the second and its duration to the millisecond: two runs of one
    # command within one second can be the very same receipt, which the note keeps once
    started = int(time.time())
    while int(time.time()) == started:
        time.sleep(0.05)
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    # several commands and several runs coexist on one tree, oldest first
    assert [r["argv"][-1] for r in note(repo)] == ["t.py", "u.py", "t.py"]


def test_check_uses_the_note_when_the_file_is_for_another_tree(repo: Repo) -> None:
    tested_commit = run_tested(repo)
    repo.commit("untested change", x="1\n")
    refused = check_receipt(repo.path)
    assert refused.code == 3 and "stale:" in refused.out
    assert repo.receipt("run", "--", PY, "t.py").code == 0  # the file moves on
    repo.git("revert", "--no-edit", "HEAD")  # back to the tested tree: no rerun needed
    assert repo.git("rev-parse", "HEAD^{tree}") == repo.git("rev-parse",
                                                            f"{tested_commit}^{{tree}}")
    result = check_receipt(repo.path)
    assert result.code == 0, result.both
    tree = repo.git("rev-parse", "--short=7", "HEAD^{tree}")
    assert f"{NOTES} on tree {tree} vouches for this tree" in result.out


def test_a_corrupt_note_is_named_not_taken_for_a_missing_receipt(repo: Repo) -> None:
    head = run_tested(repo)
    tree = repo.git("rev-parse", "HEAD^{tree}")
    repo.git("notes", "--ref", "receipts", "add", "-f", "-m", "{bad", tree)
    (repo.path / "artifacts/test-receipt.json").unlink()
    said = (f"{head[:7]}: the note on tree {tree[:7]} in {NOTES} holds no receipt (it is not "
            f"a JSON list of receipts): run 'receipt run' on it, then 'receipt publish', "
            f"which replaces it")
    refused = check_receipt(repo.path)
    assert refused.code == 5, refused.both
    assert said in refused.out
    verified = repo.receipt("verify", "--policy-from", "HEAD")
    assert verified.code == 5, verified.both
    assert said in verified.both
    assert repo.receipt("run", "--", PY, "t.py").code == 0  # the run replaces it
    (repo.path / "artifacts/test-receipt.json").unlink()
    assert check_receipt(repo.path).code == 0


def test_a_hand_edited_receipt_is_refused_by_its_log(repo: Repo) -> None:
    repo.write("t.py", "import sys\nprint('=== 1 failed, 2 passed in 0.01s ===')\nsys.exit(1)\n")
    repo.commit("failing")
    assert repo.receipt("run", "--", PY, "t.py").code == 1
    path = repo.path / "artifacts/test-receipt.json"
    data = json.loads(path.read_text())
    data["exit_code"] = 0
    data["tests"].update(failed=0, passed=3)
    path.write_text(json.dumps(data))
    result = check_receipt(repo.path)
    assert result.code == 5
    assert "the log does not match the receipt (the log counts 2 passed, 1 failed" in result.out


def test_a_replaced_log_is_refused_even_with_a_good_note(repo: Repo) -> None:
    run_tested(repo)
    log = repo.path / "artifacts/test-output.log"
    log.write_text(log.read_text().replace("3 passed", "4 passed"))
    result = check_receipt(repo.path)
    assert result.code == 5  # a note vouches for the tree, but the evidence here was altered
    assert "the log does not match the receipt (its SHA-256 differs from output.sha256" in \
        result.out


def test_require_log_refuses_a_receipt_without_its_log(repo: Repo) -> None:
    run_tested(repo)
    assert check_receipt(repo.path, "--require-log").code == 0
    (repo.path / "artifacts/test-output.log").unlink()
    assert check_receipt(repo.path).code == 0
    repo.git("update-ref", "-d", NOTES)
    result = check_receipt(repo.path, "--require-log")
    assert result.code == 2
    assert "no log at artifacts/test-output.log and --require-log is set" in result.out


def test_reuse_skips_a_command_already_green_on_this_tree(repo: Repo) -> None:
    repo.write(".gitignore", "artifacts/\nran.marks\n")
    run_tested(repo, script=MARKING_TEST)
    marks = repo.path / "ran.marks"
    assert marks.read_text() == "x"
    again = repo.receipt("run", "--reuse", "--", PY, "t.py")
    assert again.code == 0, again.both
    assert marks.read_text() == "x"  # not run
    tree = repo.git("rev-parse", "--short=7", "HEAD^{tree}")
    assert f"--reuse: tree {tree} already has a green receipt from '{PY} t.py'" in again.err
    assert "not running it again" in again.err
    # the same command spelt otherwise is the same trial (runner_args.normalised)
    assert repo.receipt("run", "--reuse", "--", PY, "./t.py").code == 0
    assert marks.read_text() == "x"
    # another tree, or no --reuse: it runs
    repo.commit("change", x="1\n")
    assert repo.receipt("run", "--reuse", "--", PY, "t.py").code == 0
    assert marks.read_text() == "xx"
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    assert marks.read_text() == "xxx"


def test_reuse_runs_when_the_receipt_on_the_tree_failed(repo: Repo) -> None:
    repo.write("t.py", "import sys\nprint('=== 1 failed in 0.01s ===')\nsys.exit(1)\n")
    repo.commit("failing")
    assert repo.receipt("run", "--", PY, "t.py").code == 1
    again = repo.receipt("run", "--reuse", "--", PY, "t.py")
    assert again.code == 1 and "not running" not in again.err


def test_two_ref_push_each_ref_checked_against_its_own_tree(repo: Repo) -> None:
    remote = repo.add_remote()
    assert repo.receipt("install-hook").code == 0
    run_tested(repo)
    repo.git("checkout", "-q", "-b", "feature")
    run_tested(repo, "u.py")
    repo.git("checkout", "-q", "-b", "untested")
    repo.commit("no run", x="1\n")
    both = repo.run("git", "push", "origin", "main", "feature")
    assert both.code == 0, both.both
    assert git(remote, "rev-parse", "feature") == repo.git("rev-parse", "feature")
    repo.git("checkout", "-q", "main")
    run_tested(repo, "v.py")  # main moves on, tested; the other ref is not
    refused = repo.run("git", "push", "origin", "main", "untested")
    assert refused.code != 0
    untested = repo.git("rev-parse", "--short=7", "untested")
    assert f"stale: {untested} differs from the tested tree" in refused.both
    assert repo.git("rev-parse", "--short=7", "main") not in refused.both
    assert git(remote, "for-each-ref", "refs/heads/untested") == ""
    alone = repo.run("git", "push", "origin", "main")
    assert alone.code == 0, alone.both


def clone(remote: Path, where: Path) -> Repo:
    git(where.parent, "clone", "-q", str(remote), str(where))
    r = Repo.__new__(Repo)
    r.path = where
    return r


def test_notes_published_fetched_and_merged_from_two_clones_without_loss(repo: Repo) -> None:
    remote = repo.add_remote()
    repo.write("t.py", PASSING_TEST)
    repo.write("u.py", PASSING_TEST)
    repo.commit("tests")
    repo.git("push", "-q", "origin", "main")
    a = clone(remote, repo.path.parent / "a")
    b = clone(remote, repo.path.parent / "b")
    assert a.receipt("run", "--", PY, "t.py").code == 0
    assert b.receipt("run", "--", PY, "u.py").code == 0  # same tree, other command
    b.commit("b only", z="1\n")
    assert b.receipt("run", "--", PY, "t.py").code == 0  # a tree only b has
    first = a.receipt("publish")
    assert first.code == 0, first.both
    assert "receipt publish: refs/notes/receipts pushed to origin" in first.err
    second = b.receipt("publish")  # the remote moved: fetched and merged first
    assert second.code == 0, second.both
    fetched = a.receipt("fetch")
    assert fetched.code == 0, fetched.both
    shared = sorted(r["argv"][-1] for r in note(a, "main"))
    assert shared == ["t.py", "u.py"]
    assert sorted(r["argv"][-1] for r in note(b, "HEAD~")) == ["t.py", "u.py"]
    b_tree = b.git("rev-parse", "HEAD^{tree}")
    assert json.loads(a.git("notes", "--ref", "receipts", "show", b_tree))[0]["git_tree"] == \
        b_tree
    # the remote holds the union too, and publishing again loses nothing
    assert a.receipt("publish").code == 0
    remote_note = git(remote, "notes", "--ref", "receipts", "show",
                      a.git("rev-parse", "main^{tree}"))
    assert sorted(r["argv"][-1] for r in json.loads(remote_note)) == ["t.py", "u.py"]


def test_fetch_from_a_remote_without_notes_says_so(repo: Repo) -> None:
    repo.add_remote()
    result = repo.receipt("fetch")
    assert result.code == 0
    assert "receipt fetch: origin has no refs/notes/receipts yet: nothing to fetch" in result.err
    published = repo.receipt("publish")
    assert published.code == USAGE_ERROR
    assert "no receipts to publish: refs/notes/receipts does not exist here or on origin" in \
        published.err


def test_check_receipt_publish_pushes_the_notes_without_recursing(repo: Repo) -> None:
    remote = repo.add_remote()
    assert repo.receipt("install-hook", "--", "--publish", "origin").code == 0
    run_tested(repo)
    pushed = repo.run("git", "push", "origin", "main")
    assert pushed.code == 0, pushed.both
    assert "check-receipt: published refs/notes/receipts to origin" in pushed.both
    assert git(remote, "rev-parse", NOTES) == repo.git("rev-parse", NOTES)


def test_union_keeps_each_receipt_once_in_order() -> None:
    one, two = {"a": 1, "b": [1]}, {"a": 2}
    assert notes.union([one, two], [{"b": [1], "a": 1}, two, {"a": 3}]) == \
        [one, two, {"a": 3}]
    assert notes.parse(notes.encode([one, two])) == [one, two]
    assert notes.parse(b"a\nb\n") == []  # what `git notes merge -s union` would have made
    assert notes.parse(b'{"a": 1}') == [{"a": 1}]


def test_concurrent_runs_on_one_tree_both_land_in_the_note(repo: Repo) -> None:
    import os
    import subprocess

    # four different commands: two runs of one command can finish in the same second with the
    # same duration to the millisecond, and identical receipts are rightly kept once
    names = ("t.py", "u.py", "v.py", "w.py")
    for name in names:
        repo.write(name, PASSING_TEST)
    repo.commit("tests")
    procs = [subprocess.Popen(["receipt", "run", "--", PY, name], cwd=repo.path,
                              env=dict(os.environ), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
             for name in names]
    assert [p.wait(timeout=60) for p in procs] == [0, 0, 0, 0]
    assert sorted(r["argv"][-1] for r in note(repo)) == list(names)
