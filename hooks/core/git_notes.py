"""git for receipts that travel: notes refs read and written, and refs moved to and from
remotes. Part of the git access (see ``git``): every process here is a git command line."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence

from hooks.core import git


def remote_refs(url: str, *refs: str, timeout: float = 15.0) -> dict[str, str] | None:
    """{ref: commit} of REFS at the remote URL (tags peeled); None when it cannot be reached."""
    try:
        proc = subprocess.run(("git", "ls-remote", "--", url, *refs), capture_output=True,
                              check=False, timeout=timeout,
                              env={**os.environ, "GIT_TERMINAL_PROMPT": "0"})
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    found: dict[str, str] = {}
    for line in proc.stdout.decode("utf-8", "replace").splitlines():
        sha, _, ref = line.partition("\t")
        peeled = ref.endswith("^{}")
        ref = ref[:-3] if peeled else ref
        if peeled or ref not in found:  # an annotated tag: the commit, not the tag object
            found[ref] = sha
    return found


def notes_index(notes_rev: str, cwd: str | None = None) -> dict[str, str]:
    """Annotated object id -> note blob id for the notes commit NOTES_REV, in one process.

    Reads the notes tree itself (``ls-tree``), so it works for a ref or for a commit id that
    no ref names yet (a pre-receive hook sees the pushed notes only as an id). Fan-out
    directories (``ab/cdef...``) are joined back into the object id. {} when NOTES_REV is absent.
    """
    return {obj: blob for obj, (_path, blob) in notes_entries(notes_rev, cwd).items()}


def notes_entries(notes_rev: str, cwd: str | None = None) -> dict[str, tuple[str, str]]:
    """Annotated object id -> (path in the notes tree, note blob id): ``notes_index`` with the
    fan-out path each note is stored at, for building a notes tree without git notes."""
    if git.resolve_commit(notes_rev, cwd=cwd) is None:
        return {}
    out = git.run("ls-tree", "-r", "-z", "--full-tree", f"{notes_rev}^{{tree}}", cwd=cwd)
    entries: dict[str, tuple[str, str]] = {}
    for entry in out.split(b"\0"):
        meta, _tab, path = entry.partition(b"\t")
        fields = meta.split()
        if len(fields) == 3 and fields[1] == b"blob":
            name = path.decode("ascii", "replace")
            entries[name.replace("/", "")] = (name, fields[2].decode())
    return entries


def is_ancestor(older: str, newer: str, cwd: str | None = None) -> bool:
    try:
        git.run("merge-base", "--is-ancestor", older, newer, cwd=cwd)
    except git.GitError:
        return False
    return True


# the server's own merges of pushed notes: a tool's commits, whoever configured the server
TOOL_IDENTITY = {"GIT_AUTHOR_NAME": "receipt-hooks", "GIT_AUTHOR_EMAIL": "receipt-hooks@invalid",
                 "GIT_COMMITTER_NAME": "receipt-hooks",
                 "GIT_COMMITTER_EMAIL": "receipt-hooks@invalid"}


def merge_commit(base: str, others: Sequence[str], rewritten: dict[str, bytes], message: str,
                 cwd: str | None = None) -> str:
    """A notes commit, parents BASE and OTHERS, holding BASE's notes, the OTHERS' where BASE
    has none, and REWRITTEN (annotated object -> note content) over them all. Made on a
    throwaway index: no ref moves, no work tree needed (a bare server), no git notes merge."""
    from hooks.core import git_index

    paths = {obj: path for obj, (path, _blob) in notes_entries(base, cwd).items()}
    lines = []
    for other in others:
        for obj, (path, blob) in notes_entries(other, cwd).items():
            if obj not in paths:
                paths[obj] = path
                lines.append(f"100644 {blob}\t{path}\n")
    for obj, content in rewritten.items():
        blob = git.run("hash-object", "-w", "--stdin", cwd=cwd, stdin=content).decode().strip()
        lines.append(f"100644 {blob}\t{paths[obj]}\n")
    temp_index = git_index.temp_index_path()
    try:
        env = git_index.env_with_index(temp_index)
        git.run("read-tree", f"{base}^{{tree}}", cwd=cwd, env=env)
        git.run("update-index", "--index-info", cwd=cwd, env=env,
                stdin="".join(lines).encode())
        tree = git.text("write-tree", cwd=cwd, env=env)
    finally:
        if os.path.exists(temp_index):
            os.unlink(temp_index)
    parents = [arg for commit in (base, *others) for arg in ("-p", commit)]
    return git.text("commit-tree", tree, *parents, "-m", message, cwd=cwd,
                    env={**os.environ, **TOOL_IDENTITY})


def swap_ref(ref: str, new: str, expected: str | None, cwd: str | None = None) -> bool:
    """Move REF to NEW only if it still is EXPECTED (None: only if absent); False if it moved."""
    try:
        git.run("update-ref", ref, new, expected or "", cwd=cwd)
    except git.GitError:
        return False
    return True


def note_show(notes_ref: str, object_id: str, cwd: str | None = None) -> bytes | None:
    """The note on OBJECT_ID under NOTES_REF (``git notes show``), None when there is none."""
    proc = subprocess.run(("git", "notes", "--ref", notes_ref, "show", object_id), cwd=cwd,
                          env=git.git_env(), capture_output=True, check=False)
    return proc.stdout if proc.returncode == 0 else None


# Who writes a notes commit on a machine where git knows nobody (a CI container: actions/checkout
# configures no user). Used only when git refuses for want of an identity; GIT_AUTHOR_*,
# GIT_COMMITTER_*, EMAIL and user.*/author.*/committer.* still win where they are set.
TOOL_NAME = "receipt-hooks"
TOOL_EMAIL = "receipt-hooks@localhost"

# What git says when it has no identity to write a commit with (git's ident.c).
_NO_IDENTITY = (b"Please tell me who you are", b"unable to auto-detect email address",
                b"empty ident name", b"auto-detection is disabled", b"identity unknown")


def lacks_identity(stderr: bytes) -> bool:
    """git's STDERR says it refused to write a commit because it knows no author or committer."""
    return any(words in stderr for words in _NO_IDENTITY)


def tool_identity_env(cwd: str | None = None) -> dict[str, str]:
    """The environment for a notes commit when git has no identity: the tool's name and email
    for each part git lacks (an author or committer variable, or a config key, kept)."""
    configured = subprocess.run(
        ("git", "config", "--get-regexp", r"^(user|author|committer)\.(name|email)$"),
        cwd=cwd, env=git.git_env(), capture_output=True, check=False).stdout
    keys = {line.split(b" ", 1)[0].decode("ascii", "replace").lower()
            for line in configured.splitlines() if b" " in line.strip()}
    env = dict(os.environ)
    for role in ("author", "committer"):
        for part, tool_value in (("name", TOOL_NAME), ("email", TOOL_EMAIL)):
            variable = f"GIT_{role.upper()}_{part.upper()}"
            if env.get(variable) or f"{role}.{part}" in keys or f"user.{part}" in keys:
                continue
            if part == "email" and env.get("EMAIL"):
                continue
            env[variable] = tool_value
    return env


def _notes_commit(args: tuple[str, ...], cwd: str | None, stdin: bytes | None,
                  ) -> subprocess.CompletedProcess[bytes]:
    """``git ARGS`` that writes a notes commit; again with the tool's identity when git has none."""
    proc = subprocess.run(("git", *args), cwd=cwd, env=git.git_env(), input=stdin,
                          capture_output=True, check=False)
    if proc.returncode != 0 and lacks_identity(proc.stderr):
        proc = subprocess.run(("git", *args), cwd=cwd, env=git.git_env(tool_identity_env(cwd)),
                              input=stdin, capture_output=True, check=False)
    return proc


def note_write(notes_ref: str, object_id: str, content: bytes, cwd: str | None = None) -> None:
    """Replace the note on OBJECT_ID (``git notes add -f -F -``): one commit on NOTES_REF."""
    args = ("notes", "--ref", notes_ref, "add", "-f", "-F", "-", object_id)
    proc = _notes_commit(args, cwd, content)
    git.checked(args, proc.returncode, proc.stdout, proc.stderr)


def note_add_new(notes_ref: str, object_id: str, content: bytes,
                 cwd: str | None = None) -> bool:
    """Add a note to OBJECT_ID if it has none (``git notes add`` without ``-f``): True when
    written; False when it was not (a note exists, or git failed: the caller reads the note and
    writes with ``note_write``, which reports a real failure)."""
    proc = _notes_commit(("notes", "--ref", notes_ref, "add", "-F", "-", object_id), cwd, content)
    return proc.returncode == 0


def loose_ref_exists(ref: str, cwd: str | None = None) -> bool:
    """REF is a file in the shared git dir: a hint only (a packed or reftable ref is not), for
    choosing which of two equally correct ways is likelier to take one process."""
    return os.path.isfile(os.path.join(git.repo_paths(cwd).common_dir, *ref.split("/")))


def notes_merge_ours(notes_ref: str, other: str, cwd: str | None = None) -> None:
    """Merge the notes commit OTHER into NOTES_REF, keeping ours where both changed a note.

    The caller then rewrites those notes with the union: this merge gives the history (so a
    push after it is a fast-forward), the union gives the content.
    """
    if git.resolve_commit(f"refs/notes/{notes_ref}", cwd=cwd) is None:
        git.run("update-ref", f"refs/notes/{notes_ref}", other, cwd=cwd)
        return
    args = ("notes", "--ref", notes_ref, "merge", "--quiet", "-s", "ours", other)
    proc = _notes_commit(args, cwd, None)
    git.checked(args, proc.returncode, proc.stdout, proc.stderr)


def fetch_ref(remote: str, source: str, dest: str, cwd: str | None = None) -> bool:
    """Fetch SOURCE from REMOTE into DEST (forced); False when the remote has no SOURCE."""
    if not git.text("ls-remote", "--", remote, source, cwd=cwd):
        return False
    git.run("fetch", "--quiet", "--no-tags", "--no-write-fetch-head", remote, f"+{source}:{dest}",
        cwd=cwd)
    return True


def delete_ref(ref: str, cwd: str | None = None) -> None:
    git.run("update-ref", "-d", ref, cwd=cwd)


def push_swapped(remote: str, commit: str, ref: str, expected: str | None,
                 cwd: str | None = None) -> None:
    """Set REF on REMOTE to COMMIT only if it still is EXPECTED (None: only if it does not
    exist): a compare-and-swap (``--force-with-lease``), never through our pre-push hook."""
    git.run("push", "--quiet", "--no-verify", f"--force-with-lease={ref}:{expected or ''}",
            remote, f"{commit}:{ref}", cwd=cwd)
