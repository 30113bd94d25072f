"""The fuse as agents use it: a blown --once stays blown, --between, and what counts as progress."""

from __future__ import annotations

import sys

import pytest
from conftest import Repo

from hooks.core.errors import USAGE_ERROR
from hooks.fuse.fingerprint import fingerprint

PY = sys.executable
# go test's way of failing: the compared values on a line of their own, the id on another
GO_FAILURE = """\
import sys
got = sys.argv[1] if len(sys.argv) > 1 else open("got.txt").read().strip()
open("attempts.txt", "a").write("x")
print("=== RUN   TestAdd")
print(f"    add_test.go:9: got {got}, want 5")
print("--- FAIL: TestAdd (0.00s)")
print("FAIL")
sys.exit(1)
"""
STEP = """\
import os, sys
if os.path.exists("fixed.txt"):
    print("4 passed, 0 failed"); sys.exit(0)
print("FAILED t.py::test_pay - assert 3 == 5"); sys.exit(1)
"""


def go(got: int) -> bytes:
    return (f"=== RUN   TestAdd\n    add_test.go:9: got {got}, want 5\n"
            f"--- FAIL: TestAdd (0.01s)\nFAIL\nFAIL\tshop/cart\t0.0{got}s\n").encode()


def test_a_changed_value_in_an_assertion_is_a_different_strict_failure() -> None:
    assert fingerprint(go(3), 1).strict != fingerprint(go(4), 1).strict
    assert fingerprint(go(3), 1).loose == fingerprint(go(4), 1).loose
    jest = "  \u25cf cart \u203a totals\n\n    Expected: 5\n    Received: {}\n"
    assert fingerprint(jest.format(3).encode(), 1).strict != \
        fingerprint(jest.format(4).encode(), 1).strict
    unittest = "FAIL: test_total (t.T)\nAssertionError: {} != 5\nRan 1 test in 0.001s\n"
    assert fingerprint(unittest.format(3).encode(), 1).strict != \
        fingerprint(unittest.format(4).encode(), 1).strict


def test_the_same_failure_with_noise_is_the_same_strict_failure() -> None:
    assert fingerprint(go(3), 1).strict == fingerprint(go(3), 1).strict
    assert fingerprint(go(3), 1).source == "failing_tests"


def test_the_fuse_counts_a_moving_value_as_progress_and_a_still_one_as_repetition(
        repo: Repo) -> None:
    repo.write("go_failure.py", GO_FAILURE)
    repo.commit("init")
    for got in ("3", "3", "3"):
        repo.write("got.txt", got)
        result = repo.receipt("fuse", "--once", "--", PY, "go_failure.py")
    assert result.code == 42
    assert "fuse blown at step 3/8: repeated_error: the same failure 3 times in a row" \
        in result.err
    assert repo.receipt("fuse", "--reset").code == 0
    codes = []
    for got in ("3", "4", "5x", "6"):
        repo.write("got.txt", got)
        codes.append(repo.receipt("fuse", "--once", "--", PY, "go_failure.py").code)
    assert codes == [1, 1, 1, 1]  # each value moved: progress, the fuse holds


def test_once_refuses_to_run_again_after_the_fuse_blew(repo: Repo) -> None:
    repo.write("noisy.py", "import sys\nopen('runs.txt', 'a').write('x')\n"
                           "print('FAILED t.py::test_pay - KeyError')\nsys.exit(1)\n")
    repo.commit("init")
    codes = [repo.receipt("fuse", "--once", "--", PY, "noisy.py").code
             for _ in range(3)]
    assert codes == [1, 1, 42]
    again = repo.receipt("fuse", "--once", "--", PY, "noisy.py")
    assert again.code == 42
    assert again.err.startswith("receipt fuse: fuse blown at step 3/8: repeated_error: ")
    assert f"not running '{PY} noisy.py' again" in again.err
    assert "then 'receipt fuse --reset' and try again" in again.err
    assert (repo.path / "runs.txt").read_text() == "xxx"  # the command did not run
    assert repo.receipt("fuse", "--reset").code == 0
    assert repo.receipt("fuse", "--once", "--", PY, "noisy.py").code == 1
    assert (repo.path / "runs.txt").read_text() == "xxxx"


def test_between_is_the_edit_step_that_gives_a_retry_its_chance(repo: Repo) -> None:
    repo.write("step.py", STEP)
    repo.commit("init")
    # the README's first example with nothing changing between steps: no progress at step 2
    idle = repo.receipt("fuse", "--", PY, "step.py")
    assert idle.code == 42
    assert "fuse blown at step 2/8: no_progress" in idle.err
    edit = f"{PY} -c \"open('fixed.txt', 'w').write('1')\""
    fixed = repo.receipt("fuse", "--between", edit, "--", PY, "step.py")
    assert fixed.code == 0, fixed.err
    assert "receipt fuse: between steps: " in fixed.err
    assert "receipt fuse: step 2 went green" in fixed.err


@pytest.mark.parametrize("args", [["--once", "--between", "true", "--", "true"]])
def test_between_with_once_is_a_usage_error(repo: Repo, args: list[str]) -> None:
    result = repo.receipt("fuse", *args)
    assert result.code == USAGE_ERROR
    assert "--between runs between the steps of one fuse run" in result.err
