"""Receipts, version 1: where they live, the check's exit codes, the command that makes one."""

from __future__ import annotations

import os

from hooks.core import git
from hooks.core.cmdline import rerun_command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SCHEMA_V1 = "receipt-hooks/receipt/v1"  # what 0.1 wrote: still read and checked
SCHEMA_ID = "receipt-hooks/receipt/v2"  # what receipt run writes (schemas/receipt-v2.schema.json)
SCHEMAS = (SCHEMA_V1, SCHEMA_ID)
DEFAULT_RECEIPT = "artifacts/test-receipt.json"
DEFAULT_LOG = "artifacts/test-output.log"
MAX_RECEIPT_BYTES = 1 << 20

# The check's exit codes (README, "Exit codes"); when several apply, the first in CHECK_ORDER
# wins.
MISSING, STALE, FAILED, INVALID, OFF_POLICY = 2, 3, 4, 5, 6
CHECK_ORDER = (MISSING, INVALID, STALE, FAILED, OFF_POLICY)


def schema_file(data: dict[str, Any]) -> str:
    """The schema a receipt is checked against, by the version it declares (v1 by default)."""
    from hooks.core import schemas

    return schemas.RECEIPT if data.get("schema") == SCHEMA_V1 else schemas.RECEIPT_V2


def resolve_paths(root: str, receipt: str | None, log: str | None) -> tuple[str, str]:
    """Absolute receipt and log paths: defaults sit at the repo root, given ones are as typed."""
    receipt_path = os.path.abspath(receipt) if receipt else os.path.join(root, DEFAULT_RECEIPT)
    log_path = os.path.abspath(log) if log else os.path.join(root, DEFAULT_LOG)
    return receipt_path, log_path


class Written:
    """Every file ``receipt run`` writes in the work tree, each left out of the tree a receipt
    records and, the same way, of the commit's tree it is compared with, so committing them
    changes nothing: the receipt and its log (``paths``), and the per-command copies beside the
    receipt (``globs``, config glob syntax: their names vary with the command)."""

    __slots__ = ("globs", "paths")

    def __init__(self, receipt_rel: str, log_rel: str | None) -> None:
        from hooks.receipt.store.keyed import keyed_glob

        self.paths = [p for p in (receipt_rel, log_rel) if p and not os.path.isabs(p)]
        self.globs = [keyed_glob(receipt_rel)] if receipt_rel in self.paths else []

    def and_ignored(self, ignore: list[str]) -> list[str]:
        """IGNORE (the config's globs) with these files' globs: the globs to leave out."""
        return [*ignore, *self.globs]


def repo_relative(root: str, path: str) -> str:
    rel = os.path.relpath(path, root)
    return path if rel.startswith("..") else rel.replace(os.sep, "/")


def memo_dir(paths: git.RepoPaths) -> str:
    return os.path.join(paths.common_dir, "receipt-hooks", "valid")


def rerun_hint(receipt: dict[str, Any] | None) -> str:
    """The command that makes a fresh receipt, reusing what the last one ran when known."""
    argv = receipt.get("argv") if receipt else None
    if receipt and "argv_original" in receipt:  # the stored argv is not the exact one
        argv = None
    return rerun_command([str(a) for a in argv] if isinstance(argv, list) else None)
