"""Recording a run: snapshot the tree, run the command, count its tests, write the receipt."""

from __future__ import annotations

import contextlib
import json
import os
import platform
import tempfile
import time
from collections.abc import Sequence
from typing import Any
from typing import BinaryIO

import hooks
from hooks.core import digests
from hooks.core import git
from hooks.core import git_index
from hooks.core import process
from hooks.core import schemas
from hooks.core import snapshot
from hooks.core.cmdline import command_argv
from hooks.core.errors import IO_ERROR
from hooks.core.errors import machine_fix
from hooks.core.fileio import UnreadableFile
from hooks.core.fileio import atomic_write
from hooks.core.fileio import read_bounded
from hooks.core.output import warn
from hooks.core.text import printable
from hooks.core.times import utc_now
from hooks.receipt.record import destinations
from hooks.receipt.record import stored_argv
from hooks.receipt.record.runtime import runtime_of
from hooks.receipt.record.testcounts import TestCounter
from hooks.receipt.record.testcounts import counts_from_junit
from hooks.receipt.store import layout
from hooks.receipt.store.keyed import judged_argv
from hooks.receipt.store.keyed import keyed_path

MAX_HIDDEN = 50  # paths listed in the receipt's "hidden"; a sparse checkout can hide thousands


def run(
    command: Sequence[str],
    *,
    shell: bool,
    receipt_arg: str | None,
    log_arg: str | None,
    junit: str | None,
    reuse: bool = False,
    sign: bool = False,
    at_root: bool = False,
    shard: str | None = None,
    begun: tuple[snapshot.Started | None] | None = None,
) -> int:
    """Run COMMAND (in the current directory, or the root when AT_ROOT) and write its
    receipt; the exit code is the command's. BEGUN: the first snapshot the caller began
    (``snapshot.begin``, None when it could not begin early)."""
    paths = git.repo_paths()
    root = paths.root
    if begun is None:
        begun = (snapshot.begin(root, paths.common_dir),)
    first = begun[0]
    try:
        cwd = root if at_root else os.getcwd()
        context = run_context(root, cwd)
        where = destinations.resolve(paths, receipt_arg, log_arg,
                                     first.tracked if first is not None else None)
        from hooks.core import config

        policy_file = config.for_repo(paths)
        ignore = policy_file.ignore
        argv = command_argv(command, shell)
        stored = stored_argv.store(argv)
        head = git.head_commit(root)
        own = where.written
        left_out = own.and_ignored(ignore)
        before, head_tree = _first_snapshot(root, head, own.paths, left_out, first)
    finally:
        if first is not None:
            first.discard()  # when the set-up failed: git waited for, the copy deleted
    try:  # the second snapshot starts from the first's throwaway index
        _warn_environments(before.environments)
        judged = judged_argv({"argv": argv, **context}) or argv
        if reuse:
            from hooks.receipt.record.reuse import reusable

            green = reusable(judged, before.tree, root, policy_file, layout.memo_dir(paths))
            if green is not None:
                warn(f"receipt run: --reuse: tree {git.short(before.tree)} already has a green "
                     f"receipt from '{green.get('command')}' ({green.get('hostname')}, finished "
                     f"{green.get('finished_utc')}); not running it again")
                return 0
        runtime = runtime_of(argv, os.path.join(paths.common_dir, "receipt-hooks"))
        from hooks.receipt.judge import shards

        split = shards.selection_for_run(shard, argv)
        collected = shards.collection(split, argv, cwd) if split is not None else None

        junit_before = _written_state(junit) if junit else None
        sink = _LogSink(where.log_path)
        digest = digests.sha256()
        counter = TestCounter.for_command(argv, policy_file.summary_pattern)
        started = utc_now()
        t0 = time.monotonic()
        try:
            with process.SignalForwarder() as forwarder:

                def record(chunk: bytes) -> None:
                    sink.write(chunk)
                    digest.update(chunk)
                    counter.feed(chunk)

                outcome = process.run_streaming(argv, record, forwarder=forwarder, cwd=cwd)
                size = outcome.output_bytes
                if outcome.start_error:
                    message = f"receipt run: {printable(outcome.start_error)}"
                    warn(message)
                    line = f"{message}\n".encode()
                    record(line)
                    size += len(line)
            sink.close()
        finally:
            sink.discard()
        exit_code = outcome.exit_code
        if sink.error is not None:  # a full disk: the log is not the output, so no receipt
            warn(f"receipt run: cannot write the log {where.log_rel}: {_reason(sink.error)}; no "
                 f"receipt written (the command exited {exit_code}): {machine_fix(sink.error)}")
            return exit_code or IO_ERROR  # a green command with no receipt is no success
        duration = round(time.monotonic() - t0, 3)
        finished = utc_now()

        after = snapshot.take(root, own.paths, left_out, expect=before.tree,
                              previous=before)
    finally:
        before.discard()
    hidden = list(dict.fromkeys(before.hidden + after.hidden))
    tests = counter.result()
    if junit:
        tests = _junit_counts(junit, tests, junit_before)

    receipt: dict[str, Any] = {
        "schema": layout.SCHEMA_ID,
        "command": stored.command,
        "argv": stored.argv,
        **context,
        "git_head": head,
        "git_tree": before.tree,
        "git_tree_after": after.tree,
        "ignored": ignore,
        "git_dirty": before.tree != head_tree,
        # the host's name as socket.gethostname() says it (uname's nodename; platform asks
        # socket itself where there is no uname), without importing socket on every run
        "hostname": platform.node() or "unknown",
        "kernel": " ".join(filter(None, (platform.system(), platform.release(),
                                         platform.machine()))) or "unknown",
        "runtime": runtime,
        "started_utc": started,
        "finished_utc": finished,
        "duration_s": duration,
        "exit_code": min(max(exit_code, 0), 255),
        "output": {"sha256": digest.hexdigest(), "bytes": size, "log": where.log_rel},
        "tests": tests,
        "tool": {"name": "receipt-hooks", "version": hooks.__version__},
    }
    if split is not None:
        receipt["shard"] = {"index": split.index, "count": split.count,
                            **({"collection": collected} if collected else {})}
    if stored.original:
        receipt["argv_original"] = stored.original
    if hidden:
        receipt["hidden"] = [{"path": printable(h.path), "why": h.why}
                             for h in hidden[:MAX_HIDDEN]]
    if sign or policy_file.get("sign"):
        receipt = _signed(receipt, root)
    raw = (json.dumps(receipt, indent=2) + "\n").encode()
    _remember_valid(receipt, raw, paths)
    for path in (where.receipt_path, keyed_path(where.receipt_path, judged)):
        try:
            atomic_write(path, raw)  # all of it or none: no half-written receipt
        except OSError as e:
            shown = layout.repo_relative(root, path)
            warn(f"receipt run: cannot write the receipt {shown}: {_reason(e)}; the log "
                 f"{where.log_rel} is complete, but no receipt vouches for this run (the command "
                 f"exited {exit_code}): {machine_fix(e)}")
            return exit_code or IO_ERROR
    _note(receipt, root)
    warn(_summary(receipt, where.receipt_rel))
    for note in stored.notes:
        warn(f"receipt: note: {note}; argv_original holds the sha256 of the exact arguments")
    if where.log_path is None:
        warn(f"receipt: note: no log kept (--log {os.devnull}); the receipt holds the output's "
             f"sha256 and size only")
    _warn_hidden(hidden)
    if "cwd" in context:
        warn(f"receipt: warning: the command ran in {printable(context['cwd'])}, not at the "
             f"repository root: receipt check reads it as part of the suite; run it from "
             f"{printable(root)}, or 'receipt run' alone for the configured suite")
    return exit_code


def _first_snapshot(root: str, head: str | None, own: list[str], left_out: list[str],
                    started: snapshot.Started | None) -> tuple[snapshot.Snapshot, str]:
    """The snapshot before the command (its throwaway index kept for the one after) and the
    tree it is compared with: HEAD's without the receipt's own and ignored files.

    That tree costs an index of HEAD's files to make, so when HEAD cannot hold those files
    the snapshot is compared with HEAD's tree as it is, and the tree made only when they
    differ (a git tree is canonical: a snapshot equal to HEAD's tree is HEAD's tree without
    them). Should HEAD's stored tree not be what git writes for it, the snapshot is taken again
    against the tree made, as it was before."""
    if not head:
        empty = git.empty_tree(root)
        return snapshot.take(root, own, left_out, expect=empty, keep=True,
                             started=started), empty
    if left_out and git_index.may_hold(head, own, root, left_out):
        head_tree = git_index.tree_without(head, own, root, left_out)
        return snapshot.take(root, own, left_out, expect=head_tree, keep=True,
                             started=started), head_tree
    stored = git.tree_of(head, root)
    before = snapshot.take(root, own, left_out, expect=stored, keep=True, started=started)
    if before.tree == stored or not left_out:
        return before, stored
    head_tree = git_index.tree_without(head, own, root, left_out)
    if head_tree != stored:
        before.discard()
        before = snapshot.take(root, own, left_out, expect=head_tree, keep=True)
    return before, head_tree


def _remember_valid(receipt: dict[str, Any], raw: bytes, paths: git.RepoPaths) -> None:
    """Stamp the receipt as valid, so the check that reads it skips jsonschema.

    Every field of an unsigned receipt is built by ``run`` above from values whose shape it
    fixes, and tests/test_run_cost.py validates every kind ``run`` writes (plain, in a
    subdirectory, with runner variables, counts, JUnit counts, a rewritten argv, hidden paths,
    no log, a command that cannot start) against the schema: validating it again on every run
    cost ~80 ms of importing jsonschema. A signature holds what ssh-keygen and the user's key
    produced, so a signed receipt is still validated here."""
    name = layout.schema_file(receipt)
    if "signature" in receipt:
        errors = schemas.validate(name, receipt)
        if errors:  # our own bug: say so, but still leave the evidence on disk
            warn(f"receipt run: internal error: the receipt does not match its schema: "
                 f"{errors[0]}")
            return
    schemas.remember_valid(layout.memo_dir(paths), schemas.digest_for(name, raw))


def run_context(root: str, cwd: str) -> dict[str, Any]:
    """What besides argv decides which tests run: the directory relative to ROOT (``cwd``,
    left out at the root so checkers that predate it still read the receipt) and the runner
    variables set in the environment (``env``, when any is). A directory
    outside the work tree (``GIT_WORK_TREE`` pointing elsewhere) is refused: the tests there
    are not the tree the receipt would name."""
    from hooks.core.errors import UserError
    from hooks.receipt.command.runner_flags import RUNNER_VARIABLES

    rel = os.path.relpath(os.path.realpath(cwd), os.path.realpath(root))
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        raise UserError(f"receipt run: the current directory {printable(cwd)} is outside the "
                        f"work tree {printable(root)} whose files the receipt would vouch for: "
                        f"cd {printable(root)} and run it there")
    context: dict[str, Any] = {} if rel == os.curdir else {"cwd": rel.replace(os.sep, "/")}
    env = {name: os.environ[name] for name in RUNNER_VARIABLES if name in os.environ}
    if env:
        context["env"] = env
    return context


class _LogSink:
    """The log, written to a temporary file beside it and moved into place when complete;
    with no path (``--log /dev/null``) the output goes nowhere."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.temp: str | None = None
        self.file: BinaryIO | None = None
        self.error: OSError | None = None  # the write that failed; the log is incomplete
        if path is not None:
            try:
                fd, self.temp = tempfile.mkstemp(prefix=".test-output.",
                                                 dir=os.path.dirname(path))
            except OSError as e:  # no inode left: the command still runs, to its exit code
                self.error = e
                return
            self.file = os.fdopen(fd, "wb")

    def write(self, chunk: bytes) -> None:
        if self.file is not None and self.error is None:
            try:
                self.file.write(chunk)
            except OSError as e:  # a full disk: the command runs on, to its own exit code
                self.error = e

    def close(self) -> None:
        if self.file is not None and self.temp is not None and self.path is not None \
                and self.error is None:
            try:
                self.file.flush()
                os.fsync(self.file.fileno())
                self.file.close()
                os.replace(self.temp, self.path)
            except OSError as e:
                self.error = e
                return
            self.temp = None

    def discard(self) -> None:
        """After an error: no half-written temporary file is left behind."""
        if self.file is not None and not self.file.closed:
            with contextlib.suppress(OSError):  # its buffer cannot be flushed on a full disk
                self.file.close()
        if self.temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.temp)


def _warn_environments(environments: list[tuple[str, str]]) -> None:
    """Once per run (the snapshot before it): which directories were left out, and why."""
    if not environments:
        return
    shown = "; ".join(f"{printable(d)} ({why})" for d, why in environments[:3])
    more = f"; and {len(environments) - 3} more" if len(environments) > 3 else ""
    names = " ".join(d for d, _why in environments[:3])
    warn(f"receipt run: note: left out of the tested tree, as no project's files: {shown}{more}; "
         f"add them to .gitignore ({names}) to say so yourself")


def _reason(error: OSError) -> str:
    """'No space left on device', as the system says it."""
    return error.strerror or str(error)


def _warn_hidden(hidden: list[snapshot.Hidden]) -> None:
    in_tree = [h for h in hidden if h.why in snapshot.IN_TREE]
    if in_tree:
        warn(f"receipt: warning: the index hides what the command saw on disk: "
             f"{printable(snapshot.explain(in_tree))}; the receipt records the disk, so it "
             f"vouches only for a commit that holds exactly that")
    lost = [h for h in hidden if h.why in snapshot.NOT_IN_TREE]
    if lost:
        warn(f"receipt: warning: the command saw what no git tree can record: "
             f"{printable(snapshot.explain(lost))}; receipt check will refuse this receipt "
             f"until they are committed or removed")


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
    from hooks.receipt.store import notes

    try:
        notes.add(receipt, str(receipt["git_tree"]), cwd=root)
    except git.GitError as e:
        warn(f"receipt run: warning: the receipt is in the file but not in {notes.NOTES_REF}: "
             f"{e}")


def _written_state(path: str) -> tuple[int, int, int, int, int] | None:
    """What changes whenever PATH is written or replaced (device, inode, size, mtime, ctime:
    the kernel sets ctime, no program can set it back); None when it does not exist."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _junit_counts(junit: str, parsed: dict[str, Any] | None,
                  before: tuple[int, int, int, int, int] | None) -> dict[str, Any] | None:
    """Counts from the JUnit report JUNIT, if the run wrote it: a report already there and
    unchanged since the run started is another run's, and counts for nothing."""
    if before is not None and _written_state(junit) == before:
        warn(f"receipt run: warning: --junit {junit} was not written during this run (it "
             f"is unchanged since before the command started); counts are from its output")
        return parsed
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
