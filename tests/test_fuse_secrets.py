"""Secrets in the fuse's log: a secret split across the 64 KiB read boundary
of a long line is still redacted, and ordinary values (``true``, ``main``, numbers, paths) are
not turned into ``[redacted:...]`` because some variable happens to hold them."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from conftest import Repo

from hooks.fuse.environment import StepEnvironment
from hooks.fuse.environment import can_be_secret
from hooks.fuse.log import LONG_LINE
from hooks.fuse.log import LineRedactingLog

PY = sys.executable
SECRET = "ghp_Zq8vN3kR7tY2wX5mL9pA"  # noqa: S105  # a made-up token to redact

# One long line, written in two parts: the first ends 5 bytes into the secret, exactly at the
# 64 KiB a read (and the log's line buffer) holds; the rest arrives a moment later.
SPLIT_SECRET = f"""\
import os, sys, time
secret = os.environ["GH_TOKEN"]
head = b"x" * ({LONG_LINE} - 5) + secret[:5].encode()
os.write(1, head)
time.sleep(0.3)
os.write(1, secret[5:].encode() + b"y" * 1000 + b"\\n")
print("FAILED t.py::test_a - boom")
sys.exit(1)
"""


def test_a_secret_across_the_64k_boundary_never_reaches_the_log(repo: Repo) -> None:
    repo.commit("init")
    repo.write("split.py", SPLIT_SECRET)
    ran = repo.run("receipt", "fuse", "--max-steps", "1", "--", PY, "split.py",
                   env={"GH_TOKEN": SECRET})
    assert ran.code == 42, ran.both
    log = (repo.path / "artifacts/fuse.log").read_bytes()
    assert SECRET.encode() not in log
    assert SECRET[5:].encode() not in log  # not even the half after the cut
    assert b"[redacted:GH_TOKEN]" in log
    assert log.count(b"x") >= LONG_LINE - 5 and b"y" * 1000 in log  # the rest is all there


@pytest.mark.parametrize("where", [LONG_LINE - 20, LONG_LINE - 5, LONG_LINE - 1, LONG_LINE,
                                   LONG_LINE + 7])
def test_any_cut_of_a_long_line_keeps_the_secret_whole(tmp_path: Path, where: int) -> None:
    env = StepEnvironment({"API_TOKEN": SECRET}, [], False, [])
    path = tmp_path / "fuse.log"
    log = LineRedactingLog(str(path), env, truncate=True)
    line = b"x" * (where - 3) + SECRET.encode() + b"z" * 70000 + b"\n"
    for start in range(0, len(line), 4096):  # as a pipe delivers it
        log.write(line[start:start + 4096])
    log.close()
    written = path.read_bytes()
    assert SECRET.encode() not in written
    assert written == b"x" * (where - 3) + b"[redacted:API_TOKEN]" + b"z" * 70000 + b"\n"


ORDINARY = {"CI": "true", "GIT_BRANCH": "main", "DEPLOY_ENV": "production",
            "BUILD_NUMBER": "12345678", "TOOL_HOME": "/opt/tools/bin", "AUTHOR": "Test User",
            "USE_AUTH": "false", "PATH_EXTRA": "/usr/local/bin:/usr/bin"}


def test_ordinary_values_are_not_redacted_under_clean_env(repo: Repo) -> None:
    repo.commit("init")
    show = ("print('ci is true on main in production, build 12345678, tools in /opt/tools/bin, "
            "by Test User, auth false'); raise SystemExit(0)")
    ran = repo.run("receipt", "fuse", "--clean-env", "--", PY, "-c", show,
                   env={**ORDINARY, "GH_PAT": SECRET})
    assert ran.code == 0, ran.both
    log = (repo.path / "artifacts/fuse.log").read_text()
    assert "redacted" not in log, log
    assert ("ci is true on main in production, build 12345678, tools in /opt/tools/bin, "
            "by Test User, auth false") in log


SECRET_NAMES = ["GH_PAT", "PAT", "BASIC_AUTH", "AWS_CREDENTIALS", "SESSION_COOKIE",
                "PRIVATE_KEY_PEM", "USER_SESSION", "DB_PASSWORD", "API_TOKEN", "SIGNING_KEY",
                "APP_SECRET"]


@pytest.mark.parametrize("name", SECRET_NAMES)
def test_secret_names_are_redacted_even_when_the_steps_keep_them(name: str) -> None:
    """The environment ``receipt fuse`` builds from its own, in process."""
    env = StepEnvironment({**os.environ, name: SECRET}, [], False, [])
    assert env.env[name] == SECRET  # the steps still have it
    assert env.redact(f"it is {SECRET}") == f"it is [redacted:{name}]"


@pytest.mark.parametrize("name", [SECRET_NAMES[0], SECRET_NAMES[7]])
def test_secret_names_are_redacted_in_the_log_of_a_real_step(repo: Repo, name: str) -> None:
    repo.commit("init")
    ran = repo.run("receipt", "fuse", "--", PY, "-c",
                   f"import os; print('it is', os.environ['{name}'])", env={name: SECRET})
    assert ran.code == 0, ran.both
    assert f"it is {SECRET}" in ran.out  # the step itself still has it
    log = (repo.path / "artifacts/fuse.log").read_text()
    assert SECRET not in log and f"it is [redacted:{name}]" in log


def test_which_values_can_be_secrets() -> None:
    for value in ORDINARY.values():
        assert not can_be_secret(value), value
    assert not can_be_secret("short7!")  # under 8 characters
    for value in (SECRET, "tok-123456", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"):
        assert can_be_secret(value), value
    assert can_be_secret("correct horse battery", named=True)  # a passphrase, by its name
    assert can_be_secret("83920193847", named=True)  # a long PIN, by its name
    assert not can_be_secret("PATH")  # nor does "PATH" look like a PAT: names are matched
    env = StepEnvironment({"PATH": "/usr/bin:/bin", "PATHEXT": "abcdefgh12"}, [], False, [])
    assert env.redact("abcdefgh12 in /usr/bin") == "abcdefgh12 in /usr/bin"
