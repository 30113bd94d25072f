"""receipt init on fresh projects: what it writes, that it is idempotent, that it never
overwrites what it did not write, and that the result works through real pre-commit."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import Repo

import hooks
from hooks.core import config
from hooks.core.errors import USAGE_ERROR

HOOKS = ("      - id: check-receipt\n      - id: no-inserted-skips\n"
         "      - id: require-ledger-hypothesis\n")


def files(repo: Repo) -> dict[str, str]:
    names = (".receipt-hooks.toml", "pyproject.toml", ".pre-commit-config.yaml", ".gitignore")
    return {n: (repo.path / n).read_text() for n in names if (repo.path / n).exists()}


def test_init_on_a_fresh_python_project_then_again_changes_nothing(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "py")
    repo.write("pyproject.toml", "[project]\nname = \"shop\"\n\n[tool.pytest.ini_options]\n"
                                 "testpaths = [\"tests\"]\n")
    repo.write("tests/test_cart.py", "def test_total():\n    assert 1 + 2 == 3\n")
    dry = repo.receipt("init", "--dry-run")
    assert dry.code == 0, dry.both
    assert dry.out.splitlines() == [
        "receipt init: would change pyproject.toml: added [tool.receipt-hooks] with "
        "test-command 'pytest'",
        "receipt init: would change .pre-commit-config.yaml: wrote it with the three hooks at "
        f"rev v{hooks.__version__}",
        "receipt init: would change .gitignore: added artifacts/",
        "receipt init: note: could not reach https://github.com/receipt-hooks/receipt-hooks to "
        f"check that tag v{hooks.__version__} exists; if pre-commit cannot fetch it, pin a "
        "commit instead (rev: <commit sha>) or run 'pre-commit autoupdate --freeze'",
        "receipt init: would run 'pre-commit install --hook-type pre-commit --hook-type "
        "pre-push'",
    ]
    assert files(repo) == {"pyproject.toml": "[project]\nname = \"shop\"\n\n"
                                             "[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n"}
    done = repo.receipt("init")
    assert done.code == 0, done.both
    assert "receipt init: ran 'pre-commit install --hook-type pre-commit --hook-type " \
           "pre-push'" in done.out
    written = files(repo)
    assert written["pyproject.toml"].startswith("[project]\nname = \"shop\"\n\n"
                                                "[tool.pytest.ini_options]\n")
    policy = config.load(str(repo.path), None)
    assert (policy.path, policy.test_commands, policy.require_tests) == (
        "pyproject.toml", ["pytest"], True)
    assert written[".pre-commit-config.yaml"] == (
        "default_install_hook_types: [pre-commit, pre-push]\nrepos:\n"
        f"  - repo: https://github.com/receipt-hooks/receipt-hooks\n    rev: v{hooks.__version__}\n"
        f"    hooks:\n{HOOKS}")
    assert written[".gitignore"] == "artifacts/\n"
    for hook in ("pre-commit", "pre-push"):
        assert "pre-commit" in (repo.path / ".git/hooks" / hook).read_text()
    again = repo.receipt("init")
    assert again.code == 0
    assert files(repo) == written
    assert [ln for ln in again.out.splitlines() if ln.startswith("receipt init: changed")] == []
    assert "receipt init: unchanged pyproject.toml: a receipt-hooks config is already there " \
           "(kept; --force replaces it)" in again.out
    ran = repo.receipt("run")  # no command: the configured suite
    assert ran.code == 0, ran.both
    assert "1 passed" in ran.out


def test_init_on_a_fresh_npm_project_appends_to_what_is_there(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "web")
    repo.write("package.json", json.dumps({"name": "web", "scripts": {"test": "vitest run"}}))
    repo.write("pnpm-lock.yaml", "lockfileVersion: '9.0'\n")
    theirs = ("repos:\n  - repo: https://github.com/pre-commit/pre-commit-hooks\n"
              "    rev: v4.5.0\n    hooks:\n      - id: trailing-whitespace\n")
    repo.write(".pre-commit-config.yaml", theirs)
    repo.write(".gitignore", "node_modules/")
    done = repo.receipt("init")
    assert done.code == 0, done.both
    written = files(repo)
    assert written[".receipt-hooks.toml"].startswith(
        "# receipt-hooks policy (docs/configuration.md); command-line options override "
        "it\ntest-command = \"pnpm test\"")
    assert written[".pre-commit-config.yaml"].startswith(theirs)
    assert written[".pre-commit-config.yaml"].endswith(HOOKS)
    assert written[".gitignore"] == "node_modules/\nartifacts/\n"
    again = repo.receipt("init")
    assert again.code == 0 and files(repo) == written
    edited = written[".receipt-hooks.toml"].replace("pnpm test", "pnpm test --run")
    repo.write(".receipt-hooks.toml", edited)
    repo.receipt("init", "--test-command", "npm test")
    assert (repo.path / ".receipt-hooks.toml").read_text() == edited  # never overwritten
    forced = repo.receipt("init", "--force", "--test-command", "npm test")
    assert forced.code == 0
    assert "test-command = \"npm test\"" in (repo.path / ".receipt-hooks.toml").read_text()


def test_init_without_a_suite_says_how_to_name_one(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "empty")
    result = repo.receipt("init")
    assert result.code == USAGE_ERROR
    assert result.err == ("receipt: no test suite found (pytest, package.json 'test', "
                          "Cargo.toml, go.mod, a Makefile 'test' target): pass --test-command "
                          "'CMD'\n")
    assert list(repo.path.iterdir()) == [repo.path / ".git"]
