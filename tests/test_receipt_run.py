"""``receipt run``: what it records, what it streams, and that it always leaves a receipt."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import FAILING_TEST
from conftest import PASSING_TEST
from conftest import Repo

from hooks.core.errors import USAGE_ERROR

PY = sys.executable


def receipt_of(repo: Repo) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((repo.path / "artifacts/test-receipt.json").read_text())
    return data


def test_passing_run_records_what_ran_on_which_tree(repo: Repo) -> None:
    repo.write("t.py", PASSING_TEST)
    head = repo.commit("tests")
    result = repo.run("receipt", "run", "--", PY, "t.py")
    assert result.code == 0
    assert "=== 3 passed in 0.01s ===" in result.out  # streamed to the terminal
    assert "receipt: wrote artifacts/test-receipt.json: exit 0, 3 passed" in result.err
    r = receipt_of(repo)
    assert r["schema"] == "receipt-hooks/receipt/v2"
    assert r["argv"] == [PY, "t.py"]
    assert r["command"] == f"{PY} t.py"
    assert r["git_head"] == head
    assert r["git_tree"] == repo.git("rev-parse", "HEAD^{tree}") == r["git_tree_after"]
    assert r["git_dirty"] is False
    assert r["exit_code"] == 0
    assert r["tests"] == {"runner": "pytest", "passed": 3, "failed": 0, "skipped": 0,
                          "errors": 0, "total": 3}
    log = (repo.path / "artifacts/test-output.log").read_bytes()
    assert r["output"] == {"sha256": hashlib.sha256(log).hexdigest(), "bytes": len(log),
                           "log": "artifacts/test-output.log"}
    assert r["started_utc"].endswith("Z") and r["finished_utc"] >= r["started_utc"]
    assert repo.run("receipt", "check").code == 0


def test_exits_with_the_commands_own_code_and_still_writes_the_receipt(repo: Repo) -> None:
    repo.commit("init")
    result = repo.run("receipt", "run", "--", PY, "-c", "import sys; sys.exit(3)")
    assert result.code == 3
    assert receipt_of(repo)["exit_code"] == 3


def test_one_string_form_runs_through_the_shell(repo: Repo) -> None:
    repo.commit("init")
    result = repo.run("receipt", "run", "echo 2 passed, 0 failed && exit 0")
    assert result.code == 0
    r = receipt_of(repo)
    assert r["argv"] == ["/bin/sh", "-c", "echo 2 passed, 0 failed && exit 0"]
    assert r["command"] == "echo 2 passed, 0 failed && exit 0"
    assert r["tests"]["runner"] == "plain" and r["tests"]["passed"] == 2


def test_missing_command_is_one_line_and_exit_127(repo: Repo) -> None:
    repo.commit("init")
    result = repo.run("receipt", "run", "--", "no-such-command-xyz", "--flag")
    assert result.code == 127
    assert result.err.splitlines()[0] == "receipt run: command not found: no-such-command-xyz"
    assert "Traceback" not in result.err
    assert receipt_of(repo)["exit_code"] == 127
    check = repo.run("receipt", "check")
    assert check.code == 4
    assert "exit_code 127" in check.out


def test_ctrl_c_is_forwarded_and_recorded_as_130(repo: Repo) -> None:
    repo.commit("init")
    marker = repo.path / "child-got-sigint"
    script = (
        "import signal, sys, time\n"
        f"def on_int(*a):\n    open({str(marker)!r}, 'w').close(); sys.exit(1)\n"
        "signal.signal(signal.SIGINT, on_int)\n"
        "print('ready', flush=True)\n"
        "time.sleep(60)\n"
    )
    proc = subprocess.Popen(["receipt", "run", "--", PY, "-c", script], cwd=repo.path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    assert proc.stdout.readline() == b"ready\n"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert marker.exists(), "the command never saw the interrupt"
    assert receipt_of(repo)["exit_code"] == 130
    assert b"Traceback" not in err


def test_a_killed_command_records_128_plus_signal(repo: Repo) -> None:
    repo.commit("init")
    result = repo.run("receipt", "run", "--", PY, "-c",
                      "import os, signal; os.kill(os.getpid(), signal.SIGKILL)")
    assert result.code == 137
    assert receipt_of(repo)["exit_code"] == 137


def test_100_mb_of_output_streams_without_holding_it(repo: Repo) -> None:
    repo.commit("init")
    writer = ("import sys\nline = b'x' * 1023 + b'\\n'\nw = sys.stdout.buffer.write\n"
              "for _ in range(102400):\n    w(line)\nprint('5 passed, 0 failed')\n")
    measure = (
        "import resource, subprocess, sys\n"
        "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
        "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    result = repo.run(PY, "-c", measure, "receipt", "run", "--", PY, "-c", writer, timeout=300)
    code, max_rss_kib = (int(x) for x in result.out.split())
    assert code == 0
    assert max_rss_kib < 300 * 1024, f"peak RSS {max_rss_kib} KiB"
    r = receipt_of(repo)
    assert r["output"]["bytes"] == 102400 * 1024 + len("5 passed, 0 failed\n")
    assert (repo.path / "artifacts/test-output.log").stat().st_size == r["output"]["bytes"]
    assert r["tests"]["passed"] == 5


def test_the_users_index_is_untouched(repo: Repo) -> None:
    repo.commit("init", a="1\n")
    repo.write("a", "2\n")
    repo.git("add", "a")
    repo.write("a", "3\n")
    repo.write("new", "untracked\n")
    index = repo.path / ".git/index"
    before = index.read_bytes()
    assert repo.run("receipt", "run", "--", "true").code == 0
    assert index.read_bytes() == before
    assert repo.git("status", "--porcelain").splitlines() == ["MM a", "?? new"]
    r = receipt_of(repo)
    assert r["git_dirty"] is True
    # the tree has the work tree's content: a=3 and the untracked file
    assert repo.git("cat-file", "-p", f"{r['git_tree']}:a") == "3"
    assert repo.git("cat-file", "-p", f"{r['git_tree']}:new") == "untracked"


def test_receipt_and_log_paths_are_left_out_of_the_tree_and_warned_when_not_ignored(
        repo: Repo) -> None:
    repo.write(".gitignore", "")
    repo.commit("init", a="1\n")
    result = repo.run("receipt", "run", "--", "true")
    assert ("receipt: warning: artifacts/test-receipt.json is not ignored by git; add "
            "'artifacts/' to .gitignore so it is never committed") in result.err
    r = receipt_of(repo)
    assert r["git_tree"] == repo.git("rev-parse", "HEAD^{tree}")
    assert r["git_dirty"] is False
    again = repo.run("receipt", "run", "--", "true")
    assert again.code == USAGE_ERROR, again.both
    assert again.err == ("receipt run: the default receipt path artifacts/test-receipt.json "
                         "already holds a file that is part of the tree under test (untracked, "
                         "not ignored): receipt run would leave it out of the tested tree and "
                         "overwrite it; delete it or add 'artifacts/' to .gitignore\n")


def test_the_advice_for_a_receipt_at_the_root_works_when_followed(repo: Repo) -> None:
    repo.write(".gitignore", "")
    repo.commit("init", a="1\n")
    repo.write("mine.json", "hi\n")
    refused = repo.run("receipt", "run", "--receipt", "mine.json", "--", "true")
    assert refused.code == USAGE_ERROR, refused.both
    assert refused.err.endswith("delete it or add '/mine.json' to .gitignore\n"), refused.err
    repo.write(".gitignore", "/mine.json\n")
    assert repo.run("receipt", "run", "--receipt", "mine.json", "--", "true").code == 0


@pytest.mark.parametrize("option", ["--receipt", "--log"])
def test_a_file_the_tests_read_cannot_be_hidden_as_the_receipt_or_log(
        repo: Repo, option: str) -> None:
    """An untracked conftest.py that patches the code, named as the receipt or the log, would
    be read by pytest, left out of the tree recorded, then overwritten: refused before the run."""
    repo.commit("init", a="1\n")
    patch = "import builtins\n"
    repo.write("tests/conftest.py", patch)
    refused = repo.run("receipt", "run", option, "tests/conftest.py", "--", "true")
    assert refused.code == USAGE_ERROR, refused.both
    assert (f"receipt run: {option} tests/conftest.py already holds a file that is part of "
            f"the tree under test (untracked, not ignored)") in refused.err
    assert (repo.path / "tests/conftest.py").read_text() == patch
    assert not (repo.path / "artifacts/test-receipt.json").exists()


def test_default_paths_are_at_the_repo_root_from_a_subdirectory(repo: Repo) -> None:
    repo.commit("init", sub__x="1\n")
    result = repo.run("receipt", "run", "--", "true", cwd=repo.path / "sub")
    assert result.code == 0
    assert (repo.path / "artifacts/test-receipt.json").is_file()
    assert not (repo.path / "sub/artifacts").exists()


def test_junit_report_wins_over_parsed_output(repo: Repo) -> None:
    repo.commit("init")
    report = ('<testsuites><testsuite name="s" tests="4" failures="1" errors="0" skipped="1">'
              '<testcase name="a"/><testcase name="b"><failure/></testcase>'
              '<testcase name="c"><skipped/></testcase><testcase name="d"/></testsuite>'
              '</testsuites>')
    script = f"open('r.xml', 'w').write({report!r}); print('9 passed, 0 failed')"
    result = repo.run("receipt", "run", "--junit", "r.xml", "--", PY, "-c", script)
    assert result.code == 0
    assert receipt_of(repo)["tests"] == {"runner": "junit", "passed": 2, "failed": 1,
                                         "skipped": 1, "errors": 0, "total": 4}


def test_usage_errors_exit_64(repo: Repo) -> None:
    repo.commit("init")
    result = repo.run("receipt", "run")
    assert result.code == USAGE_ERROR
    assert "no command given" in result.err
    result = repo.run("receipt", "run", "--bogus", "--", "true")
    assert result.code == USAGE_ERROR
    assert "unrecognized arguments: --bogus" in result.err
    odd = repo.run("receipt", "show", os.fsdecode(b"x\xff"))  # a byte that is not UTF-8
    assert odd.code == USAGE_ERROR
    assert odd.err == "receipt: error: unrecognized arguments: x\\xff (see 'receipt --help')\n"


def test_outside_a_git_repository_is_a_usage_error(tmp_path: Path) -> None:
    proc = subprocess.run(["receipt", "run", "--", "true"], cwd=tmp_path, capture_output=True,
                          text=True, check=False)
    assert proc.returncode == USAGE_ERROR
    assert "not a git repository" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_unborn_branch_records_null_head_and_dirty(repo: Repo) -> None:
    repo.write("t.py", PASSING_TEST)
    result = repo.run("receipt", "run", "--", PY, "t.py")
    assert result.code == 0
    r = receipt_of(repo)
    assert r["git_head"] is None
    assert r["git_dirty"] is True
    check = repo.run("receipt", "check")
    assert check.code == USAGE_ERROR
    assert "HEAD: nothing to check: the branch has no commits yet" in check.err
    repo.commit("first")
    assert repo.run("receipt", "check").code == 0


def test_failing_run_is_recorded_as_failing(repo: Repo) -> None:
    repo.write("t.py", FAILING_TEST)
    repo.commit("tests")
    assert repo.run("receipt", "run", "--", PY, "t.py").code == 1
    r = receipt_of(repo)
    assert r["tests"]["failed"] == 1
    assert r["exit_code"] == 1


def test_time_spent_is_recorded(repo: Repo) -> None:
    repo.commit("init")
    t0 = time.monotonic()
    repo.run("receipt", "run", "--", PY, "-c", "import time; time.sleep(0.3)")
    elapsed = time.monotonic() - t0
    assert 0.3 <= receipt_of(repo)["duration_s"] <= elapsed
    assert os.path.getsize(repo.path / "artifacts/test-output.log") == 0
