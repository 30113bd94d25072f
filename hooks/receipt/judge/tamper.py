"""Tamper evidence: the receipt must agree with the log it names.

A receipt edited by hand (``"exit_code": 0``, ``"failed": 0``) still names the log of the run
it describes; the log's SHA-256 and size, and the test counts read from it again, must be the
receipt's. Only the last-run receipt file is compared: its log is the one beside it. Receipts
kept per command and in notes outlive that log (the next run writes a new one), so comparing
them with it would accuse every older receipt; under ``--require-log`` such a receipt counts
only when the log here is its own (same SHA-256 and size), and is then compared the same way.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from hooks.core import digests
from hooks.core import git
from hooks.core.cmdline import quoted
from hooks.core.exits import INVALID
from hooks.core.exits import MISSING
from hooks.core.output import Finding
from hooks.receipt.store.layout import rerun_hint

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any

CHUNK = 1 << 20


class Tamper:
    def __init__(self, root: str, receipt_shown: str, require_log: bool,
                 memo: str | None = None, summary_pattern: re.Pattern[str] | None = None) -> None:
        self.root = root
        self.summary_pattern = summary_pattern  # the config's: the log is counted as run counted
        self.receipt_shown = receipt_shown
        self.require_log = require_log
        self.memo = memo  # agreements remembered, like schema validations: see _stamp

    def findings(self, commit: str, data: dict[str, Any], shown: str) -> list[Finding]:
        if shown != self.receipt_shown:
            return self._elsewhere(commit, data, shown) if self.require_log else []
        output = data.get("output")
        log = output.get("log") if isinstance(output, dict) else None
        if not isinstance(output, dict) or not isinstance(log, str):
            return []
        path = log if os.path.isabs(log) else os.path.join(self.root, log)
        label = git.short(commit)
        if not os.path.isfile(path):
            if not self.require_log:
                return []
            return [Finding(f"{label}: no log at {log} and --require-log is set: run "
                            f"{quoted(rerun_hint(data))} here, then push again", MISSING,
                            "missing-log", commit=commit)]
        stamp = self._stamp(path, output, data.get("tests"))
        if stamp and os.path.isfile(stamp):
            return []
        argv = data.get("argv")
        why = mismatch(path, output, data.get("tests"),
                       [str(a) for a in argv] if isinstance(argv, list) else [],
                       self.summary_pattern)
        if not why:
            if stamp:
                from hooks.core.schemas import remember_valid

                remember_valid(os.path.dirname(stamp), os.path.basename(stamp))
            return []
        return [Finding(f"{label}: the log does not match the receipt ({why}; {shown}, {log}): "
                        f"the receipt was edited or the log replaced; run "
                        f"{quoted(rerun_hint(data))}",
                        INVALID, "tampered", commit=commit)]

    def _elsewhere(self, commit: str, data: dict[str, Any], shown: str) -> list[Finding]:
        """Under --require-log, a receipt kept per command or in the notes counts only when its
        own log is here (the last run's log, unchanged: its SHA-256 and size are the
        receipt's), and then the log must agree with it as the last-run receipt's must."""
        output = data.get("output")
        log = output.get("log") if isinstance(output, dict) else None
        path = None if not isinstance(log, str) else log if os.path.isabs(log) \
            else os.path.join(self.root, log)
        if isinstance(output, dict) and path is not None and os.path.isfile(path):
            if os.path.getsize(path) == output.get("bytes") and \
                    _sha256(path) == output.get("sha256"):
                return Tamper(self.root, shown, self.require_log, self.memo).findings(
                    commit, data, shown)
            where = f"{log} holds another run's output"
        else:
            where = f"no log at {log}" if isinstance(log, str) else "the run kept no log"
        return [Finding(f"{git.short(commit)}: the log of the receipt in {shown} is not here "
                        f"({where}) and --require-log is set: run "
                        f"{quoted(rerun_hint(data))} here, then push again", MISSING,
                        "missing-log", commit=commit)]

    def _stamp(self, path: str, output: dict[str, Any], tests: object) -> str | None:
        """A memo file for "this log, unchanged since (size, mtime), agrees with this receipt":
        a push re-reads a large log only when the log or the receipt changed."""
        if self.memo is None:
            return None
        try:
            info = os.stat(path)
        except OSError:
            return None
        import json

        key = json.dumps([path, info.st_size, info.st_mtime_ns, info.st_ino, output, tests],
                         sort_keys=True)
        return os.path.join(self.memo, "log-" + digests.sha256(key.encode()).hexdigest())


def _sha256(path: str) -> str:
    digest = digests.sha256()
    with open(path, "rb") as log:
        for chunk in iter(lambda: log.read(CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def mismatch(path: str, output: dict[str, Any], tests: object, argv: Sequence[str],
             summary_pattern: re.Pattern[str] | None = None) -> str:
    """What differs between the log at PATH and the receipt's OUTPUT and TESTS; '' if nothing.
    The log is counted as ``receipt run`` counted it: by the parser of ARGV's runner and the
    config's SUMMARY_PATTERN."""
    from hooks.receipt.record.testcounts import TestCounter

    digest = digests.sha256()
    counter = TestCounter.for_command(argv, summary_pattern)
    size = 0
    with open(path, "rb") as log:
        for chunk in iter(lambda: log.read(CHUNK), b""):
            digest.update(chunk)
            counter.feed(chunk)
            size += len(chunk)
    if output.get("bytes") != size:
        return f"{size} bytes, the receipt says {output.get('bytes')}"
    if output.get("sha256") != digest.hexdigest():
        return "its SHA-256 differs from output.sha256"
    if isinstance(tests, dict) and tests.get("runner") == "junit":
        return ""  # counted from the JUnit report, not the log
    counted = counter.result()
    if isinstance(counted, dict) and not (isinstance(tests, dict)
                                          and _same_counts(tests, counted)):
        return f"the log counts {_counts(counted)}, the receipt says {_counts(tests)}"
    if counted is None and tests is not None:
        return f"the log has no test counts, the receipt says {_counts(tests)}"
    return ""


KEYS = ("passed", "failed", "skipped", "errors")


def _same_counts(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return all(a.get(k) == b.get(k) for k in KEYS)


def _counts(tests: object) -> str:
    if not isinstance(tests, dict):
        return "none"
    return ", ".join(f"{tests.get(k)} {k}" for k in KEYS)
