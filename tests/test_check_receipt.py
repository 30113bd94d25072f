"""``check-receipt`` / ``receipt check``: every verdict, by exit code and message."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import PASSING_TEST
from conftest import Repo
from conftest import Result
from conftest import check_receipt

from hooks.core.errors import USAGE_ERROR

PY = sys.executable
RECEIPT = "artifacts/test-receipt.json"


def commit_and_run(repo: Repo, script: str = PASSING_TEST, exits: int = 0) -> str:
    """Commit a test script and run it through receipt run, which exits with the script's own
    code (EXITS); returns the commit id."""
    repo.write("t.py", script)
    head = repo.commit("tests")
    assert repo.receipt("run", "--", PY, "t.py").code == exits
    return head


def edit_receipt(repo: Repo, **changes: Any) -> None:
    path = repo.path / RECEIPT
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))


def check(repo: Repo, *args: str) -> Result:
    """In process: the verdicts' exit codes and messages. The process itself (console script,
    stdin, stderr, a path that could hang) has tests of its own (check_process)."""
    return check_receipt(repo.path, *args)


def check_process(repo: Repo, *args: str, **kw: Any) -> Result:
    return repo.run("check-receipt", *args, **kw)


def test_valid_receipt_passes(repo: Repo) -> None:
    head = commit_and_run(repo)
    result = check_process(repo)
    assert result.code == 0
    assert result.out.startswith(f"check-receipt: {head[:7]}: {RECEIPT} vouches for this tree")


def test_missing_receipt_exits_2_naming_commit_path_and_fix(repo: Repo) -> None:
    head = repo.commit("init")
    result = check(repo)
    assert result.code == 2
    assert result.out == (f"{head[:7]}: no receipt at {RECEIPT}: run 'receipt run -- <your test "
                          f"command>', then push again\n")


def test_stale_receipt_exits_3_saying_what_changed_and_the_rerun_command(repo: Repo) -> None:
    commit_and_run(repo)
    head = repo.commit("more", b="2\n")
    result = check(repo)
    assert result.code == 3
    old_tree = json.loads((repo.path / RECEIPT).read_text())["git_tree"]
    assert result.out == (f"stale: {head[:7]} differs from the tested tree in 1 path: A b; "
                          f"{RECEIPT} is for tree {old_tree[:7]}: run 'receipt run -- {PY} t.py', "
                          f"then push again\n")


def test_dirty_run_whose_fix_is_left_out_of_the_commit_is_stale(repo: Repo) -> None:
    repo.write("t.py", PASSING_TEST)
    repo.commit("tests", app="broken\n")
    repo.write("app", "fixed\n")  # the fix the tests saw
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    repo.write("app", "broken\n")  # ...but it never reaches the commit
    repo.commit("commit without the fix", other="x\n")
    assert check(repo).code == 3


def test_untracked_file_tested_but_not_committed_is_stale(repo: Repo) -> None:
    repo.write("t.py", PASSING_TEST)
    repo.commit("tests")
    repo.write("helper.py", "needed = True\n")  # untracked: the run saw it
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    assert check(repo).code == 3
    repo.commit("now add it", "helper.py")
    assert check(repo).code == 0


def test_a_run_that_edits_a_tracked_file_is_stale(repo: Repo) -> None:
    repo.commit("init", data="1\n")
    script = "open('data', 'w').write('2\\n'); print('1 passed, 0 failed')"
    assert repo.receipt("run", "--", PY, "-c", script).code == 0
    result = check(repo)
    assert result.code == 3
    assert "the run changed the files it tested" in result.out


def test_amending_the_message_after_the_run_keeps_it_valid(repo: Repo) -> None:
    commit_and_run(repo)
    repo.git("commit", "-q", "--amend", "-m", "a better message")
    assert check(repo).code == 0


def test_dirty_run_then_committed_exactly_is_valid(repo: Repo) -> None:
    repo.write("t.py", PASSING_TEST)
    repo.commit("tests")
    repo.write("feature.py", "x = 1\n")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    assert json.loads((repo.path / RECEIPT).read_text())["git_dirty"] is True
    repo.commit("feature", "feature.py")
    assert check(repo).code == 0


def test_failed_run_exits_4(repo: Repo) -> None:
    head = commit_and_run(repo, "import sys; print('1 failed, 1 passed in 0.1s'); sys.exit(1)",
                          exits=1)
    result = check(repo)
    assert result.code == 4
    lines = result.out.splitlines()
    assert lines[0] == (f"{head[:7]}: the recorded run failed (exit_code 1 from '{PY} t.py', "
                        f"{RECEIPT}): fix the failures, then run 'receipt run -- {PY} t.py'")
    assert "1 failed and 0 errors counted by pytest" in lines[1]


def test_failed_tests_with_exit_zero_exit_4(repo: Repo) -> None:
    commit_and_run(repo, "print('2 passed, 1 failed')")
    result = check(repo)
    assert result.code == 4
    assert "1 failed and 0 errors counted by plain" in result.out


def test_zero_tests_counted_exits_4(repo: Repo) -> None:
    commit_and_run(repo, "print('Tests:       0 total')")
    result = check(repo)
    assert result.code == 4
    assert "the run counted zero tests (jest" in result.out


@pytest.mark.parametrize(("content", "reason"), [
    (b"{not json", "not JSON"),
    (b"[1, 2]", "a JSON list, not an object"),
    (b"\xff\xfe garbage", "not JSON"),
    (b"[" * 200_000 + b"]" * 200_000, "JSON nested too deeply"),
    (b'{"a": "' + b"x" * (1 << 20) + b'"}', "over the 1048576 byte limit"),
], ids=["broken", "list", "binary", "deep", "huge"])
def test_unreadable_receipts_exit_5_in_one_line(repo: Repo, content: bytes, reason: str) -> None:
    head = repo.commit("init")
    repo.write(RECEIPT, content)
    result = check(repo)
    assert result.code == 5
    assert len(result.out.splitlines()) == 1
    assert result.out.startswith(f"{head[:7]}: {RECEIPT} is not a receipt:")
    assert reason in result.out
    assert "Traceback" not in result.both


@pytest.mark.parametrize("kind", ["directory", "fifo", "dev-zero"])
def test_special_files_exit_5_without_hanging(repo: Repo, kind: str) -> None:
    repo.commit("init")
    target = repo.path / RECEIPT
    target.parent.mkdir(parents=True)
    if kind == "directory":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to("/dev/zero")
    result = check_process(repo, timeout=20)
    assert result.code == 5
    assert len(result.out.splitlines()) == 1
    assert "is not a receipt: it is" in result.out


def test_schema_errors_exit_5_listing_each_with_its_pointer(repo: Repo) -> None:
    head = commit_and_run(repo)
    edit_receipt(repo, exit_code="0", surprise=1)
    data = json.loads((repo.path / RECEIPT).read_text())
    del data["git_tree"]
    (repo.path / RECEIPT).write_text(json.dumps(data))
    result = check(repo)
    assert result.code == 5
    lines = result.out.splitlines()
    assert len(lines) == 3
    assert all(line.startswith(f"{head[:7]}: {RECEIPT} is not a valid receipt: ") for line in lines)
    assert any("/exit_code: '0' is not of type 'integer'" in line for line in lines)
    assert any("(document): 'git_tree' is a required property" in line for line in lines)
    assert any("Additional properties are not allowed ('surprise'" in line for line in lines)


def test_seed_receipt_with_only_the_eight_fields_is_refused_as_invalid(repo: Repo) -> None:
    head = repo.commit("init")
    seed = {"command": "npm test --silent", "git_head": head, "hostname": "h", "kernel": "k",
            "runtime": "v20", "started_utc": "2026-09-07T22:11:00Z",
            "finished_utc": "2026-09-07T22:12:00Z", "exit_code": 0}
    repo.write(RECEIPT, json.dumps(seed))
    result = check(repo)
    assert result.code == 5
    assert "'schema' is a required property" in result.out


def test_require_command_and_platform_exit_6(repo: Repo) -> None:
    commit_and_run(repo)
    result = check(repo, "--require-command", r"^npm test\b")
    assert result.code == 6
    assert "does not match --require-command '^npm test\\b'" in result.out
    result = check(repo, "--require-platform", "Darwin")
    assert result.code == 6
    assert "which does not match --require-platform 'Darwin'" in result.out
    assert check(repo, "--require-command", "t\\.py$", "--require-platform", "Linux").code == 0


def test_narrowing_flags_are_off_policy_unless_allowed(repo: Repo) -> None:
    repo.write("t.py", PASSING_TEST)
    repo.commit("tests")
    # a stand-in "pytest" that prints a pytest summary, so the narrowing is what is judged
    bin_dir = repo.path.parent / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "pytest"
    fake.write_text(f"#!{PY}\nprint('=== 3 passed in 0.01s ===')\n")
    fake.chmod(0o755)
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    assert repo.receipt("run", "--", "pytest", "-q", "-k", "not slow", env=env).code == 0
    result = check(repo)
    assert result.code == 6
    assert "\"pytest -q -k 'not slow'\" runs only part of the suite (-k;" in result.out
    assert check(repo, "--allow-narrowing").code == 0


def test_several_problems_are_all_printed_and_the_first_in_order_wins(repo: Repo) -> None:
    commit_and_run(repo, "import sys; print('1 failed in 0.1s'); sys.exit(1)", exits=1)
    repo.commit("later", x="1\n")
    result = check(repo, "--require-command", "^npm")
    assert result.code == 3  # stale comes before failed (4) and off policy (6)
    assert result.out.splitlines()[0].startswith("stale: ")
    assert len(result.out.splitlines()) == 4


def test_max_age(repo: Repo) -> None:
    commit_and_run(repo)
    assert check(repo, "--max-age", "1h").code == 0
    repo.git("update-ref", "-d", "refs/notes/receipts")  # the file alone: no note vouches
    edit_receipt(repo, finished_utc="2020-01-01T00:00:00Z")
    result = check(repo, "--max-age", "24h")
    assert result.code == 3
    assert "finished at 2020-01-01T00:00:00Z, older than --max-age 1d" in result.out


def test_json_format_gives_the_same_findings_as_data(repo: Repo) -> None:
    head = commit_and_run(repo)
    repo.commit("later", x="1\n")
    result = check(repo, "--format", "json")
    assert result.code == 3
    doc = json.loads(result.out)
    assert doc["ok"] is False and doc["exit_code"] == 3
    assert doc["receipt"] == RECEIPT
    assert doc["commits"] == [repo.git("rev-parse", "HEAD")]
    assert [f["kind"] for f in doc["findings"]] == ["stale"]
    assert doc["findings"][0]["code"] == 3
    assert doc["findings"][0]["commit"] == doc["commits"][0]
    new = doc["commits"][0][:7]
    assert doc["findings"][0]["message"].startswith(f"stale: {new} differs from the tested "
                                                    f"tree in 1 path: A x; ")
    assert head[:7] not in doc["findings"][0]["message"]


def test_usage_errors_and_not_a_repo_exit_64(repo: Repo, tmp_path: Path) -> None:
    repo.commit("init")
    result = check_process(repo, "--max-age", "soon")
    assert result.code == USAGE_ERROR
    assert "not a duration: 'soon'" in result.err
    result = check(repo, "--rev", "no-such-branch")
    assert result.code == USAGE_ERROR
    assert "no-such-branch: nothing to check: it names no commit" in result.err
    outside = tmp_path / "plain"
    outside.mkdir()
    result = repo.run("check-receipt", cwd=outside)
    assert result.code == USAGE_ERROR
    assert "not a git repository" in result.err
    assert "Traceback" not in result.both


def test_rev_checks_another_commit_and_detached_head_works(repo: Repo) -> None:
    first = commit_and_run(repo)
    repo.commit("later", x="1\n")
    assert check(repo).code == 3
    assert check(repo, "--rev", first).code == 0
    repo.git("checkout", "-q", "--detach", first)
    assert check(repo).code == 0


def test_worktree_has_its_own_receipt_and_shares_the_notes(repo: Repo) -> None:
    commit_and_run(repo)
    wt = repo.path.parent / "wt"
    repo.git("worktree", "add", "-q", "-b", "side", str(wt))
    assert (wt / ".git").is_file()
    result = repo.run("check-receipt", cwd=wt)
    # the file lives in the other work tree; the note on the tree is the repository's
    assert result.code == 0, result.both
    assert "refs/notes/receipts on tree" in result.out
    repo.git("update-ref", "-d", "refs/notes/receipts")
    assert repo.run("check-receipt", cwd=wt).code == 2
    assert repo.receipt("run", "--", PY, "t.py", cwd=wt).code == 0
    assert repo.run("check-receipt", cwd=wt).code == 0


def test_a_committed_receipt_still_matches_its_tree(repo: Repo) -> None:
    repo.write(".gitignore", "")
    commit_and_run(repo)
    repo.commit("commit the receipt, as the seed did", RECEIPT, "artifacts/test-output.log")
    assert check(repo).code == 0


def test_receipt_show_reads_like_a_report(repo: Repo) -> None:
    head = commit_and_run(repo)
    result = repo.receipt("show")
    assert result.code == 0
    assert f"command     {PY} t.py" in result.out
    assert "tests       3 passed, 0 failed, 0 skipped, 0 errors of 3 (pytest)" in result.out
    assert f"head        {head}" in result.out
    assert f"check-receipt: {head[:7]}: {RECEIPT} vouches for this tree" in result.out


def test_pre_push_stdin_lines_each_checked_and_deletions_skipped(repo: Repo) -> None:
    first = commit_and_run(repo)
    second = repo.commit("later", x="1\n")
    zero = "0" * 40
    lines = (f"refs/heads/a {first} refs/heads/a {zero}\n"
             f"(delete) {zero} refs/heads/gone {first}\n")
    assert check_process(repo, "--git-pre-push", stdin=lines).code == 0
    lines += f"refs/heads/b {second} refs/heads/b {zero}\n"
    result = check_process(repo, "--git-pre-push", stdin=lines)
    assert result.code == 3
    assert result.out.startswith(f"stale: {second[:7]} differs from the tested tree")


def test_notes_pushed_to_the_notes_ref_or_a_servers_incoming_ref_are_not_judged(
        repo: Repo) -> None:
    first = commit_and_run(repo)
    notes, zero = repo.git("rev-parse", "refs/notes/receipts"), "0" * 40
    lines = (f"refs/heads/a {first} refs/heads/a {zero}\n"
             f"refs/notes/receipts {notes} refs/notes/receipts {zero}\n"
             f"refs/notes/receipts {notes} refs/receipts/incoming/host-1 {zero}\n")
    result = check_process(repo, "--git-pre-push", stdin=lines)
    assert result.code == 0, result.both
    assert result.out == (f"check-receipt: {first[:7]}: {RECEIPT} vouches for this tree "
                          f"({PY} t.py)\n")


def test_a_version_1_receipt_still_checks_and_v2_fields_need_v2(repo: Repo) -> None:
    # What 0.1 wrote: version 1, none of version 2's fields. It keeps vouching; the same
    # document carrying a v2 field under the v1 name is not a v1 receipt.
    head = commit_and_run(repo)
    repo.git("update-ref", "-d", "refs/notes/receipts")  # the file alone vouches here
    data = json.loads((repo.path / RECEIPT).read_text())
    assert data["schema"] == "receipt-hooks/receipt/v2"
    v1 = {k: v for k, v in data.items() if k not in ("ignored", "hidden", "argv_original")}
    v1["schema"] = "receipt-hooks/receipt/v1"
    (repo.path / RECEIPT).write_text(json.dumps(v1))
    accepted = check(repo)
    assert accepted.code == 0, accepted.both
    assert accepted.out.startswith(f"check-receipt: {head[:7]}: ")
    (repo.path / RECEIPT).write_text(json.dumps({**v1, "ignored": ["x"]}))
    refused = check(repo)
    assert refused.code == 5
    assert "Additional properties are not allowed ('ignored' was unexpected)" in refused.out
