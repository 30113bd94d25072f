"""Every supported Python runs the three hooks from this source, and the hot paths stay light.

The suite itself runs on the oldest, the default and the newest supported Python in .ci/run;
this test also covers the ones in between, where a slip (a stdlib module that moved, syntax
that is too new) shows up as an error on a commit rather than in review.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import SOURCE_ROOT
from conftest import Repo

SUPPORTED = ("3.9", "3.10", "3.11", "3.12", "3.13")

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


def interpreters() -> dict[str, str]:
    """The supported versions this machine has: the running one, and pyenv's."""
    found = {f"{sys.version_info[0]}.{sys.version_info[1]}": sys.executable}
    try:
        root = subprocess.run(("pyenv", "root"), capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return found
    versions = Path(root) / "versions"
    for entry in sorted(versions.iterdir()) if versions.is_dir() else []:
        m = re.fullmatch(r"(3\.\d+)\.\d+", entry.name)
        binary = entry / "bin" / f"python{m.group(1)}" if m else None
        if m and m.group(1) in SUPPORTED and binary and binary.exists():
            found.setdefault(m.group(1), str(binary))
    return found


def hook(python: str, repo: Repo, module: str, *args: str) -> tuple[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run((python, "-I", "-c", DRIVER, str(SOURCE_ROOT), module, *args),
                          cwd=repo.path, capture_output=True, text=True, env=env, check=False)
    return proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else "", proc.stderr


def test_the_oldest_and_newest_supported_pythons_are_here() -> None:
    # .ci/run runs the suite on both ends of the range: a machine without them cannot vouch
    assert {"3.9", "3.13"} <= set(interpreters())


@pytest.mark.parametrize("version", SUPPORTED)
def test_the_three_hooks_run_on_each_python(repo: Repo, version: str) -> None:
    python = interpreters().get(version)
    assert python, f"Python {version} is not on this machine (pyenv)"
    repo.commit("init")
    repo.write("tests/test_pay.py", "import pytest\n\n@pytest.mark.skip\ndef test_pay():\n"
                                    "    assert pay() == 1\n")
    repo.write("src/pay.py", "def pay():\n    return 1\n")
    repo.git("add", "-A")
    last, err = hook(python, repo, "hooks.no_inserted_skips")
    assert last == "exit 1 False", err
    last, err = hook(python, repo, "hooks.require_ledger_hypothesis")
    assert last == "exit 1 False", err
    last, err = hook(python, repo, "hooks.check_receipt")
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
