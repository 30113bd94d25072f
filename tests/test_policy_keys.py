"""Path-valued policy keys and ``ignore``, through real git and real bare servers whose
pre-receive runs ``receipt verify --pre-receive``: a key that names one file (``ledger``,
``skips.baseline``) must be one file, never a directory or a glob, so it cannot take source out
of the tree comparison; an owner's ``ignore`` globs keep the receipt over changes to those paths,
and every check that relies on them names the paths; the server judges by the base's policy."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from conftest import PASSING_TEST
from conftest import Repo
from conftest import Result
from conftest import built_template
from conftest import copied
from conftest import receipt_check

from hooks.core.errors import CONFIG_ERROR

PY = sys.executable
NOTES = "refs/notes/receipts"
SUITE = f"test-command = '{PY} t.py'\n"
CALC = "def add(a, b):\n    return a + b\n"
BROKEN_CALC = "def add(a, b):\n    return a - b\n"


def guard(remote: Path) -> None:
    """Make REMOTE's pre-receive ``receipt verify --pre-receive``."""
    hook = remote / "hooks" / "pre-receive"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text(f"#!/bin/sh\nexec {shutil.which('receipt')} verify --pre-receive\n")
    hook.chmod(0o755)


def push(repo: Repo, *refs: str) -> Result:
    return repo.run("git", "push", "--no-verify", "origin", *refs)


def build(repo: Repo) -> None:
    """t.py passes, src/calc.py, docs/a.md, the suite configured with docs ignored, tested,
    main and the notes pushed to a bare server that then starts to judge pushes."""
    repo.write("t.py", PASSING_TEST)
    repo.write("src/calc.py", CALC)
    repo.write("docs/a.md", "a\n")
    repo.write(".receipt-hooks.toml", SUITE + "ignore = ['docs/**']\n")
    repo.commit("init")
    remote = repo.add_remote()
    assert repo.receipt("run").code == 0
    assert push(repo, "main", NOTES).code == 0
    guard(remote)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_template(tmp_path_factory, build)


@pytest.fixture
def served(template: Path, tmp_path: Path) -> Repo:
    return copied(template, tmp_path)


def remote_of(repo: Repo) -> Path:
    return repo.path.parent / "repo-remote.git"


@pytest.mark.parametrize(("setting", "said"), [
    ("ledger = 'src'", "ledger: 'src' is a directory in {commit}: ledger must name one file, "
                       "or the files in it are left out of the tree a receipt vouches for"),
    ("[skips]\nbaseline = '**'", "skips.baseline: must name one file from the repository "
                                 "root, not a directory or a glob: '**' holds a glob character"),
])
def test_a_file_key_that_would_hide_source_is_a_config_error_on_the_server(
        served: Repo, setting: str, said: str) -> None:
    repo = served
    remote = remote_of(repo)
    # the owner's branch on the server now holds the setting (put there without the hook)
    (remote / "hooks" / "pre-receive").rename(remote / "hooks" / "off")
    policy = repo.commit("policy", **{".receipt-hooks.toml": SUITE + setting + "\n"})
    assert push(repo, "main").code == 0
    (remote / "hooks" / "off").rename(remote / "hooks" / "pre-receive")
    broken = repo.commit("untested change to the source", **{"src__calc.py": BROKEN_CALC})
    refused = push(repo, "main")
    assert refused.code != 0, refused.both
    expected = said.format(commit=broken[:7]) if "{commit}" in said else said
    assert expected in refused.err
    assert repo.run("git", "--git-dir", str(remote), "rev-parse", "main").out.strip() == policy
    local = receipt_check(repo.path)
    assert local.code == CONFIG_ERROR, local.both
    assert expected in local.err


@pytest.mark.parametrize("value", ["src/", "src/**", "./src", "src/../src", ":(glob)src", "/src",
                                   "s?c", "[s]rc"])
def test_a_file_key_must_be_a_plain_path_to_one_file(served: Repo, value: str) -> None:
    repo = served
    for key, table in (("ledger", ""), ("baseline", "[skips]\n")):
        repo.write(".receipt-hooks.toml", f"{SUITE}{table}{key} = {value!r}\n")
        checked = receipt_check(repo.path, "--rev", "HEAD")
        where = "skips.baseline" if table else "ledger"
        assert (f"{where}: must name one file from the repository root, not a directory or a "
                f"glob: {value!r}") in checked.err
        assert repo.receipt("run").code == CONFIG_ERROR


def test_a_ledger_naming_a_directory_of_the_work_tree_is_refused_before_a_run(
        served: Repo) -> None:
    repo = served
    repo.write(".receipt-hooks.toml", SUITE + "ledger = 'src'\n")
    ran = repo.receipt("run")
    assert ran.code == CONFIG_ERROR, ran.both
    assert ran.err == ("receipt: .receipt-hooks.toml ledger: 'src' is a directory in the work "
                       "tree: ledger must name one file, or the files in it are left out of "
                       "the tree a receipt vouches for\n")


def test_the_owners_ignore_keeps_the_receipt_on_the_server_and_says_what_it_left_out(
        served: Repo) -> None:
    repo = served
    remote = remote_of(repo)
    docs = repo.commit("docs", **{"docs__a.md": "a, again\n", "docs__b.md": "b\n"})
    accepted = push(repo, "main")
    assert accepted.code == 0, accepted.both
    assert (f"remote: receipt verify: {docs[:7]}: 2 paths changed since the run are ignored by "
            f"the policy: docs/a.md, docs/b.md (.receipt-hooks.toml ignore [\"docs/**\"]); the "
            f"receipt vouches without them") in accepted.err
    # a pushed commit cannot widen its own ignore: the server judges by the base's policy
    widened = repo.commit("untested, and ignored by the pushed policy", **{
        ".receipt-hooks.toml": SUITE + "ignore = ['docs/**', 'src/**']\n",
        "src__calc.py": BROKEN_CALC})
    refused = push(repo, "main")
    assert refused.code != 0, refused.both
    assert f"remote: {widened[:7]}: no receipt from '{PY} t.py' in {NOTES}" in refused.err
    assert repo.run("git", "--git-dir", str(remote), "rev-parse", "main").out.strip() == docs
