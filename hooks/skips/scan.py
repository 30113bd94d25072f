"""Scanning: the rules over what a change adds to each file, or over whole files.

Most added lines stop at a substring check (the packs' needles); only lines with a candidate
are read against the lexed file, where strings are blanked and comments set apart, so a rule
never fires inside a string.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence

from hooks.core import git
from hooks.core.change import Change
from hooks.core.diff import FileDiff
from hooks.skips.filescan import FileScan
from hooks.skips.filescan import Hit

TYPE_CHECKING = False
if TYPE_CHECKING:
    pass

def decode(data: bytes | None) -> str | None:
    if data is None or b"\0" in data:
        return None  # absent, or binary
    return data.decode("utf-8", "replace")


# paths -> their content after the change (None: absent or binary)
Contents = Callable[[Sequence[str]], "dict[str, str | None]"]


def scan_change(found: Change, only: set[str] | None,
                enabled: frozenset[str] = frozenset()) -> list[tuple[Hit, FileScan]]:
    """The hook's view: git's diff of the change, contents read from git on demand."""
    # pre-commit never names a deleted file (its filenames are the staged files less the
    # deletions at commit, those that still exist at pre-push): one is read whatever ONLY says
    diffs = [d for d in found.diffs()
             if not d.submodule and (only is None or d.path in only or d.deleted)]

    def contents(paths: Sequence[str]) -> dict[str, str | None]:
        blobs = git.blobs(found.blob_spec(p) for p in paths)
        return {p: decode(blobs.get(found.blob_spec(p))) for p in paths}

    merged: Contents | None = None
    if found.merging:  # scan what the resolution adds, not what the merged branch brought
        def merged(paths: Sequence[str]) -> dict[str, str | None]:
            blobs = git.blobs(f"MERGE_HEAD:{p}" for p in paths)
            return {p: decode(blobs.get(f"MERGE_HEAD:{p}")) for p in paths}
    return scan_diffs(diffs, contents, merged, enabled)


def scan_diffs(diffs: Sequence[FileDiff], contents: Contents, merged: Contents | None = None,
               enabled: frozenset[str] = frozenset()) -> list[tuple[Hit, FileScan]]:
    """The one scan of a change, whatever it came from (git, or stored before/after texts):
    the rules over each file's added lines, then the judgements about the change as a whole.
    ENABLED names the opt-in rules to run as well."""
    from hooks.skips import packs_for
    from hooks.skips.changes import judge_change
    from hooks.skips.filescan import ChangedFile

    todo: list[ChangedFile] = []
    for diff in diffs:
        packs = packs_for(diff.path)
        if packs:
            # one decode for the file: no byte sequence spans a newline, so it equals
            # decoding each line
            numbers, text = diff.added_lines()
            added = list(zip(numbers, text.decode("utf-8", "replace").split("\n")))
            todo.append(ChangedFile(diff, packs, added))
    if merged is not None:
        theirs = merged([f.diff.path for f in todo])
        for f in todo:
            merged_lines = set((theirs.get(f.diff.path) or "").split("\n"))
            f.added = [(n, t) for n, t in f.added if t not in merged_lines]
    candidates = []
    for f in todo:
        candidates.append(f.scan.candidates(f.added, enabled))
    # read the content after the change only of files with a candidate line
    texts = contents([f.diff.path for f, c in zip(todo, candidates) if c])
    hits: list[Hit] = []
    for f, found in zip(todo, candidates):
        f.scan.text = texts.get(f.diff.path)
        if found and f.scan.text is not None:
            hits += f.scan.hits(found)
    return judge_change(todo, hits, contents, enabled)


def scan_whole_files(paths: Iterable[str],
                     enabled: frozenset[str] = frozenset()) -> list[tuple[Hit, FileScan]]:
    from hooks.skips import packs_for

    results: list[tuple[Hit, FileScan]] = []
    for path in paths:
        packs = packs_for(path)
        if not packs or not os.path.isfile(path) or os.path.islink(path):
            continue
        try:
            with open(path, "rb") as f:
                text = decode(f.read(8 << 20))
        except OSError:
            continue
        if text is None:
            continue
        scan = FileScan(path, packs, text)
        lines = list(enumerate(scan.raw_lines(), 1))
        results += [(hit, scan) for hit in scan.hits(scan.candidates(lines, enabled))]
    return results
