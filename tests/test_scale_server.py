"""A busy server: many pushes of tested branches with their receipts land at the same moment
on a bare repository whose hooks are ``receipt install-hook --server``; as real processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PASSING_TEST
from conftest import Repo
from conftest import git
from conftest import receipt_main

PY = sys.executable
NOTES = "refs/notes/receipts"
PUSHERS = 16


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[str, str]]]:
    """A builder repository with PUSHERS tested branches, each branch's receipt alone in a
    notes commit of its own (refs/saved/I), and the server's hooks, installed, in a template
    of the server (main pushed). Returns the directory and (branch commit, its notes) pairs."""
    where = tmp_path_factory.mktemp("busy")
    builder = Repo(where / "builder")
    builder.write(".gitignore", "artifacts/\n")
    builder.write("t.py", PASSING_TEST)
    builder.commit("tests")
    server = where / "server.git"
    git(where, "init", "-q", "--bare", "--template=", str(server))
    builder.git("push", "-q", str(server), "main")
    installed = receipt_main(server, "install-hook", "--server")
    assert installed.code == 0, installed.both
    made = []
    for i in range(PUSHERS):
        builder.git("checkout", "-q", "-B", f"br{i}", "main")
        commit = builder.commit(f"branch {i}", **{f"b{i}.txt": f"{i}\n"})
        builder.git("update-ref", "-d", NOTES)
        assert builder.receipt("run", "--", PY, "t.py").code == 0
        notes = builder.git("rev-parse", NOTES)
        builder.git("update-ref", f"refs/saved/{i}", notes)
        made.append((commit, notes))
    builder.git("checkout", "-q", "main")
    return where, made


def pusher(where: Path, built_dir: Path, i: int, commit: str, notes: str) -> Repo:
    git(where, "clone", "-q", "--no-checkout", str(built_dir / "builder"), str(where / f"c{i}"))
    clone = Repo(where / f"c{i}", init=False)
    clone.git("remote", "set-url", "origin", str(where / "server.git"))
    clone.git("update-ref", NOTES, notes)
    clone.git("branch", "-f", f"br{i}", commit)
    return clone


def test_sixteen_concurrent_pushes_leave_every_accepted_branch_its_receipt(
        built: tuple[Path, list[tuple[str, str]]], tmp_path: Path) -> None:
    import shutil

    built_dir, made = built
    shutil.copytree(built_dir / "server.git", tmp_path / "server.git", symlinks=True)
    server = tmp_path / "server.git"
    clones = [pusher(tmp_path, built_dir, i, c, n) for i, (c, n) in enumerate(made)]
    # half push the notes ref itself, as the pre-receive refusal advises; half send them to a
    # ref of their own, which no other push races for
    refspecs = [[f"br{i}", NOTES] if i % 2 == 0 else
                [f"br{i}", f"{NOTES}:refs/receipts/incoming/br{i}-{made[i][1][:12]}"]
                for i in range(PUSHERS)]
    procs = [subprocess.Popen(["git", "push", "origin", *spec], cwd=clone.path,
                              env=dict(os.environ), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
             for clone, spec in zip(clones, refspecs)]
    said = [p.communicate(timeout=300)[1].decode() for p in procs]
    codes = [p.returncode for p in procs]
    for i, (commit, _notes) in enumerate(made):  # every branch landed, with its receipt
        assert git(server, "rev-parse", f"refs/heads/br{i}") == commit, said[i]
        tree = git(server, "rev-parse", f"{commit}^{{tree}}")
        assert git(server, "notes", "--ref", "receipts", "show", tree), said[i]
    assert [codes[i] for i in range(1, PUSHERS, 2)] == [0] * (PUSHERS // 2), said
    assert git(server, "for-each-ref", "refs/receipts/") == ""  # merged, then deleted
    assert os.listdir(server / "receipt-hooks" / "incoming") == []  # each push took its own
    verified = receipt_main(server, "verify", "--policy-from", "main",
                            *(f"--rev=br{i}" for i in range(PUSHERS)))
    assert verified.code == 0, verified.both
    assert f"receipt verify: {PUSHERS} commit(s) vouched for by {NOTES}" in verified.out
    for i in range(0, PUSHERS, 2):  # a notes update git refused in the race: said, and retried
        if codes[i] == 0:
            continue
        assert f"receipt verify: {NOTES} moved during this push" in said[i], said[i]
        assert "nothing is lost" in said[i]
        assert clones[i].receipt("fetch", "origin").code == 0
        again = clones[i].run("git", "push", "origin", *refspecs[i])
        assert again.code == 0, again.both


def test_the_server_hooks_keep_refusing_a_rewind_of_the_notes(
        built: tuple[Path, list[tuple[str, str]]], tmp_path: Path) -> None:
    import shutil

    built_dir, made = built
    shutil.copytree(built_dir / "server.git", tmp_path / "server.git", symlinks=True)
    clone = pusher(tmp_path, built_dir, 0, *made[0])
    first = clone.run("git", "push", "origin", "br0", NOTES)
    assert first.code == 0, first.both
    clone.git("update-ref", NOTES, made[1][1])  # notes without br0's receipt
    rewound = clone.run("git", "push", "--force", "origin", NOTES)
    assert rewound.code == 1
    assert "receipt verify: push refused: it would rewrite (not a fast-forward of" in rewound.err
    deleted = clone.run("git", "push", "origin", f":{NOTES}")
    assert deleted.code == 1
    assert "receipt verify: push refused: it would delete refs/notes/receipts" in deleted.err


def test_a_notes_update_that_loses_the_race_is_merged_said_and_retried(
        built: tuple[Path, list[tuple[str, str]]], tmp_path: Path) -> None:
    """Another push's notes land between this push's pre-receive check and git's update of
    the ref (the server's pre-receive hook moves the ref itself, at that very moment): git
    refuses this push's notes ref, the branch lands, and its receipts are merged all the same."""
    import shutil

    built_dir, made = built
    shutil.copytree(built_dir / "server.git", tmp_path / "server.git", symlinks=True)
    server = tmp_path / "server.git"
    git(server, "fetch", "-q", str(built_dir / "builder"), f"refs/saved/1:{NOTES}")  # br1's
    other = made[1][1]
    hook = server / "hooks" / "pre-receive"
    installed = hook.read_text().splitlines()[-1].removeprefix("exec ")
    hook.write_text(f"#!/bin/sh\ninput=$(cat)\n"
                    f"env -u GIT_QUARANTINE_PATH git update-ref {NOTES} {other} 2>/dev/null\n"
                    f"exec {installed} <<EOF\n$input\nEOF\n")
    git(server, "update-ref", "-d", NOTES)  # the server had no notes when the push began
    clone = pusher(tmp_path, built_dir, 0, *made[0])
    raced = clone.run("git", "push", "origin", "br0", NOTES)
    assert raced.code == 1, raced.both
    assert f"receipt verify: {NOTES} moved during this push (another push landed first), so " \
           f"git refused this push's update of it; the receipts it was judged by " \
           f"({made[0][1][:7]}) are merged into it here: nothing is lost" in raced.err
    assert git(server, "rev-parse", "refs/heads/br0") == made[0][0]
    for commit, _notes in made[:2]:  # both receipts on the server: this push's and the other's
        tree = git(built_dir / "builder", "rev-parse", f"{commit}^{{tree}}")
        assert git(server, "notes", "--ref", "receipts", "show", tree)
    hook.write_text(f"#!/bin/sh\nexec {installed}\n")
    assert clone.receipt("fetch", "origin").code == 0
    again = clone.run("git", "push", "origin", "br0", NOTES)
    assert again.code == 0, again.both
