"""What a new user meets in the first hour: pre-commit's default output, the ledger's advice,
annotations, --help, columns, quoting, colour, pinning and the plain test-count line."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable

import pytest
from conftest import PASSING_TEST
from conftest import Repo
from conftest import precommit_config

from hooks import check_receipt
from hooks import cli
from hooks import no_inserted_skips
from hooks import require_ledger_hypothesis

ALLOWED_SKIP = ("import pytest\n\n\n"
                "@pytest.mark.skip  # receipt: allow SKP001 -- ABC-123 flaky on arm64\n"
                "def test_a():\n    assert 1 + 1 == 2\n")


def test_pre_commit_shows_allowances_and_the_missing_baseline_without_verbose(
        repo: Repo, hook_repo: tuple[str, str]) -> None:
    repo.write(".pre-commit-config.yaml", precommit_config(hook_repo, "no-inserted-skips"))
    repo.commit("config")
    whole = repo.run("pre-commit", "run", "no-inserted-skips", "--all-files")
    assert whole.code == 0, whole.both
    assert re.search(r"^no-inserted-skips\.+Passed$", whole.out, re.M), whole.out
    assert "nothing staged and no refs, so no diff to scan" in whole.out
    assert "receipt skips --write-baseline" in whole.out
    repo.write("tests/test_a.py", ALLOWED_SKIP)
    repo.git("add", "tests/test_a.py")
    staged = repo.run("pre-commit", "run", "no-inserted-skips")
    assert staged.code == 0, staged.both
    assert ("allowed: tests/test_a.py:4: SKP001 -- ABC-123 flaky on arm64"
            in staged.out), staged.out


LEDGER = "assumption-ledger.jsonl"
APP = 'def area(r):\n    """Area of a circle."""\n    return 3.14 * r * r  # close enough\n'


def test_a_hypothesis_written_but_not_staged_is_named(
        repo: Repo, hook_repo: tuple[str, str]) -> None:
    repo.write(".pre-commit-config.yaml",
               precommit_config(hook_repo, "require-ledger-hypothesis"))
    repo.commit("init", **{"src/app.py": APP})
    assert repo.run("pre-commit", "install").code == 0
    repo.write("src/app.py", APP.replace("3.14", "3.14159"))
    added = repo.run("receipt", "ledger", "add", "pi is too rough", "--test", "pytest -k area")
    assert added.code == 0, added.both
    refused = repo.run("git", "commit", "-am", "better pi")
    assert refused.code == 1
    assert (f"src/app.py changed and {LEDGER} has a new hypothesis that is not staged: "
            f"git add {LEDGER}") in refused.both, refused.both
    assert "gains no hypothesis" not in refused.both
    repo.git("add", LEDGER)
    assert repo.run("git", "commit", "-am", "better pi").code == 0


def test_comment_and_docstring_changes_need_no_hypothesis_unless_configured(repo: Repo) -> None:
    repo.commit("init", **{"src/app.py": APP, "src/ui.js": "// draw\nconst s = 'a';\n"})
    repo.write("src/app.py", APP.replace("Area of a circle.", "The area of a circle of radius r.")
               .replace("# close enough", "# close enough for the demo\n    # (see ABC-1)"))
    repo.write("src/ui.js", "// draw the chart\n/* twice */\nconst s = 'a';\n")
    repo.git("add", "-A")
    accepted = repo.run("require-ledger-hypothesis")
    assert (accepted.code, accepted.out) == (0, "")
    repo.write(".receipt-hooks.toml", "hypothesis-for-comments = true\n")
    repo.git("add", "-A")
    configured = repo.run("require-ledger-hypothesis")
    assert configured.code == 1
    assert f"src/app.py, src/ui.js changed but {LEDGER} gains no hypothesis" in configured.out


def test_a_changed_string_is_code_not_a_comment(repo: Repo) -> None:
    repo.commit("init", **{"src/app.py": APP, "src/ui.js": "// draw\nconst s = 'a';\n"})
    repo.write("src/app.py", APP.replace("return 3.14 * r * r", 'return "3.14"'))
    repo.write("src/ui.js", "// draw\nconst s = 'b';\n")
    repo.git("add", "-A")
    refused = repo.run("require-ledger-hypothesis")
    assert refused.code == 1
    assert f"src/app.py, src/ui.js changed but {LEDGER} gains no hypothesis" in refused.out


def test_every_command_that_reports_findings_annotates_the_same_way(repo: Repo) -> None:
    gha = {"GITHUB_ACTIONS": "true"}
    repo.commit("init", README="x\n")
    missing = repo.run("receipt", "check", env=gha)
    assert missing.code == 2
    head = repo.git("rev-parse", "--short=7", "HEAD")
    assert re.search(rf"^::error title=missing::{head}: no receipt at "
                     r"artifacts/test-receipt\.json", missing.out, re.M), missing.out
    assert repo.run("receipt", "show", env=gha).out.count("::error title=missing::") == 1
    repo.write("src/app.py", "print(1)\n")
    repo.git("add", "-A")
    ledger_hook = repo.run("require-ledger-hypothesis", env=gha)
    assert ledger_hook.code == 1
    assert "::error file=src/app.py,title=no-hypothesis::src/app.py changed" in ledger_hook.out
    repo.write(LEDGER, "[1]\n")
    checked = repo.run("receipt", "ledger", "check", env=gha)
    assert checked.code == 1
    assert (f"::error file={LEDGER},line=1,title=invalid-line::{LEDGER}:1: is a JSON list"
            in checked.out), checked.out
    assert "::error" not in repo.run("receipt", "ledger", "check").out


def _help_of(main: Callable[[list[str]], int], argv: list[str],
             capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        main([*argv, "--help"])
    assert exited.value.code == 0
    return capsys.readouterr().out


def _receipt_commands() -> list[list[str]]:
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    commands: list[list[str]] = [[]]
    for name, child in sub.choices.items():
        commands.append([name])
        for action in child._actions:
            if isinstance(action, argparse._SubParsersAction):
                commands += [[name, grand] for grand in action.choices]
    return commands


def test_help_is_a_sentence_then_options_then_an_example(
        capsys: pytest.CaptureFixture[str]) -> None:
    helps = {f"receipt {' '.join(words)}".strip(): _help_of(cli.main, words, capsys)
             for words in _receipt_commands()}
    assert {"receipt run", "receipt skips", "receipt fuse", "receipt ledger add"} <= set(helps)
    helps["check-receipt"] = _help_of(check_receipt.main, [], capsys)
    helps["no-inserted-skips"] = _help_of(no_inserted_skips.main, [], capsys)
    helps["require-ledger-hypothesis"] = _help_of(require_ledger_hypothesis.main, [], capsys)
    for name, text in helps.items():
        paragraphs = text.split("\n\n")
        sentence = " ".join(paragraphs[1].split())
        assert re.fullmatch(r"[A-Z][^`]*\.", sentence), (name, sentence)
        assert "``" not in text, name
        # argparse heads the options "options:" from Python 3.10, "optional arguments:" before
        options = re.search(r"^(?:optional arguments|options):$", text, re.M)
        assert options, (name, text)
        options = options.start()
        example = text.index("\nexample")
        assert options < example, name
        assert name in text[example:], (name, text[example:])
    for name in ("check-receipt", "no-inserted-skips", "require-ledger-hypothesis",
                 "receipt check", "receipt show", "receipt skips", "receipt ledger check"):
        assert "GITHUB_ACTIONS=true" in helps[name] and "::error" in helps[name], name


def test_show_prints_the_receipt_then_exits_with_the_checks_code(repo: Repo) -> None:
    repo.commit("init", **{"t.py": PASSING_TEST})
    assert repo.run("receipt", "run", "--", sys.executable, "t.py").code == 0
    fresh = repo.run("receipt", "show")
    assert fresh.code == 0, fresh.both
    repo.commit("untested", x="1\n")
    stale = repo.run("receipt", "show")
    assert stale.code == 3
    assert re.search(r"^tests +3 passed, 0 failed", stale.out, re.M), stale.out
    assert "stale: " in stale.out
    assert stale.out.index("tests ") < stale.out.index("stale: ")


def _hits(path: str, text: str) -> list[tuple[int, int, str]]:
    from hooks.skips import packs_for
    from hooks.skips.filescan import FileScan
    from hooks.skips.rules import RULE_TITLES

    scan = FileScan(path, packs_for(path), text)
    lines = list(enumerate(scan.raw_lines(), 1))
    return sorted((h.line, h.col, h.rule.id)
                  for h in scan.hits(scan.candidates(lines, frozenset(RULE_TITLES))))


def test_every_rule_reports_the_column_where_its_construct_starts() -> None:
    from hooks.skips import all_packs

    assert _hits("tests/test_a.py", "def test_a():\n    assert True\n") == [(2, 5, "SKP004")]
    assert _hits("tests/test_a.py", "x = 1\n    # def test_b():\n") == [(2, 5, "SKP006")]
    assert _hits(".github/workflows/ci.yml", "    run: pytest || true\n") == [
        (1, 17, "SKP008")]
    checked = 0
    for pack in all_packs():
        for rule in pack.rules:
            path = rule.sample or pack.sample
            bad = rule.bad
            found = _hits(path, bad)
            if not found:
                continue
            # indented four columns; Python, whose indentation is syntax, inside a class
            wrap = "class TestWrapped:\n" if path.endswith(".py") else ""
            indented = _hits(path, wrap + "\n".join("    " + line if line else line
                                                     for line in bad.split("\n")))
            shift = 1 if wrap else 0
            assert indented == [(n + shift, col + 4, rid) for n, col, rid in found], \
                (rule.id, bad)
            lines = bad.split("\n")
            for n, col, _rule_id in found:
                assert not lines[n - 1][col - 1].isspace(), (rule.id, bad, col)
            checked += 1
    assert checked > 60


@pytest.mark.parametrize(("argv", "shown"), [
    (["pytest", "-q"], "'receipt run -- pytest -q'"),
    (["/bin/sh", "-c", "pytest -q"], "\"receipt run 'pytest -q'\""),
    (["pytest", "-k", "not slow"], "\"receipt run -- pytest -k 'not slow'\""),
    (["/bin/sh", "-c", 'echo "it\'s"'],
     "`receipt run 'echo \"it'\"'\"'s\"'`"),
])
def test_a_suggested_command_is_set_apart_so_it_can_be_pasted(argv: list[str],
                                                              shown: str) -> None:
    import shlex

    from hooks.core.cmdline import quoted
    from hooks.core.cmdline import rerun_command

    assert quoted(rerun_command(argv)) == shown
    words = shlex.split(shown[1:-1])  # what is copied from between the marks
    assert words[:2] == ["receipt", "run"]
    assert [w for w in words[2:] if w != "--"] == (argv[2:] if argv[0] == "/bin/sh" else argv)


def test_the_stale_message_after_a_shell_string_run_quotes_the_rerun(repo: Repo) -> None:
    repo.commit("init", **{"t.py": PASSING_TEST})
    assert repo.run("receipt", "run", f"{sys.executable} t.py").code == 0
    repo.commit("untested", x="1\n")
    stale = repo.run("receipt", "check")
    assert stale.code == 3
    assert f"run \"receipt run '{sys.executable} t.py'\", then push again" in stale.out, stale.out


def _under_a_terminal(repo: Repo, argv: list[str], typed: bytes = b"") -> tuple[int, bytes]:
    """Run ARGV with a real pseudo-terminal as its stdin, stdout and controlling terminal, as
    in a person's shell; TYPED is what they type. (exit code, what the terminal showed)."""
    import fcntl
    import os
    import pty
    import subprocess
    import termios

    master, slave = pty.openpty()

    def take_terminal() -> None:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    # the terminal can only be taken in the child, between fork and exec
    proc = subprocess.Popen(argv, cwd=repo.path, stdin=slave, stdout=slave, stderr=slave,
                            start_new_session=True,
                            preexec_fn=take_terminal)  # noqa: PLW1509  # no threads here
    os.close(slave)
    if typed:
        os.write(master, typed)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    return proc.wait(timeout=60), shown


COLOURED = ("import sys; print('tty' if sys.stdout.isatty() else 'pipe'); "
            "print('\\x1b[32m=== 3 passed in 0.01s ===\\x1b[0m')")


def test_under_a_terminal_the_command_gets_one_and_the_log_stays_clean(repo: Repo) -> None:
    import hashlib
    import json

    repo.commit("init", x="1\n")
    code, shown = _under_a_terminal(repo, ["receipt", "run", "--", sys.executable, "-c",
                                           COLOURED])
    assert code == 0, shown
    assert b"tty\r\n" in shown and b"\x1b[32m=== 3 passed" in shown  # as when run bare
    log = (repo.path / "artifacts/test-output.log").read_bytes()
    assert log == b"tty\n=== 3 passed in 0.01s ===\n"
    receipt = json.loads((repo.path / "artifacts/test-receipt.json").read_text())
    assert receipt["tests"]["passed"] == 3 and receipt["tests"]["runner"] == "pytest"
    assert receipt["output"]["sha256"] == hashlib.sha256(log).hexdigest()
    assert receipt["output"]["bytes"] == len(log)
    piped = repo.run("receipt", "run", "--", sys.executable, "-c", COLOURED)
    assert piped.code == 0 and piped.out.startswith("pipe\n")
    assert (repo.path / "artifacts/test-output.log").read_bytes() == (
        b"pipe\n=== 3 passed in 0.01s ===\n")


def test_under_a_terminal_the_command_reads_what_is_typed(repo: Repo) -> None:
    repo.commit("init", x="1\n")
    code, shown = _under_a_terminal(
        repo, ["receipt", "run", "--", sys.executable, "-c",
               "print(input()[::-1]); print('=== 1 passed in 0.01s ===')"],
        typed=b"hello\n")
    assert code == 0, shown
    assert (repo.path / "artifacts/test-output.log").read_bytes() == (
        b"olleh\n=== 1 passed in 0.01s ===\n")


def test_init_pins_a_rev_pre_commit_can_fetch(repo: Repo, hook_repo: tuple[str, str]) -> None:
    import hooks

    path, rev = hook_repo
    repo.write("tests/test_a.py", "def test_a():\n    assert 1 + 1 == 2\n")
    untagged = repo.run("receipt", "init", "--hooks-repo", path, "--test-command", "pytest -q")
    assert untagged.code == 0, untagged.both
    assert (f"receipt init: note: {path} has no tag v{hooks.__version__} yet: pinned the commit "
            f"its HEAD is at, {rev[:12]}; 'pre-commit autoupdate --freeze' moves it on"
            in untagged.out), untagged.out
    written = (repo.path / ".pre-commit-config.yaml").read_text()
    assert f"  - repo: {path}\n    rev: {rev}\n" in written
    repo.commit("set up")
    fetched = repo.run("pre-commit", "run", "no-inserted-skips", "--all-files")
    assert fetched.code == 0, fetched.both  # the pinned commit is one pre-commit can fetch

    mirror = repo.path.parent / "mirror.git"
    repo.run("git", "clone", "-q", "--bare", path, str(mirror))
    assert repo.run("git", "--git-dir", str(mirror), "tag", f"v{hooks.__version__}",
                    rev).code == 0
    other = Repo(repo.path.parent / "other")
    other.write("tests/test_a.py", "def test_a():\n    assert 1 + 1 == 2\n")
    tagged = other.run("receipt", "init", "--dry-run", "--hooks-repo", str(mirror),
                       "--test-command", "pytest -q")
    assert tagged.code == 0, tagged.both
    assert f"three hooks at rev v{hooks.__version__}" in tagged.out
    assert "note:" not in tagged.out


@pytest.mark.parametrize(("line", "counts"), [
    ("297 passed", (297, 0, 0)),
    ("3 passed, 1 failed", (3, 1, 0)),
    ("1 failed, 3 passed", (3, 1, 0)),
    ("3 passed, 1 failed, 2 skipped", (3, 1, 2)),
    ("3 passed, 2 skipped", (3, 0, 2)),
    ("Result: 12 passed", (12, 0, 0)),
    ("\x1b[32m5 passed\x1b[0m", (5, 0, 0)),
])
def test_a_plain_summary_line_is_counted(line: str, counts: tuple[int, int, int]) -> None:
    from hooks.receipt.record.testcounts import TestCounter

    counter = TestCounter()
    counter.feed(f"some output\n{line}\n".encode())
    result = counter.result()
    assert result is not None and result["runner"] == "plain"
    assert (result["passed"], result["failed"], result["skipped"]) == counts


@pytest.mark.parametrize("line", ["passed", "the 3 passed tests", "3 passed in review",
                                  "Tests run: 3 passed", "3 failed"])
def test_lines_that_are_not_a_plain_summary_count_nothing(line: str) -> None:
    from hooks.receipt.record.testcounts import TestCounter

    counter = TestCounter()
    counter.feed(f"{line}\n".encode())
    assert counter.result() is None


def test_receipt_run_echo_counts_as_the_readme_says(repo: Repo) -> None:
    import json

    repo.commit("init", x="1\n")
    assert repo.run("receipt", "run", "--", "echo", "297 passed").code == 0
    receipt = json.loads((repo.path / "artifacts/test-receipt.json").read_text())
    assert receipt["tests"] == {"runner": "plain", "passed": 297, "failed": 0, "skipped": 0,
                                "errors": 0, "total": 297}


def test_the_readme_quick_start_installs_only_what_the_demo_needs() -> None:
    import configparser
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text()
    first = re.search(r"```sh\n# 1\..*\n(.*)\n", readme)
    assert first is not None
    assert first.group(1) == ("python3 -m venv .venv && .venv/bin/pip install -q '.[demo]' && "
                              ".venv/bin/receipt demo")
    setup = configparser.ConfigParser()
    setup.read(root / "setup.cfg")
    assert setup["options.extras_require"]["demo"].split() == ["pre-commit>=3.2.0"]
    assert "demo" in cli.build_parser().format_help()
    assert "rev: v0.1.0\n" not in readme  # a tag that does not exist yet is not the example


def test_a_passing_push_says_what_vouched_for_it(repo: Repo, hook_repo: tuple[str, str]) -> None:
    repo.write(".pre-commit-config.yaml", precommit_config(hook_repo, "check-receipt"))
    repo.commit("init", **{"t.py": PASSING_TEST})
    repo.add_remote()
    assert repo.run("pre-commit", "install", "--hook-type", "pre-push").code == 0
    assert repo.run("receipt", "run", "--", sys.executable, "t.py").code == 0
    pushed = repo.run("git", "push", "origin", "main")
    assert pushed.code == 0, pushed.both
    assert re.search(r"^check-receipt\.+Passed$", pushed.both, re.M), pushed.both
    assert "vouches for" in pushed.both, pushed.both
