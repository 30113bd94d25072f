"""``receipt verify``, through real git and real bare servers whose hooks/pre-receive runs
``receipt verify --pre-receive``: a self-written override does not pass the gate, a server whose
HEAD names no branch refuses rather than judge by no policy, ``--head``/``--rev`` never take the
policy from the commit they judge, and a push cannot delete, replace or rewrite the notes the
server judges by."""

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
from conftest import git
from conftest import receipt_main

from hooks.core.errors import USAGE_ERROR

PY = sys.executable
NOTES = "refs/notes/receipts"
SUITE = f"test-command = '{PY} t.py'\n"
REASON = "INC-42 hotfix, trust me"


def server(repo: Repo, *options: str) -> Path:
    """A bare remote (origin) whose pre-receive is ``receipt verify --pre-receive OPTIONS``."""
    remote = repo.path.parent / (repo.path.name + "-remote.git")
    if not remote.exists():
        remote = repo.add_remote()
    hook = remote / "hooks" / "pre-receive"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text(f"#!/bin/sh\nexec {shutil.which('receipt')} verify --pre-receive "
                    f"{' '.join(options)}\n")
    hook.chmod(0o755)
    return remote


def project(repo: Repo, *options: str) -> tuple[Path, str]:
    """t.py passes, the suite configured, tested, pushed with its notes to a guarded server."""
    remote = server(repo, *options)
    repo.write("t.py", PASSING_TEST)
    repo.write(".receipt-hooks.toml", SUITE)
    base = repo.commit("init")
    assert repo.receipt("run").code == 0
    pushed = push(repo, "main", NOTES)
    assert pushed.code == 0, pushed.both
    return remote, base


def push(repo: Repo, *refs: str) -> Result:
    return repo.run("git", "push", "--no-verify", "origin", *refs)


@pytest.fixture(scope="module")
def published_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """project() built once per module and copied for each test that starts from it."""
    return built_template(tmp_path_factory, project)


@pytest.fixture
def published(published_template: Path, tmp_path: Path) -> Repo:
    """A copy of project()'s repository and guarded server, origin pointed at the copy."""
    return copied(published_template, tmp_path)


def pushed(repo: Repo) -> tuple[Path, str]:
    """What project() returns, for a copy of its template: the server and the pushed commit."""
    return repo.path.parent / (repo.path.name + "-remote.git"), repo.git("rev-parse", "HEAD")


def overridden_untested_commit(repo: Repo) -> str:
    """An untested commit whose own ledger holds the override that lets it through."""
    repo.commit("untested", b="1\n")
    assert repo.receipt("override", "--reason", REASON).code == 0
    repo.git("add", "assumption-ledger.jsonl")
    repo.git("commit", "-q", "--amend", "--no-edit")
    return repo.git("rev-parse", "HEAD")


# an override is anyone's to write; verify honours it only when told to, and says so.

def test_the_server_does_not_honour_an_override_the_pushed_commit_wrote(published: Repo) -> None:
    repo = published
    remote, _base = pushed(repo)
    head = overridden_untested_commit(repo)
    refused = push(repo, "main")
    assert refused.code != 0, refused.both
    assert f"receipt verify: {head[:7]}: an override by test@example.invalid because {REASON}" \
        in refused.err
    assert "is not honoured: it is written in the judged commit, by whoever pushed it; pass " \
        "--allow-overrides to honour it" in refused.err
    assert f"{head[:7]}: no receipt from '{PY} t.py' in {NOTES}" in refused.err
    assert git(remote, "rev-parse", "main") != head
    server(repo, "--allow-overrides")  # the server's admin opts in: honoured, and said
    accepted = push(repo, "main")
    assert accepted.code == 0, accepted.both
    assert (f"receipt verify: 0 commit(s) vouched for by {NOTES}, 1 let through by an override "
            f"(--allow-overrides)") in accepted.err
    assert f"receipt verify: {head[:7]}: overridden by test@example.invalid because {REASON}" \
        in accepted.err


def test_ci_range_refuses_a_self_written_override_and_names_it(published: Repo) -> None:
    repo = published
    _remote, base = pushed(repo)
    head = overridden_untested_commit(repo)
    refused = receipt_main(repo.path, "verify", "--range", f"{base}..HEAD")
    assert refused.code == 2, refused.both
    assert refused.out.startswith(f"{head[:7]}: no receipt from '{PY} t.py' in {NOTES}")
    assert refused.err == (f"receipt verify: {head[:7]}: an override by test@example.invalid "
                           f"because {REASON} ") + refused.err.split(f"because {REASON} ")[1]
    assert "is not honoured" in refused.err
    allowed = receipt_main(repo.path, "verify", "--range", f"{base}..HEAD", "--allow-overrides")
    assert allowed.code == 0, allowed.both
    assert allowed.out.splitlines() == [
        f"receipt verify: 0 commit(s) vouched for by {NOTES}, 1 let through by an override "
        f"(--allow-overrides)",
        f"receipt verify: {head[:7]}: overridden by test@example.invalid because {REASON} "
        + allowed.out.splitlines()[1].split(f"because {REASON} ")[1]]
    # check-receipt's local behaviour is unchanged: the committed override lets it through
    local = receipt_main(repo.path, "check")
    assert local.code == 0 and f"{head[:7]}: overridden by test@example.invalid" in local.both


# a server whose HEAD names a branch that does not exist refuses; an empty one says so.

def test_a_server_whose_head_names_no_branch_refuses_and_asks_for_policy_from(
        published: Repo) -> None:
    repo = published
    remote, _base = pushed(repo)
    git(remote, "symbolic-ref", "HEAD", "refs/heads/master")
    repo.commit("narrower run", b="1\n")
    assert repo.receipt("run", "--", PY, "-c", "print('=== 1 passed ===')").code == 0
    refused = push(repo, "main", NOTES)
    assert refused.code != 0, refused.both
    assert ("remote: receipt verify: no policy: the default branch HEAD names refs/heads/master, "
            "which does not exist here: pass --policy-from refs/heads/main") in refused.err
    server(repo, "--policy-from", "refs/heads/main")  # named: main's suite judges the push
    judged = push(repo, "main", NOTES)
    assert judged.code != 0 and f"no receipt from '{PY} t.py'" in judged.err, judged.both


def test_the_first_push_into_an_empty_server_says_no_policy_exists_yet(repo: Repo) -> None:
    server(repo)
    repo.write("t.py", PASSING_TEST)
    repo.commit("init")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    first = push(repo, "main", NOTES)
    assert first.code == 0, first.both
    assert ("remote: receipt verify: note: the repository has no branch yet, so no committed "
            "policy exists: this first push is judged by the hook's options and the defaults"
            ) in first.err


# --head / --rev take the policy from a trusted source, never the judged commit.

def ci_clone_of_a_pr_that_drops_its_policy(repo: Repo) -> Repo:
    """A PR branch that deletes the config and carries a receipt of another command, cloned
    as CI does (origin/HEAD is main), with the notes fetched; REPO is a copy of project()."""
    repo.git("checkout", "-q", "-b", "pr")
    repo.git("rm", "-q", ".receipt-hooks.toml")
    repo.commit("drop the policy", b="1\n")
    assert repo.receipt("run", "--", PY, "-c", "print('=== 1 passed ===')").code == 0
    assert repo.receipt("publish").code == 0
    server(repo, "--policy-from", "refs/heads/main")
    assert push(repo, "pr").code != 0  # the server judges by main: refused
    remote = repo.path.parent / (repo.path.name + "-remote.git")
    (remote / "hooks" / "pre-receive").unlink()
    assert push(repo, "pr").code == 0
    ci = Repo.__new__(Repo)
    ci.path = repo.path.parent / "ci"
    git(repo.path.parent, "clone", "-q", str(remote), str(ci.path))
    ci.git("checkout", "-q", "pr")
    ci.git("fetch", "-q", "origin", f"+{NOTES}:{NOTES}")
    return ci


def test_verify_head_and_rev_judge_by_the_remotes_default_branch(published: Repo) -> None:
    ci = ci_clone_of_a_pr_that_drops_its_policy(published)
    for how in (("--head",), ("--rev", "HEAD")):
        judged = ci.receipt("verify", *how)
        assert judged.code == 2, (how, judged.both)
        assert judged.out.startswith(f"{ci.git('rev-parse', '--short=7', 'HEAD')}: no receipt "
                                     f"from '{PY} t.py' in {NOTES}"), how
    named = ci.receipt("verify", "--head", "--policy-from", "HEAD")  # explicit: trusted
    assert named.code == 0, named.both


def test_verify_head_without_a_trusted_policy_refuses_in_one_line(repo: Repo) -> None:
    repo.write("t.py", PASSING_TEST)
    repo.commit("base")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    for how in ((), ("--head",), ("--rev", "HEAD"), ("--range", "..HEAD")):
        refused = receipt_main(repo.path, "verify", *how)
        assert refused.code == USAGE_ERROR and refused.out == "", (how, refused.both)
        assert refused.err == (
            "receipt verify: no policy to judge by: refs/remotes/origin/HEAD does not exist "
            "here: pass --policy-from REV (the branch they merge into, e.g. --policy-from "
            "origin/main) or --range BASE..HEAD: the judged commits' own config is the "
            "pusher's to change\n"), how


def test_verify_refuses_when_the_remotes_default_branch_is_the_judged_commit(
        published: Repo) -> None:
    repo = published
    repo.git("remote", "set-head", "origin", "main")  # origin/HEAD -> origin/main == HEAD
    refused = receipt_main(repo.path, "verify", "--head")
    assert refused.code == USAGE_ERROR, refused.both
    head = repo.git("rev-parse", "--short=7", "HEAD")
    assert refused.err.startswith(f"receipt verify: no policy to judge by: "
                                  f"refs/remotes/origin/HEAD ({head}) is a commit being judged")


# the notes the server judges by are only ever added to.

def test_a_push_cannot_delete_the_servers_notes(published: Repo) -> None:
    repo = published
    remote, _base = pushed(repo)
    notes = git(remote, "rev-parse", NOTES)
    repo.commit("tested", b="1\n")
    assert repo.receipt("run").code == 0
    assert repo.receipt("publish").code == 0
    refused = push(repo, "main", f":{NOTES}")
    assert refused.code != 0, refused.both
    assert (f"remote: receipt verify: push refused: it would delete {NOTES}, the receipts this "
            f"server judges by") in refused.err
    assert git(remote, "rev-parse", NOTES) != notes  # the published notes, not deleted
    alone = push(repo, f":{NOTES}")  # a notes-only deletion too
    assert alone.code != 0 and f"it would delete {NOTES}" in alone.err, alone.both


def test_a_push_cannot_point_the_notes_at_a_blob_or_a_tree(published: Repo) -> None:
    repo = published
    remote, _base = pushed(repo)
    notes = git(remote, "rev-parse", NOTES)
    blob = repo.run("git", "hash-object", "-w", "--stdin", stdin="junk\n").out.strip()
    tree = repo.git("rev-parse", "HEAD^{tree}")
    for kind, obj in (("blob", blob), ("tree", tree)):
        refused = push(repo, f"+{obj}:{NOTES}")
        assert refused.code != 0, refused.both
        assert (f"remote: receipt verify: push refused: it would point at a {kind}, not a notes "
                f"commit, as {NOTES}") in refused.err
    assert git(remote, "rev-parse", NOTES) == notes


def test_a_push_cannot_rewrite_the_notes_or_drop_a_note(published: Repo) -> None:
    repo = published
    remote, _base = pushed(repo)
    notes = git(remote, "rev-parse", NOTES)
    tree = repo.git("rev-parse", "HEAD^{tree}")
    repo.git("update-ref", "-d", NOTES)  # a fresh notes history: not a fast-forward
    repo.git("notes", "--ref", "receipts", "add", "-m", "[]", repo.git("rev-parse", "HEAD"))
    rewritten = push(repo, f"+{NOTES}")
    assert rewritten.code != 0, rewritten.both
    assert (f"remote: receipt verify: push refused: it would rewrite (not a fast-forward of "
            f"{notes[:7]}) {NOTES}") in rewritten.err
    repo.git("update-ref", NOTES, notes)  # a fast-forward that removes the tree's note
    repo.git("notes", "--ref", "receipts", "remove", tree)
    dropped = push(repo, NOTES)
    assert dropped.code != 0, dropped.both
    assert f"it would remove 1 note(s) (on {tree[:7]}) from {NOTES}" in dropped.err
    assert git(remote, "rev-parse", NOTES) == notes
    repo.git("update-ref", NOTES, notes)  # a fast-forward that adds: fine
    repo.commit("tested", b="1\n")
    assert repo.receipt("run").code == 0
    added = push(repo, "main", NOTES)
    assert added.code == 0, added.both


def test_fetch_and_publish_say_plainly_when_the_remotes_notes_cannot_be_merged(
        published: Repo) -> None:
    repo = published
    remote, _base = pushed(repo)
    blob = git(remote, "hash-object", "-w", "/dev/null")
    git(remote, "update-ref", NOTES, blob)  # damaged on the server, past any hook
    said = (f"origin's {NOTES} is a blob, not a notes commit: nothing merged; its receipts are "
            f"gone or damaged there")
    fetched = repo.receipt("fetch")
    assert fetched.code == USAGE_ERROR and fetched.err.startswith(f"receipt: {said}"), fetched.both
    assert "merged into ours" not in fetched.err
    published = repo.receipt("publish")
    assert published.code == USAGE_ERROR, published.both
    assert published.err.startswith(f"receipt: {said}"), published.both
    assert len(published.err.splitlines()) == 1


def test_publish_names_the_servers_refusal_not_gits_hint(published: Repo) -> None:
    repo = published
    remote, _base = pushed(repo)
    (remote / "hooks" / "pre-receive").write_text(
        "#!/bin/sh\necho 'receipt verify: push refused: closed for the night' >&2\nexit 1\n")
    repo.commit("tested", b="1\n")
    assert repo.receipt("run").code == 0
    published = repo.receipt("publish")
    assert published.code == USAGE_ERROR, published.both
    assert published.err.startswith(f"receipt: origin refused {NOTES} after its notes were "
                                    f"merged into ours: remote: receipt verify: push refused: "
                                    f"closed for the night"), published.err
    assert len(published.err.splitlines()) == 1 and "hint:" not in published.err
