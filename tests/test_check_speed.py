"""check-receipt's few processes: one ``cat-file --batch`` answers what
``rev-parse``, ``rev-list``, ``cat-file`` and ``ls-tree`` answered one process each. These
tests hold the batch's answers to the answers of the commands it replaced, and check that a
check run twice in one process sees a moved HEAD and a changed config (nothing remembered by
name)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PASSING_TEST
from conftest import Repo
from conftest import git as git_cli

from hooks.check_receipt import main as check_receipt
from hooks.core import git

PY = sys.executable
SHA256 = "sha256"


def make_repo(tmp_path: Path, form: str) -> Repo:
    path = tmp_path / f"repo-{form}"
    git_cli(tmp_path, "init", "-q", "--template=", f"--object-format={form}", str(path))
    repo = Repo(path)
    repo.write(".gitignore", "artifacts/\n__pycache__/\n")
    repo.write("t.py", PASSING_TEST)
    repo.write("src/deep/app.py", "x = 1\n")
    repo.write("src/a*", "a star\n")
    repo.write("src/ab", "not a star\n")
    repo.write("tests/empty_dir_holder/f.txt", "f\n")
    (repo.path / "link").symlink_to("t.py")
    repo.commit("first")
    # a submodule entry (a gitlink) whose commit is not in this repository
    missing = "1" * (64 if form == SHA256 else 40)
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{missing},vendor/lib")
    repo.git("commit", "-q", "-m", "gitlink")
    repo.git("tag", "-a", "-m", "annotated", "v1")
    return repo


def rev_parse(repo: Repo, rev: str) -> str | None:
    proc = subprocess.run(("git", "rev-parse", "--verify", "--quiet", "--end-of-options",
                           f"{rev}^{{commit}}"), cwd=repo.path, capture_output=True, text=True,
                          check=False)
    return proc.stdout.strip() if proc.returncode == 0 else None


@pytest.mark.parametrize("form", ["sha1", SHA256])
def test_the_batch_resolves_as_rev_parse_and_reads_as_cat_file(tmp_path: Path,
                                                               form: str) -> None:
    repo = make_repo(tmp_path, form)
    head = repo.git("rev-parse", "HEAD")
    tree = repo.git("rev-parse", "HEAD^{tree}")
    tag = repo.git("rev-parse", "v1")
    blob = repo.git("rev-parse", "HEAD:t.py")
    absent = "f" * len(head)
    revs = ["HEAD", head, "main", "v1", tag, "HEAD~1", tree, blob, absent, "nosuch", "HEAD..main"]
    repo.write(".receipt-hooks.toml", 'test-command = "pytest"\n')
    second = repo.commit("config")
    resolved = git.commits_and_files([*revs, second], [".receipt-hooks.toml", "src", "t.py"],
                                     cwd=str(repo.path))
    for rev in revs:
        assert resolved[rev] == rev_parse(repo, rev), rev
    assert resolved[tag] == resolved["v1"] == head  # an annotated tag's id names its commit
    assert resolved[tree] is None and resolved[blob] is None and resolved[absent] is None
    assert git.tree_of(head) == tree
    # the files read in the batch are what cat-file gives, absent or a directory: None
    read = git.blobs([f"{second}:.receipt-hooks.toml", f"{head}:.receipt-hooks.toml",
                      f"{head}:src", f"{head}:t.py"])
    assert read == {f"{second}:.receipt-hooks.toml": b'test-command = "pytest"\n',
                    f"{head}:.receipt-hooks.toml": None, f"{head}:src": None,
                    f"{head}:t.py": PASSING_TEST.encode()}


@pytest.mark.parametrize("form", ["sha1", SHA256])
def test_unborn_head_resolves_to_nothing_in_the_batch(tmp_path: Path, form: str) -> None:
    path = tmp_path / "unborn"
    git_cli(tmp_path, "init", "-q", "--template=", f"--object-format={form}", str(path))
    assert git.commits_and_files(["HEAD"], [".receipt-hooks.toml"], cwd=str(path)) == \
        {"HEAD": None}


@pytest.mark.parametrize("form", ["sha1", SHA256])
def test_a_path_tracked_in_the_batch_is_what_ls_tree_says(tmp_path: Path, form: str) -> None:
    repo = make_repo(tmp_path, form)
    head = repo.git("rev-parse", "HEAD")
    root = str(repo.path)
    paths = ["t.py", "src/deep/app.py", "src/a*", "src/a?", "src", "src/deep", "tests",
             "absent.txt", "src/absent", "t.py/below", "link", "vendor/lib", "vendor/lib/x",
             "./t.py", "src//ab", "src/", "src/../t.py", ":(top)t.py", "artifacts/log"]
    expected = {p: git.paths_in_commit(head, [p], cwd=root) for p in paths}  # ls-tree's answer
    assert expected["t.py"] == ["t.py"] and expected["absent.txt"] == []
    assert expected["vendor/lib"] == ["vendor/lib"]  # a gitlink is listed though absent here
    with git.batch_session(root):
        git.commits_and_files([head], [], cwd=root)
        for path in paths:
            assert git.paths_in_commit(head, [path], cwd=root) == expected[path], path


def run_check(repo: Repo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
              ) -> tuple[int, str]:
    monkeypatch.chdir(repo.path)
    code = check_receipt([])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_one_process_checking_twice_sees_a_new_head_and_a_new_config(
        repo: Repo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    repo.write("t.py", PASSING_TEST)
    first = repo.commit("tests")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    code, out = run_check(repo, monkeypatch, capsys)
    assert code == 0 and f"{first[:7]}: artifacts/test-receipt.json vouches" in out, out
    # HEAD moves on: the same process must not answer from what it read for the first HEAD
    second = repo.commit("untested", x="1\n")
    code, out = run_check(repo, monkeypatch, capsys)
    assert code == 3 and second[:7] in out, out
    # tested again, then a config committed that names another suite: its policy applies
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    assert run_check(repo, monkeypatch, capsys)[0] == 0
    repo.write(".receipt-hooks.toml", 'test-command = "python -m pytest -q"\n')
    repo.commit("config")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    code, out = run_check(repo, monkeypatch, capsys)
    assert code == 6 and "wrong trial" in out and "python -m pytest -q" in out, out


def test_a_receipt_whose_log_is_a_tracked_file_is_still_refused_in_the_batch(
        repo: Repo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The log's "is it tracked?" is now read from the batch (it was ls-tree): a receipt
    naming a tracked file as its log is malformed, one naming an untracked log is not."""
    repo.write("t.py", PASSING_TEST)
    repo.write("docs/notes.txt", "notes\n")
    repo.commit("tests")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    receipt = repo.path / "artifacts" / "test-receipt.json"
    text = receipt.read_text()
    receipt.write_text(text.replace('"artifacts/test-output.log"', '"docs/notes.txt"'))
    code, out = run_check(repo, monkeypatch, capsys)
    assert code == 5, out
    assert "output.log names docs/notes.txt, a file tracked in" in out, out
    receipt.write_text(text)
    assert run_check(repo, monkeypatch, capsys)[0] == 0


def test_help_is_laid_out_when_printed_and_a_bad_metavar_still_refused() -> None:
    """describe's text is filled (textwrap) and the width read (shutil) only for --help."""
    from hooks.core.cmdline import ArgumentParser
    from hooks.core.cmdline import describe

    parser = ArgumentParser(prog="p")
    describe(parser, "word " * 30, "p --x 1", notes=["note " * 20])
    parser.add_argument("--x", metavar="N", help="an option")
    with pytest.raises(ValueError, match="length of metavar tuple does not match nargs"):
        parser.add_argument("--y", nargs=2, metavar=("A",))
    text = parser.format_help()
    assert "\n\n" + ("word " * 15).strip() + "\n" in text  # 78 columns: fifteen words a line
    assert "example:\n  p --x 1\n" in text and ("note " * 15).strip() + "\n" in text
    assert "--x N" in text and text == parser.format_help()


def test_policy_notes_follow_each_commit_and_the_remote_as_it_moves_in_one_process(
        repo: Repo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Where each commit's change starts (git rev-list --boundary) is now asked early, while
    the check works: the answer is still per commit, and a second check sees the remote move."""
    repo.write(".receipt-hooks.toml", "test-command = 'true'\n")
    base = repo.commit("base")
    repo.add_remote()
    repo.write("w.txt", "w\n")
    repo.commit("w")  # on the remote too: y's change starts there, x2's at base
    repo.git("push", "-q", "origin", "main")
    repo.git("checkout", "-q", "-b", "x", base)
    x = repo.commit("x", **{".receipt-hooks.toml": "test-command = 'false'\n"})
    x2 = repo.commit("x2", **{"more.txt": "1\n"})
    repo.git("checkout", "-q", "-b", "y", "main")
    y = repo.commit("y", **{"other.txt": "1\n"})
    changed = f"check-receipt: {x2[:7]}: the pushed commits change the policy (since {base[:7]})"
    for revs in (["--rev", x2, "--rev", y], ["--rev", y, "--rev", x2]):
        monkeypatch.chdir(repo.path)
        code = check_receipt(revs)
        out = capsys.readouterr()
        assert code == 2 and changed in out.err, out  # no receipts: missing, and the note
        assert f"{y[:7]}: the pushed commits change" not in out.err, out
    # a check that stops early (a commit whose config is broken) leaves no answer behind
    repo.git("checkout", "-q", "-b", "bad", "main")
    bad = repo.commit("bad", **{".receipt-hooks.toml": "test-command = [\n"})
    code = check_receipt(["--rev", x2, "--rev", bad])
    out = capsys.readouterr()
    assert code != 0 and f"{bad[:7]}: " in out.out + out.err, out
    repo.git("push", "-q", "origin", f"{x}:refs/heads/x")  # x2's change now starts at x
    code = check_receipt(["--rev", x2])
    out = capsys.readouterr()
    assert code == 2 and "pushed commits change the policy" not in out.err, out
