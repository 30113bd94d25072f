#!/usr/bin/env python3
"""Step (a) of the labelling, before the hook's findings were looked at: every ADDED line of
every case (zero-context difflib diff, as evaluate.py builds it) matched against broad
per-ecosystem regexes of skips, focus, disabling, vacuous checks and CI escape hatches; and,
for lost checks, every test file whose change removes assertion lines and adds none.
Writes candidates.json (read by hand; decisions in build_labels.py).

    python3 bench/skips_heldout/review/candidates.py
"""

from __future__ import annotations

import difflib
import json
import lzma
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.dirname(HERE)

CI = (r"continue-on-error|allow_failure|\|\|\s*(true|:|exit 0)|set \+e|-DskipTests"
      r"|maven\.test\.skip|-x +(test|check)\b|exclude-task|--skip\b|--exclude\b|--deselect"
      r"|--ignore\b|-k +['\"]?not|fail-fast|if: *false|\bskip\b|\bexclude\b")
CAND = {
    "python": r"skip|xfail|expectedFailure|assert +True\b|assert +1\b|^\s*pass\s*$"
              r"|#\s*(def|class|async def) +test|_test_\w*\(|except[^:]*:\s*pass|" + CI,
    "javascript": r"\.(skip|only|todo|failing)\b|\bx(it|describe|test)\b|\bf(it|describe)\b"
                  r"|//\s*(it|test|describe)\(|/\*\s*(it|test|describe)\(|t\.pass\(\)"
                  r"|assert\.ok\(true|expect\(true\)|\bskip\b|" + CI,
    "go": r"Skip|testing\.Short|//\s*func +Test|func +_?[a-z]\w*Test|assert\.True\(t, *true"
          r"|\bskip|" + CI,
    "rust": r"#\[ignore|should_panic|//\s*#\[test|//\s*fn +test|assert!\(true|skip|"
            r"cfg_attr|return;|" + CI,
    "ruby": r"\bskip\b|\bpending\b|\bx(it|describe|context|specify)\b|:focus|\bf(it|describe|"
            r"context)\b|focus:|#\s*(it|describe|context|def test)\b|expect\(true\)"
            r"|assert +true|" + CI,
    "java": r"@Ignore|@Disabled|assume|//\s*@Test|/\*\s*@Test|@Test\s*\(\s*enabled|"
            r"assertTrue\(true|\bskip|Skip|exclude|" + CI,
}
ASSERT = {
    "python": r"^\s*assert\b|\.assert\w*\(|pytest\.raises|self\.fail",
    "javascript": r"\bassert\b|\bexpect\(|\bt\.(is|ok|not|deepEqual|equal|throws|snapshot"
                  r"|truthy|falsy|like|true|false|pass|fail)\b|\.toBe|\.toEqual|\.toThrow",
    "go": r"\bt\.(Error|Fatal|Fail)|\bassert\.|\brequire\.|Expect\(",
    "rust": r"\bassert(_eq|_ne)?!|\bpanic!|unwrap_err\(\)|\.expect_err\(",
    "ruby": r"\bassert\w*\b|\bexpect\(|\.to\b|\.not_to\b|\bmust_\w+|\bshould\b|\brefute\w*\b",
    "java": r"\bassert\w*\(|\bfail\(|\bcheck\w*\(|\.is\w+\(|\bverify\(",
}
TEST_PATH = re.compile(r"(^|/)(tests?|spec|__tests__|src/test)/|test_[^/]*\.py$|_test\.(go|rb)$"
                       r"|_spec\.rb$|\.(test|spec)\.[cm]?[jt]sx?$|Test\.(java|kt)$")


def lines_of(text: str | None) -> list[str]:
    if text is None:
        return []
    lines = text.split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def main() -> None:
    out, k = [], 0
    with lzma.open(os.path.join(CORPUS, "cases.jsonl.xz"), "rt", encoding="utf-8") as f:
        cases = [json.loads(line) for line in f]
    for case in cases:
        eco = case["ecosystem"]
        cand, asrt = re.compile(CAND[eco]), re.compile(ASSERT[eco])
        removed_all = set()
        per_file = []
        for fl in case["files"]:
            a, b = lines_of(fl["before"]), lines_of(fl["after"])
            sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
            added, removed = [], []
            for tag, i1, i2, j1, j2 in sm.get_opcodes():
                if tag in ("replace", "delete"):
                    removed += [(n + 1, a[n]) for n in range(i1, i2)]
                if tag in ("replace", "insert"):
                    added += [(n + 1, b[n]) for n in range(j1, j2)]
            removed_all |= {t.strip() for _n, t in removed}
            per_file.append((fl, added, removed))
        for fl, added, removed in per_file:
            for n, text in added:
                if cand.search(text):
                    out.append({"k": k, "kind_of": "added", "repo": case["repo"],
                                "commit": case["commit"], "eco": eco, "path": fl["path"],
                                "line": n, "text": text,
                                "moved": text.strip() in removed_all})
                    k += 1
            if TEST_PATH.search(fl["path"]):
                gone = [(n, t) for n, t in removed if asrt.search(t)]
                new = [(n, t) for n, t in added if asrt.search(t)]
                if gone and not new:
                    out.append({"k": k, "kind_of": "lost", "repo": case["repo"],
                                "commit": case["commit"], "eco": eco, "path": fl["path"],
                                "line": gone[0][0], "text": gone[0][1],
                                "removed_checks": len(gone), "deleted": fl["after"] is None})
                    k += 1
    with open(os.path.join(HERE, "candidates.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, indent=0)
    print(f"{len(out)} candidates "
          f"({sum(x['kind_of'] == 'lost' for x in out)} files with checks removed, none added)")


if __name__ == "__main__":
    main()
