"""The skip guard's cheap path: what a commit that adds plain tests costs, and that the
shortcuts on it never change a verdict."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import SOURCE_ROOT
from conftest import Repo

HOOK = "no-inserted-skips"

# Run the hook's main() in process, then print the modules the run imported that a commit
# adding plain tests must not pay for.
DRIVER = """
import sys
sys.path.insert(0, sys.argv[1])
from hooks.no_inserted_skips import main
code = main([])
heavy = ("ast", "difflib", "hooks.skips.pybody", "hooks.skips.lexer")
print("exit", code, sorted(m for m in heavy if m in sys.modules))
"""


def test_plain_new_tests_import_no_parser(repo: Repo) -> None:
    repo.commit("init")
    for i in range(3):
        repo.write(f"tests/test_mod{i}.py", "".join(
            f"def test_case_{n}():\n    assert compute({n}) == {n}\n" for n in range(50)))
    repo.git("add", "-A")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run((sys.executable, "-I", "-c", DRIVER, str(SOURCE_ROOT)),
                          cwd=repo.path, capture_output=True, text=True, env=env, check=False)
    assert proc.stdout.strip().splitlines()[-1] == "exit 0 []", proc.stderr


def test_a_docstring_only_test_is_found_when_only_its_name_is_added(repo: Repo) -> None:
    # the body below the added line is not in the change: the file is read to decide
    repo.commit("init", tests__test_pay_py='def helper():\n    """todo"""\n')
    repo.write("tests/test_pay.py", 'def test_pay():\n    """todo"""\n')
    repo.git("add", "-A")
    result = repo.run(HOOK)
    assert result.code == 1, result.out
    assert "tests/test_pay.py:1:1: SKP004" in result.out, result.out


def test_a_docstring_only_test_after_blank_lines_is_found(repo: Repo) -> None:
    repo.commit("init")
    repo.write("tests/test_pay.py", 'def test_pay():\n\n\n    r"""todo"""\n\n'
                                    "def test_refund():\n\n    assert refund() == 1\n")
    repo.git("add", "-A")
    result = repo.run(HOOK)
    assert result.code == 1, result.out
    assert "tests/test_pay.py:1:1: SKP004" in result.out, result.out
    assert "tests/test_pay.py:6" not in result.out, result.out


def test_the_needle_table_is_what_the_rules_compute_now() -> None:
    # a stale table is never a missed match only while it errs towards no needle: keep it exact
    from hooks.skips import needle_build
    from hooks.skips.needle_table import NEEDLES

    computed = needle_build.computed_table()
    stale = sorted(set(NEEDLES.items()) ^ set(computed.items()))
    assert not stale, ("hooks/skips/needle_table.py is stale: run python -c 'from "
                       "hooks.skips.needle_build import write_table; write_table()'\n"
                       + "\n".join(repr(s) for s in stale[:5]))


def test_a_pattern_outside_the_table_is_parsed() -> None:
    from hooks.skips.needles import literals

    assert literals(r"\bxit\s*\(") == ("xit",)
    assert literals(r"(?i)skip") is None


LONG = "".join(f"line {n}\n" for n in range(40))
# (before, after): long hunks read in bulk, short ones line by line, "\ No newline" markers
SHAPES = {
    "new.py": (None, LONG),
    "new_no_eol.py": (None, LONG.rstrip("\n")),
    "replaced.py": (LONG, LONG.replace("line 3\n", "".join(f"new {n}\n" for n in range(30)))),
    "shortened.py": (LONG, "".join(f"line {n}\n" for n in range(10))),
    "eol_dropped.py": (LONG, LONG.rstrip("\n") + " changed"),
    "few.py": ("a\nb\nc\n", "a\nB\nc\nd\n"),
}


def test_the_diff_reader_gives_every_added_and_removed_line_in_bulk_and_line_by_line(
        repo: Repo) -> None:
    from hooks.core.diff import diff

    for name, (before, _after) in SHAPES.items():
        if before is not None:
            repo.write(name, before)
    repo.commit("before")
    for name, (_before, after) in SHAPES.items():
        repo.write(name, after)
    repo.git("add", "-A")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(repo.path)
        diffs = {d.path: d for d in diff(None, None)}
    for name, (before, after) in SHAPES.items():
        numbers, text = diffs[name].added_lines()
        added = text.decode().split("\n") if numbers else []
        after_lines = after.splitlines()
        # each added line is the line at its number in the new file ...
        assert [after_lines[n - 1] for n in numbers] == added, name
        # ... and every line the new file has and the old one does not is among them
        old = before.splitlines() if before is not None else []
        assert set(after_lines) - set(old) <= set(added), name
        removed = [line.decode() for _, line in diffs[name].removed]
        assert set(old) - set(after_lines) <= set(removed), name
        assert set(removed) <= set(old), name
    # where each removal sits: the new-side line it was removed at, as git's hunk says
    assert [n for n, _ in diffs["replaced.py"].removed] == [4]
    assert [n for n, _ in diffs["shortened.py"].removed] == [10] * 30
    assert [n for n, _ in diffs["few.py"].removed] == [2]


def test_a_long_hunk_of_interleaved_changes_is_read_line_by_line() -> None:
    # -U0 hunks are removals then additions; one that is not is read line by line
    from hooks.core.diff import parse_diff

    body = "".join(f"-old {n}\n+new {n}\n" for n in range(20))
    [parsed] = parse_diff(f"--- a/x.py\n+++ b/x.py\n@@ -1,20 +1,20 @@\n{body}".encode())
    numbers, text = parsed.added_lines()
    assert list(zip(numbers, text.split(b"\n"))) == [(1 + n, f"new {n}".encode())
                                                     for n in range(20)]
    assert parsed.removed == [(1 + n, f"old {n}".encode()) for n in range(20)]


@pytest.mark.parametrize(("source", "matching"), [
    (r"ab{,2}cd", "acd"),         # {,n}: none at all is a match
    (r"ab{0,2}cd", "acd"),
    (r"x\ay", "x\ay"),            # \a is the bell, not "a"
    (r"skip\s*\(", "skip("),
    (r"(?:xit|xdescribe)\(", "xdescribe("),
])
def test_every_match_of_a_regex_holds_one_of_its_needles(source: str, matching: str) -> None:
    import re

    from hooks.skips.needles import required_literals

    assert re.search(source, matching)
    needles = required_literals(source)
    assert needles is None or any(n in matching for n in needles), needles
