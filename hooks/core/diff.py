"""What a change does to each file, read from ``git diff -U0``: added and removed lines.

Zero context, renames detected (a rename adds no lines), no external diff or textconv, and
file names exactly as git stores them (C-quoted names decoded, odd bytes kept). Text whatever the
attributes say: ``-diff`` or ``binary`` on a path (in a committed .gitattributes, in
.git/info/attributes or core.attributesFile) would print "Binary files differ" and hide what
the change adds; a file whose changed lines hold a NUL byte is binary by content, and its lines
are dropped here, as git itself decides without attributes.
"""

from __future__ import annotations

from collections import deque
from itertools import chain
from itertools import islice

from hooks.core.git import diff_spec
from hooks.core.git import run

BULK_HUNK = 16  # added lines from which a hunk is read in bulk


class FileDiff:
    """What a change does to one file: the lines it adds (new line numbers) and removes."""

    __slots__ = ("added_runs", "created", "deleted", "old_path", "path", "removed", "submodule")

    def __init__(self, path: str) -> None:
        self.path = path
        self.old_path: str | None = None  # the name before a rename
        # (first line number, the added lines from there joined by newlines): a new file's
        # thousand lines are one run, never a thousand objects
        self.added_runs: list[tuple[int, bytes]] = []
        self.removed: list[tuple[int, bytes]] = []  # (new-side line the removal sits at, text)
        self.deleted = False
        self.created = False
        self.submodule = False

    def added_lines(self) -> tuple[list[int], bytes]:
        """The added lines' numbers, and the lines themselves joined by newlines."""
        numbers = list(chain.from_iterable(range(first, first + text.count(b"\n") + 1)
                                           for first, text in self.added_runs))
        return numbers, b"\n".join(text for _, text in self.added_runs)


def _unquote(raw: bytes) -> str:
    """A path as git prints it in a diff header, C-quoted when it has odd bytes."""
    if not raw.startswith(b'"'):
        return raw.decode("utf-8", "surrogateescape")
    body = raw[1:-1]
    out = bytearray()
    i = 0
    escapes = {ord("n"): 10, ord("t"): 9, ord('"'): 34, ord("\\"): 92, ord("a"): 7,
               ord("b"): 8, ord("f"): 12, ord("r"): 13, ord("v"): 11}
    while i < len(body):
        c = body[i]
        if c == 92 and i + 1 < len(body):
            nxt = body[i + 1]
            if 48 <= nxt <= 55:
                out.append(int(body[i + 1:i + 4], 8))
                i += 4
                continue
            out.append(escapes.get(nxt, nxt))
            i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out).decode("utf-8", "surrogateescape")


def _header_path(raw: bytes) -> str:
    """A ---/+++ header's path: git ends it with a tab when the name has a space."""
    return _strip_prefix(_unquote(raw[:-1] if raw.endswith(b"\t") else raw))


def _strip_prefix(path: str) -> str:
    return path[2:] if path[:2] in ("a/", "b/") else path


def diff(base: str | None, target: str | None) -> list[FileDiff]:
    """The staged change (no refs) or BASE...TARGET, as added and removed lines per file.

    Zero context, renames detected (a rename adds no lines), no external diff or textconv.
    """
    return parse_diff(diff_output(base, target))


def diff_output(base: str | None, target: str | None) -> bytes:
    """git's raw -U0 diff of the change: empty exactly when the change touches nothing (a
    mode change, an empty new file or a pure rename still prints its header lines)."""
    # --inter-hunk-context=0 overrides a user's diff.interHunkContext, which would join nearby
    # hunks with context lines between them
    # --text: attributes (-diff, binary) would turn a text file's hunks into one "Binary
    # files differ" line; parse_diff drops binary content by what it holds instead
    return run("-c", "core.quotepath=on", "diff", "-U0", "--inter-hunk-context=0", "-M",
               "--text", "--no-color", "--no-ext-diff", "--no-textconv", "--src-prefix=a/",
               "--dst-prefix=b/", *diff_spec(base, target), "--")


def parse_diff(out: bytes) -> list[FileDiff]:
    files = _parse(out)
    if b"\0" in out:  # rare: scan per file only when some changed line holds a NUL
        for binary in (f for f in files if _holds_nul(f)):
            binary.added_runs, binary.removed = [], []
    return files


def _holds_nul(diff: FileDiff) -> bool:
    """Binary by content, as git tells without attributes: a NUL in what changed."""
    return any(b"\0" in text for _, text in diff.added_runs) or \
        any(b"\0" in text for _, text in diff.removed)


def _parse(out: bytes) -> list[FileDiff]:
    files: list[FileDiff] = []
    current: FileDiff | None = None
    new_line = 0
    in_hunk = False
    renamed_from: str | None = None
    lines = out.split(b"\n")
    numbered = enumerate(lines)
    for index, line in numbered:
        if in_hunk and current is not None and line[:1] == b"+":  # the hot path: added lines
            current.added_runs.append((new_line, line[1:]))
            new_line += 1
            continue
        if line.startswith(b"diff --git "):
            current, in_hunk, renamed_from = None, False, None
            continue
        if not in_hunk or line[:1] not in (b"+", b"-", b" ", b"\\"):
            in_hunk = False
            if line.startswith(b"+++ "):
                target = line[4:]
                if target == b"/dev/null":
                    if current is not None:
                        current.deleted = True
                    continue
                path = _header_path(target)
                if current is None:  # '--- /dev/null' came first: a new file
                    current = FileDiff(path)
                    current.created = True
                    files.append(current)
                current.path = path  # the new name, when the file was renamed
                continue
            if line.startswith(b"rename from "):
                renamed_from = _unquote(line[12:])
                continue
            if line.startswith(b"rename to ") and renamed_from is not None:
                # a rename with no edit has no ---/+++ lines: this is its only record
                current = FileDiff(_unquote(line[10:]))
                current.old_path = renamed_from
                files.append(current)
                continue
            if line.startswith(b"--- "):
                source = line[4:]
                if current is not None and current.old_path is not None:
                    continue  # the rename's own diff: its FileDiff exists
                if source != b"/dev/null":
                    current = FileDiff(_header_path(source))
                    files.append(current)
                continue
            if line.startswith((b"new file mode 160000", b"index ")) and line.endswith(b" 160000"):
                if current is not None:
                    current.submodule = True
                continue
            if line.startswith(b"@@ ") and current is not None:
                header = line.split(b" ")
                new_line = int(header[2][1:].split(b",")[0])  # +start[,count]
                # a long hunk (a new file) in bulk; a short one line by line costs less
                taken = _whole_hunk(lines, index + 1, header, new_line, current) \
                    if _count(header[2]) >= BULK_HUNK else 0
                if taken:  # step over the lines it read, in C
                    deque(islice(numbered, taken), maxlen=0)
                else:
                    in_hunk = True
            continue
        if current is None:
            continue
        if line.startswith(b"+"):
            current.added_runs.append((new_line, line[1:]))
            new_line += 1
        elif line.startswith(b"-"):
            current.removed.append((max(new_line, 1), line[1:]))
    return files


def _count(field: bytes) -> int:
    """A hunk range's line count: ``start,count``, or ``start`` alone for one line."""
    _, comma, count = field.partition(b",")
    return int(count) if comma else 1


def _whole_hunk(lines: list[bytes], at: int, header: list[bytes], new_line: int,
                into: FileDiff) -> int:
    """A zero-context hunk in bulk: its header's counts of removed then added lines, each run
    checked in C to start with its sign. How many lines it took; 0 when the hunk is not
    that shape (context lines), for the line-by-line reading."""
    removed_count, added_count = _count(header[1]), _count(header[2])
    end = at + removed_count
    removed = _signed_run(lines[at:end], removed_count, b"-")
    if end < len(lines) and lines[end][:1] == b"\\":
        end += 1  # "\ No newline at end of file" after the last removed line
    added = _signed_run(lines[end:end + added_count], added_count, b"+")
    end += added_count
    if end < len(lines) and lines[end][:1] == b"\\":
        end += 1
    if removed is None or added is None:
        return 0
    if removed_count:
        position = max(new_line, 1)
        into.removed += [(position, line) for line in removed.split(b"\n")]
    if added_count:
        into.added_runs.append((new_line, added))
    return end - at


def _signed_run(lines: list[bytes], count: int, sign: bytes) -> bytes | None:
    """COUNT lines that each start with SIGN, joined without their signs; None otherwise."""
    if len(lines) != count:
        return None
    if not lines:
        return b""
    block = b"\n".join(lines)
    if block[:1] != sign or block.count(b"\n" + sign) != count - 1:
        return None
    return block[1:].replace(b"\n" + sign, b"\n")
