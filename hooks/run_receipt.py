"""``receipt run``: run a command, stream its output, and write a receipt of how it ended."""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shlex
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import Any

import hooks
from hooks import git_repo
from hooks import process
from hooks import receipts
from hooks import schemas
from hooks.fileio import UnreadableFile
from hooks.fileio import atomic_write
from hooks.fileio import read_bounded
from hooks.output import warn
from hooks.testcounts import TestCounter
from hooks.testcounts import counts_from_junit

SHELL = "/bin/sh"

# Which runtime's version to record, by the program the command starts (first match wins).
RUNTIME_PROBES: tuple[tuple[frozenset[str], tuple[str, ...]], ...] = (
    (frozenset({"node", "npm", "npx", "yarn", "pnpm", "jest", "vitest", "mocha", "bun"}),
     ("node", "--version")),
    (frozenset({"go", "gotestsum"}), ("go", "version")),
    (frozenset({"cargo", "rustc", "cargo-nextest"}), ("rustc", "--version")),
    (frozenset({"mvn", "gradle", "java", "./gradlew", "./mvnw"}), ("java", "-version")),
    (frozenset({"dotnet"}), ("dotnet", "--version")),
    (frozenset({"ruby", "rspec", "bundle", "rake"}), ("ruby", "--version")),
    (frozenset({"php", "phpunit", "pest"}), ("php", "--version")),
    (frozenset({"swift"}), ("swift", "--version")),
)


def _probe(cmd: Sequence[str]) -> str | None:
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    lines = proc.stdout.decode("utf-8", "replace").strip().splitlines()
    return lines[0].strip() if proc.returncode == 0 and lines else None


def runtime_of(argv: Sequence[str]) -> str:
    words = argv
    if len(argv) == 3 and argv[:2] == [SHELL, "-c"]:
        words = argv[2].split()
    names = {os.path.basename(w) for w in words[:3]} | set(words[:1])
    for programs, probe in RUNTIME_PROBES:
        if names & programs:
            found = _probe(probe)
            if found:
                return found
    python = next((w for w in words[:1] if os.path.basename(w).startswith("python")), "python3")
    return _probe((python, "--version")) or f"Python {platform.python_version()}"


def run(
    command: Sequence[str],
    *,
    shell: bool,
    receipt_arg: str | None,
    log_arg: str | None,
    junit: str | None,
) -> int:
    try:
        paths = git_repo.repo_paths()
    except git_repo.GitError as e:
        warn(f"receipt run: {e}: run it inside the git work tree whose tests it runs")
        return 1
    root = paths.root
    receipt_path, log_path = receipts.resolve_paths(root, receipt_arg, log_arg)
    receipt_rel = receipts.repo_relative(root, receipt_path)
    log_rel = receipts.repo_relative(root, log_path)
    for shown in (receipt_rel, log_rel):
        if not os.path.isabs(shown) and not git_repo.is_ignored(shown, cwd=root):
            warn(f"receipt: warning: {shown} is not ignored by git; add "
                 f"'{os.path.dirname(shown) or shown}/' to .gitignore so it is never committed")

    argv = [SHELL, "-c", command[0]] if shell else list(command)
    command_text = command[0] if shell else shlex.join(command)
    leave_out = [p for p in (receipt_rel, log_rel) if not os.path.isabs(p)]
    head = git_repo.head_commit(root)
    tree = git_repo.snapshot_tree(root, leave_out)
    head_tree = git_repo.tree_of(head, root) if head else git_repo.EMPTY_TREE
    runtime = runtime_of(argv)

    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    log_fd, log_temp = tempfile.mkstemp(prefix=".test-output.", dir=os.path.dirname(log_path))
    digest = hashlib.sha256()
    counter = TestCounter()
    started = receipts.utc_now()
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
    finished = receipts.utc_now()
    os.replace(log_temp, log_path)

    tree_after = git_repo.snapshot_tree(root, leave_out)
    tests = counter.result()
    if junit:
        tests = _junit_counts(junit, tests)

    receipt: dict[str, Any] = {
        "schema": receipts.SCHEMA_ID,
        "command": command_text,
        "argv": argv,
        "git_head": head,
        "git_tree": tree,
        "git_tree_after": tree_after,
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
    raw = (json.dumps(receipt, indent=2) + "\n").encode()
    errors = schemas.validate(schemas.RECEIPT, receipt)
    if errors:  # our own bug: say so, but still leave the evidence on disk
        warn(f"receipt run: internal error: the receipt does not match its schema: {errors[0]}")
    else:
        schemas.remember_valid(receipts.memo_dir(paths),
                               schemas.digest_for(schemas.RECEIPT, raw))
    atomic_write(receipt_path, raw)
    warn(_summary(receipt, receipt_rel))
    return exit_code


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
            f"tree {git_repo.short(receipt['git_tree'])}"
            f"{' (uncommitted changes)' if receipt['git_dirty'] else ''}")
