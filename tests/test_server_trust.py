"""What a server and CI trust, through real git, real bare servers whose pre-receive runs
``receipt verify --pre-receive`` and real ``ssh-keygen`` keys: a signers file the judged commits
could change is read from the policy commit (or refused), a signer line with several principals
matches --require-signer on any of them, the branch the policy comes from cannot be deleted,
and a tag's commit is judged like a branch tip, whatever branch holds it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PASSING_TEST
from conftest import Repo
from conftest import Result
from conftest import built_template
from conftest import copied
from conftest import git
from conftest import receipt_main

from hooks.core.errors import USAGE_ERROR

PY = sys.executable
NOTES = "refs/notes/receipts"
SUITE = f"test-command = '{PY} t.py'\n"


def keypair(where: Path, name: str) -> Path:
    key = where / name
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(key)],
                   check=True)
    return key


def signer_line(principals: str, key: Path) -> str:
    return f"{principals} {(key.parent / (key.name + '.pub')).read_text()}"


def guard(remote: Path, *options: str) -> None:
    """Make REMOTE's pre-receive ``receipt verify --pre-receive OPTIONS``."""
    hook = remote / "hooks" / "pre-receive"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text(f"#!/bin/sh\nexec {shutil.which('receipt')} verify --pre-receive "
                    f"{' '.join(options)}\n")
    hook.chmod(0o755)


def push(repo: Repo, *refs: str) -> Result:
    return repo.run("git", "push", "--no-verify", "origin", *refs)


def build(repo: Repo) -> None:
    """t.py passes, the suite configured, tested, main and the notes on a guarded server that
    lets its current branch be deleted (receive.denyDeleteCurrent=false)."""
    repo.write("t.py", PASSING_TEST)
    repo.write(".receipt-hooks.toml", SUITE)
    repo.commit("init")
    remote = repo.add_remote()
    git(remote, "config", "receive.denyDeleteCurrent", "false")
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


def signing(repo: Repo, key: Path) -> None:
    repo.git("config", "gpg.format", "ssh")
    repo.git("config", "user.signingkey", str(key))


# Signer trust

def test_ci_reads_a_tracked_signers_file_from_the_policy_commit_not_the_judged_one(
        served: Repo, tmp_path: Path) -> None:
    repo = served
    ci, agent = keypair(tmp_path, "ci"), keypair(tmp_path, "agent")
    repo.write("ci_signers", signer_line("ci@example.invalid", ci))
    base = repo.commit("the signers CI trusts")
    # the judged commit lists the agent's key as ci@ and signs its own receipt with it
    repo.write("ci_signers", signer_line("ci@example.invalid", ci)
               + signer_line("ci@example.invalid", agent))
    head = repo.commit("trust me", **{"u.py": "x = 1\n"})
    signing(repo, agent)
    assert repo.receipt("run", "--sign").code == 0
    verified = receipt_main(repo.path, "verify", "--range", f"{base}..HEAD",
                            "--allowed-signers", "ci_signers", "--require-signer", "^ci@")
    assert verified.code == 6, verified.both
    assert (f"{head[:7]}: the receipt is signed by a key that ci_signers (as committed in "
            f"{base[:7]}) does not list") in verified.out
    signing(repo, ci)  # signed by CI's own key: the policy commit's file lists it
    assert repo.receipt("run", "--sign").code == 0
    trusted = receipt_main(repo.path, "verify", "--range", f"{base}..HEAD",
                           "--allowed-signers", "ci_signers", "--require-signer", "^ci@")
    assert trusted.code == 0, trusted.both
    (repo.path / "ci_signers").unlink()  # the work tree's copy is not the one read
    assert receipt_main(repo.path, "verify", "--range", f"{base}..HEAD", "--allowed-signers",
                        "ci_signers", "--require-signer", "^ci@").code == 0


def test_ci_refuses_a_signers_file_only_the_judged_commits_track(served: Repo,
                                                                tmp_path: Path) -> None:
    repo = served
    base = repo.git("rev-parse", "HEAD")
    agent = keypair(tmp_path, "agent")
    repo.write("ci_signers", signer_line("ci@example.invalid", agent))
    head = repo.commit("my own signers")
    signing(repo, agent)
    assert repo.receipt("run", "--sign").code == 0
    verified = receipt_main(repo.path, "verify", "--range", f"{base}..HEAD",
                            "--allowed-signers", "ci_signers")
    assert verified.code == USAGE_ERROR, verified.both
    assert verified.err == (f"receipt: --allowed-signers ci_signers: the judged commit "
                            f"{head[:7]} tracks it and the policy commit {base[:7]} does not, "
                            f"so a pushed commit could list its own key: commit the signers "
                            f"file to the branch the policy comes from, or keep it outside "
                            f"the repository\n")


def test_a_signer_line_with_several_principals_matches_require_signer_on_any(
        served: Repo, tmp_path: Path) -> None:
    repo = served
    remote = remote_of(repo)
    release = keypair(tmp_path, "release")
    signers = tmp_path / "server_signers"  # the server's own file, outside any repository
    signers.write_text(signer_line("ci@example.invalid,release@example.invalid", release))
    guard(remote, "--allowed-signers", str(signers), "--require-signer", "'^release@'")
    head = repo.commit("release", **{"u.py": "x = 1\n"})
    signing(repo, release)
    assert repo.receipt("run", "--sign").code == 0
    accepted = push(repo, "main", NOTES)
    assert accepted.code == 0, accepted.both
    assert git(remote, "rev-parse", "main") == head
    guard(remote, "--allowed-signers", str(signers), "--require-signer", "'^nobody@'")
    repo.commit("later", **{"u.py": "x = 2\n"})
    assert repo.receipt("run", "--sign").code == 0
    refused = push(repo, "main", NOTES)
    assert refused.code != 0, refused.both
    assert ("the receipt is signed by 'ci@example.invalid, release@example.invalid', which "
            "does not match --require-signer '^nobody@'") in refused.err


# The server's policy

@pytest.mark.parametrize("options", [(), ("--policy-from", "refs/heads/main")])
def test_the_server_refuses_deleting_the_branch_its_policy_comes_from(
        served: Repo, options: tuple[str, ...]) -> None:
    repo = served
    remote = remote_of(repo)
    guard(remote, *options)
    head = git(remote, "rev-parse", "main")
    refused = push(repo, ":main")
    assert refused.code != 0, refused.both
    assert ("remote: receipt verify: push refused: it would delete refs/heads/main, the branch "
            "this server's policy comes from") in refused.err
    assert git(remote, "rev-parse", "main") == head
    assert push(repo, "main:other").code == 0
    assert push(repo, ":other").code == 0  # any other branch may go


def test_a_tag_is_judged_like_a_branch_tip_whatever_branch_holds_it(served: Repo) -> None:
    repo = served
    remote = remote_of(repo)
    repo.git("tag", "-a", "-m", "on main", "v1", "main")
    assert push(repo, "v1").code == 0  # main's tested tip
    # main holds a commit that was never tested: only its tip, which reverts it, was judged
    tested = repo.git("rev-parse", "HEAD")
    broken = repo.commit("broken", **{"u.py": "x = 0\n"})
    repo.git("revert", "--no-edit", "HEAD")
    assert repo.git("rev-parse", "HEAD^{tree}") == repo.git("rev-parse", f"{tested}^{{tree}}")
    assert push(repo, "main").code == 0
    repo.git("tag", "-a", "-m", "release", "v1.1", broken)
    refused = push(repo, "v1.1")
    assert refused.code != 0, refused.both
    assert f"remote: {broken[:7]}: no receipt from '{PY} t.py' in {NOTES}" in refused.err
    assert "refs/tags/v1.1" not in git(remote, "for-each-ref", "refs/tags/")
    repo.git("checkout", "-q", "-b", "release")
    untested = repo.commit("untested", **{"u.py": "x = 1\n"})
    repo.git("tag", "v2")
    refused = push(repo, "v2")
    assert refused.code != 0, refused.both
    assert f"remote: {untested[:7]}: no receipt from '{PY} t.py' in {NOTES}" in refused.err
    assert "refs/tags/v2" not in git(remote, "for-each-ref", "refs/tags/")
    assert repo.receipt("run").code == 0
    accepted = push(repo, "v2", NOTES)
    assert accepted.code == 0, accepted.both
    repo.git("notes", "add", "-m", "reviewed", "HEAD")  # other notes hold no tree to judge
    assert push(repo, "refs/notes/commits").code == 0
