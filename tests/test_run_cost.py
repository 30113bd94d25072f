"""What ``receipt run`` no longer does on every call, and the tests that make that safe.

``receipt run`` stamps an unsigned receipt valid without importing jsonschema (see
``hooks/receipt/record/run.py``, ``_remember_valid``): so every kind of receipt it writes is
validated against the schema here. It also names its own interpreter's version without
starting it; a different interpreter is still asked.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import PASSING_TEST
from conftest import Repo

from hooks.core import schemas
from hooks.ledger.lines import validation_errors
from hooks.receipt.record.runtime import runtime_of
from hooks.receipt.store import layout

PY = sys.executable
RECEIPT = "artifacts/test-receipt.json"
JUNIT = ('<testsuite tests="3" failures="1" errors="0" skipped="1">'
         '<testcase name="a"/><testcase name="b"><failure/></testcase>'
         '<testcase name="c"><skipped/></testcase></testsuite>')


def _receipt(repo: Repo) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((repo.path / RECEIPT).read_text())
    return data


def _valid(data: dict[str, Any]) -> None:
    assert schemas.validate(layout.schema_file(data), data) == [], data


# Each kind of receipt `receipt run` writes: (what the test sets up, the argv, the key that
# shows the kind was written, the command's exit code).
KINDS = {
    "plain": ([], ["--", "true"], "runtime", 0),
    "counts": ([], ["--", PY, "t.py"], "tests", 0),
    "failed": ([], ["--", "false"], "exit_code", 1),
    "shell-string": ([], ["echo '=== 2 passed in 0.1s ==='"], "command", 0),
    "no-log": ([], ["--log", os.devnull, "--", "true"], "output", 0),
    "junit": ([], ["--junit", "j.xml", "--", PY, "-c",
                   f"open('j.xml', 'w').write({JUNIT!r})"], "tests", 0),
    "not-startable": ([], ["--", "./no-such-program"], "exit_code", 127),
    "argv-original": ([], ["--", "true", b"\xff".decode("utf-8", "surrogateescape")],
                      "argv_original", 0),
    "hidden": (["hidden"], ["--", "true"], "hidden", 0),
    "subdirectory": (["sub"], ["--", "true"], "cwd", 0),
    "env": (["env"], ["--", "true"], "env", 0),
    "no-commit": (["unborn"], ["--", "true"], "git_head", 0),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_of_receipt_run_writes_matches_the_schema(repo: Repo, kind: str) -> None:
    setup, argv, key, code = KINDS[kind]
    repo.write("t.py", PASSING_TEST)
    repo.write("sub/keep.txt", "x\n")
    if "unborn" not in setup:
        repo.commit("files")
    env: dict[str, str] = {}
    cwd = repo.path
    if "hidden" in setup:
        repo.git("update-index", "--assume-unchanged", "t.py")
        repo.write("t.py", PASSING_TEST + "# changed on disk\n")
    if "sub" in setup:
        cwd = repo.path / "sub"
    if "env" in setup:
        env["PYTEST_ADDOPTS"] = "-v"
    ran = repo.run("receipt", "run", *argv, env=env, cwd=cwd)
    assert ran.code == code, ran.both
    data = _receipt(repo)
    assert key in data, data
    assert "unborn" not in setup or data["git_head"] is None
    _valid(data)
    # the stamp receipt run leaves lets the check skip the schema: it must be for these bytes
    stamp = schemas.digest_for(layout.schema_file(data), (repo.path / RECEIPT).read_bytes())
    assert os.path.isfile(repo.path / ".git" / "receipt-hooks" / "valid" / stamp)


def test_a_receipt_the_check_finds_invalid_is_refused_though_run_stamped_another(
        repo: Repo) -> None:
    """The stamp names the exact bytes: an edited receipt is validated again, and refused."""
    repo.write("t.py", PASSING_TEST)
    repo.commit("tests")
    assert repo.run("receipt", "run", "--", PY, "t.py").code == 0
    data = _receipt(repo)
    data["exit_code"] = "0"
    (repo.path / RECEIPT).write_text(json.dumps(data, indent=2) + "\n")
    checked = repo.run("receipt", "check")
    assert checked.code == 5, checked.both
    assert "/exit_code" in checked.both


def test_runtime_of_this_interpreter_is_what_it_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(Path(PY).parent) + os.pathsep + os.environ["PATH"])
    printed = subprocess.run([PY, "--version"], stdout=subprocess.PIPE, text=True,
                             check=True).stdout.strip()
    assert runtime_of([PY, "-m", "pytest"]) == printed
    assert runtime_of(["true"]) == printed  # python3 on PATH: the same file, through the venv


def test_runtime_of_another_python_is_still_asked(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "python3"
    other.write_text("#!/bin/sh\necho 'Python 9.8.7'\n")
    other.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path) + os.pathsep + os.environ["PATH"])
    assert runtime_of(["true"]) == "Python 9.8.7"
    assert runtime_of([str(other), "t.py"]) == "Python 9.8.7"


def test_a_binary_runtimes_version_is_remembered_by_path_and_mtime(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    other = tmp_path / "bin" / "python3"  # a binary, not a script: git, which prints a line
    other.parent.mkdir()
    shutil.copy2(os.path.realpath(shutil.which("git") or "git"), other)
    monkeypatch.setenv("PATH", str(other.parent) + os.pathsep + os.environ["PATH"])
    cache = tmp_path / "cache"
    asked = runtime_of(["true"], str(cache))
    assert asked.startswith("git version")
    remembered = json.loads((cache / "runtimes.json").read_text())
    key = next(iter(remembered))
    (cache / "runtimes.json").write_text(json.dumps({key: "Python 0.1.2"}))
    assert runtime_of(["true"], str(cache)) == "Python 0.1.2"  # not asked again
    os.utime(other, ns=(1, 1))  # the file changed: asked again
    assert runtime_of(["true"], str(cache)) == asked


def test_a_scripts_runtime_is_asked_every_time(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    shim = tmp_path / "python3"  # a shim chooses its interpreter each time it runs
    shim.write_text("#!/bin/sh\necho \"Python $(cat version)\"\n")
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path) + os.pathsep + os.environ["PATH"])
    monkeypatch.chdir(tmp_path)
    (tmp_path / "version").write_text("3.1.1\n")
    assert runtime_of(["true"], str(tmp_path / "cache")) == "Python 3.1.1"
    (tmp_path / "version").write_text("3.2.2\n")
    assert runtime_of(["true"], str(tmp_path / "cache")) == "Python 3.2.2"


def test_a_version_managers_shim_is_asked_again_only_when_its_choice_can_differ(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pyenv shim chooses from PYENV_VERSION, .python-version files and the global version
    file: with those the same, the cache answers (a shim costs a dozen processes)."""
    shim = tmp_path / "shims" / "python3"
    shim.parent.mkdir()
    shim.write_text('#!/bin/sh\n# exec "$PYENV_ROOT/libexec/pyenv" exec "$program"\n'
                    'echo asked >> "$PYENV_ROOT/asked"\n'
                    'echo "Python $(cat .python-version 2>/dev/null || cat $PYENV_ROOT/version)"\n')
    shim.chmod(0o755)
    root = tmp_path / "root"
    root.mkdir()
    (root / "version").write_text("3.0.1\n")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.setenv("PATH", str(shim.parent) + os.pathsep + os.environ["PATH"])
    monkeypatch.setenv("PYENV_ROOT", str(root))
    monkeypatch.delenv("PYENV_VERSION", raising=False)
    monkeypatch.chdir(work)
    cache = str(tmp_path / "cache")

    def asked() -> int:
        return len((root / "asked").read_text().splitlines())

    assert runtime_of(["true"], cache) == "Python 3.0.1"
    assert runtime_of(["true"], cache) == "Python 3.0.1"
    assert asked() == 1
    (work / ".python-version").write_text("3.4.5\n")  # a local version file now
    assert runtime_of(["true"], cache) == "Python 3.4.5"
    monkeypatch.setenv("PYENV_VERSION", "3.4.5")  # a variable of its own
    assert runtime_of(["true"], cache) == "Python 3.4.5"
    assert asked() == 3
    os.utime(work / ".python-version", ns=(1, 1))
    (work / ".python-version").write_text("3.6.7\n")
    assert runtime_of(["true"], cache) == "Python 3.6.7"
    assert asked() == 4


def test_the_events_fuse_once_writes_match_the_ledger_schema(repo: Repo) -> None:
    """``fuse --once`` writes its events without validating them: start, green, max_steps."""
    repo.commit("init")
    assert repo.run("receipt", "fuse", "--once", "--", "true").code == 0
    for _ in range(2):
        blown = repo.run("receipt", "fuse", "--once", "--max-steps", "1", "--", "false")
    assert blown.code == 42, blown.both
    assert "max_steps: 1 steps without a green run" in blown.err
    ledger = (repo.path / "assumption-ledger.jsonl").read_text().splitlines()
    entries = [json.loads(line) for line in ledger]
    assert [e["event"] for e in entries] == ["start", "inner_loop_green", "start", "fuse_blown"]
    for entry in entries:
        assert validation_errors(entry) == [], entry
