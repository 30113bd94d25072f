"""``receipt publish`` and ``receipt fetch``: move refs/notes/receipts to and from a remote."""

from __future__ import annotations

import argparse

from hooks.core.output import warn


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("remote", nargs="?", default="origin",
                        help="the remote (default: origin)")


def add_publish_arguments(parser: argparse.ArgumentParser) -> None:
    from hooks.receipt.store.notes import PUBLISH_DEADLINE_S

    add_arguments(parser)
    parser.add_argument("--deadline", type=float, default=PUBLISH_DEADLINE_S, metavar="SECONDS",
                        help="while other publishers race, retry until this many seconds have "
                             f"passed (default: {PUBLISH_DEADLINE_S:.0f})")


def publish(args: argparse.Namespace) -> int:
    from hooks.receipt.store import notes

    published = notes.publish(args.remote, deadline_s=args.deadline)
    warn(f"receipt publish: {notes.NOTES_REF} pushed to {args.remote}: "
         f"{published.said(args.remote)}")
    return 0


def fetch(args: argparse.Namespace) -> int:
    from hooks.receipt.store import notes

    if notes.fetch(args.remote):
        warn(f"receipt fetch: {notes.NOTES_REF} from {args.remote} merged into ours")
    else:
        warn(f"receipt fetch: {args.remote} has no {notes.NOTES_REF} yet: nothing to fetch")
    return 0
