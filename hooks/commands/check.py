"""``receipt check``: the check-receipt hook's judgement on demand, under the CLI."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from hooks import check_receipt

    check_receipt.add_arguments(parser)
    check_receipt.add_publish_argument(parser)


def run(args: argparse.Namespace) -> int:
    from hooks import check_receipt

    return check_receipt.check(args)
