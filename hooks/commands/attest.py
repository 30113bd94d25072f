"""``receipt attest``: a commit's receipt as an in-toto Statement v1 with the test-result
predicate (https://in-toto.io/attestation/test-result/v0.1), for SLSA and witness tooling.

The subject is the commit (``gitCommit``) and its tree (``gitTree``); the predicate's
``result`` is PASSED when the receipt vouches for the commit, FAILED when the run on that tree
failed. A receipt names no individual tests, so ``passedTests``/``failedTests`` are absent
and the counts go in the configuration's ``annotations``, with the command and the log digest.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from hooks.core.output import write

STATEMENT = "https://in-toto.io/Statement/v1"
TEST_RESULT = "https://in-toto.io/attestation/test-result/v0.1"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rev", default="HEAD", metavar="REV",
                        help="the commit to attest (default: HEAD)")
    parser.add_argument("--receipt", metavar="PATH",
                        help="the receipt file (default: artifacts/test-receipt.json)")


def statement(commit: str, tree: str, data: dict[str, Any], passed: bool) -> dict[str, Any]:
    tests = data.get("tests")
    annotations: dict[str, Any] = {
        "command": data.get("command"), "exitCode": data.get("exit_code"),
        "host": data.get("hostname"), "kernel": data.get("kernel"),
        "startedOn": data.get("started_utc"), "finishedOn": data.get("finished_utc"),
        "receiptSchema": data.get("schema"),
    }
    if isinstance(tests, dict):
        annotations["tests"] = {k: tests.get(k) for k in
                                ("runner", "passed", "failed", "skipped", "errors", "total")}
    recorded = data.get("output")
    output: dict[str, Any] = recorded if isinstance(recorded, dict) else {}
    configuration = [{"name": str(data.get("command")), "annotations": annotations}]
    if output.get("sha256"):
        configuration.append({"name": str(output.get("log")),
                              "digest": {"sha256": str(output.get("sha256"))}})
    return {
        "_type": STATEMENT,
        "subject": [{"name": "commit", "digest": {"gitCommit": commit}},
                    {"name": "tree", "digest": {"gitTree": tree}}],
        "predicateType": TEST_RESULT,
        "predicate": {"result": "PASSED" if passed else "FAILED",
                      "configuration": configuration},
    }


def composed_statement(commit: str, tree: str, shards: list[dict[str, Any]]) -> dict[str, Any]:
    """One PASSED test-result for a tree the shards of one split vouched for together: the
    receipts are its inputs (each a configuration entry, by the SHA-256 of the receipt as the
    notes hold it), the counts summed over them."""
    from hooks.receipt.store.notes import digest

    first = shards[0]
    counts = [d.get("tests") for d in shards if isinstance(d.get("tests"), dict)]
    totals = {k: sum(int(t.get(k) or 0) for t in counts if isinstance(t, dict))
              for k in ("passed", "failed", "skipped", "errors", "total")}
    configuration = [{
        "name": f"shard {d['shard'].get('index')}/{d['shard'].get('count')}: {d.get('command')}",
        "digest": {"sha256": digest(d)},
        "annotations": {"exitCode": d.get("exit_code"), "host": d.get("hostname"),
                        "finishedOn": d.get("finished_utc"),
                        "outputSha256": (d.get("output") or {}).get("sha256")}}
        for d in shards]
    return {
        "_type": STATEMENT,
        "subject": [{"name": "commit", "digest": {"gitCommit": commit}},
                    {"name": "tree", "digest": {"gitTree": tree}}],
        "predicateType": TEST_RESULT,
        "predicate": {"result": "PASSED", "configuration": configuration,
                      "annotations": {"shards": first["shard"].get("count"),
                                      "receiptSchema": first.get("schema"),
                                      "tests": totals}},
    }


def run(args: argparse.Namespace) -> int:
    from hooks.core import git
    from hooks.core.errors import UserError
    from hooks.core.exits import MISSING
    from hooks.receipt.judge.check import judge_commits
    from hooks.receipt.judge.verdict import Requirements

    result = judge_commits([args.rev], args.receipt, Requirements())
    if not result.commits:
        raise UserError(result.findings[0].message if result.findings else "no commit")
    commit = result.commits[0]
    tree = git.tree_of(commit)
    vouching = result.vouching.get(commit)
    shards = [d for d, _shown in vouching or [] if isinstance(d.get("shard"), dict)]
    if shards:
        write(json.dumps(composed_statement(commit, tree, shards), indent=2) + "\n")
        return 0
    if vouching:
        data, passed = vouching[0][0], True
    else:
        found = _tested_here(commit, tree, result.receipt.data if result.receipt else None)
        if found is None:
            raise UserError(f"receipt attest: nothing to attest: no receipt was taken on the "
                            f"tree of {git.short(commit)} ('receipt check --rev {args.rev}' "
                            f"says why)", MISSING)
        data, passed = found, False
    write(json.dumps(statement(commit, tree, data, passed), indent=2) + "\n")
    return 0


def _tested_here(commit: str, tree: str, file_data: dict[str, Any] | None
                 ) -> dict[str, Any] | None:
    """The newest receipt taken on TREE that does not vouch (a failed run): FAILED."""
    from hooks.receipt.store.notes import receipts_for

    found = list(receipts_for([tree]).get(tree, []))
    if file_data is not None and file_data.get("git_tree") == tree:
        found.append(file_data)
    found.sort(key=lambda d: str(d.get("finished_utc")), reverse=True)
    return found[0] if found else None
