"""Receipts that travel: git notes on the tested tree, under ``refs/notes/receipts``.

A receipt vouches for a tree, so its note annotates the tree object (notes can annotate any
object): a revert, a rebase back or another branch with the same tree finds it again, and a
commit whose message was amended keeps it. One tree can be tested by several commands, on
several machines, several times, so a note holds a JSON list of receipts, oldest first, each
receipt once (compared by ``digest``: the SHA-256 of its canonical JSON).

Merging. Two clones that each added a receipt to the same tree have two versions of one note.
``git notes merge -s union`` would concatenate the two texts, which turns two JSON lists into
one invalid document, and ``cat_sort_uniq`` sorts lines, which is worse. So the merge is ours:
``git notes merge -s ours`` first, for the history (the merged notes commit has both parents,
so publishing it afterwards is a fast-forward), then every note whose two sides differ is
rewritten as the union of both lists. Nothing either side recorded is lost, and the note stays
one JSON list.

Every git call goes through ``hooks.core.git``; reading many trees' notes is one ``ls-tree``
and one ``cat-file --batch``, whatever the number of trees.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence

from hooks.core import digests
from hooks.core import git
from hooks.core import git_notes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

NOTES_NAME = "receipts"
NOTES_REF = f"refs/notes/{NOTES_NAME}"
FETCHED_REF = "refs/receipt-hooks/fetched-notes"  # a scratch ref: never the user's namespace
MAX_NOTE_BYTES = 8 << 20


def digest(receipt: dict[str, Any]) -> str:
    text = json.dumps(receipt, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate from a "\\ud800" escape: no receipt, but kept
        raw = text.encode("utf-8", "surrogatepass")
    return digests.sha256(raw).hexdigest()


def canonical(receipt: dict[str, Any]) -> bytes:
    """The bytes a note receipt is schema-checked (and remembered) as."""
    return json.dumps(receipt, sort_keys=True, separators=(",", ":")).encode()


def parse(raw: bytes | None) -> list[dict[str, Any]]:
    """The receipts in a note; a note that is not a JSON list (or object) of objects holds none."""
    if not raw or len(raw) > MAX_NOTE_BYTES:
        return []
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return []
    items = data if isinstance(data, list) else [data]
    return [r for r in items if isinstance(r, dict)]


def encode(receipts: Sequence[dict[str, Any]]) -> bytes:
    return (json.dumps(list(receipts), indent=1, sort_keys=True) + "\n").encode()


def union(*lists: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every receipt of every list once, in the order first seen."""
    seen: dict[str, dict[str, Any]] = {}
    for receipts in lists:
        for receipt in receipts:
            seen.setdefault(digest(receipt), receipt)
    return list(seen.values())


@contextlib.contextmanager
def _locked(cwd: str | None, common_dir: str | None = None) -> Iterator[None]:
    """One writer of the notes at a time in this repository (all its worktrees).

    A note is read, extended and replaced; two runs finishing together would each write a list
    without the other's receipt. git has no compare-and-swap for one note, so the writers take
    a lock file in the shared git dir (flock: released by the kernel if a writer dies). Where
    flock does not exist (Windows) writes are not serialised.
    """
    try:
        import fcntl
    except ImportError:
        yield
        return
    path = os.path.join(common_dir or git.repo_paths(cwd).common_dir, "receipt-hooks",
                        "notes.lock")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a+b") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


def add(receipt: dict[str, Any], tree: str, cwd: str | None = None) -> bool:
    """Add RECEIPT to the note on TREE; False when it was already there."""
    with _locked(cwd):
        # the first receipt of a repository in one process instead of two; when notes exist,
        # reading first is likelier to be right (the same tree run again); either way is exact
        if not git_notes.loose_ref_exists(NOTES_REF, cwd) and git_notes.note_add_new(
                NOTES_NAME, tree, encode(union([receipt])), cwd=cwd):
            return True
        existing = parse(git_notes.note_show(NOTES_NAME, tree, cwd=cwd))
        merged = union(existing, [receipt])
        if len(merged) == len(existing):
            return False
        git_notes.note_write(NOTES_NAME, tree, encode(merged), cwd=cwd)
        return True


FANOUTS = 4  # note paths git writes: ab..., ab/cd..., ab/cd/ef..., ab/cd/ef/gh...


def _note_paths(object_id: str) -> list[str]:
    return ["/".join([*(object_id[2 * i:2 * i + 2] for i in range(depth)), object_id[2 * depth:]])
            for depth in range(FANOUTS)]


def receipts_for(trees: Iterable[str], notes_revs: Sequence[str] = (NOTES_REF,),
                 cwd: str | None = None) -> dict[str, list[dict[str, Any]]]:
    """Tree -> its receipts, from every notes commit in NOTES_REVS (a pushed one not yet a ref).

    Inside a ``batch_session`` the few trees of a check are asked for by their note paths in
    that one process; otherwise the notes tree is listed once, whatever the number of trees."""
    wanted = set(trees)
    asked = {f"{rev}:{path}": tree for rev in notes_revs for tree in sorted(wanted)
             for path in _note_paths(tree)} if len(wanted) <= 8 else {}
    answered = git.session_blobs(asked, cwd=cwd) if asked else None
    if answered is not None:
        by_session: dict[str, list[dict[str, Any]]] = {}
        for spec, content in answered.items():
            tree = asked[spec]
            by_session[tree] = union(by_session.get(tree, []), parse(content))
        return by_session
    where: list[tuple[str, str]] = []
    for rev in notes_revs:
        index = git_notes.notes_index(rev, cwd=cwd)
        where += [(tree, index[tree]) for tree in wanted if tree in index]
    contents = git.objects((blob for _tree, blob in where), cwd=cwd)
    found: dict[str, list[dict[str, Any]]] = {}
    for tree, blob in where:
        found[tree] = union(found.get(tree, []), parse(contents.get(blob)))
    return found


def merge_from(other: str, cwd: str | None = None) -> int:
    """Merge the notes commit OTHER into ours without losing a receipt; the trees rewritten."""
    theirs = git_notes.notes_index(other, cwd=cwd)
    if not theirs:
        return 0
    git_notes.notes_merge_ours(NOTES_NAME, other, cwd=cwd)
    ours = git_notes.notes_index(NOTES_REF, cwd=cwd)
    differing = [t for t, blob in theirs.items() if ours.get(t) not in (None, blob)]
    contents = git.objects([*(theirs[t] for t in differing), *(ours[t] for t in differing)],
                           cwd=cwd)
    rewritten = 0
    for tree in differing:
        mine = parse(contents.get(ours[tree]))
        merged = union(mine, parse(contents.get(theirs[tree])))
        if len(merged) != len(mine):
            git_notes.note_write(NOTES_NAME, tree, encode(merged), cwd=cwd)
            rewritten += 1
    return rewritten


def merge_into_ref(others: Sequence[str], git_dir: str) -> bool:
    """Merge the notes commits OTHERS into NOTES_REF in the repository GIT_DIR (a server's,
    bare, while pushes land): under the notes lock, the union is built without moving any ref,
    then NOTES_REF is moved by compare-and-swap (a push may move it at any moment: built again
    then). False when NOTES_REF already held every receipt of OTHERS."""
    import random
    import time

    with _locked(git_dir, common_dir=git_dir):
        for _attempt in range(100):
            base = git.resolve_commit(NOTES_REF, cwd=git_dir)
            new = [c for c in dict.fromkeys(others)
                   if base is None or not git_notes.is_ancestor(c, base, cwd=git_dir)]
            if not new:
                return False
            if base is None:
                merged = new[0] if len(new) == 1 else _union_commit(new[0], new[1:], git_dir)
            elif len(new) == 1 and git_notes.is_ancestor(base, new[0], cwd=git_dir):
                merged = new[0]  # a fast-forward: the push's own notes, as they came
            else:
                merged = _union_commit(base, new, git_dir)
            if git_notes.swap_ref(NOTES_REF, merged, base, cwd=git_dir):
                return True
            time.sleep(random.uniform(0.005, 0.05))  # noqa: S311  # jitter, not secrecy
    raise git.GitError(f"{NOTES_REF} kept moving: {len(others)} pushed notes commit(s) not "
                       f"merged into it yet; they are kept and merged by the next push")


def _union_commit(base: str, others: Sequence[str], cwd: str) -> str:
    """A notes commit after BASE and OTHERS holding every receipt of each, each note a union."""
    indexes = [git_notes.notes_index(rev, cwd=cwd) for rev in (base, *others)]
    blobs: dict[str, list[str]] = {}
    for index in indexes:
        for tree, blob in index.items():
            if blob not in blobs.setdefault(tree, []):
                blobs[tree].append(blob)
    differing = {tree: found for tree, found in blobs.items() if len(found) > 1}
    contents = git.objects((b for found in differing.values() for b in found), cwd=cwd)
    rewritten = {}
    for tree, found in differing.items():
        merged = union(*(parse(contents.get(blob)) for blob in found))
        if encode(merged) != contents.get(found[0]):
            rewritten[tree] = encode(merged)
    return git_notes.merge_commit(base, others, rewritten, "Notes merged by receipt-hooks from "
                                  "pushes (a union: no receipt dropped)", cwd=cwd)


def fetch(remote: str, cwd: str | None = None) -> bool:
    """Bring REMOTE's receipts notes and merge them into ours; False when it has none. A
    one-line error, nothing merged, when theirs is not a notes commit (a blob, a tree)."""
    with _locked(cwd):
        return _fetch_merge(remote, cwd) is not None


def _fetch_merge(remote: str, cwd: str | None) -> str | None:
    """Under the lock: fetch REMOTE's notes and merge them into ours; the commit fetched (the
    value a compare-and-swap push expects to replace), None when REMOTE has none."""
    if not git_notes.fetch_ref(remote, NOTES_REF, FETCHED_REF, cwd=cwd):
        return None
    try:
        theirs = git.resolve_commit(FETCHED_REF, cwd=cwd)
        if theirs is None:
            kind = git.text("cat-file", "-t", FETCHED_REF, cwd=cwd)
            raise git.GitError(f"{remote}'s {NOTES_REF} is a {kind}, not a notes commit: "
                               f"nothing merged; its receipts are gone or damaged there "
                               f"(a server running 'receipt verify --pre-receive' refuses "
                               f"such a push): ask its admin to restore the ref")
        merge_from(FETCHED_REF, cwd=cwd)
    finally:
        git_notes.delete_ref(FETCHED_REF, cwd=cwd)
    return theirs


PUBLISH_DEADLINE_S = 120.0
# git's words when a push lost a race for the ref: another push moved it between our fetch
# and our push (lease broken, not a fast-forward any more) or held its lock at that moment
_LOST_RACE = ("stale info", "fetch first", "non-fast-forward", "failed to update ref",
              "cannot lock ref", "but expected", "incorrect old value", "failed to lock")


class Published:
    """What ``publish`` did: receipts the remote did not have before, and the attempts taken."""

    def __init__(self, new_receipts: int, attempts: int) -> None:
        self.new_receipts = new_receipts
        self.attempts = attempts

    def said(self, remote: str) -> str:
        if self.new_receipts == 0:
            return f"{remote} already has every receipt here: nothing new to push"
        tries = f", {self.attempts} attempts (other publishers raced)" if self.attempts > 1 \
            else ""
        return (f"{self.new_receipts} receipt(s) new on {remote} (theirs merged in first"
                f"{tries})")


def publish(remote: str, cwd: str | None = None,
            deadline_s: float = PUBLISH_DEADLINE_S) -> Published:
    """Push our notes to REMOTE without losing theirs or ours, however many publish at once.

    Each attempt fetches REMOTE's notes, merges them into ours (a union) and pushes the result
    with a compare-and-swap on the commit it fetched (``--force-with-lease``): if another
    publisher moved the ref in between, the push is refused rather than replacing theirs, and
    the attempt is made again after a jittered, growing pause (publishers that collided do not
    collide again in step). Gives up with a one-line error when DEADLINE_S has passed; what
    was merged here stays in our notes for the next try.
    """
    import random
    import time

    started = time.monotonic()
    attempt = 0
    while True:
        attempt += 1
        with _locked(cwd):
            theirs = _fetch_merge(remote, cwd)
            ours = git.resolve_commit(NOTES_REF, cwd=cwd)
            if ours is None:
                raise git.GitError(f"no receipts to publish: {NOTES_REF} does not exist here "
                                   f"or on {remote}; 'receipt run' writes them")
            if ours == theirs:
                return Published(0, attempt)
            try:
                git_notes.push_swapped(remote, ours, NOTES_REF, theirs, cwd=cwd)
                return Published(_receipts_added(theirs, ours, cwd), attempt)
            except git.GitError as e:
                if not any(words in e.stderr for words in _LOST_RACE):
                    raise git.GitError(f"{remote} refused {NOTES_REF} after its notes "
                                       f"were merged into ours: {_refusal(e)}") from None
                lost = e
        waited = time.monotonic() - started
        if waited >= deadline_s:
            raise git.GitError(f"{remote}'s {NOTES_REF} kept moving: {attempt} attempts in "
                               f"{waited:.0f} s lost the race to other publishers "
                               f"({_refusal(lost)}); every receipt is still here: run "
                               f"'receipt publish {remote}' again")
        # jitter, not secrecy: publishers that collided must not retry in step
        pause = random.uniform(0.5, 1.0) * min(2.0, 0.05 * 2 ** min(attempt, 6))  # noqa: S311
        time.sleep(min(pause, max(0.0, deadline_s - waited)))


def _receipts_added(before: str | None, after: str, cwd: str | None) -> int:
    """How many receipts the notes commit AFTER holds that BEFORE (None: no notes) does not."""
    old = git_notes.notes_index(before, cwd=cwd) if before else {}
    new = git_notes.notes_index(after, cwd=cwd)
    changed = [tree for tree, blob in new.items() if old.get(tree) != blob]
    contents = git.objects([*(new[t] for t in changed), *(old[t] for t in changed if t in old)],
                           cwd=cwd)
    return sum(len({digest(r) for r in parse(contents.get(new[t]))}
                   - {digest(r) for r in parse(contents.get(old.get(t, "")))})
               for t in changed)


def _refusal(error: git.GitError) -> str:
    """The line of git's push output that says why (its last line is often only a hint)."""
    said = [line.strip() for line in error.stderr.splitlines() if line.strip()]
    why = [line for line in said if line.startswith(("remote: receipt", "! ", "error:"))]
    return "; ".join(why[:2]) or (said[0] if said else str(error))
