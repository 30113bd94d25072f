"""What a change does to each file, read from ``git diff -U0``: added and removed lines.

Zero context, renames detected (a rename adds no lines), no external diff or textconv, and
file names exactly as git stores them (C-quoted names decoded, odd bytes kept).
"""

from __future__ import annotations

from hooks.core.git import diff_spec
from hooks.core.git import run


class FileDiff:
    """What a change does to one file: the lines it adds (new line numbers) and removes."""

    __slots__ = ("added", "created", "deleted", "old_path", "path", "removed", "submodule")

    def __init__(self, path: str) -> None:
        self.path = path
        self.old_path: str | None = None  # the name before a rename
        self.added: list[tuple[int, bytes]] = []
        self.removed: list[tuple[int, bytes]] = []  # (new-side line the removal sits at, text)
        self.deleted = False
        self.created = False
        self.submodule = False


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
    return run("-c", "core.quotepath=on", "diff", "-U0", "-M", "--no-color", "--no-ext-diff",
               "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/", *diff_spec(base, target),
               "--")


def parse_diff(out: bytes) -> list[FileDiff]:
    files: list[FileDiff] = []
    current: FileDiff | None = None
    new_line = 0
    in_hunk = False
    renamed_from: str | None = None
    for line in out.split(b"\n"):
        if in_hunk and current is not None and line[:1] == b"+":  # the hot path: added lines
            current.added.append((new_line, line[1:]))
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
                new = header[2]  # +start[,count]
                new_line = int(new[1:].split(b",")[0])
                in_hunk = True
            continue
        if current is None:
            continue
        if line.startswith(b"+"):
            current.added.append((new_line, line[1:]))
            new_line += 1
        elif line.startswith(b"-"):
            current.removed.append((max(new_line, 1), line[1:]))
    return files
