"""Judging a history of failing steps: pure functions of data.

The fuse blows when retrying is plainly not working: a step that changed nothing and failed the
same way (no progress), the same failure ``repeat_limit`` times in a row, or failures that
alternate (each fix undoes the one before). One step before it blows, it warns.
"""

from __future__ import annotations

from collections.abc import Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

PERIODS = (2, 3)


class Step:
    """What the fuse remembers of one failing step."""

    __slots__ = ("exit_code", "loose", "source", "strict", "tree")

    def __init__(self, strict: str, loose: str, source: str, tree: str | None,
                 exit_code: int) -> None:
        self.strict = strict
        self.loose = loose
        self.source = source
        self.tree = tree
        self.exit_code = exit_code

    def as_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Step:
        return cls(str(data["strict"]), str(data["loose"]), str(data["source"]),
                   data.get("tree"), int(data["exit_code"]))


class Verdict:
    __slots__ = ("blow", "occurrences", "reason", "text")

    def __init__(self, blow: bool, reason: str, occurrences: int, text: str) -> None:
        self.blow = blow
        self.reason = reason
        self.occurrences = occurrences
        self.text = text


def _trailing_run(values: Sequence[str]) -> int:
    run = 1
    while run < len(values) and values[-run - 1] == values[-1]:
        run += 1
    return run


def _cycles(values: Sequence[str], period: int, length: int) -> bool:
    """The last LENGTH values repeat with PERIOD and hold at least two different values."""
    if len(values) < length:
        return False
    window = values[-length:]
    return (len(set(window)) >= 2
            and all(window[i] == window[i - period] for i in range(period, length)))


def judge(history: Sequence[Step], repeat_limit: int) -> Verdict | None:
    """Whether the fuse blows (or warns) after the last of HISTORY's failing steps."""
    last = history[-1]
    strict = [s.strict for s in history]
    loose = [s.loose for s in history]
    run = _trailing_run(strict)
    if len(history) >= 2:
        before = history[-2]
        if before.tree is not None and before.tree == last.tree and before.strict == last.strict:
            return Verdict(True, "no_progress", run,
                           "the step changed nothing in the work tree and failed the same way")
    if run >= repeat_limit:
        return Verdict(True, "repeated_error", run,
                       f"the same failure {run} times in a row")
    for period in PERIODS:
        if _cycles(loose, period, 2 * period) or _cycles(strict, period, 2 * period):
            return Verdict(True, "oscillation", 2,
                           f"the failures alternate with period {period}: each fix undoes the "
                           f"one before")
    if repeat_limit > 1 and run == repeat_limit - 1:
        return Verdict(False, "repeated_error", run,
                       f"the same failure {run} times in a row; one more and the fuse blows")
    for period in PERIODS:
        if _cycles(loose, period, 2 * period - 1) or _cycles(strict, period, 2 * period - 1):
            return Verdict(False, "oscillation", 1,
                           f"the failures look like they alternate with period {period}; one "
                           f"more and the fuse blows")
    return None
