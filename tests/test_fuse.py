"""``receipt fuse`` with real processes: when it blows, why, and what it leaves behind."""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from conftest import Repo

from hooks.core.errors import USAGE_ERROR
from hooks.ledger.lines import validation_errors

PY = sys.executable
LEDGER = "assumption-ledger.jsonl"

# The same failure, dressed differently each run: time, temp dir, pid, colour, duration. It
# also touches an untracked file, as an agent editing code would, so the tree moves on.
NOISY_FAILURE = """\
import os, random, sys, time
open("attempts.txt", "a").write("x")
print(f"\\x1b[1m=== session {time.strftime('%H:%M:%S')} ===\\x1b[0m")
print(f"rootdir /tmp/pytest-of-u/pytest-{random.randint(1, 9999)}/t pid {os.getpid()}")
print("FAILED tests/test_checkout.py::test_pay - KeyError: 'STRIPE_API_KEY'")
print(f"=== 1 failed, 3 passed in {random.random():.3f}s ===")
sys.exit(1)
"""

# Counts its calls in counter.txt; fails in a way chosen by the call number.
SEQUENCE = """\
import sys
try:
    n = int(open("counter.txt").read())
except FileNotFoundError:
    n = 0
open("counter.txt", "w").write(str(n + 1))
plan = sys.argv[1].split(",")
what = plan[min(n, len(plan) - 1)]
if what == "ok":
    print("4 passed, 0 failed")
    sys.exit(0)
print(f"FAILED t.py::{what} - assert {n} == 9")
sys.exit(1)
"""


def events(repo: Repo) -> list[dict[str, Any]]:
    """The fuse's ledger lines, each checked against the schema: the fuse writes them without
    validating (so every kind it writes must pass here)."""
    path = repo.path / LEDGER
    found = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    for entry in found:
        assert validation_errors(entry) == [], entry
    return found


def details(repo: Repo, name: str = "") -> list[dict[str, Any]]:
    """Step detail the fuse writes to its log (not the ledger): '=== step {json}' lines."""
    found = []
    for line in (repo.path / "artifacts/fuse.log").read_text().splitlines():
        if line.startswith("=== ") and " {" in line:
            kind, data = line[4:].split(" ", 1)
            if not name or kind == name:
                found.append({"detail": kind, **json.loads(data)})
    return found


def fuse(repo: Repo, *args: str, env: dict[str, str] | None = None, **kw: Any) -> Any:
    return repo.run("receipt", "fuse", *args, env=env, **kw)


def seed_fuse_steps(outputs: list[str], repeat_limit: int) -> int | None:
    """The seed script's logic (sha256 of the raw last 40 lines): the step it blows at."""
    last = ""
    repeats = 0
    for step, output in enumerate(outputs, 1):
        tail = "\n".join(output.rstrip("\n").split("\n")[-40:])
        fp = hashlib.sha256(tail.encode()).hexdigest()
        repeats = repeats + 1 if fp == last else 0
        last = fp
        if repeats >= repeat_limit:
            return step
    return None


def test_a_noisy_repeated_failure_blows_where_the_seeds_fuse_burns_every_step(
        repo: Repo) -> None:
    repo.write("noisy.py", NOISY_FAILURE)
    repo.commit("init", "noisy.py")
    result = fuse(repo, "--max-steps", "8", "--", PY, "noisy.py")
    assert result.code == 42
    assert "receipt fuse: warning: the same failure 2 times in a row; one more and the fuse " \
           "blows" in result.err
    assert "receipt fuse: fuse blown at step 3/8: repeated_error: the same failure 3 times in " \
           "a row" in result.err
    assert 'receipt ledger add "<hypothesis>"' in result.err
    kinds = [e["event"] for e in events(repo)]
    assert kinds == ["start", "fuse_blown"]  # step detail stays in the fuse log
    assert [d["detail"] for d in details(repo)] == ["step", "step", "fuse_warn", "step"]
    blown = events(repo)[-1]
    assert (blown["reason"], blown["step"], blown["occurrences"]) == ("repeated_error", 3, 3)
    assert {d["fp_source"] for d in details(repo, "step")} == {"failing_tests"}
    # the same eight outputs through the seed's logic: never the same twice, never blows
    outputs = [subprocess.run([PY, "noisy.py"], cwd=repo.path, capture_output=True, text=True,
                              check=False).stdout for _ in range(8)]
    assert seed_fuse_steps(outputs, repeat_limit=3) is None
    assert repo.run("receipt", "ledger", "check").code == 0


def test_changing_failures_then_green(repo: Repo) -> None:
    repo.write("seq.py", SEQUENCE)
    repo.commit("init", "seq.py")
    result = fuse(repo, "--", PY, "seq.py", "test_a,test_b,test_c,ok")
    assert result.code == 0
    assert "receipt fuse: step 4 went green" in result.err
    assert [e["event"] for e in events(repo)][-1] == "inner_loop_green"
    assert events(repo)[-1]["step"] == 4
    assert "4 passed, 0 failed" in result.out  # the command's output streams through


def test_numbers_moving_in_an_assertion_are_progress_not_repetition(repo: Repo) -> None:
    repo.write("seq.py", SEQUENCE)
    repo.commit("init", "seq.py")
    # test_a fails each time, but "assert n == 9" changes: progress, until max steps
    result = fuse(repo, "--max-steps", "4", "--", PY, "seq.py", "test_a")
    assert result.code == 42
    assert "max_steps: 4 steps without a green run" in result.err
    assert events(repo)[-1]["reason"] == "max_steps"  # and the line matches the schema


def test_oscillation_blows(repo: Repo) -> None:
    repo.write("seq.py", SEQUENCE)
    repo.commit("init", "seq.py")
    result = fuse(repo, "--", PY, "seq.py", "test_a,test_b,test_a,test_b,test_a,test_b")
    assert result.code == 42
    assert "fuse blown at step 4/8: oscillation: the failures alternate with period 2" \
           in result.err
    assert "warning: the failures look like they alternate with period 2" in result.err
    assert events(repo)[-1]["reason"] == "oscillation"  # and the line matches the schema


def test_no_progress_blows_when_nothing_changes(repo: Repo) -> None:
    repo.commit("init")
    result = fuse(repo, "--", PY, "-c", "print('same'); raise SystemExit(1)")
    assert result.code == 42
    assert "fuse blown at step 2/8: no_progress: the step changed nothing in the work tree" \
           in result.err
    assert events(repo)[-1]["reason"] == "no_progress"  # and the line matches the schema


def test_a_missing_command_is_one_line_and_blows_when_repeated(repo: Repo) -> None:
    repo.commit("init")
    result = fuse(repo, "--", "no-such-agent-cmd")
    assert result.code == 42
    assert result.err.count("receipt fuse: command not found: no-such-agent-cmd") == 2
    assert "Traceback" not in result.err
    assert [d["exit_code"] for d in details(repo, "step")] == [127, 127]


def test_environment_contract_fails_before_any_step(repo: Repo) -> None:
    repo.commit("init")
    marker = repo.path / "ran"
    result = fuse(repo, "--require-env", "STRIPE_API_KEY", "--", "touch", str(marker),
                  env={"STRIPE_API_KEY": "  "})
    assert result.code == 43
    assert result.err == ("receipt fuse: STRIPE_API_KEY is empty; fix the environment, do not "
                          "rewrite the client\n")
    assert not marker.exists()
    assert events(repo) == []


def test_unset_clean_env_and_redaction(repo: Repo) -> None:
    repo.commit("init")
    show = ("import os; print(sorted(k for k in os.environ if k.startswith(('STRIPE', 'API',"
            " 'KEEP', 'HOME', 'PATH')))); print('key is', 'sk_live_abcdef'); "
            "print('token is', 'tok-123456'); raise SystemExit(0)")
    env = {"STRIPE_LIVE_KEY": "sk_live_abcdef", "STRIPE_PUBLIC": "pk_1", "API_TOKEN": "tok-123456",
           "KEEP_ME": "yes"}
    result = fuse(repo, "--unset", "STRIPE_*", "--", PY, "-c", show, env=env)
    assert result.code == 0
    assert "['API_TOKEN', 'HOME', 'KEEP_ME', 'PATH']" in result.out
    log = (repo.path / "artifacts/fuse.log").read_text()
    assert "key is [redacted:STRIPE_LIVE_KEY]" in log
    assert "token is [redacted:API_TOKEN]" in log
    assert "sk_live_abcdef" not in log and "tok-123456" not in log
    clean = fuse(repo, "--clean-env", "--keep", "KEEP_ME", "--", PY, "-c", show, env=env)
    assert clean.code == 0
    assert "['HOME', 'KEEP_ME', 'PATH']" in clean.out
    secret_in_cmd = fuse(repo, "--", PY, "-c", "print('sk_live_abcdef')", env=env)
    assert secret_in_cmd.code == 0
    assert "sk_live_abcdef" not in (repo.path / LEDGER).read_text()
    assert "[redacted:STRIPE_LIVE_KEY]" in (repo.path / LEDGER).read_text()


def test_step_timeout_ends_the_whole_process_group(repo: Repo, tmp_path: Path) -> None:
    repo.commit("init")
    pid_file = tmp_path / "grandchild.pid"
    parent = (f"import subprocess, sys, time\n"
              f"p = subprocess.Popen(['sleep', '60'])\n"
              f"open({str(pid_file)!r}, 'w').write(str(p.pid))\n"
              f"print('started', flush=True)\n"
              f"time.sleep(60)\n")
    t0 = time.monotonic()
    result = fuse(repo, "--step-timeout", "1", "--max-steps", "1", "--", PY, "-c", parent)
    assert time.monotonic() - t0 < 30
    assert result.code == 42
    assert "step 1 ended after" in result.err and "--step-timeout 1s" in result.err
    grandchild = int(pid_file.read_text())
    time.sleep(0.2)
    try:
        os.kill(grandchild, 0)
        alive = Path(f"/proc/{grandchild}/stat").read_text().split()[2] != "Z"
    except ProcessLookupError:
        alive = False
    assert not alive, "the step's grandchild outlived the timeout"
    assert [d["exit_code"] for d in details(repo, "step")] == [124]


def test_budget_stops_before_a_step_that_cannot_fit(repo: Repo) -> None:
    repo.write("seq.py", SEQUENCE)
    repo.commit("init", "seq.py")
    # a 3 s step and a 5.5 s budget: however busy the machine, the first step fits (only the
    # interpreter's start is slowed by load, not the sleep) and a second cannot
    slow = f"import subprocess, sys, time; time.sleep(3); sys.exit(subprocess.call([{PY!r}, " \
           f"'seq.py', 'a,b,c,d,e,f,g,h']))"
    result = fuse(repo, "--budget", "5.5", "--", PY, "-c", slow)
    assert result.code == 42
    assert re.search(r"budget: the next step \(about [3-5]\.\ds\) would not fit in --budget "
                     r"5\.5s", result.err), result.err
    assert events(repo)[-1]["reason"] == "budget"


def test_ctrl_c_ends_the_fuse(repo: Repo) -> None:
    repo.commit("init")
    proc = subprocess.Popen(["receipt", "fuse", "--", PY, "-c",
                             "import time; print('ready', flush=True); time.sleep(60)"],
                            cwd=repo.path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    assert proc.stdout.readline() == b"ready\n"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert b"fuse blown at step 1/8: interrupted" in err
    assert events(repo)[-1]["reason"] == "interrupted"


def test_once_keeps_history_across_calls(repo: Repo) -> None:
    repo.write("noisy.py", NOISY_FAILURE)
    repo.commit("init", "noisy.py")
    first = fuse(repo, "--once", "--", PY, "noisy.py")
    assert first.code == 1  # the command's own exit code
    second = fuse(repo, "--once", "--", PY, "noisy.py")
    assert second.code == 1
    assert "warning: the same failure 2 times in a row" in second.err
    third = fuse(repo, "--once", "--", PY, "noisy.py")
    assert third.code == 42
    assert "fuse blown at step 3/8: repeated_error" in third.err
    assert (repo.path / ".git/receipt-hooks/fuse-state.json").exists()
    reset = fuse(repo, "--reset")
    assert reset.code == 0
    assert not (repo.path / ".git/receipt-hooks/fuse-state.json").exists()
    assert events(repo)[-1]["event"] == "fuse_reset"
    assert fuse(repo, "--once", "--", PY, "noisy.py").code == 1
    assert [e["event"] for e in events(repo)].count("start") == 2
    assert repo.run("receipt", "ledger", "check").code == 0


def test_seed_variables_drive_it_unchanged(repo: Repo) -> None:
    repo.write("seq.py", SEQUENCE)
    repo.commit("init", "seq.py")
    env = {"AGENT_CMD": f"{PY} seq.py a,b,c,d", "MAX_STEPS": "2", "REPEAT_LIMIT": "5",
           "LOG": str(repo.path / "agent-fuse.log"), "LEDGER": str(repo.path / "l.jsonl")}
    result = fuse(repo, env=env)
    assert result.code == 42
    assert "max_steps: 2 steps without a green run" in result.err
    assert "FAILED t.py::b" in (repo.path / "agent-fuse.log").read_text()
    start = json.loads((repo.path / "l.jsonl").read_text().splitlines()[0])
    assert start["config"]["max_steps"] == 2 and start["config"]["repeat_limit"] == 5
    assert start["cmd"] == f"{PY} seq.py a,b,c,d"
    # options win over variables
    assert "max_steps: 1 steps" in fuse(repo, "--max-steps", "1", env=env).err


def test_usage_errors_exit_64(repo: Repo) -> None:
    result = fuse(repo)
    assert result.code == USAGE_ERROR
    assert "no command: give one after '--', or set AGENT_CMD" in result.err
    bad = fuse(repo, "--max-steps", "0", "--", "true")
    assert bad.code == USAGE_ERROR
    assert "must be at least 1" in bad.err
    assert fuse(repo, env={"MAX_STEPS": "lots", "AGENT_CMD": "true"}).code == USAGE_ERROR
