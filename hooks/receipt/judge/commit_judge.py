"""Judging one commit: the last-run receipt, or each receipt the repository's policy needs, found
in the receipt files or the notes, each read for staleness, tamper evidence and signatures.
``Judge.commit`` returns what it found (``JudgedCommit``); ``judge_commits`` (judge/check.py) drives
it over the commits and assembles the ``CheckResult``.
"""

from __future__ import annotations

import os
from typing import Any
from typing import NamedTuple

from hooks.core import exits
from hooks.core import git
from hooks.core.cmdline import quoted
from hooks.core.config import Config
from hooks.core.output import Finding
from hooks.receipt.judge.noted_receipts import NotedReceipts
from hooks.receipt.judge.tamper import Tamper
from hooks.receipt.judge.verdict import Requirements
from hooks.receipt.judge.verdict import evaluate
from hooks.receipt.store import layout
from hooks.receipt.store.load import LoadedReceipt
from hooks.receipt.store.load import load

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hooks.receipt.judge.suite import Need
    from hooks.receipt.signing import Signers


class JudgedCommit(NamedTuple):
    """One commit judged: every reason it is refused (none: it is vouched for), the receipts
    found vouching while it was judged (each with where it is), and the policy notes it made."""

    findings: tuple[Finding, ...]
    vouching: tuple[tuple[dict[str, Any], str], ...]
    notes: tuple[str, ...]


class Judge:
    """Every finding for one commit: the last-run receipt, or each receipt the policy needs.
    SHOWN is the receipt file's path as the user names it."""

    def __init__(self, root: str, receipt_path: str, shown: str, memo: str,
                 requirements: Requirements, policy_file: Config) -> None:
        self.root = root
        self.receipt_path = receipt_path
        self.shown = shown
        self.memo = memo
        self.requirements = requirements
        self.policy_file = policy_file
        self._vouching: list[tuple[dict[str, Any], str]] = []  # of the commit being judged
        self._notes: list[str] = []

    files = True
    tamper: Tamper | None = None
    signers: Signers | None = None
    noted: NotedReceipts

    def commit(self, commit: str, loaded: LoadedReceipt) -> JudgedCommit:
        """COMMIT judged by the receipt file LOADED and everything else its policy reads."""
        self._vouching, self._notes = [], []
        found = self._findings(commit, loaded)
        return JudgedCommit(tuple(found), tuple(self._vouching), tuple(self._notes))

    def _findings(self, commit: str, loaded: LoadedReceipt) -> list[Finding]:
        if not (self.policy_file.test_commands or self.policy_file.routes):
            newest = self.newest(commit, None, loaded)
            if newest is not None:
                return newest
            from_files = self.receipt(commit, loaded, self.shown) if self.files else []
            return self.from_notes(commit, None, from_files)
        from hooks.receipt.judge import suite

        found: list[Finding] = []
        for need in suite.needs(self.policy_file, commit, self.root):
            said = {f.message for f in found}  # a malformed file is one finding, not one a need
            newest = self.newest(commit, need.command, loaded)
            if newest is not None:
                found += [f for f in newest if f.message not in said]
                continue
            from_files = self.need(commit, need, loaded) if self.files else []
            found += [f for f in self.from_notes(commit, need.command, from_files)
                      if f.message not in said]
        return found

    def newest(self, commit: str, command: str | None,
               loaded: LoadedReceipt) -> list[Finding] | None:
        """The refusal when the newest receipt on COMMIT's tree (COMMAND's, when the policy
        names one) ran red, changed the tree or tested nothing: an older green one then does
        not vouch (``newest.refusal``); None otherwise. A malformed receipt file is refused
        by the usual path, whatever else the tree holds."""
        from hooks.receipt.judge import newest
        from hooks.receipt.store import keyed

        if any(f.code == exits.INVALID for f in loaded.findings):
            return None
        files: list[tuple[dict[str, Any], str]] = []
        if self.files and loaded.data is not None and not loaded.findings:
            if self.tamper is not None and self.tamper.findings(commit, loaded.data,
                                                                self.shown):
                return None  # an edited receipt or a replaced log: refused as such
            files.append((loaded.data, self.shown))
        if self.files and command is not None:
            path = keyed.keyed_path(self.receipt_path, keyed.configured_argv(command))
            if os.path.isfile(path):
                shown = layout.repo_relative(self.root, path)
                kept = load(path, shown, self.memo)
                if kept.data is not None and not kept.findings:
                    files.append((kept.data, shown))
        trees = self.noted.trees_of(commit)
        # the files first: a receipt also in the notes is named by its file
        on_tree = [(data, shown) for data, shown in files if data.get("git_tree") in trees
                   and (command is None or ((argv := keyed.judged_argv(data)) is not None
                                            and keyed.same_command(argv, command)))]
        on_tree += self.noted.candidates(commit, command)
        refused = newest.refusal(commit, on_tree, command is not None, self.requirements)
        if refused is None:
            return None
        # only a refusal pays for schema-checking the notes: a malformed one does not decide
        valid = [(data, shown) for data, shown in on_tree if (data, shown) in files
                 or not self.noted.load(data, shown, self.memo).findings]
        return refused if len(valid) == len(on_tree) else \
            newest.refusal(commit, valid, command is not None, self.requirements)

    def from_notes(self, commit: str, command: str | None,
                   from_files: list[Finding]) -> list[Finding]:
        """[] when a note receipt (from COMMAND, when the policy names one) vouches for COMMIT;
        else the files' findings, or the closest note receipt's, or "no receipt"."""
        if self.files and not from_files:
            return []
        if any(f.code == exits.INVALID for f in from_files):
            return from_files  # a malformed or tampered receipt is refused, whatever else vouches
        # --- shards hook-in (judge/shards.py): a complete green set of shards vouches;
        # an incomplete one is the refusal when no whole-suite receipt speaks; a shard
        # receipt is never judged alone here
        from hooks.receipt.judge import shards

        composed = shards.compose(self, commit, command)
        if composed == []:
            return []
        if composed and composed[0].kind == "flaky":  # a red run after the shards passed
            return composed
        # --- end of the shards hook-in
        closest: list[Finding] = []
        for data, shown in self.noted.candidates(commit, command):
            if shards.shard_of(data) is not None:  # shards hook-in: counted by compose only
                continue
            found = self.receipt(commit, self.noted.load(data, shown, self.memo), shown,
                                 narrowing_ok=command is not None)
            if not found:
                return []
            closest = closest or found
        if composed and not closest:  # shards hook-in: what the shards lack is the refusal
            return composed
        unreadable = None if closest or (from_files and from_files[0].kind != "missing") \
            else self.noted.unreadable(commit)
        if unreadable is not None:
            return [unreadable]
        if from_files and (not closest or from_files[0].kind != "missing"):
            return from_files
        return closest or [self.noted.missing(commit, command)]

    def need(self, commit: str, need: Need, loaded: LoadedReceipt) -> list[Finding]:
        from hooks.core.cmdline import rerun_command
        from hooks.receipt.store import keyed

        argv = keyed.configured_argv(need.command)
        run = "receipt run" if need.route is None else rerun_command(argv)
        if any(f.code == exits.INVALID for f in loaded.findings):
            # malformed: refused whatever else vouches, as a malformed keyed file or note is
            return self.receipt(commit, loaded, self.shown, rerun=run)
        recorded = keyed.judged_argv(loaded.data) if loaded.data is not None else None
        last_run_is_it = recorded is not None and keyed.same_command(recorded, need.command)
        if last_run_is_it:
            return self.receipt(commit, loaded, self.shown, narrowing_ok=True)
        wrong = [] if loaded.data is None else [Finding(
            f"wrong trial: {git.short(commit)}: the receipt ran "
            f"{quoted(keyed.described(loaded.data))}, "
            f"{need.why()}: run {quoted(run)}, then push again", exits.OFF_POLICY, "wrong-trial",
            commit=commit)]
        path = keyed.keyed_path(self.receipt_path, argv)
        if os.path.isfile(path):  # an earlier run of the command: it may still vouch
            shown = layout.repo_relative(self.root, path)
            found = self.receipt(commit, load(path, shown, self.memo), shown, narrowing_ok=True)
            return found + wrong if found else []
        return wrong or self.receipt(commit, loaded, self.shown, rerun=run)

    def receipt(self, commit: str, loaded: LoadedReceipt, shown: str,
                narrowing_ok: bool = False, rerun: str | None = None, as_shard: bool = False,
                record: bool = True) -> list[Finding]:
        """Every reason LOADED does not vouch for COMMIT; [] (and, when RECORD, it is listed
        as what vouched) when it does. AS_SHARD: judged as one shard of a set (``shards``
        composes them); otherwise a shard receipt never vouches."""
        from hooks.core.cmdline import rerun_command
        from hooks.receipt.judge.staleness import compare

        label = git.short(commit)
        if loaded.data is None or loaded.findings:
            # no receipt to read the command from: the policy's command (RERUN) is the fix
            unknown = rerun_command(None)
            return [Finding(f"{label}: {f.message.replace(unknown, rerun or unknown)}", f.code,
                            f.kind, commit=commit) for f in loaded.findings]
        # shards hook-in; the module (and its base64, zlib) loaded only for a shard receipt
        if not as_shard and isinstance(loaded.data.get("shard"), dict):
            from hooks.receipt.judge import shards

            return [shards.alone(commit, loaded.data, shown)]
        misnamed = _misnamed_log(commit, loaded.data, shown, self.root)
        if misnamed:
            return [Finding(f"{label}: {misnamed}", exits.INVALID, "invalid", commit=commit)]
        match = compare(commit, loaded.data, shown, self.root, self.policy_file.ignore,
                        self.policy_file.path)
        required = self.requirements
        if narrowing_ok and not required.allow_narrowing:  # the configured command is the policy
            required = Requirements(max_age_s=required.max_age_s,
                                    require_command=required.require_command,
                                    require_platform=required.require_platform,
                                    allow_narrowing=True, require_tests=required.require_tests)
        found = evaluate(loaded.data, commit=commit, tree_match=match, shown_path=shown,
                         requirements=required)
        if self.tamper is not None:
            found += self.tamper.findings(commit, loaded.data, shown)
        if self.signers is not None:
            found += self.signers.findings(commit, loaded.data, shown)
        if not found and record:
            self.vouched_by(loaded.data, shown)
        return found

    def vouched_by(self, data: dict[str, Any], shown: str) -> None:
        """Record DATA (found at SHOWN) as a receipt that vouches for the commit being judged."""
        self._vouching.append((data, shown))

    def add_note(self, note: str) -> None:
        """A policy note about the commit being judged (the shards' coverage)."""
        self._notes.append(note)


def _misnamed_log(commit: str, data: dict[str, Any], receipt: str, root: str) -> str | None:
    """What is wrong when the receipt's ``output.log`` names a file committed in COMMIT that is
    not that log. The comparison leaves the log out of the commit's tree (for those who commit
    it, as the seed did); naming any other tracked file (src/app.py) would leave that out."""
    output = data.get("output")
    log = output.get("log") if isinstance(output, dict) else None
    if not isinstance(log, str) or not isinstance(output, dict) or \
            not git.paths_in_commit(commit, [log], cwd=root):
        return None
    from hooks.core import digests

    content = git.blob(f"{commit}:{log}") or b""
    if digests.sha256(content).hexdigest() == output.get("sha256"):
        return None
    return (f"{receipt} is not a valid receipt: output.log names {log}, a file tracked in "
            f"{git.short(commit)} that is not the log it describes (its sha256 differs): run "
            f"{quoted(layout.rerun_hint(data))}")
