"""``receipt run`` (and the check that reads its receipt) against hostile input, through real git.

Each test is a case that went wrong before: a tree the index hid, an argv too long or not UTF-8,
a nested repository, a daemon holding the output pipe, a path that is not ours to replace, a
closed stdout, a receipt that is not strict JSON.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import PASSING_TEST
from conftest import Repo
from conftest import receipt_check

from hooks.core.errors import USAGE_ERROR

PY = sys.executable
RECEIPT = "artifacts/test-receipt.json"
FAILING = "import sys\nprint('=== 1 failed in 0.01s ===')\nsys.exit(1)\n"


def receipt_of(repo: Repo, path: str = RECEIPT) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((repo.path / path).read_text())
    return data


def no_bug(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text and "internal error" not in text, text


# -- 1. work-tree content the index hides -----------------------------------------------------

@pytest.mark.parametrize("flag", ["assume-unchanged", "skip-worktree"])
def test_a_flagged_file_fixed_on_disk_does_not_vouch_for_the_broken_commit(
        repo: Repo, flag: str) -> None:
    repo.write("t.py", FAILING)
    repo.commit("broken test")
    repo.git("update-index", f"--{flag}", "t.py")
    repo.write("t.py", PASSING_TEST)  # fixed on disk; git status stays clean
    assert repo.git("status", "--porcelain") == ""
    run = repo.run("receipt", "run", "--", PY, "t.py")
    assert run.code == 0
    assert f"t.py (marked {flag}" in run.err
    check = receipt_check(repo.path)
    assert check.code == 3
    assert f"t.py (marked {flag}" in check.out
    assert f"git update-index --no-{flag} PATH" in check.out
    no_bug(run.err, check.out, check.err)
    # what was tested, committed, is vouched for
    repo.git("update-index", f"--no-{flag}", "t.py")
    repo.commit("fix", "t.py")
    assert receipt_check(repo.path).code == 0


def test_a_sparse_checkout_does_not_vouch_for_the_tests_it_left_out(repo: Repo) -> None:
    repo.commit("two suites", a__t="1\n", b__t="2\n")
    repo.git("sparse-checkout", "set", "a")
    assert not (repo.path / "b").exists()
    run = repo.run("receipt", "run", "--", PY, "-c", "print('3 passed, 0 failed')")
    assert run.code == 0
    check = receipt_check(repo.path)
    assert check.code == 3
    assert "b/t (marked skip-worktree" in check.out
    assert "git sparse-checkout disable" in check.out
    no_bug(run.err, check.out)


def test_an_exec_bit_hidden_by_core_filemode_false_is_recorded_as_on_disk(repo: Repo) -> None:
    repo.write("t.sh", "#!/bin/sh\necho '3 passed, 0 failed'\n")
    repo.commit("script, not executable")
    repo.git("config", "core.fileMode", "false")
    (repo.path / "t.sh").chmod(0o755)  # the tests need it; git status does not show it
    assert repo.git("status", "--porcelain") == ""
    assert repo.run("receipt", "run", "--", "./t.sh").code == 0
    assert receipt_of(repo)["git_tree"] != repo.git("rev-parse", "HEAD^{tree}")
    check = receipt_check(repo.path)
    assert check.code == 3
    assert "t.sh (exec bit differs on disk, which core.fileMode=false hides)" in check.out
    assert "git config core.fileMode true" in check.out


def test_core_filemode_false_alone_changes_nothing(repo: Repo) -> None:
    repo.write("t.py", PASSING_TEST)
    repo.commit("tests")
    repo.git("config", "core.fileMode", "false")
    run = repo.run("receipt", "run", "--", PY, "t.py")
    assert run.code == 0 and "warning" not in run.err
    assert receipt_check(repo.path).code == 0


def add_submodule(repo: Repo) -> Path:
    source = repo.path.parent / "lib-source"
    lib = Repo(source)
    lib.commit("lib", lib_py="x = 1\n")
    repo.git("submodule", "add", "-q", str(source), "lib")
    repo.commit("add lib")
    return repo.path / "lib"


def test_uncommitted_changes_inside_a_submodule_are_refused_by_name(repo: Repo) -> None:
    repo.write("t.py", PASSING_TEST)
    lib = add_submodule(repo)
    assert repo.run("receipt", "run", "--", PY, "t.py").code == 0
    assert receipt_check(repo.path).code == 0  # a clean submodule is fine
    # that clean run's note rightly vouches for this tree: forget it, so the check below
    # judges only the receipt of the run that saw the dirty submodule
    repo.git("update-ref", "-d", "refs/notes/receipts")
    (lib / "lib_py").write_text("x = 2\n")  # the snapshot records only the submodule's commit
    run = repo.run("receipt", "run", "--", PY, "t.py")
    assert run.code == 0
    assert "lib (a submodule or nested repository with uncommitted changes" in run.err
    assert receipt_of(repo)["hidden"] == [{"path": "lib", "why": "submodule"}]
    check = receipt_check(repo.path)
    assert check.code == 3
    assert "the run saw changes no git tree can record: lib (a submodule" in check.out
    no_bug(run.err, check.out)


# -- 9. huge or odd arguments ------------------------------------------------------------------

def test_a_550_kb_argv_gives_a_receipt_the_checker_accepts(repo: Repo) -> None:
    repo.commit("init")
    args = ["x" * 99] * 5500
    run = repo.run("receipt", "run", "--", PY, "-c", "print('3 passed, 0 failed')", *args)
    assert run.code == 0
    assert "receipt: note: the command (5503 arguments" in run.err
    assert "is stored cut to fit the receipt" in run.err
    assert (repo.path / RECEIPT).stat().st_size < 1 << 20
    r = receipt_of(repo)
    assert r["argv_original"]["count"] == 5503
    assert r["argv"][:3] == [PY, "-c", "print('3 passed, 0 failed')"]
    assert r["argv"][-1].endswith("arguments cut]")
    check = receipt_check(repo.path)
    assert check.code == 0, check.out
    assert "receipt run -- <your test command>" not in check.out


def test_a_cut_argv_keeps_every_flag_for_the_narrowing_check() -> None:
    from hooks.receipt.record.stored_argv import store

    stored = store(["pytest", *(["tests/t.py" + "x" * 90] * 5000), "-k", "slow"])
    assert "-k" in stored.argv
    assert stored.original is not None and stored.original["count"] == 5003
    assert len(json.dumps(stored.argv)) < 400 * 1024


def test_non_utf8_arguments_under_a_strict_encoding(repo: Repo) -> None:
    repo.commit("init")
    strict = {"PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"}
    odd = os.fsdecode(b"caf\xe9")
    run = repo.run("receipt", "run", "--", PY, "-c", "print('3 passed, 0 failed')", odd,
                   env=strict)
    assert run.code == 0
    assert "bytes that are not UTF-8 are stored as \\xNN" in run.err
    r = receipt_of(repo)
    assert r["argv"][-1] == "caf\\xe9"
    assert r["argv_original"]["count"] == 4
    check = repo.run("receipt", "check", env={"PYTHONIOENCODING": "ascii"})
    assert check.code == 0
    assert "caf\\xe9" in check.out
    missing = repo.run("receipt", "run", "--", odd, env=strict)
    assert missing.code == 127
    assert "receipt run: command not found: caf\\xe9" in missing.err
    no_bug(run.err, check.out, missing.err)


# -- 10. untracked nested repositories ---------------------------------------------------------

def test_nested_repositories_never_crash_the_run(repo: Repo) -> None:
    repo.write("t.py", PASSING_TEST)
    repo.commit("tests")
    Repo(repo.path / "empty")  # git init, nothing in it: nothing to record
    run = repo.run("receipt", "run", "--", PY, "t.py")
    assert run.code == 0
    assert receipt_check(repo.path).code == 0
    repo.git("update-ref", "-d", "refs/notes/receipts")  # judge only the runs below
    scratch = Repo(repo.path / "scratch")
    scratch.write("data.txt", "read by the tests\n")  # files, no commit: no tree can hold it
    run = repo.run("receipt", "run", "--", PY, "t.py")
    assert run.code == 0
    assert "scratch (a nested git repository with no commit" in run.err
    check = receipt_check(repo.path)
    assert check.code == 3
    assert "scratch (a nested git repository with no commit" in check.out
    scratch.commit("now it has one")  # recorded as git records it: a gitlink, so stale
    run = repo.run("receipt", "run", "--", PY, "t.py")
    assert run.code == 0
    assert receipt_of(repo)["git_dirty"] is True
    assert receipt_check(repo.path).code == 3
    no_bug(run.err, check.out)


# -- 11. daemons holding the pipe, signals ----------------------------------------------------

DAEMON = (
    "import subprocess, sys\n"
    "p = subprocess.Popen([sys.executable, '-c', 'import os, time; os.setsid(); "
    "time.sleep(300)'])\n"
    "open('daemon.pid', 'w').write(str(p.pid))\n"
)


def kill_daemon(repo: Repo) -> None:
    pid_file = repo.path / "daemon.pid"
    if pid_file.exists():
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(pid_file.read_text()), signal.SIGKILL)


def test_a_daemonised_grandchild_does_not_hold_the_run(repo: Repo) -> None:
    repo.write(".gitignore", "artifacts/\ndaemon.pid\n")
    repo.commit("init")
    try:
        t0 = time.monotonic()
        run = repo.run("receipt", "run", "--", PY, "-c",
                       DAEMON + "print('3 passed, 0 failed')", timeout=60)
        elapsed = time.monotonic() - t0
    finally:
        kill_daemon(repo)
    assert run.code == 0
    assert elapsed < 60, f"took {elapsed:.1f}s"  # not the daemon's 300 s, even on a busy machine
    assert receipt_of(repo)["tests"]["passed"] == 3


@pytest.mark.parametrize(("sig", "code", "times", "why"), [
    (signal.SIGINT, 130, 1, "still running 3 s after the signal"),
    (signal.SIGINT, 130, 2, "signalled again"),
    (signal.SIGTERM, 143, 2, "signalled again"),  # (its wait is Ctrl-C's, tested above)
])
def test_term_and_ctrl_c_end_the_run_even_when_ignored(
        repo: Repo, sig: signal.Signals, code: int, times: int, why: str) -> None:
    repo.write(".gitignore", "artifacts/\ndaemon.pid\n")
    repo.commit("init")
    script = (DAEMON + "import signal, time\n"
              "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
              "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
              "print('ready', flush=True)\ntime.sleep(120)\n")
    proc = subprocess.Popen(["receipt", "run", "--", PY, "-c", script], cwd=repo.path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == b"ready\n"
        t0 = time.monotonic()
        proc.send_signal(sig)
        if times == 2:
            assert proc.stderr is not None
            told = proc.stderr.readline().decode()  # the first was passed on: then again
            assert told.startswith(f"receipt: {sig.name} passed to the command;"), told
            proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
        elapsed = time.monotonic() - t0
    finally:
        proc.kill()
        kill_daemon(repo)
    assert proc.returncode == code
    assert elapsed < 25, f"took {elapsed:.1f}s"  # not the command's 120 s, even when busy
    assert receipt_of(repo)["exit_code"] == code
    assert f"receipt: killing the command (SIGKILL): {why}" in err.decode()
    no_bug(err.decode())


def test_fuse_step_timeout_ends_the_step_when_a_descendant_left_the_group(repo: Repo) -> None:
    repo.write(".gitignore", "artifacts/\ndaemon.pid\n")
    repo.commit("init")
    try:
        t0 = time.monotonic()
        result = repo.run("receipt", "fuse", "--step-timeout", "1", "--max-steps", "1", "--",
                          PY, "-c", DAEMON + "import time; time.sleep(120)", timeout=60)
        elapsed = time.monotonic() - t0
    finally:
        kill_daemon(repo)
    assert result.code == 42
    assert "step 1 ended after" in result.err and "--step-timeout 1s" in result.err
    assert elapsed < 60, f"took {elapsed:.1f}s"  # not the escaped child's 300 s


# -- 12. files that are not ours to replace ----------------------------------------------------

@pytest.mark.parametrize("option", ["--log", "--receipt"])
def test_a_tracked_file_is_never_overwritten(repo: Repo, option: str) -> None:
    repo.commit("init", notes="committed\n")
    repo.write("notes", "committed\nand an uncommitted edit\n")
    run = repo.run("receipt", "run", option, "notes", "--", "touch", "ran")
    assert run.code == USAGE_ERROR
    assert run.err.splitlines() == [
        f"receipt run: {option} notes is a file tracked by git: receipt run would overwrite "
        f"it, and the receipt would vouch for whatever it holds; choose a path git ignores, "
        f"such as {'artifacts/test-output.log' if option == '--log' else RECEIPT}"]
    assert (repo.path / "notes").read_text() == "committed\nand an uncommitted edit\n"
    assert not (repo.path / "ran").exists()  # refused before anything ran


def test_special_files_and_places_outside_are_refused(repo: Repo) -> None:
    # Never the real /dev/null here: code that wrongly replaced it would destroy it for the
    # whole machine (as root in a CI container). A link to it shows the same refusal.
    repo.commit("init")
    os.mkfifo(repo.path / "fifo")
    (repo.path / "adir").mkdir()
    (repo.path / "null-link").symlink_to(os.devnull)
    cases = [
        (("--log", "fifo"), "receipt run: --log fifo is a FIFO: receipt run writes only "
                            "regular files of its own"),
        (("--receipt", "adir"), "receipt run: --receipt adir is a directory"),
        (("--receipt", "null-link"), "receipt run: --receipt null-link is a symbolic link"),
        (("--log", ".git/config"), "receipt run: --log .git/config is inside the git "
                                   "directory"),
        (("--log", str(repo.path.parent / "out.log")), "is outside the repository"),
    ]
    for args, message in cases:
        run = repo.run("receipt", "run", *args, "--", "true")
        assert run.code == USAGE_ERROR, args
        assert len(run.err.splitlines()) == 1 and message in run.err, run.err
    assert stat.S_ISFIFO((repo.path / "fifo").stat().st_mode)
    assert (repo.path / "null-link").is_symlink()


def test_a_device_is_named_as_one() -> None:
    from hooks.receipt.record.destinations import _kind

    assert _kind(os.devnull) == "is a device"
    assert _kind("/no/such/path") is None


def test_log_dev_null_keeps_no_log_and_says_so(repo: Repo) -> None:
    repo.commit("init")
    # through a link to /dev/null (see above); the link itself must survive too
    link = repo.path.parent / "null-link"
    link.symlink_to(os.devnull)
    run = repo.run("receipt", "run", "--log", str(link), "--", PY, "-c",
                   "print('3 passed, 0 failed')")
    assert run.code == 0
    assert "receipt: note: no log kept (--log /dev/null)" in run.err
    assert link.is_symlink()
    r = receipt_of(repo)
    assert r["output"]["log"] is None and r["output"]["bytes"] == len("3 passed, 0 failed\n")
    assert receipt_check(repo.path).code == 0
    assert "no log kept (--log /dev/null)" in repo.run("receipt", "show").out


def test_a_committed_receipt_from_the_last_run_may_be_replaced(repo: Repo) -> None:
    repo.write(".gitignore", "")
    repo.write("t.py", PASSING_TEST)
    repo.commit("tests")
    assert repo.run("receipt", "run", "--", PY, "t.py").code == 0
    repo.commit("commit the receipt, as the seed did", RECEIPT, "artifacts/test-output.log")
    run = repo.run("receipt", "run", "--", PY, "t.py")
    assert run.code == 0, run.err


# -- 14. closed stdout or stderr ---------------------------------------------------------------

@pytest.mark.parametrize("closed", [">&-", "2>&-", ">&- 2>&-", "<&- >&- 2>&-"])
def test_closed_standard_streams_still_write_the_receipt(repo: Repo, closed: str) -> None:
    repo.commit("init")
    command = f"receipt run -- {PY} -c \"print('3 passed, 0 failed'); raise SystemExit(3)\""
    result = repo.run("sh", "-c", f"{command} {closed}; echo $?")
    assert result.out.strip().splitlines()[-1] == "3"
    assert receipt_of(repo)["exit_code"] == 3
    written = os.listdir(repo.path / "artifacts")
    assert {"test-output.log", "test-receipt.json"} <= set(written)
    assert not [n for n in written if n.startswith(".")]  # no temporary file left behind
    check = repo.run("sh", "-c", f"receipt check {closed}; echo $?")
    assert check.out.strip().splitlines()[-1] == "4"
    no_bug(result.err, check.err)


# -- 15. strict receipts -----------------------------------------------------------------------

def good_receipt(repo: Repo) -> str:
    repo.write("t.py", PASSING_TEST)
    repo.commit("tests")
    assert repo.run("receipt", "run", "--", PY, "t.py").code == 0
    return (repo.path / RECEIPT).read_text()


def test_receipts_that_are_not_strict_json_exit_5_naming_the_problem(repo: Repo) -> None:
    text = good_receipt(repo)
    cases = [
        (text.replace('"exit_code": 0,', '"exit_code": 1, "exit_code": 0,').encode(),
         "not JSON (duplicate key 'exit_code')"),
        (text.replace('"duration_s": ', '"duration_s": NaN, "x": ').encode(),
         "not JSON (NaN is not a JSON number)"),
        (text.replace('"duration_s": ', '"duration_s": -Infinity, "x": ').encode(),
         "not JSON (-Infinity is not a JSON number)"),
        (b"\xef\xbb\xbf" + text.encode(), "not JSON (it starts with a byte-order mark)"),
    ]
    for raw, reason in cases:
        (repo.path / RECEIPT).write_bytes(raw)
        check = receipt_check(repo.path)
        assert check.code == 5, reason
        assert len(check.out.splitlines()) == 1 and reason in check.out, check.out
        no_bug(check.out, check.err)


@pytest.mark.parametrize("log", ["../../etc/passwd", "/etc/passwd", ".git/config"])
def test_a_log_outside_the_repository_is_malformed(repo: Repo, log: str) -> None:
    text = good_receipt(repo)
    (repo.path / RECEIPT).write_text(text.replace('"artifacts/test-output.log"', json.dumps(log)))
    check = receipt_check(repo.path)
    assert check.code == 5
    assert f"output.log {log!r} is outside the repository" in check.out
    no_bug(check.out, check.err)


def test_a_log_naming_another_tracked_file_is_malformed(repo: Repo) -> None:
    text = good_receipt(repo)
    # as if t.py were the log: the check would compare the trees without it
    (repo.path / RECEIPT).write_text(text.replace('"artifacts/test-output.log"', '"t.py"'))
    check = receipt_check(repo.path)
    assert check.code == 5
    assert "output.log names t.py, a file tracked in" in check.out
    assert "that is not the log it describes" in check.out
    no_bug(check.out, check.err)
