"""``receipt override --reason TEXT [--rev REV]``: let a push through check-receipt, logged."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--reason", required=True, metavar="TEXT",
                        help="why this tree may be pushed without a valid receipt (logged)")
    parser.add_argument("--rev", default="HEAD", metavar="REV",
                        help="the commit whose tree is let through (default HEAD)")


def run(args: argparse.Namespace) -> int:
    from hooks.core import config
    from hooks.core import git
    from hooks.receipt.judge.overrides import override_check

    return override_check(args.reason, args.rev, config.for_repo(git.repo_paths()))
