"""Hook ``require-ledger-hypothesis``: write down what you believe is wrong before changing code.

A change that touches a path matching ``--paths`` (default ``^src/``) must add at least one valid
hypothesis line to the ledger in the same change. Whatever paths changed, every added ledger
line must validate and no earlier line may be edited, reordered or deleted. With nothing staged
and no refs (``--all-files``, pre-commit.ci), the whole ledger is validated instead.

The ledger core (and jsonschema) is imported only when the ledger or a path that needs a
hypothesis changed: a typical commit costs one git call.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Sequence

from hooks.core import change
from hooks.core import exits
from hooks.core.cmdline import ArgumentParser
from hooks.core.cmdline import describe
from hooks.core.cmdline import regex_argument
from hooks.core.errors import guarded
from hooks.core.output import print_findings

DEFAULT_PATHS = r"^src/"


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="require-ledger-hypothesis")
    describe(parser, "Refuse a change to src/ unless the same change adds a hypothesis to the "
                     "assumption ledger, and any edit of the ledger's earlier lines.",
             "require-ledger-hypothesis            # the staged change",
             "require-ledger-hypothesis --paths '^(src|lib)/' --from-ref origin/main "
             "--to-ref HEAD",
             notes=["Write a hypothesis with: receipt ledger add \"<what you believe is "
                    "wrong>\" --test \"<command>\", then git add assumption-ledger.jsonl.",
                    exits.help_line("findings")], annotates=True)
    parser.add_argument("--paths", action="append", metavar="REGEX", type=regex_argument,
                        help=f"paths that need a hypothesis (repeatable; default: the config's "
                             f"hypothesis-paths, else {DEFAULT_PATHS})")
    parser.add_argument("--ledger", metavar="PATH",
                        help="the ledger, relative to the repository root (default: the "
                             "config's ledger, else assumption-ledger.jsonl)")
    parser.add_argument("--from-ref", metavar="REV", help="check the range FROM...TO")
    parser.add_argument("--to-ref", metavar="REV")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="text for people (default) or json for machines")
    parser.add_argument("filenames", nargs="*", help=argparse.SUPPRESS)
    return parser


def _work_tree_ledger(root: str, ledger: str) -> bytes | None:
    from hooks.core.fileio import UnreadableFile
    from hooks.core.fileio import read_bounded
    from hooks.ledger.store import MAX_LEDGER_BYTES

    try:
        return read_bounded(os.path.join(root, ledger), MAX_LEDGER_BYTES)
    except (OSError, UnreadableFile):
        return None


@guarded("require-ledger-hypothesis")
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from hooks.core import config
    from hooks.core import git

    found = change.detect(args.from_ref, args.to_ref)
    policy = config.for_repo(git.repo_paths())
    ledger = os.path.normpath(args.ledger or policy.ledger).replace(os.sep, "/")
    patterns = [re.compile(p) for p in
                args.paths or policy.get("hypothesis-paths") or [DEFAULT_PATHS]]
    if found.is_empty:
        from hooks.ledger.gate import check_whole_ledger

        findings = check_whole_ledger(ledger) if os.path.lexists(ledger) else []
    elif (ledger in found.paths or any(r.search(p) for p in found.paths for r in patterns)
          or found.differs_from_published(ledger)):
        from hooks.ledger.gate import check_change

        on_disk = None if found.is_range else _work_tree_ledger(git.repo_paths().root, ledger)
        findings = check_change(found, ledger, patterns, on_disk=on_disk,
                                comments_need_hypothesis=bool(
                                    policy.get("hypothesis-for-comments", False)))
    else:
        return 0  # the common commit: one git call, no ledger read, no jsonschema
    code = 1 if findings else 0
    print_findings(findings, fmt=args.format, exit_code=code)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
