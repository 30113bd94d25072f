"""The second hostile round's gate findings, replayed through real git and real bare remotes:
``python -O`` and PYTHONOPTIMIZE are not the suite (H3), a run in which no test passed does
not vouch (H6), pushing the receipts notes with the branch is not judged as code (H9), the
per-command copies ``receipt run`` writes are left out of the tree like the receipt (H12), and
a malformed receipt file is refused whatever else vouches (the doc drift of step 1)."""

from __future__ import annotations

import json
import shlex

import pytest
from conftest import Repo
from conftest import Result
from conftest import precommit_config
from conftest import receipt_check
from conftest import receipt_main

from hooks.core.cmdline import quoted
from hooks.receipt.store.keyed import judged_argv
from hooks.receipt.store.keyed import same_command

RECEIPT = "artifacts/test-receipt.json"
IGNORE = "artifacts/\n__pycache__/\n.pytest_cache/\n"
CONFIG = 'test-command = "pytest -q"\n'
# the test checks through a helper module, whose assert pytest does not rewrite: python -O
# strips it, so the broken code passes
HELPER = "def check_add(add):\n    assert add(1, 2) == 3, 'add is broken'\n"
TEST = ("import os, sys\nsys.path.insert(0, os.path.dirname(__file__))\n"
        "from helpers import check_add\n\n"
        "def add(a, b):\n    return a - b  # broken\n\n"
        "def test_add():\n    check_add(add)\n")


def project(repo: Repo, config: str | None = CONFIG, *, hook: bool = True) -> str:
    """A suite that fails on the broken code unless asserts are stripped; a bare remote, and
    the plain pre-push hook unless HOOK is False."""
    repo.write(".gitignore", IGNORE)
    repo.write("tests/helpers.py", HELPER)
    repo.write("tests/test_calc.py", TEST)
    if config is not None:
        repo.write(".receipt-hooks.toml", config)
    head = repo.commit("project")
    repo.add_remote()
    if hook:
        assert repo.receipt("install-hook").code == 0
    return head


def passing(repo: Repo) -> str:
    """The project with its code fixed: plain pytest passes."""
    return repo.commit("fixed", **{"tests__test_calc.py": TEST.replace("a - b", "a + b")})


def push(repo: Repo, *refs: str) -> Result:
    return repo.run("git", "push", "origin", *(refs or ("main",)))


def remote_ref(repo: Repo, ref: str) -> str:
    return repo.git("--git-dir", str(repo.path.parent / "repo-remote.git"), "rev-parse", ref)


# H3: interpreter options that change what the tests check -----------------------------------

def test_python_O_passes_the_broken_code_and_the_push_is_refused_as_the_wrong_trial(
        repo: Repo) -> None:
    head = project(repo)
    assert repo.receipt("run").code == 1  # the suite as configured fails
    ran = repo.receipt("run", "--", "python", "-O", "-m", "pytest", "-q")
    assert ran.code == 0, ran.both
    assert "1 passed" in ran.err
    refused = push(repo)
    assert refused.code == 1, refused.both
    assert (f"wrong trial: {head[:7]}: the receipt ran 'python -O -m pytest -q', the suite is "
            f"'pytest -q': run 'receipt run', then push again") in refused.out
    with pytest.raises(AssertionError):
        remote_ref(repo, "main")


SPELLINGS = [
    ("python", "-OO", "-m", "pytest", "-q"),
    ("python", "-BO", "-m", "pytest", "-q"),
    ("python", "-X", "dev", "-O", "-m", "pytest", "-q"),
    ("timeout", "60", "python", "-O", "-m", "pytest", "-q"),
    ("env", "PYTHONOPTIMIZE=1", "pytest", "-q"),
    ("sh", "-c", "PYTHONOPTIMIZE=2 pytest -q"),
]


@pytest.mark.parametrize("command", SPELLINGS)
def test_every_spelling_of_optimisation_is_not_the_configured_suite(
        command: tuple[str, ...]) -> None:
    assert not same_command(judged_argv({"argv": list(command)}), "pytest -q")


def test_a_spelling_of_optimisation_is_refused_by_the_check(repo: Repo) -> None:
    command = SPELLINGS[-1]  # the shell form: its variable is read inside the string
    head = project(repo, hook=False)
    assert repo.receipt("run", "--", *command).code == 0
    check = receipt_check(repo.path)
    assert check.code == 6, check.both
    assert (f"wrong trial: {head[:7]}: the receipt ran {quoted(shlex.join(command))}, the "
            f"suite is 'pytest -q': run 'receipt run', then push again") in check.out


def test_an_exported_PYTHONOPTIMIZE_is_recorded_and_read_as_part_of_the_command(
        repo: Repo) -> None:
    head = project(repo, hook=False)
    ran = repo.receipt("run", env={"PYTHONOPTIMIZE": "1"})
    assert ran.code == 0, ran.both
    data = json.loads((repo.path / RECEIPT).read_text())
    assert data["env"] == {"PYTHONOPTIMIZE": "1"}
    assert data["command"] == "pytest -q"
    check = receipt_check(repo.path)
    assert check.code == 6, check.both
    assert (f"wrong trial: {head[:7]}: the receipt ran 'pytest -q (with PYTHONOPTIMIZE=1)', "
            f"the suite is 'pytest -q'") in check.out


def test_a_reuse_of_the_suite_does_not_take_an_optimised_receipt(repo: Repo) -> None:
    project(repo, hook=False)
    assert repo.receipt("run", "--", "python", "-O", "-m", "pytest", "-q").code == 0
    again = repo.receipt("run", "--reuse", "--", "pytest", "-q")
    assert again.code == 1, again.both  # it ran, and the broken code failed
    assert "not running it again" not in again.err
    assert "1 failed" in again.out


def test_verify_does_not_take_an_optimised_receipt_for_the_suite(repo: Repo) -> None:
    head = project(repo, hook=False)
    assert repo.receipt("run", "--", "python", "-O", "-m", "pytest", "-q").code == 0
    verify = receipt_main(repo.path, "verify", "--rev", "HEAD", "--policy-from", "HEAD")
    assert verify.code == 2, verify.both
    assert f"{head[:7]}: no receipt from 'pytest -q' in refs/notes/receipts" in verify.out


def test_without_a_config_an_optimised_run_is_read_as_checking_less(repo: Repo) -> None:
    head = project(repo, config=None, hook=False)
    assert repo.receipt("run", "--", "python", "-O", "-m", "pytest", "-q").code == 0
    check = receipt_check(repo.path)
    assert check.code == 6, check.both
    assert (f"{head[:7]}: 'python -O -m pytest -q' runs only part of the suite (python -O "
            f"strips asserts; {RECEIPT})") in check.out
    allowed = receipt_check(repo.path, "--allow-narrowing")
    assert allowed.code == 0, allowed.both


def test_a_configured_suite_that_optimises_is_satisfied_by_the_same_level(repo: Repo) -> None:
    project(repo, config='test-command = "python -O -m pytest -q"\n', hook=False)
    assert repo.receipt("run").code == 0
    ok = receipt_check(repo.path)
    assert ok.code == 0, ok.both
    assert "vouches for this tree (python -O -m pytest -q)" in ok.out
    assert repo.receipt("run", "--", "env", "PYTHONOPTIMIZE=1", "pytest", "-q").code == 0
    same = receipt_check(repo.path)
    assert same.code == 0, same.both
    assert repo.receipt("run", "--", "python", "-m", "pytest", "-q").code == 1


WRAPPERS = [("timeout", "60"), ("nice",), ("nice", "-n", "5")]


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_timeout_and_nice_are_still_the_suite(wrapper: tuple[str, ...]) -> None:
    assert same_command(judged_argv({"argv": [*wrapper, "pytest", "-q"]}), "pytest -q")


def test_timeout_still_runs_the_suite_at_push(repo: Repo) -> None:
    head = project(repo)
    passing(repo)
    assert repo.receipt("run", "--", *WRAPPERS[0], "pytest", "-q").code == 0
    pushed = push(repo)
    assert pushed.code == 0, pushed.both
    assert f"{repo.git('rev-parse', 'HEAD')[:7]}: {RECEIPT} vouches for this tree" in pushed.out
    assert head != remote_ref(repo, "main")


# H6: a run in which no test passed ------------------------------------------------------------

SKIP_ALL = ("import pytest\n\ndef pytest_collection_modifyitems(items):\n"
            "    for item in items:\n"
            "        item.add_marker(getattr(pytest.mark, 'sk' + 'ip')(reason='later'))\n")
XFAIL_ALL = SKIP_ALL.replace("'sk' + 'ip'", "'xf' + 'ail'")
THREE = "".join(f"def test_{n}():\n    assert {n!r} == 'x'\n\n" for n in "abc")


def test_a_run_in_which_every_test_was_skipped_is_refused_at_push(repo: Repo) -> None:
    repo.write(".gitignore", IGNORE)
    repo.write(".receipt-hooks.toml", CONFIG)
    repo.write("tests/test_three.py", THREE)
    repo.write("conftest.py", SKIP_ALL)
    head = repo.commit("every test skipped at run time")
    repo.add_remote()
    assert repo.receipt("install-hook").code == 0
    ran = repo.receipt("run")
    assert ran.code == 0, ran.both
    assert "0 passed, 0 failed, 3 skipped" in ran.err
    refused = push(repo)
    assert refused.code == 1, refused.both
    assert (f"{head[:7]}: no test passed (3 skipped) in the run of 'pytest -q' ({RECEIPT}): a "
            f"run that tests nothing proves nothing") in refused.out
    check = receipt_check(repo.path)
    assert check.code == 4, check.both


def test_a_run_in_which_every_test_was_xfailed_does_not_vouch(repo: Repo) -> None:
    repo.write(".gitignore", IGNORE)
    repo.write("tests/test_three.py", THREE)
    repo.write("conftest.py", XFAIL_ALL)
    head = repo.commit("every test expected to fail")
    ran = repo.receipt("run", "--", "pytest", "-q")
    assert ran.code == 0, ran.both
    assert "3 xfailed" in ran.out
    check = receipt_check(repo.path)
    assert check.code == 4, check.both
    assert f"{head[:7]}: no test passed (3 skipped) in the run of 'pytest -q'" in check.out


def test_one_passing_test_beside_skipped_ones_still_vouches(repo: Repo) -> None:
    repo.write(".gitignore", IGNORE)
    repo.write("tests/test_three.py", THREE.replace("'a' == 'x'", "'x' == 'x'"))
    repo.write("conftest.py", SKIP_ALL.replace("for item in items:",
                                               "for item in items[1:]:"))
    head = repo.commit("one test runs")
    assert repo.receipt("run", "--", "pytest", "-q").code == 0
    check = receipt_check(repo.path)
    assert check.code == 0, check.both
    assert f"{head[:7]}: {RECEIPT} vouches for this tree" in check.out


# H9: the receipts notes pushed with the branch ------------------------------------------------

def test_the_plain_hook_lets_the_branch_and_its_notes_through_in_one_push(repo: Repo) -> None:
    project(repo)
    head = passing(repo)
    assert repo.receipt("run").code == 0
    pushed = push(repo, "main", "refs/notes/receipts")
    assert pushed.code == 0, pushed.both
    assert f"check-receipt: {head[:7]}: {RECEIPT} vouches for this tree (pytest -q)" \
        in pushed.out
    assert remote_ref(repo, "main") == head
    assert remote_ref(repo, "refs/notes/receipts") == repo.git("rev-parse",
                                                               "refs/notes/receipts")


def test_the_plain_hook_with_a_push_refspec_for_the_notes(repo: Repo) -> None:
    project(repo)
    head = passing(repo)
    repo.git("config", "--add", "remote.origin.push", "refs/heads/main")
    repo.git("config", "--add", "remote.origin.push", "refs/notes/receipts")
    assert repo.receipt("run").code == 0
    pushed = repo.run("git", "push", "origin")
    assert pushed.code == 0, pushed.both
    assert f"check-receipt: {head[:7]}: {RECEIPT} vouches for this tree" in pushed.out
    later = repo.commit("untested", **{"README": "x\n"})
    refused = repo.run("git", "push", "origin")
    assert refused.code == 1, refused.both
    assert f"stale: {later[:7]} differs from the tested tree in 1 path: A README" \
        in refused.out
    assert "refs/notes" not in refused.out


def test_the_plain_hook_still_judges_the_branch_pushed_beside_the_notes(repo: Repo) -> None:
    project(repo)
    passing(repo)
    assert repo.receipt("run").code == 0  # notes for the fixed tree only
    broken = repo.commit("broken again", **{"tests__test_calc.py": TEST})
    refused = push(repo, "refs/notes/receipts", "main")
    assert refused.code == 1, refused.both
    assert f"stale: {broken[:7]} differs from the tested tree in 1 path: M tests/test_calc.py" \
        in refused.out
    with pytest.raises(AssertionError):
        remote_ref(repo, "refs/notes/receipts")


def _pre_commit(repo: Repo, hook_repo: tuple[str, str]) -> str:
    repo.write(".pre-commit-config.yaml", precommit_config(hook_repo, "check-receipt"))
    project(repo, hook=False)
    installed = repo.run("pre-commit", "install", "--hook-type", "pre-push")
    assert installed.code == 0, installed.both
    return passing(repo)


NOTES_FIRST = ("check-receipt: note: the push's first ref, refs/notes/receipts, is notes, not "
               "code, and pre-commit hands this hook no other ref")


def test_pre_commit_with_the_notes_first_judges_head_and_says_so(
        repo: Repo, hook_repo: tuple[str, str]) -> None:
    head = _pre_commit(repo, hook_repo)
    assert repo.receipt("run").code == 0
    pushed = push(repo, "refs/notes/receipts", "main")
    assert pushed.code == 0, pushed.both
    assert (f"{NOTES_FIRST}; judging HEAD ({head[:7]}), whose commits no remote has"
            in pushed.both)
    assert f"check-receipt: {head[:7]}: {RECEIPT} vouches for this tree" in pushed.both
    assert remote_ref(repo, "main") == head


def test_pre_commit_with_the_notes_first_refuses_an_untested_head(
        repo: Repo, hook_repo: tuple[str, str]) -> None:
    _pre_commit(repo, hook_repo)
    assert repo.receipt("run").code == 0
    untested = repo.commit("untested", **{"README": "x\n"})
    refused = push(repo, "refs/notes/receipts", "main")
    assert refused.code == 1, refused.both
    assert f"judging HEAD ({untested[:7]}), whose commits no remote has" in refused.both
    assert f"stale: {untested[:7]} differs from the tested tree in 1 path: A README" \
        in refused.both
    assert "- exit code: 3" in refused.both


def test_pre_commit_notes_only_push_after_the_branch_judges_no_code(
        repo: Repo, hook_repo: tuple[str, str]) -> None:
    head = _pre_commit(repo, hook_repo)
    assert repo.receipt("run").code == 0
    assert push(repo, "main").code == 0
    repo.commit("untested, not pushed", **{"README": "x\n"})
    repo.git("reset", "-q", "--hard", head)  # HEAD is what the remote has
    pushed = push(repo, "refs/notes/receipts")
    assert pushed.code == 0, pushed.both
    assert f"{NOTES_FIRST}; HEAD's commits are all on a remote, so there is no code to judge" \
        in pushed.both
    assert remote_ref(repo, "refs/notes/receipts") == repo.git("rev-parse",
                                                               "refs/notes/receipts")


# H12: committing what receipt run wrote -------------------------------------------------------

def test_committing_the_receipt_its_log_and_the_per_command_copy_after_a_run(
        repo: Repo) -> None:
    project(repo)
    passing(repo)
    repo.write(".gitignore", "__pycache__/\n.pytest_cache/\n")
    repo.commit("artifacts are committed here")
    assert repo.receipt("run").code == 0
    committed = repo.commit("the receipt of the run")
    listed = repo.git("show", "--name-only", "--format=", "HEAD").splitlines()
    assert RECEIPT in listed and "artifacts/test-output.log" in listed
    assert any(p.startswith("artifacts/receipts/") and p.endswith(".json") for p in listed)
    pushed = push(repo)
    assert pushed.code == 0, pushed.both
    assert f"check-receipt: {committed[:7]}: {RECEIPT} vouches for this tree" in pushed.out


def test_another_file_beside_the_per_command_copies_still_counts(repo: Repo) -> None:
    project(repo)
    passing(repo)
    repo.write(".gitignore", "__pycache__/\n.pytest_cache/\n")
    repo.commit("artifacts are committed here")
    assert repo.receipt("run").code == 0
    repo.write("artifacts/receipts/notes.json", "{}\n")
    later = repo.commit("the receipt of the run, and a file of our own")
    refused = push(repo)
    assert refused.code == 1, refused.both
    assert (f"stale: {later[:7]} differs from the tested tree in 1 path: A "
            f"artifacts/receipts/notes.json") in refused.out


# The doc drift: a malformed receipt file where the check reads ---------------------------------

@pytest.mark.parametrize(("content", "why"), [
    ("", "not JSON"),
    ("[1, 2]", "a JSON list, not an object"),
    ('{"a": 1}', "(document): Additional properties are not allowed"),
])
def test_a_malformed_receipt_is_refused_though_the_per_command_copy_vouches(
        repo: Repo, content: str, why: str) -> None:
    project(repo)
    head = passing(repo)
    assert repo.receipt("run").code == 0
    (repo.path / RECEIPT).write_text(content)
    refused = push(repo)
    assert refused.code == 1, refused.both
    assert f"{head[:7]}: {RECEIPT} is not a " in refused.out
    assert why in refused.out
    assert "vouches" not in refused.out
    check = receipt_check(repo.path)
    assert check.code == 5, check.both
    lines = check.out.splitlines()
    assert len(lines) == len(set(lines)), "each problem once, not once per command needed"


def test_a_receipt_that_is_a_directory_is_refused_though_the_copy_vouches(repo: Repo) -> None:
    project(repo, hook=False)
    head = passing(repo)
    assert repo.receipt("run").code == 0
    (repo.path / RECEIPT).unlink()
    (repo.path / RECEIPT).mkdir()
    check = receipt_check(repo.path)
    assert check.code == 5, check.both
    assert (f"{head[:7]}: {RECEIPT} is not a receipt: it is a directory: run 'receipt run', "
            f"then push again") in check.out


def test_a_missing_receipt_file_still_lets_the_per_command_copy_vouch(repo: Repo) -> None:
    project(repo, hook=False)
    head = passing(repo)
    assert repo.receipt("run").code == 0
    (repo.path / RECEIPT).unlink()
    check = receipt_check(repo.path)
    assert check.code == 0, check.both
    assert f"check-receipt: {head[:7]}: artifacts/receipts/" in check.out
