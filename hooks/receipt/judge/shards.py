"""Shards: one suite split across machines, each part recorded by ``receipt run --shard I/N``,
composed back into "the suite ran on this tree".

Recording. The runner's own split flags are read as the shard selection (pytest-split
``--splits N --group I``, pytest-shard ``--shard-id I-1 --num-shards N``, jest/vitest/playwright
``--shard=I/N``, nextest ``--partition count:I/N``); the suite is the command without them. The
receipt's ``shard`` object holds I and N, and, where the runner lists what it collects (pytest
``--collect-only -q``), the digest and size of the whole suite's collection and the IDs this
shard selected (zlib, base64).

Composing. A shard receipt never vouches alone. A tree is vouched for when, for one N, shards
1..N of the same suite command are all green on it, the newest attempt of each shard counting.
Where every shard listed its collection, they must agree on it and their selections together
must be the whole of it, each test once; otherwise the coverage is said to be unchecked.

The judging code calls ``compose`` from one marked hook-in (``Judge.from_notes``) and asks
``shard_of`` to keep a shard receipt from vouching on its own; everything else is here.
"""

from __future__ import annotations

import base64
import re
import zlib
from collections.abc import Sequence

from hooks.core import digests
from hooks.core import exits
from hooks.core.errors import USAGE_ERROR
from hooks.core.errors import UserError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hooks.core.output import Finding
    from hooks.receipt.judge.commit_judge import Judge

MAX_SHARDS = 4096
# option -> how its value reads; a pair's two options are both needed
_VALUED = ("--splits", "--group", "--shard-id", "--num-shards", "--shard", "--partition")


class Split:
    """Shard INDEX (1-based) of COUNT, the SUITE command it is part of, and the split FLAGS."""

    __slots__ = ("count", "flags", "index", "suite")

    def __init__(self, index: int, count: int, suite: list[str], flags: list[str]) -> None:
        self.index = index
        self.count = count
        self.suite = suite
        self.flags = flags


def parse_selection(text: str, what: str = "--shard") -> tuple[int, int]:
    """'I/N' read as (I, N), 1 <= I <= N; a one-line usage error otherwise."""
    found = re.fullmatch(r"([0-9]+)/([0-9]+)", text)  # ASCII digits, nothing around them
    if found:
        i, n = int(found[1]), int(found[2])
        if 1 <= i <= n <= MAX_SHARDS:
            return i, n
    raise UserError(f"receipt run: {what} {text!r}: expected I/N, shard I of N, "
                    f"1 <= I <= N <= {MAX_SHARDS} (e.g. --shard 2/4)", code=USAGE_ERROR)


def read_split(argv: Sequence[str]) -> Split | None:
    """The runner's own split flags in ARGV, read as a shard selection; None without them."""
    found: dict[str, tuple[str, list[int]]] = {}  # option -> (value, positions it took)
    at = 0
    while at < len(argv):
        name, eq, value = argv[at].partition("=")
        if name in _VALUED and name not in found:
            if eq:
                found[name] = (value, [at])
            elif at + 1 < len(argv):
                found[name] = (argv[at + 1], [at, at + 1])
                at += 1
        at += 1
    selection = _selection(found)
    if selection is None:
        return None
    used, (index, count) = selection
    taken = {p for name in used for p in found[name][1]}
    return Split(index, count, [w for p, w in enumerate(argv) if p not in taken],
                 [w for p, w in enumerate(argv) if p in taken])


def _selection(found: dict[str, tuple[str, list[int]]]
               ) -> tuple[tuple[str, ...], tuple[int, int]] | None:
    def number(name: str) -> int:
        text = found[name][0]
        if not text.isdigit():
            raise UserError(f"receipt run: {name} {text!r} is not a number", code=USAGE_ERROR)
        return int(text)

    if "--splits" in found and "--group" in found:  # pytest-split: groups count from 1
        return ("--splits", "--group"), _checked(number("--group"), number("--splits"),
                                                 "--splits/--group")
    if "--num-shards" in found and "--shard-id" in found:  # pytest-shard: ids count from 0
        return ("--num-shards", "--shard-id"), _checked(number("--shard-id") + 1,
                                                        number("--num-shards"),
                                                        "--shard-id/--num-shards")
    if "--shard" in found:  # jest, vitest, playwright
        return ("--shard",), parse_selection(found["--shard"][0], "--shard")
    if "--partition" in found:  # nextest: count:I/N or hash:I/N
        kind, colon, rest = found["--partition"][0].partition(":")
        if colon and kind in ("count", "hash"):
            return ("--partition",), parse_selection(rest, "--partition")
    return None


def _checked(index: int, count: int, flags: str) -> tuple[int, int]:
    if not 1 <= index <= count <= MAX_SHARDS:
        raise UserError(f"receipt run: {flags} select shard {index} of {count}: no such shard",
                        code=USAGE_ERROR)
    return index, count


def selection_for_run(shard: str | None, argv: Sequence[str]) -> Split | None:
    """What ``receipt run [--shard I/N] -- ARGV`` records: the command's split read as the
    shard (it must agree with --shard); --shard alone for a split the runner does not spell
    (a package list per job); jest/vitest/playwright's and nextest's own forms imply it."""
    split = read_split(argv)
    if shard is None:
        if split is not None and any(f.startswith(("--shard", "--partition"))
                                     for f in split.flags):
            return split
        return None
    index, count = parse_selection(shard)
    if split is None:
        return Split(index, count, list(argv), [])
    if (split.index, split.count) != (index, count):
        raise UserError(f"receipt run: --shard {index}/{count}, but the command selects shard "
                        f"{split.index}/{split.count} ({' '.join(split.flags)}): make them "
                        f"agree", code=USAGE_ERROR)
    return split


def collection(split: Split, argv: Sequence[str], cwd: str) -> dict[str, Any] | None:
    """For a pytest command: the whole suite's collection (digest, size) and the IDs this
    shard selects, from two ``--collect-only -q`` runs; None when the runner cannot list it
    (another runner, a shell string) or a listing fails (the coverage is then unchecked)."""
    from hooks.receipt.command.invocation import invocations

    runs = invocations(list(argv))
    if len(runs) != 1 or runs[0].runner != "pytest" or len(split.flags) == 0:
        return None
    whole, mine = _collected([split.suite, list(argv)], cwd)
    if whole is None or mine is None:
        return None
    return {"digest": collection_digest(whole), "total": len(whole), "selected": len(mine),
            "ids": base64.b64encode(zlib.compress("\n".join(sorted(mine)).encode(), 9)
                                    ).decode()}


def collection_digest(ids: Sequence[str]) -> str:
    return digests.sha256("\n".join(sorted(ids)).encode("utf-8", "surrogateescape")).hexdigest()


def _collected(commands: Sequence[list[str]], cwd: str) -> list[list[str] | None]:
    """The test IDs each of COMMANDS collects (pytest ``--collect-only``, the listings run side
    by side); None for one that could not list them."""
    listed = _listings(commands, cwd, ["-p", "no:cacheprovider"])
    if any(ids is None for ids in listed):
        # a config whose addopts name a cache option (--ff, --lf, --sw) fails without the cache
        # plugin: listed again with it (it reorders what is collected, never changes it)
        again = _listings([c for c, ids in zip(commands, listed) if ids is None], cwd, [])
        listed = [ids if ids is not None else again.pop(0) for ids in listed]
    return listed


def _listings(commands: Sequence[list[str]], cwd: str,
              options: list[str]) -> list[list[str] | None]:
    import subprocess

    procs: list[subprocess.Popen[bytes] | None] = []
    for argv in commands:
        try:
            procs.append(subprocess.Popen(
                [*argv, "--collect-only", "--verbosity=-1", *options], cwd=cwd,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL))
        except OSError:
            procs.append(None)
    listed: list[list[str] | None] = []
    for proc in procs:
        if proc is None:
            listed.append(None)
            continue
        try:
            out, _ = proc.communicate(timeout=600)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            listed.append(None)
            continue
        lines = out.decode("utf-8", "replace").splitlines()
        # 5: nothing collected, a listing all the same
        listed.append([line for line in lines if "::" in line and not line.startswith(" ")]
                      if proc.returncode in (0, 5) else None)
    return listed


def selected_ids(entry: dict[str, Any]) -> list[str] | None:
    try:
        text = zlib.decompress(base64.b64decode(str(entry.get("ids", "")), validate=True))
    except (ValueError, zlib.error):
        return None
    return [i for i in text.decode("utf-8", "replace").split("\n") if i]


# ---- composing -----------------------------------------------------------------------------

def shard_of(data: dict[str, Any] | None) -> dict[str, Any] | None:
    """The receipt's ``shard`` object: a shard receipt, which never vouches alone."""
    shard = data.get("shard") if isinstance(data, dict) else None
    return shard if isinstance(shard, dict) else None


def alone(commit: str, data: dict[str, Any], shown: str) -> Finding:
    from hooks.core import git
    from hooks.core.output import Finding

    shard = shard_of(data) or {}
    return Finding(f"{git.short(commit)}: {shown} is shard {shard.get('index')}/"
                   f"{shard.get('count')} of the suite: a shard never vouches alone; the tree "
                   f"needs every shard of one split green ('receipt run --shard I/N -- ...' on "
                   f"each, then 'receipt publish')", exits.MISSING, "shard-alone", commit=commit)


def suite_of(data: dict[str, Any]) -> list[str] | None:
    """The suite a shard receipt is part of: its judged command without the split flags (read
    again from the command, not taken from the receipt's word for it)."""
    from hooks.receipt.store.keyed import judged_argv

    argv = judged_argv(data)
    if argv is None:
        return None
    split = read_split(argv)
    return argv if split is None else split.suite


class _Set:
    """The newest attempt of each shard of one suite split N ways."""

    def __init__(self, suite: list[str], count: int) -> None:
        self.suite = suite
        self.count = count
        self.newest: dict[int, tuple[dict[str, Any], str]] = {}


def compose(judge: Judge, commit: str, command: str | None) -> list[Finding] | None:
    """None when COMMIT's notes hold no shard receipt of the suite (COMMAND, when the policy
    names it): nothing changes. [] when one complete green set vouches (its shard receipts
    recorded as what vouched). Else one finding naming the missing, red or mismatched shards."""
    from hooks.core import git
    from hooks.core.cmdline import quoted
    from hooks.core.output import Finding
    from hooks.receipt.store.keyed import comparable
    from hooks.receipt.store.keyed import same_command

    sets: dict[tuple[str, int], _Set] = {}
    for data, shown in judge.noted.candidates(commit, None):  # newest first
        shard, argv = shard_of(data), suite_of(data)
        if shard is None or argv is None or (command is not None
                                             and not same_command(argv, command)):
            continue
        index, count = shard.get("index"), shard.get("count")
        if not isinstance(index, int) or not isinstance(count, int) or \
                not 1 <= index <= count:
            continue
        found = sets.setdefault((str(comparable(argv)), count), _Set(argv, count))
        found.newest.setdefault(index, (data, shown))
    if not sets:
        return None
    # the newest run of a suite decides, as for a whole-suite receipt: a red run (of the whole
    # suite or of any shard of it) after the shards passed leaves the tree refused as flaky
    newest: dict[str, tuple[dict[str, Any], str]] = {}
    for data, shown in judge.noted.candidates(commit, None):
        argv = suite_of(data)
        if argv is not None:
            newest.setdefault(str(comparable(argv)), (data, shown))
    judged = [(s, _problems(judge, commit, s)) for s in sets.values()]
    for shards, (problems, _code, notes) in judged:
        last, last_shown = newest.get(str(comparable(shards.suite)), ({}, ""))
        if not problems and last.get("exit_code", 0) != 0:
            return [Finding(
                f"{git.short(commit)}: flaky: the {shards.count} shards of "
                f"{quoted(' '.join(shards.suite))} passed, then a newer run of it failed "
                f"({last_shown}: exit {last.get('exit_code')}): the newest run decides; fix "
                f"the suite, then run every shard again", exits.FAILED, "flaky",
                commit=commit)]
        if not problems:
            for data, shown in (shards.newest[i] for i in sorted(shards.newest)):
                judge.vouched_by(data, shown)  # each was judged by _problems
            suite = quoted(" ".join(shards.suite))
            for note in notes:
                judge.add_note(note.replace("{suite}", suite))
            return []
    tree = git.short(git.tree_of(commit, judge.root))
    # the set nearest to complete speaks; other splits of the same suite are named
    judged.sort(key=lambda item: (len(item[1][0]), -len(item[0].newest)))
    shards, (problems, code, _notes) = judged[0]
    suite = quoted(" ".join(shards.suite))
    others = sorted({s.count for s, _ in judged if s.count != shards.count
                     and s.suite == shards.suite})
    if others:
        problems.append("other shards split it " + " and ".join(
            f"{n} ways ({', '.join(f'{i}/{n}' for i in sorted(s.newest))})"
            for n in others for s, _ in judged if s.count == n and s.suite == shards.suite)
            + ": the shards of one split must all be there")
    return [Finding(f"{git.short(commit)}: tree {tree}: " + "; ".join(
        p.replace("{suite}", suite) for p in problems), code, "shards", commit=commit)]


def _problems(judge: Judge, commit: str, shards: _Set) -> tuple[list[str], int, list[str]]:
    """What keeps SHARDS from vouching (messages with '{suite}' for the suite), the exit code,
    and the notes to say when they vouch."""
    from hooks.receipt.command.narrowing import narrowing_flags

    n = shards.count
    problems: list[str] = []
    codes: list[int] = []
    missing = [i for i in range(1, n + 1) if i not in shards.newest]
    if missing:
        problems.append(f"shard {_listed(missing, n)} of {{suite}} missing")
        codes.append(exits.MISSING)
    passed_nothing: list[int] = []
    for index in sorted(shards.newest):
        data, shown = shards.newest[index]
        found = judge.receipt(commit, judge.noted.load(data, shown, judge.memo), shown,
                              narrowing_ok=True, as_shard=True, record=False)
        if len(found) == 1 and found[0].kind in _PASSED_NOTHING:
            passed_nothing.append(index)  # judged with the set: its group was all skipped
            continue
        if found:
            exit_code = data.get("exit_code")
            why = f"failed (exit {exit_code})" if exit_code != 0 and found[0].code == \
                exits.FAILED else f"refused ({found[0].message.partition(': ')[2]})"
            problems.append(f"shard {index}/{n} {why}")
            codes.append(found[0].code)
    if passed_nothing and len(passed_nothing) == len(shards.newest) == n:
        problems.append("no shard of {suite} passed a test")
        codes.append(exits.FAILED)
    if not judge.requirements.allow_narrowing:
        flags = narrowing_flags(shards.suite)
        if flags:
            problems.append(f"the suite {{suite}} itself runs only part of the tests "
                            f"({', '.join(flags)})")
            codes.append(exits.OFF_POLICY)
    notes: list[str] = []
    if not missing and not codes:  # a refused shard's fields are not read further
        coverage, said = _coverage(shards)
        problems += coverage
        codes += [exits.OFF_POLICY] * len(coverage)
        notes += said
    order = {c: i for i, c in enumerate(exits.CHECK_ORDER)}
    return problems, min(codes, key=order.__getitem__) if codes else 0, notes


# what a shard may show alone when others of its set passed tests: its group was all skipped
_PASSED_NOTHING = ("none-passed", "no-tests")


def _coverage(shards: _Set) -> tuple[list[str], list[str]]:
    """(problems, notes): do the shards' selections make up the whole collection, once?"""
    entries = [shard_of(shards.newest[i][0]) or {} for i in sorted(shards.newest)]
    collections = [e.get("collection") for e in entries]
    name = "{suite}"
    if not any(isinstance(c, dict) for c in collections):
        return [], [f"receipt: note: the {shards.count} shards of {name} vouch together; "
                    f"their coverage is unchecked (the runner lists no collection here)"]
    unlisted = [i for i, c in zip(sorted(shards.newest), collections) if not isinstance(c, dict)]
    if unlisted:  # one machine's listing failed: what the others ran cannot be checked whole
        return [f"shard {_listed(unlisted, shards.count)} of {name} recorded no listing of "
                f"the suite while the others did: run it again where the runner can list "
                f"the collection"], []
    listed = [c for c in collections if isinstance(c, dict)]
    malformed = [i for i, c in zip(sorted(shards.newest), listed)
                 if not isinstance(c.get("digest"), str) or type(c.get("total")) is not int
                 or type(c.get("selected")) is not int or not 0 <= c["total"] <= 10 ** 8]
    if malformed:
        return [f"shard {_listed(malformed, shards.count)} of {name} holds an unreadable "
                f"collection (digest, total, selected)"], []
    if len({(c.get("digest"), c.get("total")) for c in listed}) > 1:
        sizes = ", ".join(f"{i}/{shards.count}: {c.get('total')} tests" for i, c in
                          zip(sorted(shards.newest), listed))
        return [f"the shards of {name} collected different suites ({sizes}): run every "
                f"shard on the same tree and options"], []
    seen: dict[str, int] = {}
    twice: list[str] = []
    for index, entry in zip(sorted(shards.newest), listed):
        ids = selected_ids(entry)
        if ids is None or len(ids) != entry.get("selected"):
            return [f"shard {index}/{shards.count} of {name} holds an unreadable list of "
                    f"the tests it ran"], []
        for test in ids:
            if test in seen:
                twice.append(f"{test} (shards {seen[test]} and {index})")
            seen.setdefault(test, index)
    problems = []
    total = int(listed[0].get("total") or 0)
    if len(seen) != total or (listed[0].get("digest") != collection_digest(list(seen))
                              and len(seen) == total):
        lost = total - len(seen)
        problems.append(f"the shards of {name} ran {len(seen)} of the {total} tests it "
                        f"collects: {lost} test(s) ran in no shard (a shard selected fewer "
                        f"tests than its group)")
    if twice:
        more = f" and {len(twice) - 3} more" if len(twice) > 3 else ""
        problems.append(f"tests ran in two shards of {name}: {', '.join(twice[:3])}{more}")
    return problems, [f"receipt: note: the {shards.count} shards of {name} vouch together: "
                      f"the {total} tests it collects each ran in exactly one shard"]


def _listed(indexes: Sequence[int], count: int) -> str:
    return ", ".join(f"{i}/{count}" for i in indexes)
