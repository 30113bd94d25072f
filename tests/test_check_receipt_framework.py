"""check-receipt through the real pre-commit framework and as a plain git pre-push hook."""

from __future__ import annotations

import re
import sys

from conftest import MANIFEST_HOOKS
from conftest import PASSING_TEST
from conftest import Repo
from conftest import precommit_config

PY = sys.executable


def project(repo: Repo, hook_repo: tuple[str, str]) -> None:
    repo.write(".pre-commit-config.yaml", precommit_config(hook_repo, "check-receipt"))
    repo.write("t.py", PASSING_TEST)
    repo.commit("project with tests")
    repo.add_remote()


def test_push_refused_then_accepted_through_pre_commit_install(
        repo: Repo, hook_repo: tuple[str, str]) -> None:
    project(repo, hook_repo)
    installed = repo.run("pre-commit", "install", "--hook-type", "pre-push")
    assert installed.code == 0, installed.both
    refused = repo.run("git", "push", "origin", "main")
    assert refused.code == 1, refused.both
    assert "check-receipt" in refused.both and "Failed" in refused.both
    assert "no receipt at artifacts/test-receipt.json" in refused.both
    assert "- exit code: 2" in refused.both
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    accepted = repo.run("git", "push", "origin", "main")
    assert accepted.code == 0, accepted.both
    assert repo.git("--git-dir", str(repo.path.parent / "repo-remote.git"),
                    "rev-parse", "main") == repo.git("rev-parse", "HEAD")
    repo.commit("untested change", x="1\n")
    stale = repo.run("git", "push", "origin", "main")
    assert stale.code == 1
    assert "- exit code: 3" in stale.both


def test_pushing_a_branch_that_is_not_checked_out_checks_that_branch(
        repo: Repo, hook_repo: tuple[str, str]) -> None:
    project(repo, hook_repo)
    assert repo.run("pre-commit", "install", "--hook-type", "pre-push").code == 0
    repo.git("branch", "feature")
    repo.git("checkout", "-q", "feature")
    repo.commit("feature work", feature="1\n")
    repo.git("checkout", "-q", "main")
    assert repo.receipt("run", "--", PY, "t.py").code == 0  # vouches for main only
    refused = repo.run("git", "push", "origin", "feature")
    assert refused.code == 1
    feature = repo.git("rev-parse", "feature")
    assert f"stale: {feature[:7]} differs from the tested tree" in refused.both
    assert repo.run("git", "push", "origin", "main").code == 0


def test_pre_commit_run_with_refs_checks_the_to_ref(
        repo: Repo, hook_repo: tuple[str, str]) -> None:
    project(repo, hook_repo)
    first = repo.git("rev-parse", "HEAD")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    second = repo.commit("later", x="1\n")
    ok = repo.run("pre-commit", "run", "check-receipt", "--hook-stage", "pre-push",
                  "--from-ref", first, "--to-ref", first)
    assert ok.code == 0, ok.both
    refused = repo.run("pre-commit", "run", "check-receipt", "--hook-stage", "pre-push",
                       "--from-ref", first, "--to-ref", second)
    assert refused.code == 1
    assert f"stale: {second[:7]} differs from the tested tree" in refused.both


def test_every_manifest_hook_runs_at_the_manual_stage(repo: Repo,
                                                     hook_repo: tuple[str, str]) -> None:
    repo.write("t.py", PASSING_TEST)
    repo.write("assumption-ledger.jsonl", "[1]\n")
    repo.write(".pre-commit-config.yaml", precommit_config(hook_repo, *MANIFEST_HOOKS))
    repo.commit("tests, and a ledger line committed with --no-verify")
    tried = repo.run("pre-commit", "run", "--hook-stage", "manual", "--all-files", "--verbose")
    assert tried.code == 1
    assert re.search(r"^check-receipt\.+Failed$", tried.out, re.M), tried.out
    assert "no receipt at artifacts/test-receipt.json" in tried.out
    assert re.search(r"^require-ledger-hypothesis\.+Failed$", tried.out, re.M), tried.out
    assert "assumption-ledger.jsonl:1: is a JSON list, not an object" in tried.out
    assert re.search(r"^no-inserted-skips\.+Passed$", tried.out, re.M), tried.out
    assert "receipt skips --write-baseline" in tried.out


def test_plain_git_hook_checks_every_ref_in_one_push(repo: Repo) -> None:
    repo.write("t.py", PASSING_TEST)
    repo.commit("tests")
    remote = repo.add_remote()
    installed = repo.receipt("install-hook")
    assert installed.code == 0
    assert installed.out == "receipt install-hook: installed .git/hooks/pre-push\n"
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    repo.git("branch", "same-tree")  # a second ref at the same tree: the receipt covers both
    ok = repo.run("git", "push", "origin", "main", "same-tree")
    assert ok.code == 0, ok.both
    pushed = repo.git("rev-parse", "main")
    repo.git("checkout", "-q", "-b", "other")
    other = repo.commit("untested", x="1\n")
    repo.git("checkout", "-q", "main")
    repo.commit("untested too", y="2\n")
    refused = repo.run("git", "push", "origin", "main", "other")
    assert refused.code != 0
    assert f"stale: {other[:7]} differs from the tested tree" in refused.both
    main = repo.git("rev-parse", "main")
    assert f"stale: {main[:7]} differs from the tested tree" in refused.both
    remote_refs = repo.git("--git-dir", str(remote), "for-each-ref",
                           "--format=%(refname:short) %(objectname)")
    assert remote_refs.splitlines() == [f"main {pushed}", f"same-tree {pushed}"]


def test_install_hook_does_not_overwrite_a_foreign_hook(repo: Repo) -> None:
    repo.commit("init")
    hook = repo.write(".git/hooks/pre-push", "#!/bin/sh\necho theirs\n")
    result = repo.receipt("install-hook")
    assert result.code == 1
    assert "already exists and is not ours: pass --force" in result.err
    assert hook.read_text() == "#!/bin/sh\necho theirs\n"
    assert repo.receipt("install-hook", "--force").code == 0
    assert "receipt-hooks" in hook.read_text()
