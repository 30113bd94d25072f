"""Recording a run: snapshot the tree, run the command, count its tests, write the receipt."""

from __future__ import annotations

import hashlib
import json
import os
import platform
import socket
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import Any

import hooks
from hooks.core import git
from hooks.core import process
from hooks.core import schemas
from hooks.core.cmdline import command_argv
from hooks.core.cmdline import command_text
from hooks.core.fileio import UnreadableFile
from hooks.core.fileio import atomic_write
from hooks.core.fileio import read_bounded
from hooks.core.output import warn
from hooks.core.times import utc_now
from hooks.receipt import model
from hooks.receipt.runtime import runtime_of
from hooks.receipt.testcounts import TestCounter
from hooks.receipt.testcounts import counts_from_junit


def run(
    command: Sequence[str],
    *,
    shell: bool,
    receipt_arg: str | None,
    log_arg: str | None,
    junit: str | None,
    reuse: bool = False,
    sign: bool = False,
) -> int:
    paths = git.repo_paths()
    root = paths.root
    from hooks.core import config

    policy_file = config.for_repo(paths)
    ignore = policy_file.ignore
    receipt_path, log_path = model.resolve_paths(root, receipt_arg, log_arg)
    receipt_rel = model.repo_relative(root, receipt_path)
    log_rel = model.repo_relative(root, log_path)
    for shown in (receipt_rel, log_rel):
        if not os.path.isabs(shown) and not git.is_ignored(shown, cwd=root):
            warn(f"receipt: warning: {shown} is not ignored by git; add "
                 f"'{os.path.dirname(shown) or shown}/' to .gitignore so it is never committed")

    argv = command_argv(command, shell)
    text = command_text(argv)
    leave_out = [p for p in (receipt_rel, log_rel) if not os.path.isabs(p)]
    head = git.head_commit(root)
    tree = git.snapshot_tree(root, leave_out, ignore)
    head_tree = (git.tree_without(head, leave_out, root, ignore) if head and ignore
                 else git.tree_of(head, root) if head else git.EMPTY_TREE)
    if reuse:
        from hooks.receipt.reuse import reusable

        green = reusable(argv, tree, root, policy_file, model.memo_dir(paths))
        if green is not None:
            warn(f"receipt run: --reuse: tree {git.short(tree)} already has a green receipt "
                 f"from '{green.get('command')}' ({green.get('hostname')}, finished "
                 f"{green.get('finished_utc')}); not running it again")
            return 0
    runtime = runtime_of(argv)

    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    log_fd, log_temp = tempfile.mkstemp(prefix=".test-output.", dir=os.path.dirname(log_path))
    digest = hashlib.sha256()
    counter = TestCounter()
    started = utc_now()
    t0 = time.monotonic()
    with os.fdopen(log_fd, "wb") as log, process.SignalForwarder() as forwarder:

        def record(chunk: bytes) -> None:
            log.write(chunk)
            digest.update(chunk)
            counter.feed(chunk)

        outcome = process.run_streaming(argv, record, forwarder=forwarder)
        if outcome.start_error:
            message = f"receipt run: {outcome.start_error}\n".encode()
            sys.stderr.buffer.write(message)
            record(message)
        exit_code = outcome.exit_code
        size = outcome.output_bytes + (len(message) if outcome.start_error else 0)
        log.flush()
        os.fsync(log.fileno())
    duration = round(time.monotonic() - t0, 3)
    finished = utc_now()
    os.replace(log_temp, log_path)

    tree_after = git.snapshot_tree(root, leave_out, ignore)
    tests = counter.result()
    if junit:
        tests = _junit_counts(junit, tests)

    receipt: dict[str, Any] = {
        "schema": model.SCHEMA_ID,
        "command": text,
        "argv": argv,
        "git_head": head,
        "git_tree": tree,
        "git_tree_after": tree_after,
        "ignored": ignore,
        "git_dirty": tree != head_tree,
        "hostname": socket.gethostname() or "unknown",
        "kernel": " ".join(filter(None, (platform.system(), platform.release(),
                                         platform.machine()))) or "unknown",
        "runtime": runtime,
        "started_utc": started,
        "finished_utc": finished,
        "duration_s": duration,
        "exit_code": min(max(exit_code, 0), 255),
        "output": {"sha256": digest.hexdigest(), "bytes": size, "log": log_rel},
        "tests": tests,
        "tool": {"name": "receipt-hooks", "version": hooks.__version__},
    }
    if sign or policy_file.get("sign"):
        receipt = _signed(receipt, root)
    raw = (json.dumps(receipt, indent=2) + "\n").encode()
    errors = schemas.validate(model.schema_file(receipt), receipt)
    if errors:  # our own bug: say so, but still leave the evidence on disk
        warn(f"receipt run: internal error: the receipt does not match its schema: {errors[0]}")
    else:
        schemas.remember_valid(model.memo_dir(paths),
                               schemas.digest_for(model.schema_file(receipt), raw))
    atomic_write(receipt_path, raw)
    from hooks.receipt.keyed import keyed_path  # one receipt per command: see keyed.py

    atomic_write(keyed_path(receipt_path, argv), raw)
    _note(receipt, root)
    warn(_summary(receipt, receipt_rel))
    return exit_code


def _signed(receipt: dict[str, Any], root: str) -> dict[str, Any]:
    """RECEIPT signed; unsigned, with a warning, when it cannot be: the run's evidence is kept,
    and a check that requires signatures refuses it with its own message."""
    from hooks.core.errors import UserError
    from hooks.receipt.signing import sign

    try:
        return sign(receipt, root)
    except UserError as e:
        warn(f"{e}; the receipt is written unsigned")
        return receipt


def _note(receipt: dict[str, Any], root: str) -> None:
    """Also keep the receipt as a note on the tested tree; the file is already safe."""
    from hooks.receipt import notes

    try:
        notes.add(receipt, str(receipt["git_tree"]), cwd=root)
    except git.GitError as e:
        warn(f"receipt run: warning: the receipt is in the file but not in {notes.NOTES_REF}: "
             f"{e}")


def _junit_counts(junit: str, parsed: dict[str, Any] | None) -> dict[str, Any] | None:
    try:
        return counts_from_junit(read_bounded(junit, 256 << 20))
    except FileNotFoundError:
        warn(f"receipt run: warning: --junit {junit} was not written by the command; "
             f"counts are from its output")
    except (UnreadableFile, ValueError, SyntaxError) as e:
        warn(f"receipt run: warning: --junit {junit} could not be read ({e}); "
             f"counts are from its output")
    return parsed


def _summary(receipt: dict[str, Any], receipt_rel: str) -> str:
    tests = receipt["tests"]
    if tests:
        counted = (f"{tests['passed']} passed, {tests['failed']} failed, "
                   f"{tests['skipped']} skipped, {tests['errors']} errors ({tests['runner']})")
    else:
        counted = "no test counts recognised"
    return (f"receipt: wrote {receipt_rel}: exit {receipt['exit_code']}, {counted}, "
            f"tree {git.short(receipt['git_tree'])}"
            f"{' (uncommitted changes)' if receipt['git_dirty'] else ''}")
