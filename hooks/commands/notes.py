"""``receipt publish`` and ``receipt fetch``: move refs/notes/receipts to and from a remote."""

from __future__ import annotations

import argparse

from hooks.core.output import warn


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("remote", nargs="?", default="origin",
                        help="the remote (default: origin)")


def publish(args: argparse.Namespace) -> int:
    from hooks.receipt.store import notes

    notes.publish(args.remote)
    warn(f"receipt publish: {notes.NOTES_REF} pushed to {args.remote} (theirs merged in first)")
    return 0


def fetch(args: argparse.Namespace) -> int:
    from hooks.receipt.store import notes

    if notes.fetch(args.remote):
        warn(f"receipt fetch: {notes.NOTES_REF} from {args.remote} merged into ours")
    else:
        warn(f"receipt fetch: {args.remote} has no {notes.NOTES_REF} yet: nothing to fetch")
    return 0
