"""The supported Pythons: the bound the package declares, the interpreters .ci/run finds for
the oldest and newest, the three hooks run on this Python from this source, and the hot paths
stay light.

The suite itself runs on the oldest, the default and the newest supported Python in .ci/run;
these tests ask nothing of which Pythons this machine has.
"""

from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import SOURCE_ROOT
from conftest import Repo
from conftest import run

SUPPORTED = ("3.9", "3.10", "3.11", "3.12", "3.13")
FIND_PYTHON = str(SOURCE_ROOT / ".ci" / "find-python")

# Run one hook's main() from this checkout's source with nothing else importable but the
# standard library and what the interpreter already has: the hot paths need no third-party
# module. Prints the exit code, then whether jsonschema was imported.
DRIVER = """
import sys
sys.path.insert(0, sys.argv[1])
import importlib
module = importlib.import_module(sys.argv[2])
code = module.main(sys.argv[3:])
print("exit", code, "jsonschema" in sys.modules)
"""


def hook(python: str, repo: Repo, module: str, *args: str) -> tuple[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run((python, "-I", "-c", DRIVER, str(SOURCE_ROOT), module, *args),
                          cwd=repo.path, capture_output=True, text=True, env=env, check=False)
    return proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else "", proc.stderr


def test_the_declared_bound_and_ci_runs_are_the_supported_range() -> None:
    setup = configparser.ConfigParser()
    setup.read(SOURCE_ROOT / "setup.cfg")
    assert setup["options"]["python_requires"].strip() == f">={SUPPORTED[0]}"
    ci = (SOURCE_ROOT / ".ci" / "run").read_text()
    ends = re.findall(r"^for version in (.*); do$", ci, re.M)
    assert [versions.split() for versions in ends] == [[SUPPORTED[0], SUPPORTED[-1]]]
    assert 'python=$(.ci/find-python "$version")' in ci
    assert sys.version_info[:2] >= tuple(int(n) for n in SUPPORTED[0].split("."))


def tools_only(where: Path) -> str:
    """A PATH of the few tools .ci/find-python uses, and nothing else of this machine's."""
    where.mkdir()
    for tool in ("bash", "ls", "sort", "tail"):
        found = shutil.which(tool)
        assert found, tool
        os.symlink(found, where / tool)
    return str(where)


def interpreter(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


def test_ci_finds_the_newest_pyenv_build_of_each_version(tmp_path: Path) -> None:
    root = tmp_path / "pyenv"
    for build in ("3.9.2", "3.9.18", "3.9.9", "3.10.1", "3.13.0"):
        interpreter(root / "versions" / build / "bin" / f"python{build.rsplit('.', 1)[0]}")
    env = {"PYENV_ROOT": str(root), "PATH": tools_only(tmp_path / "bin")}
    found = run([FIND_PYTHON, "3.9"], tmp_path, env=env)
    assert (found.code, found.out) == (0, f"{root}/versions/3.9.18/bin/python3.9\n"), found.err
    found = run([FIND_PYTHON, "3.1"], tmp_path, env=env)  # 3.10 is not a build of 3.1
    assert found.code == 1 and found.out == ""
    assert found.err == (".ci/find-python: no Python 3.1 here: 'pyenv install 3.1', or put "
                         "python3.1 on PATH\n")


def test_ci_falls_back_to_the_version_on_path(tmp_path: Path) -> None:
    bin_dir = tools_only(tmp_path / "bin")
    on_path = interpreter(tmp_path / "bin" / "python3.13")
    env = {"PYENV_ROOT": str(tmp_path / "no-pyenv"), "PATH": bin_dir}
    found = run([FIND_PYTHON, "3.13"], tmp_path, env=env)
    assert (found.code, found.out) == (0, f"{on_path}\n"), found.err
    missing = run([FIND_PYTHON, "3.9"], tmp_path, env=env)
    assert missing.code == 1 and "no Python 3.9 here" in missing.err


def test_the_three_hooks_run_on_this_python_from_the_source(repo: Repo) -> None:
    # .ci/run runs the suite on the oldest and the newest supported Python, so this runs on both
    repo.commit("init")
    repo.write("tests/test_pay.py", "import pytest\n\n@pytest.mark.skip\ndef test_pay():\n"
                                    "    assert pay() == 1\n")
    repo.write("src/pay.py", "def pay():\n    return 1\n")
    repo.git("add", "-A")
    last, err = hook(sys.executable, repo, "hooks.no_inserted_skips")
    assert last == "exit 1 False", err
    last, err = hook(sys.executable, repo, "hooks.require_ledger_hypothesis")
    assert last == "exit 1 False", err
    last, err = hook(sys.executable, repo, "hooks.check_receipt")
    assert last == "exit 2 False", err
    assert "Traceback" not in err


def test_a_typical_commit_does_not_import_jsonschema(repo: Repo) -> None:
    repo.commit("init")
    repo.write("tests/test_pay.py", "def test_pay():\n    assert pay() == 1\n")
    repo.write("README.md", "pay\n")
    repo.git("add", "-A")
    for module in ("hooks.no_inserted_skips", "hooks.require_ledger_hypothesis"):
        last, err = hook(sys.executable, repo, module)
        assert last == "exit 0 False", (module, err)


def test_a_receipt_validated_before_is_checked_without_jsonschema(repo: Repo) -> None:
    repo.write("t.py", "print('=== 1 passed in 0.01s ===')\n")
    repo.commit("init")
    made = repo.run("receipt", "run", "--", sys.executable, "t.py")
    assert made.code == 0, made.err
    last, err = hook(sys.executable, repo, "hooks.check_receipt")
    assert last == "exit 0 False", err
