"""The work-tree snapshot starts from a copy of the real index (stat data kept, so git hashes
only what changed) and the second snapshot of a run from the first's throwaway index: the tree
ids are the ones a fresh copy gives, git's racy-entry rules still apply, and the user's index
is never written."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from conftest import Repo

from hooks.core import git_index
from hooks.core import snapshot

LEAVE_OUT = ["artifacts/test-receipt.json", "artifacts/test-output.log"]
IGNORE = ["assumption-ledger.jsonl"]


def fresh_copy_tree(repo: Repo) -> str:
    """The tree the snapshot gave before it kept an index: a new copy of the real index (its
    mtime kept), ``git add --all``, the left-out paths removed, ``write-tree``."""
    fd, temp = tempfile.mkstemp(prefix="old-method-")
    os.close(fd)
    try:
        shutil.copy2(repo.path / ".git" / "index", temp)
        env = {**os.environ, "GIT_INDEX_FILE": temp}

        def git(*args: str) -> str:
            proc = subprocess.run(("git", "-c", "core.fileMode=true", *args), cwd=repo.path,
                                  env=env, capture_output=True, check=False)
            assert proc.returncode == 0, proc.stderr.decode()
            return proc.stdout.decode().strip()

        git("add", "--all", "--", ":/")
        git("rm", "--cached", "-r", "-f", "--quiet", "--ignore-unmatch", "--",
            *(f":(top,literal){p}" for p in LEAVE_OUT), *(f":(top,glob){g}" for g in IGNORE))
        return git("write-tree")
    finally:
        os.unlink(temp)


def take(repo: Repo, previous: snapshot.Snapshot | None = None,
         keep: bool = False) -> snapshot.Snapshot:
    return snapshot.take(str(repo.path), LEAVE_OUT, IGNORE, previous=previous, keep=keep)


@pytest.fixture
def mixed(repo: Repo) -> Repo:
    """A repository whose work tree differs from HEAD in every way a tree can record."""
    repo.write(".gitignore", "build/\n*.tmp\nartifacts/\n")
    repo.write("keep.txt", "keep\n")
    repo.write("edit.txt", "old\n")
    repo.write("gone.txt", "gone\n")
    repo.write("run.sh", "echo hi\n")
    repo.write("assumption-ledger.jsonl", "{}\n")
    os.symlink("keep.txt", repo.path / "link")
    repo.commit("base")
    repo.write("edit.txt", "new content\n")  # modified
    (repo.path / "gone.txt").unlink()  # deleted
    repo.write("staged.txt", "staged\n")
    repo.git("add", "staged.txt")  # added
    repo.write("new/untracked.txt", "untracked\n")  # untracked, not ignored
    repo.write("build/out.o", "ignored\n")  # ignored
    repo.write("scratch.tmp", "ignored\n")  # ignored
    repo.write("artifacts/test-receipt.json", "{}\n")  # left out
    repo.write("assumption-ledger.jsonl", '{"changed": 1}\n')  # left out, though tracked
    (repo.path / "run.sh").chmod(0o755)  # exec bit
    (repo.path / "link").unlink()
    os.symlink("edit.txt", repo.path / "link")  # symlink retargeted
    return repo


def tree_paths(repo: Repo, tree: str) -> dict[str, str]:
    out = repo.git("ls-tree", "-r", tree)
    return {line.split("\t")[1]: line.split()[0] for line in out.splitlines()}


def test_the_snapshot_is_the_tree_a_fresh_copy_of_the_index_gives(mixed: Repo) -> None:
    index = mixed.path / ".git" / "index"
    before_bytes, before_stat = index.read_bytes(), index.stat()
    taken = take(mixed)
    assert taken.tree == fresh_copy_tree(mixed)
    paths = tree_paths(mixed, taken.tree)
    assert paths["run.sh"] == "100755" and paths["link"] == "120000"
    assert "new/untracked.txt" in paths and "staged.txt" in paths
    assert not {"gone.txt", "build/out.o", "scratch.tmp", "artifacts/test-receipt.json",
                "assumption-ledger.jsonl"} & set(paths)
    assert mixed.git("cat-file", "-p", f"{taken.tree}:link") == "edit.txt"
    # the user's index is neither written nor replaced, and no throwaway index is left
    assert index.read_bytes() == before_bytes
    assert index.stat().st_mtime_ns == before_stat.st_mtime_ns
    assert index.stat().st_ino == before_stat.st_ino
    assert not [p for p in os.listdir(mixed.path / ".git") if p.startswith("receipt-index-")]


def test_the_second_snapshot_starts_from_the_first_ones_index(mixed: Repo) -> None:
    first = take(mixed, keep=True)
    kept = first.temp_index
    assert kept is not None and os.path.dirname(kept) == str(mixed.path / ".git")
    assert os.path.isfile(kept)
    mixed.write("edit.txt", "newer content\n")
    mixed.write("new/second.txt", "second\n")
    (mixed.path / "new" / "untracked.txt").unlink()
    (mixed.path / "keep.txt").unlink()
    second = take(mixed, previous=first, keep=True)
    assert first.temp_index is None and second.temp_index == kept  # taken over, not copied
    assert second.tree == fresh_copy_tree(mixed) != first.tree
    paths = tree_paths(mixed, second.tree)
    assert "new/second.txt" in paths
    assert not {"new/untracked.txt", "keep.txt"} & set(paths)
    unchanged = take(mixed, previous=second)
    assert unchanged.tree == second.tree
    assert not os.path.exists(kept)  # the last one, not kept, deleted it
    first.discard()
    second.discard()


def test_a_run_leaves_no_throwaway_index_next_to_the_real_one(repo: Repo) -> None:
    repo.commit("base", **{"a.txt": "a\n"})
    result = repo.run("receipt", "run", "--", "true")
    assert result.code == 0, result.err
    assert "wrote artifacts/test-receipt.json" in result.err
    assert not [p for p in os.listdir(repo.path / ".git") if p.startswith("receipt-index-")]


def same_size_rewrite_keeping_the_stat(path: Path, content: str) -> None:
    """Rewrite PATH in place at the same size and put its mtime back: only its ctime tells,
    and core.trustctime=false makes git not look at that, as on a same-second rewrite on a
    file system whose times have a coarse granularity."""
    info = path.stat()
    assert len(content.encode()) == info.st_size
    with open(path, "r+b") as f:
        f.write(content.encode())
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


def committed_a_while_ago(repo: Repo, name: str, content: str) -> int:
    """Commit NAME with an mtime ten seconds back; the mtime (its index entry's too)."""
    repo.git("config", "core.trustctime", "false")
    path = repo.write(name, content)
    mtime = time.time_ns() - 10_000_000_000
    os.utime(path, ns=(mtime, mtime))
    repo.commit("base")
    return mtime


def test_a_racily_clean_entry_is_hashed_again_in_the_copy(repo: Repo) -> None:
    mtime = committed_a_while_ago(repo, "racy.txt", "aaaa\n")
    racy, index = repo.path / "racy.txt", repo.path / ".git" / "index"
    # the index written in the file's second, back then: its entry is racily clean (a copy
    # with a fresh mtime would call it clean)
    os.utime(index, ns=(mtime, mtime))
    clean = take(repo)
    same_size_rewrite_keeping_the_stat(racy, "bbbb\n")
    assert racy.stat().st_mtime_ns == mtime
    changed = take(repo)
    assert changed.tree != clean.tree
    assert repo.git("cat-file", "-p", f"{changed.tree}:racy.txt") == "bbbb"
    assert changed.tree == fresh_copy_tree(repo)
    assert index.stat().st_mtime_ns == mtime  # the real index is not refreshed by us


def test_a_racily_clean_entry_of_the_kept_index_is_hashed_again(repo: Repo) -> None:
    mtime = committed_a_while_ago(repo, "racy.txt", "aaaa\n")
    racy = repo.path / "racy.txt"
    first = take(repo, keep=True)
    assert first.temp_index is not None
    # as if the kept index had been written in the second the file was then rewritten in
    os.utime(first.temp_index, ns=(mtime, mtime))
    same_size_rewrite_keeping_the_stat(racy, "cccc\n")
    second = take(repo, previous=first)
    assert first.temp_index is None  # it did start from the kept index
    assert second.tree != first.tree
    assert repo.git("cat-file", "-p", f"{second.tree}:racy.txt") == "cccc"


def test_an_untracked_file_the_run_has_git_ignore_is_left_out_as_a_fresh_copy_would(
        repo: Repo) -> None:
    repo.commit("base", **{"a.txt": "a\n"})
    repo.write("notes.txt", "untracked\n")
    first = take(repo, keep=True)
    assert "notes.txt" in tree_paths(repo, first.tree)
    (repo.path / ".git" / "info").mkdir(exist_ok=True)
    (repo.path / ".git" / "info" / "exclude").write_text("notes.txt\n")  # not in any tree
    second = take(repo, previous=first, keep=True)
    assert "notes.txt" not in tree_paths(repo, second.tree)
    assert second.tree == fresh_copy_tree(repo)
    first.discard()
    second.discard()


def test_a_deleted_tracked_ignored_file_written_again_is_in_the_tree_again(
        repo: Repo) -> None:
    repo.write(".gitignore", "generated.txt\n")
    repo.write("generated.txt", "v1\n")
    repo.git("add", "-f", "generated.txt", ".gitignore")
    repo.git("commit", "-q", "-m", "base")
    (repo.path / "generated.txt").unlink()
    first = take(repo, keep=True)
    assert "generated.txt" not in tree_paths(repo, first.tree)
    repo.write("generated.txt", "v2\n")  # tracked in the real index: in a fresh copy's tree
    second = take(repo, previous=first, keep=True)
    assert "generated.txt" in tree_paths(repo, second.tree)
    assert second.tree == fresh_copy_tree(repo)
    first.discard()
    second.discard()


def test_a_changed_real_index_is_copied_again(repo: Repo) -> None:
    repo.write(".gitignore", "*.log\n")
    repo.commit("base", **{"a.txt": "a\n"})
    repo.write("x.log", "log\n")
    first = take(repo, keep=True)
    kept = first.temp_index
    assert "x.log" not in tree_paths(repo, first.tree)
    repo.git("add", "-f", "x.log")  # the command staged an ignored file: now tracked
    second = take(repo, previous=first)
    assert first.temp_index == kept  # not taken over: the caller still discards it
    assert "x.log" in tree_paths(repo, second.tree)
    first.discard()
    assert kept is not None and not os.path.exists(kept)


def test_a_leaked_git_index_file_is_neither_read_nor_written(
        mixed: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = fresh_copy_tree(mixed)
    other = tmp_path / "other-index"  # what a surrounding hook's index might hold
    shutil.copy2(mixed.path / ".git" / "index", other)
    subprocess.run(("git", "add", "-f", "build/out.o"), cwd=mixed.path, check=True,
                   env={**os.environ, "GIT_INDEX_FILE": str(other)})
    stale = other.read_bytes()
    monkeypatch.setenv("GIT_INDEX_FILE", str(other))
    git_index.real_index_path.cache_clear()
    taken = take(mixed)
    assert taken.tree == expected
    assert "build/out.o" not in tree_paths(mixed, taken.tree)
    assert other.read_bytes() == stale
    assert not [p for p in os.listdir(tmp_path) if p.startswith("receipt-index-")]


def test_a_clean_tree_against_a_head_that_holds_a_left_out_file_is_not_dirty(
        repo: Repo) -> None:
    repo.commit("base", **{"a.txt": "a\n", "assumption-ledger.jsonl": "{}\n"})
    result = repo.run("receipt", "run", "--", "true")
    assert result.code == 0, result.err
    receipt = json.loads((repo.path / "artifacts" / "test-receipt.json").read_text())
    head = repo.git("rev-parse", "HEAD")
    assert receipt["git_dirty"] is False
    assert receipt["git_tree"] == git_index.tree_without(
        head, LEAVE_OUT, str(repo.path), IGNORE) != repo.git("rev-parse", "HEAD^{tree}")
    repo.write("a.txt", "changed\n")
    result = repo.run("receipt", "run", "--", "true")
    assert result.code == 0, result.err
    receipt = json.loads((repo.path / "artifacts" / "test-receipt.json").read_text())
    assert receipt["git_dirty"] is True


def test_a_clean_tree_against_a_head_without_left_out_files_is_heads_tree(
        repo: Repo) -> None:
    repo.commit("base", **{"a.txt": "a\n"})
    result = repo.run("receipt", "run", "--", "true")
    assert result.code == 0, result.err
    receipt = json.loads((repo.path / "artifacts" / "test-receipt.json").read_text())
    assert receipt["git_dirty"] is False
    assert receipt["git_tree"] == receipt["git_tree_after"] == repo.git("rev-parse",
                                                                        "HEAD^{tree}")


def test_a_run_refused_after_its_snapshot_began_leaves_no_throwaway_index(repo: Repo) -> None:
    repo.commit("base", **{"a.txt": "a\n", "notes.txt": "mine\n"})
    result = repo.run("receipt", "run", "--receipt", "notes.txt", "--", "true")
    assert result.code == 64, result.err  # a usage error
    assert "notes.txt is a file tracked by git" in result.err
    assert not [p for p in os.listdir(repo.path / ".git") if p.startswith("receipt-index-")]
    assert (repo.path / "notes.txt").read_text() == "mine\n"


def test_a_begun_snapshot_is_the_one_take_makes(mixed: Repo) -> None:
    begun = snapshot.start(str(mixed.path))
    assert begun is not None and begun.temp_index is not None
    kept = begun.temp_index
    taken = snapshot.take(str(mixed.path), LEAVE_OUT, IGNORE, started=begun)
    assert begun.temp_index is None and not os.path.exists(kept)
    assert taken.tree == fresh_copy_tree(mixed)
    dropped = snapshot.start(str(mixed.path))
    assert dropped is not None and dropped.temp_index is not None
    copy = dropped.temp_index
    dropped.discard()
    assert not os.path.exists(copy)
    dropped.discard()  # twice: nothing left to do


def test_a_begun_snapshot_says_which_paths_the_index_tracks(repo: Repo) -> None:
    repo.commit("base", **{"a.txt": "a\n", "dir__b.txt": "b\n", "odd\tname": "o\n"})
    repo.write("untracked.txt", "u\n")
    begun = snapshot.start(str(repo.path))
    assert begun is not None
    try:
        asked = ["a.txt", "dir/b.txt", "dir", "untracked.txt", "name", "odd\tname", "b.txt"]
        # as `git ls-files` of each path lists it: a directory, or the tail of a name after
        # a tab, is not a tracked file
        assert begun.tracked(asked) == {"a.txt", "dir/b.txt", "odd\tname"}
    finally:
        begun.discard()
