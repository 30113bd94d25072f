"""``receipt skips``: the ``no-inserted-skips`` hook on demand, under another name."""

from __future__ import annotations

from collections.abc import Sequence


def main(argv: Sequence[str]) -> int:
    from hooks.no_inserted_skips import run

    return run(argv, "receipt skips")
