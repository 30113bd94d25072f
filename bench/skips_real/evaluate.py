#!/usr/bin/env python3
"""The skip guard on real history: precision and recall against hand-labelled commits.

    .venv/bin/python bench/skips_real/evaluate.py [--repo OWNER/NAME] [--list] [--dump F]
        [--min-precision PCT] [--min-recall PCT] [--corpus DIR]

Each stored commit (``cases.jsonl.xz``: the changed files before and after) is diffed here with
zero context (difflib, read by the hook's own diff parser) and scanned in process by the one
scan the hook runs (``hooks.skips.scan.scan_diffs``), with the hook's default rules. A finding
matches a label by (repo, commit, path, line, rule); one of checks lost (SKP009, SKP010) by its
file, as is its insertion. Precision = findings labelled tp / labelled
findings; recall = labelled insertions on whose line anything was reported / all of them.
Headline recall counts the unconditional insertions (kind ``plain``); skips gated on a runtime
condition and constructs inside string literals are reported apart (README: why).

Every corpus is measured: this directory's, and each directory named in CORPORA that holds a
``cases.jsonl.xz`` and ``labels.json`` of its own (a corpus of history the rules were not
written against). Exits 1 when a corpus's precision or headline recall is below the
thresholds (MIN_PRECISION, MIN_RECALL, or the options), 2 when a corpus cannot be read.
"""

from __future__ import annotations

import argparse
import collections
import difflib
import json
import lzma
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from hooks.core.diff import FileDiff  # noqa: E402
from hooks.core.diff import parse_diff  # noqa: E402
from hooks.skips.scan import scan_diffs  # noqa: E402

HEADLINE = "plain"
MIN_PRECISION = 95.0  # percent, each corpus
MIN_RECALL = 95.0
# the corpora, as directories beside this one (this one first)
CORPORA = ("skips_real", "skips_heldout")
# judged per file: matched by path, whatever line it points at; the two ids of lost
# assertions (a test that remains, a test deleted) are one label: "assertions lost"
FILE_LEVEL = ("SKP009", "SKP010")


def key_of(repo: str, commit: str, path: str, line: int,
           rule: str) -> tuple[str, str, str, int, str]:
    if rule in FILE_LEVEL:
        return (repo, commit, path, 0, FILE_LEVEL[0])
    return (repo, commit, path, line, rule)


def lines_of(text: str | None) -> list[str]:
    if text is None:
        return []
    lines = text.split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def unified(files: list[dict]) -> bytes:
    """The case as ``git diff -U0`` would print it (renames as old path -> new path)."""
    out: list[str] = []
    for f in files:
        old = f.get("old_path") or f["path"]
        out.append(f"diff --git a/{old} b/{f['path']}")
        out += difflib.unified_diff(
            lines_of(f["before"]), lines_of(f["after"]), n=0, lineterm="",
            fromfile="/dev/null" if f["before"] is None else f"a/{old}",
            tofile="/dev/null" if f["after"] is None else f"b/{f['path']}")
    return "\n".join(out).encode("utf-8", "surrogateescape") + b"\n"


def scan_case(case: dict, enabled: frozenset[str]) -> list[tuple[str, int, str]]:
    after = {f["path"]: f["after"] for f in case["files"]}
    diffs = parse_diff(unified(case["files"]))
    for d in diffs:  # git names a rename's diff after the new path; difflib may not
        if d.path not in after:
            d.path = next((f["path"] for f in case["files"] if f.get("old_path") == d.path),
                          d.path)
    renamed = {f["path"]: f["old_path"] for f in case["files"] if f.get("old_path")}
    diffs += [FileDiff(new) for new in renamed if new not in {d.path for d in diffs}]
    for d in diffs:  # as git's "rename from" line says (a pure rename has no hunk here)
        d.old_path = renamed.get(d.path)

    def contents(paths: object) -> dict[str, str | None]:
        return {p: after.get(p) for p in paths}  # type: ignore[attr-defined]

    return [(hit.path, hit.line, hit.rule.id)
            for hit, _ in scan_diffs(diffs, contents, None, enabled)]


def load_cases(repo: str | None, where: str = HERE) -> list[dict]:
    with lzma.open(os.path.join(where, "cases.jsonl.xz"), "rt", encoding="utf-8") as f:
        cases = [json.loads(line) for line in f if line.strip()]
    return [c for c in cases if repo is None or c["repo"] == repo]


def pct(num: int, den: int) -> str:
    return f"{100.0 * num / den:5.1f}% ({num}/{den})" if den else "  n/a (0/0)"


def corpora(chosen: list[str]) -> list[str]:
    """The corpus directories to measure: those named, else every one of CORPORA present."""
    if chosen:
        return [os.path.abspath(c) for c in chosen]
    parent = os.path.dirname(HERE)
    found = [os.path.join(parent, name) for name in CORPORA]
    return [d for d in found if os.path.isfile(os.path.join(d, "cases.jsonl.xz"))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", help="only this repository's cases")
    ap.add_argument("--enable", action="append", default=[], metavar="RULE_ID",
                    help="also run this opt-in rule (as the hook's --enable)")
    ap.add_argument("--list", action="store_true",
                    help="list the false positives and the misses, not only the figures")
    ap.add_argument("--dump", help="write every finding to this JSON file")
    ap.add_argument("--min-precision", type=float, default=MIN_PRECISION, metavar="PCT",
                    help=f"exit 1 below this precision on any corpus (default {MIN_PRECISION})")
    ap.add_argument("--min-recall", type=float, default=MIN_RECALL, metavar="PCT",
                    help=f"exit 1 below this headline recall on any corpus "
                         f"(default {MIN_RECALL})")
    ap.add_argument("--corpus", action="append", default=[], metavar="DIR",
                    help="measure this corpus directory only (repeatable)")
    args = ap.parse_args()
    below = []
    for where in corpora(args.corpus):
        name = os.path.basename(where)
        print(f"=== corpus {name}")
        try:
            precision, recall = evaluate(where, args)
        except (OSError, ValueError, KeyError) as e:
            print(f"evaluate.py: corpus {name} cannot be read: {e!r}")
            return 2
        if precision < args.min_precision or recall < args.min_recall:
            below.append(f"{name}: precision {precision:.1f}%, recall {recall:.1f}% "
                         f"(wanted >= {args.min_precision:.1f}% and >= "
                         f"{args.min_recall:.1f}%)")
        print()
    for line in below:
        print(f"BELOW THRESHOLD {line}")
    return 1 if below else 0


def evaluate(where: str, args: argparse.Namespace) -> tuple[float, float]:
    """Print the figures of the corpus in WHERE; its precision and headline recall (%)."""
    start = time.time()
    cases = load_cases(args.repo, where)
    enabled = frozenset(args.enable)
    findings = []  # (repo, commit, path, line, rule, ecosystem, text)
    for case in cases:
        after = {f["path"]: (f["after"] or "").split("\n") for f in case["files"]}
        for path, line, rule in scan_case(case, enabled):
            lines = after.get(path, [])
            text = lines[line - 1] if 0 < line <= len(lines) else ""
            findings.append((case["repo"], case["commit"], path, line, rule, case["ecosystem"],
                             text))
    elapsed = time.time() - start
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as f:
            json.dump([dict(zip(("repo", "commit", "path", "line", "rule", "ecosystem", "text"),
                                x)) for x in findings], f, indent=0)
    with open(os.path.join(where, "labels.json"), encoding="utf-8") as f:
        labels = json.load(f)
    eco_of = {(c["repo"], c["commit"]): c["ecosystem"] for c in cases}
    flabel = {key_of(x["repo"], x["commit"], x["path"], int(x["line"]), x["rule"]): x
              for x in labels["findings"] if (x["repo"], x["commit"]) in eco_of}
    insertions = [x for x in labels["insertions"] if (x["repo"], x["commit"]) in eco_of]

    tp: collections.Counter[str] = collections.Counter()
    labelled: collections.Counter[str] = collections.Counter()
    unlabelled, false_positives = [], []
    inserted = {(x["repo"], x["commit"], x["path"], int(x["line"])) for x in insertions}
    # checks lost are judged per file: a finding of them in a file with such an insertion
    lost_in = {(x["repo"], x["commit"], x["path"]) for x in insertions if x["rule"] in FILE_LEVEL}
    for repo, commit, path, line, rule, eco, text in findings:
        lab = flabel.get(key_of(repo, commit, path, line, rule))
        if lab is None and ((repo, commit, path, line) in inserted
                            or (rule in FILE_LEVEL and (repo, commit, path) in lost_in)):
            lab = {"label": "tp"}  # on a labelled insertion's line (checks lost: its file)
        if lab is None:
            unlabelled.append((repo, commit, path, line, rule, text))
            continue
        for key in ("all", "rule:" + rule, "eco:" + eco):
            labelled[key] += 1
            tp[key] += lab["label"] == "tp"
        if lab["label"] != "tp":
            false_positives.append((repo, commit, path, line, rule, text, lab["why"]))
    reported = {(r, c, p, ln) for r, c, p, ln, _ru, _e, _t in findings}
    reported |= {(r, c, p, 0) for r, c, p, _ln, ru, _e, _t in findings if ru in FILE_LEVEL}
    caught: collections.Counter[str] = collections.Counter()
    total: collections.Counter[str] = collections.Counter()
    missed = []
    for x in insertions:
        hit = key_of(x["repo"], x["commit"], x["path"], int(x["line"]), x["rule"])[:4] in reported
        kind = x.get("kind", HEADLINE)
        keys = ["kind:" + kind]
        if kind == HEADLINE:
            keys += ["all", "rule:" + x["rule"], "eco:" + eco_of[(x["repo"], x["commit"])]]
        for key in keys:
            total[key] += 1
            caught[key] += hit
        if not hit and kind == HEADLINE:
            missed.append(x)

    print(f"scanned {len(cases)} commits of {len({c['repo'] for c in cases})} repositories "
          f"({sum(len(c['files']) for c in cases)} file changes) in process in {elapsed:.1f}s")
    print(f"findings: {len(findings)}, labelled {labelled['all']}, unlabelled {len(unlabelled)}")
    print(f"PRECISION overall: {pct(tp['all'], labelled['all'])}")
    print(f"RECALL    overall: {pct(caught['all'], total['all'])}  (unconditional insertions)")
    cond, strs = "kind:conditional", "kind:in_string"
    print(f"  apart: skips under a runtime condition {pct(caught[cond], total[cond])}, "
          f"constructs inside strings {pct(caught[strs], total[strs])}")
    print(f"\n{'per rule':<12}{'precision':>24}{'recall':>24}")
    for r in sorted({k[5:] for k in list(labelled) + list(total) if k.startswith("rule:")}):
        k = "rule:" + r
        print(f"  {r:<10}{pct(tp[k], labelled[k]):>24}{pct(caught[k], total[k]):>24}")
    print(f"\n{'per ecosystem':<12}{'precision':>24}{'recall':>24}")
    for e in sorted({k[4:] for k in list(labelled) + list(total) if k.startswith("eco:")}):
        k = "eco:" + e
        print(f"  {e:<10}{pct(tp[k], labelled[k]):>24}{pct(caught[k], total[k]):>24}")
    if unlabelled:
        print(f"\nunlabelled findings ({len(unlabelled)}): label them in label.py")
        for repo, commit, path, line, rule, text in unlabelled:
            print(f"  {repo} {commit[:10]} {path}:{line} {rule} | {text.strip()[:100]}")
    if args.list:
        print(f"\nfalse positives ({len(false_positives)}):")
        for repo, commit, path, line, rule, text, why in false_positives:
            print(f"  {repo} {commit[:10]} {path}:{line} {rule} | {text.strip()[:80]} -- {why}")
        print(f"\nmissed insertions ({len(missed)}):")
        for x in missed:
            print(f"  {x['repo']} {x['commit'][:10]} {x['path']}:{x['line']} {x['rule']} "
                  f"-- {x.get('why', '')[:90]}")

    def percent(num: int, den: int) -> float:
        return 100.0 * num / den if den else 0.0
    return percent(tp["all"], labelled["all"]), percent(caught["all"], total["all"])


if __name__ == "__main__":
    sys.exit(main())
