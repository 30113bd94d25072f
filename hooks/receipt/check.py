"""The receipt check as a function: which commits, which receipt, every finding.

Used by the ``check-receipt`` hook, ``receipt check`` and ``receipt show``; it prints nothing.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from collections.abc import Sequence

from hooks.core import git
from hooks.core.cmdline import quoted
from hooks.core.config import NO_CONFIG
from hooks.core.config import Config
from hooks.core.output import Finding
from hooks.receipt import model
from hooks.receipt.load import LoadedReceipt
from hooks.receipt.load import load
from hooks.receipt.noted import NotedReceipts
from hooks.receipt.notes import NOTES_REF
from hooks.receipt.policy import bookkeeping
from hooks.receipt.policy import hidden_by_ignore
from hooks.receipt.policy import hidden_message
from hooks.receipt.tamper import Tamper
from hooks.receipt.verdict import Policy
from hooks.receipt.verdict import evaluate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from hooks.core.git import RepoPaths
    from hooks.receipt.signing import Signers
    from hooks.receipt.suite import Need


class CheckResult:
    __slots__ = ("commands", "commits", "findings", "notes", "policy_notes", "receipt", "shown",
                 "sources", "vouching")

    def __init__(self, commits: list[str], findings: list[Finding], shown: str,
                 receipt: LoadedReceipt | None) -> None:
        self.commits = commits
        self.findings = findings
        self.shown = shown  # the receipt's path as the user names it
        self.receipt = receipt
        self.commands: list[str] = []  # what the receipts that vouch ran
        self.sources: list[str] = []  # where they are: the file, a keyed file, a note
        self.vouching: dict[str, list[tuple[dict[str, Any], str]]] = {}  # commit -> them
        self.notes: list[str] = []  # overrides honoured: said every time, never silent
        self.policy_notes: list[str] = []  # the policy judging differs from the work tree's, ...

    def absorb(self, other: CheckResult) -> None:
        """Add OTHER's verdicts (commits judged by another policy) to these."""
        self.commits += [c for c in other.commits if c not in self.commits]
        self.findings += [f for f in other.findings if f not in self.findings]
        self.commands += other.commands
        self.sources += other.sources
        self.vouching.update(other.vouching)
        self.notes += other.notes
        self.policy_notes += other.policy_notes
        self.receipt = self.receipt or other.receipt

    @property
    def exit_code(self) -> int:
        from hooks.core.output import first_exit_code

        return first_exit_code((f.code for f in self.findings), (*model.CHECK_ORDER, 1))

    def vouched(self) -> str:
        """The line that says the check passed."""
        if not self.commits:  # a deletion, or a push git sends with nothing new
            return "check-receipt: nothing to check: the push sends no commits"
        if self.notes and not self.commands:
            return "\n".join(self.notes)
        data = self.receipt.data if self.receipt else None
        commands = self.commands or [str(data.get("command")) if data else ""]
        ok = ", ".join(git.short(c) for c in self.commits)
        where = ", ".join(dict.fromkeys(self.sources)) or self.shown
        return "\n".join([f"check-receipt: {ok}: {where} vouches for this tree "
                          f"({', '.join(dict.fromkeys(commands))})", *self.notes])


def commits_from_pre_push_stdin(data: str) -> list[str]:
    """Commit ids from git's pre-push lines '<local ref> <local id> <remote ref> <remote id>'.

    A local id of all zeros (40 for SHA-1, 64 for SHA-256) is a deletion: nothing to vouch for;
    a remote ref that is not code (notes: the receipts themselves) is not judged.
    """
    from hooks.receipt.pushed import is_code

    commits: list[str] = []
    for line in data.splitlines():
        parts = line.split()
        if len(parts) == 4 and not git.is_null_id(parts[1]) and is_code(parts[2]) \
                and parts[1] not in commits:
            commits.append(parts[1])
    return commits


def resolve(revs: Sequence[str], root: str,
            resolved: Mapping[str, str | None] | None = None) -> tuple[list[str], list[Finding]]:
    """REVS as commit ids, and a finding for each that names none; RESOLVED: revs already
    resolved (by ``git.commits_and_files``)."""
    commits: list[str] = []
    problems: list[Finding] = []
    for rev in revs:
        # ids a range listing already resolved (git.commit_trees) need no process each
        if resolved is not None and rev in resolved:
            commit = resolved[rev]
        else:
            commit = rev if rev in git.known_commits() else git.resolve_commit(rev, cwd=root)
        if commit is None:
            why = "the branch has no commits yet" if rev == "HEAD" else "it names no commit"
            problems.append(Finding(f"{rev}: nothing to check: {why}", 1, "usage"))
        elif commit not in commits:
            commits.append(commit)
    return commits, problems


def check_committed(revs: Sequence[str], receipt: str | None,
                    policy_for: Callable[[Config], Policy], *, require_log: bool = False,
                    signers: Signers | None = None) -> CheckResult:
    """Judge each of REVS by the policy committed in it, not the work tree's (see
    hooks/receipt/policy.py); ``policy_notes`` says where those differ and what a push changes."""
    paths = git.repo_paths()
    with git.batch_session(paths.root):  # the check's questions to cat-file: one process
        return _check_committed(revs, receipt, policy_for, paths, require_log, signers)


def _check_committed(revs: Sequence[str], receipt: str | None,
                     policy_for: Callable[[Config], Policy], paths: RepoPaths,
                     require_log: bool, signers: Signers | None) -> CheckResult:
    import json

    from hooks.core import config
    from hooks.receipt import policy
    from hooks.receipt import suite

    resolved = git.commits_and_files(revs, config.COMMITTED_FILES, cwd=paths.root)
    commits, _problems = resolve(revs, paths.root, resolved)
    suite.start_change_bases(commits, paths.root)  # policy.changes asks for them at the end
    configs = config.committed(commits, paths)
    groups: dict[str, tuple[Config, list[str]]] = {}
    for commit in commits:
        key = json.dumps([configs[commit].path, configs[commit].data], sort_keys=True)
        groups.setdefault(key, (configs[commit], []))[1].append(commit)
    result: CheckResult | None = None
    for policy_file, group in groups.values() or [(NO_CONFIG, [])]:
        part = check(group or revs, receipt, policy_for(policy_file), policy_file,
                     require_log=require_log, signers=signers)
        differs = policy.work_tree_differs(group[0], policy_file, paths) if group else None
        part.policy_notes += [differs] if differs else []
        for commit in group:
            changed = policy.changes(commit, policy_file, paths.root, paths)
            part.policy_notes += [changed] if changed else []
        if result is None:
            result = part
        else:
            result.absorb(part)
    assert result is not None  # noqa: S101  # the loop runs at least once
    return result


def check(revs: Sequence[str], receipt: str | None, policy: Policy,
          policy_file: Config = NO_CONFIG, *, files: bool = True,
          notes_revs: Sequence[str] | None = None, root: str | None = None,
          require_log: bool = False, signers: Signers | None = None,
          allow_overrides: bool = True, label: str = "check-receipt") -> CheckResult:
    """Judge each of REVS by every receipt found for its tree: the files (unless FILES is
    False, as in ``receipt verify``) and the notes in NOTES_REVS (default refs/notes/receipts).
    An override committed in a commit's ledger lets it through only when ALLOW_OVERRIDES;
    otherwise it is named in ``policy_notes`` as not honoured (LABEL says by whom).
    """
    if root is None:
        paths = git.repo_paths()
        root, memo = paths.root, model.memo_dir(paths)
    else:  # a bare repository on a server: no work tree, no files
        memo = os.path.join(root, "receipt-hooks", "valid")
    commits, findings = resolve(revs, root)
    receipt_path, _ = model.resolve_paths(root, receipt, None)
    shown = model.repo_relative(root, receipt_path)
    if not commits:
        return CheckResult(commits, findings, shown, None)
    loaded = load(receipt_path, shown, memo) if files else LoadedReceipt()
    result = CheckResult(commits, findings, shown, loaded if files else None)
    judge = _Judge(root, receipt_path, memo, policy, policy_file, result)
    judge.files = files
    judge.tamper = Tamper(root, shown, require_log, memo) if files else None
    judge.signers = signers
    judge.noted = NotedReceipts(commits, root, policy_file.ignore, shown,
                                tuple(notes_revs or (NOTES_REF,)))
    allowed = bookkeeping(policy_file, [shown, model.DEFAULT_LOG])
    globs = policy_file.ignore if "ignore" in policy_file.data else []
    for commit in commits:
        found = judge.commit(commit, loaded)
        hidden = _hidden_by_ignore(commit, globs, allowed, root)
        if hidden:
            found.append(Finding(hidden_message(commit, hidden, globs, policy_file.where("ignore")),
                                 model.OFF_POLICY, "ignore-hides-source", commit=commit))
        if found:
            from hooks.receipt.overrides import override_for
            from hooks.receipt.overrides import uncommitted

            override = override_for(commit, root, policy_file, label, allow_overrides)
            if override is not None and allow_overrides:
                result.notes.append(override)
                continue
            result.policy_notes += [override] if override else []
            unseen = uncommitted(commit, root, policy_file) if files else None
            result.policy_notes += [unseen] if unseen else []
        findings += found
    return result


class _Judge:
    """Every finding for one commit: the last-run receipt, or each receipt the policy needs."""

    def __init__(self, root: str, receipt_path: str, memo: str, policy: Policy,
                 policy_file: Config, result: CheckResult) -> None:
        self.root = root
        self.receipt_path = receipt_path
        self.memo = memo
        self.policy = policy
        self.policy_file = policy_file
        self.result = result

    files = True
    tamper: Tamper | None = None
    signers: Signers | None = None
    noted: NotedReceipts

    def commit(self, commit: str, loaded: LoadedReceipt) -> list[Finding]:
        if not (self.policy_file.test_commands or self.policy_file.routes):
            from_files = self.receipt(commit, loaded, self.result.shown) if self.files else []
            return self.from_notes(commit, None, from_files)
        from hooks.receipt import suite

        found: list[Finding] = []
        for need in suite.needs(self.policy_file, commit, self.root):
            from_files = self.need(commit, need, loaded) if self.files else []
            said = {f.message for f in found}  # a malformed file is one finding, not one a need
            found += [f for f in self.from_notes(commit, need.command, from_files)
                      if f.message not in said]
        return found

    def from_notes(self, commit: str, command: str | None,
                   from_files: list[Finding]) -> list[Finding]:
        """[] when a note receipt (from COMMAND, when the policy names one) vouches for COMMIT;
        else the files' findings, or the closest note receipt's, or "no receipt"."""
        if self.files and not from_files:
            return []
        if any(f.code == model.INVALID for f in from_files):
            return from_files  # a malformed or tampered receipt is refused, whatever else vouches
        closest: list[Finding] = []
        for data, shown in self.noted.candidates(commit, command):
            found = self.receipt(commit, self.noted.load(data, shown, self.memo), shown,
                                 narrowing_ok=command is not None)
            if not found:
                return []
            closest = closest or found
        if from_files and (not closest or from_files[0].kind != "missing"):
            return from_files
        return closest or [self.noted.missing(commit, command)]

    def need(self, commit: str, need: Need, loaded: LoadedReceipt) -> list[Finding]:
        from hooks.core.cmdline import rerun_command
        from hooks.receipt import keyed

        argv = keyed.configured_argv(need.command)
        run = "receipt run" if need.route is None else rerun_command(argv)
        if any(f.code == model.INVALID for f in loaded.findings):
            # malformed: refused whatever else vouches, as a malformed keyed file or note is
            return self.receipt(commit, loaded, self.result.shown, rerun=run)
        recorded = keyed.judged_argv(loaded.data) if loaded.data is not None else None
        last_run_is_it = recorded is not None and keyed.same_command(recorded, need.command)
        if last_run_is_it:
            return self.receipt(commit, loaded, self.result.shown, narrowing_ok=True)
        wrong = [] if loaded.data is None else [Finding(
            f"wrong trial: {git.short(commit)}: the receipt ran "
            f"{quoted(keyed.described(loaded.data))}, "
            f"{need.why()}: run {quoted(run)}, then push again", model.OFF_POLICY, "wrong-trial",
            commit=commit)]
        path = keyed.keyed_path(self.receipt_path, argv)
        if os.path.isfile(path):  # an earlier run of the command: it may still vouch
            shown = model.repo_relative(self.root, path)
            found = self.receipt(commit, load(path, shown, self.memo), shown, narrowing_ok=True)
            return found + wrong if found else []
        return wrong or self.receipt(commit, loaded, self.result.shown, rerun=run)

    def receipt(self, commit: str, loaded: LoadedReceipt, shown: str,
                narrowing_ok: bool = False, rerun: str | None = None) -> list[Finding]:
        from hooks.core.cmdline import rerun_command
        from hooks.receipt.staleness import compare

        label = git.short(commit)
        if loaded.data is None or loaded.findings:
            # no receipt to read the command from: the policy's command (RERUN) is the fix
            unknown = rerun_command(None)
            return [Finding(f"{label}: {f.message.replace(unknown, rerun or unknown)}", f.code,
                            f.kind, commit=commit) for f in loaded.findings]
        misnamed = _misnamed_log(commit, loaded.data, shown, self.root)
        if misnamed:
            return [Finding(f"{label}: {misnamed}", model.INVALID, "invalid", commit=commit)]
        match = compare(commit, loaded.data, shown, self.root, self.policy_file.ignore,
                        self.policy_file.path)
        policy = self.policy
        if narrowing_ok and not policy.allow_narrowing:  # the configured command is the policy
            policy = Policy(max_age_s=policy.max_age_s, require_command=policy.require_command,
                            require_platform=policy.require_platform, allow_narrowing=True,
                            require_tests=policy.require_tests)
        found = evaluate(loaded.data, commit=commit, tree_match=match, shown_path=shown,
                         policy=policy)
        if self.tamper is not None:
            found += self.tamper.findings(commit, loaded.data, shown)
        if self.signers is not None:
            found += self.signers.findings(commit, loaded.data, shown)
        if not found:
            self.result.commands.append(str(loaded.data.get("command")))
            self.result.sources.append(shown)
            self.result.vouching.setdefault(commit, []).append((loaded.data, shown))
        return found


def _hidden_by_ignore(commit: str, globs: list[str], allowed: list[str], root: str) -> list[str]:
    try:
        return hidden_by_ignore(commit, globs, allowed, root)
    except git.GitError:  # a bare repository builds no index: the notes check still runs
        return []


def _misnamed_log(commit: str, data: dict[str, Any], receipt: str, root: str) -> str | None:
    """What is wrong when the receipt's ``output.log`` names a file committed in COMMIT that is
    not that log. The comparison leaves the log out of the commit's tree (for those who commit
    it, as the seed did); naming any other tracked file (src/app.py) would leave that out."""
    output = data.get("output")
    log = output.get("log") if isinstance(output, dict) else None
    if not isinstance(log, str) or not isinstance(output, dict) or \
            not git.paths_in_commit(commit, [log], cwd=root):
        return None
    import hashlib  # only here: the common check makes no digest

    content = git.blob(f"{commit}:{log}") or b""
    if hashlib.sha256(content).hexdigest() == output.get("sha256"):
        return None
    return (f"{receipt} is not a valid receipt: output.log names {log}, a file tracked in "
            f"{git.short(commit)} that is not the log it describes (its sha256 differs): run "
            f"{quoted(model.rerun_hint(data))}")
