"""``receipt verify``: every commit of a range, or every ref a server receives, needs a receipt
in the notes. The judging is ``check``'s (same policy, same exit codes) without the files:
in CI and on a server the notes are the only receipts that travelled.

Speed: the range is listed with its trees in one ``rev-list``, the notes for all trees are
read in one ``ls-tree`` and one ``cat-file --batch``; a commit costs no process of its own.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence

from hooks.core import git
from hooks.core import git_notes
from hooks.core.output import Finding
from hooks.receipt.judge.check import CheckResult

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ZERO = frozenset("0")
# A per-push ref a pusher may send its notes to instead of refs/notes/receipts: unique names
# never race; the server judges by them and merges them in (``merge_pushed_notes``)
INCOMING_PREFIX = "refs/receipts/incoming/"
SPOOL_DIR = ("receipt-hooks", "incoming")  # in the server's git dir: notes commits to merge


class Pushed:
    """What a pre-receive hook was given: the branch tips to judge and any pushed notes."""

    def __init__(self) -> None:
        self.commits: list[str] = []
        self.notes: list[str] = []
        self.notes_updates: list[tuple[str, str]] = []  # (old, new) of the notes ref
        self.incoming: list[tuple[str, str]] = []  # (ref, new) of refs/receipts/incoming/*
        self.passed: list[str] = []  # refs let through unjudged, with why
        self.deleted: list[str] = []  # branches the push deletes (``refuse_policy_deletion``)
        self.others: list[tuple[str, str]] = []  # (new id, ref) of tags and other refs


def read_pre_receive(data: str, notes_ref: str) -> Pushed:
    """Parse git's pre-receive lines '<old> <new> <ref>'.

    A branch deletion (new all zeros) passes, unless it deletes the branch the policy comes
    from (``refuse_policy_deletion``); an update of the notes ref is listed for
    ``refuse_notes_update`` and its commit read, not judged; tags and other refs are listed
    for ``commits_of_other_refs`` (each commit one names is judged like a branch tip); each
    branch's new tip is judged against its own tree.
    """
    from hooks.core.change import is_code

    pushed = Pushed()
    for line in data.splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        old, new, ref = parts
        if ref == notes_ref:
            pushed.notes_updates.append((old, new))
            if not set(new) <= ZERO:
                pushed.notes.append(new)
        elif set(new) <= ZERO:
            pushed.passed.append(f"{ref} (deleted)")
            pushed.deleted.append(ref)
        elif ref.startswith(INCOMING_PREFIX):
            pushed.incoming.append((ref, new))
            pushed.notes.append(new)
        elif ref.startswith("refs/heads/"):
            if new not in pushed.commits:
                pushed.commits.append(new)
        else:
            pushed.passed.append(f"{ref} (not a branch)")
            if is_code(ref):  # other notes refs hold no tree a run could test
                pushed.others.append((new, ref))
    return pushed


def refuse_policy_deletion(deleted: Sequence[str], policy_rev: str | None, root: str) -> None:
    """A one-line refusal (exit 1) when the push deletes the branch POLICY_REV (the server's
    HEAD, or --policy-from) names: the next push would be judged by no policy at all."""
    from hooks.core.errors import UserError

    if not deleted:
        return
    try:
        ref = git.text("symbolic-ref", "--quiet", "HEAD", cwd=root) if policy_rev in (
            None, "HEAD") else git.text("rev-parse", "--symbolic-full-name", str(policy_rev),
                                        cwd=root)
    except git.GitError:
        return  # no branch names the policy (a commit id): deleting a branch cannot reset it
    if ref in deleted:
        raise UserError(f"receipt verify: push refused: it would delete {ref}, the branch this "
                        f"server's policy comes from; the next push would be judged by no "
                        f"policy: change the policy by pushing a commit to it instead")


def commits_of_other_refs(others: Sequence[tuple[str, str]], branch_tips: Sequence[str],
                          root: str) -> list[str]:
    """The commits that tags and other refs of the push name, judged like branch tips (those
    among the pushed BRANCH_TIPS once): a release pipeline builds a tag whatever branch holds
    it, and a branch that holds it says nothing of it having been tested (under ``require =
    "tip"`` only its tip was judged; a commit pushed before the hook was never judged)."""
    tips: list[str] = []
    for new, _ref in others:
        try:
            commit = git.text("rev-parse", "--verify", "--quiet", f"{new}^{{commit}}", cwd=root)
        except git.GitError:
            continue  # a tag on a tree or a blob: no commit, no receipt to ask for
        if commit not in tips and commit not in branch_tips:
            tips.append(commit)
    return tips


def refuse_notes_update(old: str, new: str, notes_ref: str, root: str) -> None:
    """A one-line refusal (exit 1) when a push would take receipts away from NOTES_REF: delete
    it, point it at something that is not a notes commit, rewrite it (not a fast-forward), or
    fast-forward to notes that drop some. Receipts are only added: ``receipt publish`` merges."""
    from hooks.core.errors import UserError

    refused = f"receipt verify: push refused: it would {{}} {notes_ref}, the receipts this " \
              f"server judges by; receipts are only added: 'receipt fetch', then 'receipt publish'"
    if set(new) <= ZERO:
        raise UserError(refused.format("delete"))
    kind = git.text("cat-file", "-t", new, cwd=root)
    if kind != "commit":
        raise UserError(refused.format(f"point at a {kind}, not a notes commit, as"))
    if set(old) <= ZERO or git.text("cat-file", "-t", old, cwd=root) != "commit":
        return  # the first notes, or a repair of a ref that held no notes commit
    if not git_notes.is_ancestor(old, new, cwd=root):
        raise UserError(refused.format(f"rewrite (not a fast-forward of {git.short(old)})"))
    dropped = set(git_notes.notes_index(old, cwd=root)) - set(git_notes.notes_index(new, cwd=root))
    if dropped:
        more = ", ..." if len(dropped) > 1 else ""
        raise UserError(refused.format(f"remove {len(dropped)} note(s) (on "
                                       f"{git.short(min(dropped))}{more}) from"))


def spool_pushed_notes(notes_commits: Sequence[str], git_dir: str) -> None:
    """Pre-receive, once the push is accepted: name each notes commit it brought in a file of
    the server's spool, so that the post-receive hook merges it into the notes ref even if
    git's own update of that ref loses a race with another push (the branch it vouched for
    lands either way). The file name starts with the receiving process's id, which both hooks
    of one push share, so the post-receive hook knows its own push's notes."""
    from hooks.core.fileio import atomic_write

    where = os.path.join(git_dir, *SPOOL_DIR)
    os.makedirs(where, exist_ok=True)
    for commit in dict.fromkeys(notes_commits):
        atomic_write(os.path.join(where, f"{os.getppid()}-{commit}"), f"{commit}\n".encode())


STALE_SPOOL_S = 24 * 3600.0


def merge_pushed_notes(data: str, notes_ref: str, git_dir: str) -> list[str]:
    """Post-receive: merge every spooled notes commit into NOTES_REF (a union, by
    compare-and-swap), then delete the incoming refs it merged. DATA is git's '<old> <new>
    <ref>' lines of the refs this push updated. Returns what to tell this push's pusher.

    Every spooled commit is merged, not only this push's: one whose own post-receive has not
    run yet is merged twice, which adds nothing, and its spool file is left for that hook,
    which alone can tell its pusher that git refused the notes update. A commit whose objects
    are not here yet (its push is still landing) is left for that push; a file left for a day
    (its push died after the pre-receive hook) is dropped, merged or not.
    """
    import time

    from hooks.receipt.store.notes import merge_into_ref

    updated: dict[str, str] = {}
    for line in data.splitlines():
        parts = line.split()
        if len(parts) == 3:
            updated[parts[2]] = parts[1]
    where = os.path.join(git_dir, *SPOOL_DIR)
    try:
        names = sorted(os.listdir(where))
    except FileNotFoundError:
        names = []
    arrived: dict[str, str] = {}  # spool file -> its notes commit, if its objects are here
    for name in names:
        path = os.path.join(where, name)
        commit = name.partition("-")[2]
        if git.resolve_commit(commit, cwd=git_dir) is not None:
            arrived[path] = commit
            continue
        with _gone_already():
            if time.time() - os.stat(path).st_mtime > STALE_SPOOL_S:
                os.unlink(path)
    merge_into_ref(list(arrived.values()), git_dir)
    mine = f"{os.getppid()}-"
    for path in arrived:  # another push's file stays for its own post-receive to tell it
        with _gone_already():
            if (os.path.basename(path).startswith(mine)
                    or time.time() - os.stat(path).st_mtime > STALE_SPOOL_S):
                os.unlink(path)
    told = [f"receipt verify: {notes_ref} moved during this push (another push landed "
            f"first), so git refused this push's update of it; the receipts it was judged by "
            f"({git.short(commit)}) are merged into it here: nothing is lost. Before pushing "
            f"the notes again: 'receipt fetch <remote>'"
            for path, commit in arrived.items()
            if os.path.basename(path).startswith(mine) and commit not in updated.values()]
    head = git.resolve_commit(notes_ref, cwd=git_dir)
    for ref, new in updated.items():
        if ref.startswith(INCOMING_PREFIX) and head and git_notes.is_ancestor(new, head,
                                                                              cwd=git_dir):
            with _gone_already(git.GitError):
                git.run("update-ref", "-d", ref, new, cwd=git_dir)  # only if still NEW
    return told


def _gone_already(*more: type[BaseException]) -> contextlib.AbstractContextManager[None]:
    """Another post-receive hook took this spool file or ref first: nothing left to do."""
    return contextlib.suppress(FileNotFoundError, *more)


def commits_of(ranges: Sequence[str], revs: Sequence[str], head_only: bool,
               root: str) -> list[str]:
    """The commits to verify, newest first, listed with their trees in one git call each:
    every commit of RANGES, or with HEAD_ONLY (the "tip" rule, --head) the newest of each."""
    listed: list[str] = []
    for spec in ranges:
        found = [c for c, _t in git.commit_trees([spec], walk=True, cwd=root)]
        listed += found[:1] if head_only else found
    if revs or not ranges:
        listed += [c for c, _t in git.commit_trees(revs or ["HEAD"], walk=False, cwd=root)]
    return list(dict.fromkeys(listed))


def vouching_json(result: CheckResult) -> dict[str, list[dict[str, Any]]]:
    """Commit -> the receipts that vouched for it (every shard of a composed set), for
    ``--format json``: each by digest, command, shard, where and when it ran."""
    from hooks.receipt.store.notes import digest

    return {commit: [{"digest": digest(data), "command": data.get("command"),
                      "shard": data.get("shard") and {k: data["shard"].get(k)
                                                      for k in ("index", "count")},
                      "source": shown, "hostname": data.get("hostname"),
                      "finished_utc": data.get("finished_utc"),
                      "exit_code": data.get("exit_code")} for data, shown in found]
            for commit, found in result.vouching.items()}


def step_summary(result: CheckResult, root: str) -> str:
    """A Markdown table for $GITHUB_STEP_SUMMARY: one row per commit and receipt."""
    rows = ["| commit | tree | command | counts | where | when | verdict |",
            "|---|---|---|---|---|---|---|"]
    failed: dict[str, list[Finding]] = {}
    for f in result.findings:
        if f.commit:
            failed.setdefault(f.commit, []).append(f)
    for commit in result.commits:
        tree = git.short(git.tree_of(commit, root))
        for data, _shown in result.vouching.get(commit, []):
            rows.append(_row(commit, tree, data, "✅ vouched"))
        if commit in failed:
            verdict = "❌ " + _cell(failed[commit][0].message)
            rows.append(f"| {git.short(commit)} | {tree} | | | | | {verdict} |")
        elif commit not in result.vouching:
            rows.append(f"| {git.short(commit)} | {tree} | | | | | overridden |")
    title = "### Receipts: " + ("all commits vouched for" if result.exit_code == 0
                                 else f"refused (exit {result.exit_code})")
    return "\n".join([title, "", *rows, ""]) + "\n"


def _row(commit: str, tree: str, data: dict[str, Any], verdict: str) -> str:
    tests = data.get("tests")
    counts = (f"{tests.get('passed')} passed, {tests.get('failed')} failed, "
              f"{tests.get('skipped')} skipped" if isinstance(tests, dict) else "not counted")
    return (f"| {git.short(commit)} | {tree} | `{_cell(str(data.get('command')))}` | {counts} "
            f"| {_cell(str(data.get('hostname')))} | {data.get('finished_utc')} | {verdict} |")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ").replace("`", "'")[:200]


def append_step_summary(text: str) -> None:
    path = os.environ.get("GITHUB_STEP_SUMMARY")
    if not path:
        return
    try:
        with open(path, "a", encoding="utf-8") as summary:
            summary.write(text)
    except OSError as e:
        from hooks.core.output import warn

        warn(f"receipt verify: warning: could not append to $GITHUB_STEP_SUMMARY ({e})")
