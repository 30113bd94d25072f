#!/usr/bin/env python3
"""Collect the held-out skip-guard corpus from local bare mirrors of public repositories.

    python3 bench/skips_heldout/collect.py MIRRORS_DIR

MIRRORS_DIR holds one bare git directory per repository as ``owner+name/repo``. Per repository
(REPOS below): the newest PRECISION non-merge commits of HEAD that touch a test or CI file, then
up to RECALL non-merge commits found by ``git log -G`` with the ecosystem's broad skip regex
(``known_skip``: true). Per commit, every changed file that is code of a language the hook
reads or a CI/build file, before and after; binary, non-UTF-8 and files over MAX_BYTES are
left out, and a commit with no file left is dropped. Writes ``cases.jsonl.xz`` and
``SOURCES.txt`` beside this script. Reads only the mirrors; no network.
"""

from __future__ import annotations

import json
import lzma
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PRECISION = 40
RECALL = 25
MAX_BYTES = 200_000

REPOS = {  # repo: ecosystem
    "encode/starlette": "python",
    "lukeed/uvu": "javascript",
    "immerjs/immer": "javascript",
    "spf13/viper": "go",
    "dtolnay/anyhow": "rust",
    "jnunemaker/httparty": "ruby",
    "square/moshi": "java",
}

# broad: meant to over-collect; the labelling reads every candidate by hand
CI_ESCAPES = r"continue-on-error|allow_failure|\|\| *true|set \+e"
SKIP_REGEX = {
    "python": r"pytest\.mark\.(skip|xfail)|pytest\.(skip|xfail|importorskip)\(|unittest\.skip"
              r"|skipTest|@skip|expectedFailure|--deselect|--ignore|assert True|" + CI_ESCAPES,
    "javascript": r"\b(it|test|describe|suite)\.(skip|only|todo|failing)\b|\bx(it|describe)\("
                  r"|\bf(it|describe)\(|\.skip\(|\.only\(|" + CI_ESCAPES,
    "go": r"\.Skip(f|Now)?\(|testing\.Short\(\)|" + CI_ESCAPES,
    "rust": r"#\[ignore|#!?\[cfg_attr\([^)]*ignore|should_panic|--skip|--exclude|" + CI_ESCAPES,
    "ruby": r"\bskip\b|\bpending\b|\bxit\b|\bxdescribe\b|\bxcontext\b|:focus|\bfit\b"
            r"|\bfdescribe\b|focus: *true|" + CI_ESCAPES,
    "java": r"@Ignore|@Disabled|assume(True|False|That)|-DskipTests|maven\.test\.skip"
            r"|-x test|-x check|exclude-task|" + CI_ESCAPES,
}

CODE_EXT = (".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx", ".go", ".rs",
            ".rb", ".java", ".kt", ".kts", ".groovy", ".sh")
CI_BUILD = re.compile(
    r"(^|/)(\.github/workflows/[^/]+\.ya?ml|\.travis\.yml|appveyor\.yml|\.gitlab-ci\.yml"
    r"|azure-pipelines\.yml|Jenkinsfile|Makefile|tox\.ini|pytest\.ini|setup\.cfg"
    r"|pyproject\.toml|package\.json|Cargo\.toml|pom\.xml|build\.gradle(\.kts)?"
    r"|settings\.gradle(\.kts)?|gradle\.properties|Rakefile|Gemfile|\.rspec|[^/]*\.gemspec"
    r"|(jest|vitest|ava|playwright)\.config\.[cm]?[jt]s|\.mocharc\.[a-z]+|\.?uvu[^/]*)$")
CI_FILE = re.compile(r"(^|/)(\.github/workflows/|\.travis\.yml|appveyor\.yml|\.gitlab-ci\.yml"
                     r"|azure-pipelines\.yml|Jenkinsfile|tox\.ini|ci/|\.ci/)")
TEST_FILE = re.compile(
    r"(^|/)(tests?|spec|__tests__|testing|testdata|src/test)/|(^|/)test_[^/]*\.py$"
    r"|_test\.(py|go|rb)$|_spec\.rb$|\.(test|spec)\.[cm]?[jt]sx?$|(^|/)conftest\.py$"
    r"|Tests?\.(java|kt)$")


def git(gitdir: str, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", gitdir, *args], check=True,
                          capture_output=True).stdout


def kept(path: str) -> bool:
    return path.endswith(CODE_EXT) or bool(CI_BUILD.search(path))


def touches_tests(path: str) -> bool:
    return bool(TEST_FILE.search(path) or CI_FILE.search(path))


def changed(gitdir: str, commit: str) -> list[tuple[str, str, str | None]]:
    """(status, path, old path) of each file the commit changes against its first parent."""
    out = git(gitdir, "diff-tree", "-r", "-M", "--no-commit-id", "--name-status", "-z",
              "--root", commit).split(b"\0")
    rows, i = [], 0
    while i < len(out) - 1:
        status = out[i].decode()
        if status[0] in "RC":
            rows.append((status[0], out[i + 2].decode(), out[i + 1].decode()))
            i += 3
        else:
            rows.append((status[0], out[i + 1].decode(), None))
            i += 2
    return rows


def blob(gitdir: str, rev: str, path: str) -> str | bool | None:
    """The file's text at REV, None when absent, False when binary, non-UTF-8 or too big."""
    try:
        data = git(gitdir, "show", f"{rev}:{path}")
    except subprocess.CalledProcessError:
        return None
    if len(data) > MAX_BYTES or b"\0" in data:
        return False
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return False


def case_of(gitdir: str, repo: str, eco: str, commit: str, known: bool) -> dict | None:
    parents = git(gitdir, "rev-list", "--parents", "-n1", commit).split()[1:]
    files = []
    for status, path, old in changed(gitdir, commit):
        if not kept(path) and not (old and kept(old)):
            continue
        before = None if status == "A" or not parents else \
            blob(gitdir, parents[0].decode(), old or path)
        after = None if status == "D" else blob(gitdir, commit, path)
        if before is False or after is False or (before is None and after is None):
            continue
        entry: dict = {"path": path}
        if old and old != path:
            entry["old_path"] = old
        entry.update(before=before, after=after)
        files.append(entry)
    if not files:
        return None
    return {"repo": repo, "commit": commit, "ecosystem": eco, "known_skip": known,
            "files": files}


def sample(gitdir: str, eco: str) -> list[tuple[str, bool]]:
    chosen: list[tuple[str, bool]] = []
    for line in git(gitdir, "log", "--no-merges", "--format=%H", "HEAD").decode().split():
        if len(chosen) == PRECISION:
            break
        if any(touches_tests(p) or (o and touches_tests(o)) for _s, p, o in
               changed(gitdir, line)):
            chosen.append((line, False))
    seen = {c for c, _ in chosen}
    found = git(gitdir, "log", "--no-merges", "--format=%H", "-G", SKIP_REGEX[eco],
                "HEAD").decode().split()
    recall = [c for c in found if c not in seen][:RECALL]
    return chosen + [(c, True) for c in recall]


def main() -> int:
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print("usage: collect.py MIRRORS_DIR (holding owner+name/repo bare git dirs)")
        return 64
    cases = []
    for repo, eco in REPOS.items():
        gitdir = os.path.join(sys.argv[1], repo.replace("/", "+"), "repo")
        head = git(gitdir, "rev-parse", "HEAD").decode().strip()
        got = [c for c in (case_of(gitdir, repo, eco, commit, known)
                           for commit, known in sample(gitdir, eco)) if c]
        print(f"{repo} {head}: {len(got)} commits "
              f"({sum(c['known_skip'] for c in got)} from the skip regex)")
        cases += got
    with lzma.open(os.path.join(HERE, "cases.jsonl.xz"), "wt", encoding="utf-8") as f:
        for c in cases:
            f.write(json.dumps(c) + "\n")
    with open(os.path.join(HERE, "SOURCES.txt"), "w", encoding="utf-8") as f:
        f.write("# repository commit: every commit whose changed files (before and after) "
                "are stored in cases.jsonl.xz\n")
        for c in cases:
            f.write(f"{c['repo']} {c['commit']}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
