"""The repository config: where it is read from, every error as one line, options override it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from conftest import PASSING_TEST
from conftest import Repo
from conftest import check_receipt

from hooks.core import config
from hooks.core.errors import CONFIG_ERROR

PY = sys.executable


def load(path: Path) -> config.Config:
    return config.load(str(path), None)


def error_of(tmp_path: Path, name: str, text: str) -> str:
    (tmp_path / name).write_text(text)
    with pytest.raises(config.ConfigError) as raised:
        load(tmp_path)
    message = str(raised.value)
    assert "\n" not in message
    return message


def test_no_file_or_a_pyproject_without_the_table_is_no_config(tmp_path: Path) -> None:
    assert not load(tmp_path).exists
    (tmp_path / "pyproject.toml").write_text("[build-system]\nrequires = ['setuptools']\n")
    assert not load(tmp_path).exists
    # a pyproject that names the package elsewhere (a dependency) is not a config either
    (tmp_path / "pyproject.toml").write_text("[project]\ndependencies = ['receipt-hooks']\n")
    assert not load(tmp_path).exists
    assert load(tmp_path).ignore == ["assumption-ledger.jsonl", ".skips-baseline.json"]
    assert load(tmp_path).require_tests is False


def test_pyproject_table_and_own_file_are_read(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[project]\nname = 'x'\n\n[tool.receipt-hooks]\ntest-command = 'pytest -q'\n"
        "ledger = 'docs/ledger.jsonl'\n\n[[tool.receipt-hooks.route]]\npaths = '^pay/'\n"
        "command = 'pytest tests/pay'\n")
    found = load(tmp_path)
    assert found.path == "pyproject.toml"
    assert found.test_commands == ["pytest -q"]
    assert found.routes == [("^pay/", "pytest tests/pay")]
    assert found.require_tests is True
    assert found.ignore == ["docs/ledger.jsonl", ".skips-baseline.json"]
    os.unlink(tmp_path / "pyproject.toml")
    (tmp_path / ".receipt-hooks.toml").write_text("test-command = ['pytest', 'npm test']\n"
                                                  "require-tests = false\nignore = []\n")
    own = load(tmp_path)
    assert (own.path, own.test_commands, own.require_tests, own.ignore) == (
        ".receipt-hooks.toml", ["pytest", "npm test"], False, [])


def test_both_files_is_one_line_naming_both(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.receipt-hooks]\nrequire-tests = true\n")
    message = error_of(tmp_path, ".receipt-hooks.toml", "require-tests = true\n")
    assert message == ("both .receipt-hooks.toml and pyproject.toml [tool.receipt-hooks] hold a "
                       "receipt-hooks config: keep one and delete the other")


@pytest.mark.parametrize(("name", "text", "expected"), [
    ("pyproject.toml", "[project]\nname = 'x'\n[tool.receipt-hooks]\ntest-comand = 'pytest'\n",
     "pyproject.toml:4: test-comand: unknown key"),
    ("pyproject.toml", "[tool.receipt-hooks]\nledger = 'l'\n\n[tool.receipt-hooks.fuse]\n"
                       "budget = 10\nmax-steps = '9'\n",
     "pyproject.toml:6: fuse.max-steps: '9' is not of type 'integer'"),
    (".receipt-hooks.toml", "require-tests = 'yes'\n",
     ".receipt-hooks.toml:1: require-tests: 'yes' is not of type 'boolean'"),
    (".receipt-hooks.toml", "test-command = 5\n",
     ".receipt-hooks.toml:1: test-command: must be a command (a string) or a list of commands"),
    (".receipt-hooks.toml", "[[route]]\npaths = '^a/'\ncommand = 'x'\n\n[[route]]\n"
                            "paths = '^b/'\ncomand = 'y'\n",
     ".receipt-hooks.toml:7: route[1].comand: unknown key (and 1 more)"),
    (".receipt-hooks.toml", "[[route]]\npaths = '(unclosed'\ncommand = 'pytest'\n",
     ".receipt-hooks.toml:2: route[0].paths: not a regular expression: '(unclosed' "
     "(missing ), unterminated subpattern at position 0)"),
    (".receipt-hooks.toml", "max-age = 'a day'\n",
     ".receipt-hooks.toml:1: max-age: 'a day': expected Refuse receipts older than this, "
     "e.g. 24h"),
    (".receipt-hooks.toml", "[skips]\nrules = {SKP004 = false, NOPE = true}\n",
     ".receipt-hooks.toml:2: skips.rules: 'NOPE' is not a valid key here"),
    (".receipt-hooks.toml", "ignore = ['a',\n  3]\n",
     ".receipt-hooks.toml:1: ignore[1]: 3 is not of type 'string'"),
    (".receipt-hooks.toml", "test-command = 'pytest\n",
     ".receipt-hooks.toml:1: not valid TOML: Expected \"'\""),
    (".receipt-hooks.toml", "fuse = {max-steps = 0}\n",
     ".receipt-hooks.toml:1: fuse.max-steps: 0 is less than the minimum of 1"),
])
def test_every_config_error_is_one_line_naming_file_line_and_key(
        tmp_path: Path, name: str, text: str, expected: str) -> None:
    assert error_of(tmp_path, name, text) == expected


def test_a_valid_config_is_remembered_and_a_changed_one_checked_again(tmp_path: Path) -> None:
    memo = tmp_path / "memo"
    own = tmp_path / ".receipt-hooks.toml"
    own.write_text("require-tests = true\n")
    assert config.load(str(tmp_path), str(memo)).require_tests is True
    remembered = list(memo.iterdir())
    assert len(remembered) == 1 and remembered[0].name.startswith("config-")
    assert config.load(str(tmp_path), str(memo)).require_tests is True  # from the memo
    own.write_text("require-tests = 'no'\n")  # new bytes: parsed and validated again
    with pytest.raises(config.ConfigError, match=r"^\.receipt-hooks\.toml:1: require-tests"):
        config.load(str(tmp_path), str(memo))


def commit_and_run(repo: Repo, *config_lines: str) -> None:
    repo.write(".receipt-hooks.toml", "".join(line + "\n" for line in config_lines))
    repo.write("t.py", PASSING_TEST)
    repo.commit("project")
    assert repo.receipt("run", "--", PY, "t.py").code == 0


def test_hooks_report_a_bad_config_in_one_line_with_exit_78(repo: Repo) -> None:
    repo.write(".receipt-hooks.toml", "[fuse]\nmax-step = 3\n")
    repo.commit("bad config")
    for argv in (["check-receipt"], ["require-ledger-hypothesis"], ["no-inserted-skips"],
                 ["receipt", "run", "--", "true"], ["receipt", "ledger", "list"]):
        result = repo.run(*argv)
        assert result.code == CONFIG_ERROR, (argv, result.both)
        assert result.err.endswith(": .receipt-hooks.toml:2: fuse.max-step: unknown key\n")
        assert len(result.err.splitlines()) == 1, result.err


def test_config_max_age_and_platform_apply_and_options_override_them(repo: Repo) -> None:
    commit_and_run(repo, "require-platform = '^Plan9'", "max-age = '0.001s'")
    import time

    time.sleep(0.01)
    refused = check_receipt(repo.path)
    assert refused.code == 3, refused.both
    assert "older than --max-age" in refused.out
    assert "does not match --require-platform '^Plan9'" in refused.out
    overridden = check_receipt(repo.path, "--max-age", "1h", "--require-platform", ".")
    assert overridden.code == 0, overridden.both


def test_require_tests_is_on_with_a_config_and_off_with_the_option(repo: Repo) -> None:
    repo.write(".receipt-hooks.toml", "ledger = 'assumption-ledger.jsonl'\n")
    repo.commit("config")
    assert repo.receipt("run", "--", "true").code == 0
    refused = check_receipt(repo.path)
    assert refused.code == 4
    assert "no test counts were recognised in the output of 'true'" in refused.out
    assert check_receipt(repo.path, "--no-require-tests").code == 0


def test_ledger_hook_reads_ledger_and_hypothesis_paths_from_the_config(repo: Repo) -> None:
    repo.write(".receipt-hooks.toml", "ledger = 'docs/ledger.jsonl'\n"
                                      "hypothesis-paths = ['^app/']\n")
    repo.commit("config")
    repo.write("app/cart.py", "x = 1\n")
    repo.git("add", "-A")
    refused = repo.run("require-ledger-hypothesis")
    assert refused.code == 1
    assert "app/cart.py changed but docs/ledger.jsonl gains no hypothesis" in refused.out
    added = repo.receipt("ledger", "add", "cart rounds down", "--test", "pytest")
    assert added.code == 0, added.both
    assert (repo.path / "docs/ledger.jsonl").exists()
    repo.git("add", "-A")
    assert repo.run("require-ledger-hypothesis").code == 0


def test_skip_guard_rules_off_by_id_and_ticket_pattern_from_the_config(repo: Repo) -> None:
    repo.write(".receipt-hooks.toml", "[skips]\nticket-pattern = 'JIRA-\\d+'\n"
                                      "rules = {SKP004 = false}\n")
    repo.commit("config")
    repo.write("test_a.py", "import pytest\n\ndef test_a():\n    assert True\n\n"
                            "@pytest.mark.skip  # receipt: allow SKP001 -- JIRA-7 flaky\n"
                            "def test_b():\n    assert 1 == 1\n")
    repo.git("add", "-A")
    result = repo.run("no-inserted-skips")
    assert result.code == 0, result.both
    assert "allowed: test_a.py:6: SKP001 -- JIRA-7 flaky" in result.out
    assert repo.run("no-inserted-skips", "--ticket-pattern", "ABC-\\d+").code == 1
