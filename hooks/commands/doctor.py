"""``receipt doctor``: check the whole set-up, one line per item: ok, or the exact fix.

Each item is one function of ``Setup`` returning an ``Item``; ``ITEMS`` lists them in the order
printed, so a new check is one function and one entry. Exit 0 when every item is ok, 1 (the
findings code) when one is not. Reads only; the hooks' ``rev`` is looked up with ``git ls-remote``.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
from collections.abc import Callable

from hooks.agents.formats import FORMATS
from hooks.core import config
from hooks.core import exits
from hooks.core import git
from hooks.core import git_notes
from hooks.core.output import write

PRECOMMIT = ".pre-commit-config.yaml"
HOOK_TYPES = ("pre-commit", "pre-push")
_REPO_LINE = re.compile(r"^\s*-?\s*repo:\s*(\S+)")
_REV_LINE = re.compile(r"^\s*rev:\s*['\"]?([^'\"\s#]+)")


class Item:
    """One line of the report: what was checked, whether it is ok, and what to do if not."""

    __slots__ = ("ok", "what")

    def __init__(self, ok: bool, what: str) -> None:
        self.ok = ok
        self.what = what

    def line(self) -> str:
        return f"receipt doctor: {'ok' if self.ok else 'FIX'}: {self.what}"


class Setup:
    """What the items look at, read once: the repository and its pre-commit config."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.paths = git.repo_paths(root)
        path = os.path.join(root, PRECOMMIT)
        self.precommit: str | None = None
        if os.path.isfile(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                self.precommit = f.read()

    def our_entry(self) -> tuple[str | None, str | None, str]:
        """(repo URL, rev, the entry's text) of the pre-commit repo that holds check-receipt."""
        if self.precommit is None:
            return None, None, ""
        entries: list[list[str]] = []
        for line in self.precommit.splitlines():
            if _REPO_LINE.match(line):
                entries.append([])
            if entries:
                entries[-1].append(line)
        for entry in entries:
            text = "\n".join(entry)
            if "id: check-receipt" in text:
                url = _REPO_LINE.match(entry[0])
                rev = next((m.group(1) for m in map(_REV_LINE.match, entry) if m), None)
                return (url.group(1) if url else None), rev, text
        return None, None, ""

    def git_hook(self, name: str) -> str | None:
        path = git.text("rev-parse", "--git-path", f"hooks/{name}", cwd=self.root)
        path = path if os.path.isabs(path) else os.path.join(self.root, path)
        if not os.path.isfile(path) or not os.access(path, os.X_OK):
            return None
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()


def hook_types_installed(setup: Setup) -> Item:
    missing = [t for t in HOOK_TYPES if not _runs_our_hooks(setup.git_hook(t))]
    if missing:
        return Item(False, f"hook types not installed here: {', '.join(missing)}: run "
                           f"'pre-commit install --hook-type pre-commit --hook-type pre-push'")
    declared = setup.precommit is not None and re.search(
        r"^default_install_hook_types:.*pre-push", setup.precommit, re.M) is not None
    if setup.precommit is not None and not declared:
        return Item(False, f"both hook types are installed here, but {PRECOMMIT} has no "
                           f"'default_install_hook_types: [pre-commit, pre-push]', so a "
                           f"teammate's 'pre-commit install' installs no pre-push hook: add "
                           f"that line (receipt init does)")
    return Item(True, "both hook types (pre-commit, pre-push) are installed")


def _runs_our_hooks(script: str | None) -> bool:
    return script is not None and ("pre-commit" in script or "check-receipt" in script)


def hooks_rev_resolvable(setup: Setup) -> Item:
    url, rev, _entry = setup.our_entry()
    if url is None:
        if _runs_our_hooks(setup.git_hook("pre-push")):
            return Item(True, "the hooks run from this installation (receipt install-hook)")
        return Item(False, f"no check-receipt entry in {PRECOMMIT}: run 'receipt init'")
    if url in ("local", "meta"):
        return Item(True, f"the hooks come from a {url} repo entry")
    if not rev:
        return Item(False, f"{PRECOMMIT}: the entry for {url} has no rev: pin one "
                           f"('pre-commit autoupdate --freeze')")
    refs = git_notes.remote_refs(url)
    if refs is None:
        return Item(False, f"could not reach {url} to check rev {rev}: check the network or "
                           f"the URL (a local clone or mirror works: receipt init --hooks-repo)")
    if rev in (f"refs/tags/{rev}", f"refs/heads/{rev}") or any(
            ref in refs for ref in (f"refs/tags/{rev}", f"refs/heads/{rev}")):
        return Item(True, f"rev {rev} exists at {url}")
    if re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", rev) and (
            rev in refs.values() or _local_commit(url, rev)):
        return Item(True, f"rev {rev[:12]} exists at {url}")
    return Item(False, f"{url} has no rev {rev}: pin one it has ('pre-commit autoupdate "
                       f"--freeze' pins its newest tag by commit)")


def _local_commit(url: str, rev: str) -> bool:
    """A commit id of a repository on this disk (a clone or mirror), asked of it directly."""
    path = url[len("file://"):] if url.startswith("file://") else url
    return os.path.isdir(path) and git.resolve_commit(f"{rev}^{{commit}}", cwd=path) is not None


def cli_on_path(setup: Setup) -> Item:
    found = shutil.which("receipt")
    if found:
        return Item(True, f"receipt is on PATH ({found})")
    from hooks.core.cmdline import own_command

    here = own_command("receipt", "hooks.cli")
    where = os.path.dirname(here[0]) if len(here) == 1 else "the environment receipt is in"
    return Item(False, f"receipt is not on PATH, so an agent's shell cannot run it: put {where} "
                       f"on PATH (pipx or 'uv tool install' does), or run 'receipt init --agent "
                       f"NAME' again to write the hook with its absolute path")


def notes_published(setup: Setup) -> Item:
    _url, _rev, entry = setup.our_entry()
    if "--publish" in entry:
        return Item(True, "check-receipt --publish: a passing push publishes the receipts")
    plain = setup.git_hook("pre-push") or ""
    if "check-receipt" in plain and "--publish" in plain:
        return Item(True, "the pre-push hook publishes the receipts (--publish)")
    try:
        pushes = git.text("config", "--get-regexp", r"^remote\..*\.push$", cwd=setup.root)
    except git.GitError:  # none set
        pushes = ""
    if "refs/notes/receipts" in pushes:
        return Item(True, "a remote's push refspec sends refs/notes/receipts with every push")
    return Item(False, f"receipts are not published on push, so a server or CI judging by "
                       f"the notes refuses what passed here: add 'args: [--publish]' to "
                       f"check-receipt in {PRECOMMIT} (or run 'receipt publish' after pushes)")


def git_identity(setup: Setup) -> Item:
    try:
        who = git.text("var", "GIT_COMMITTER_IDENT", cwd=setup.root)
    except git.GitError:
        return Item(True, f"git has no identity here: notes are written as "
                          f"{git_notes.TOOL_NAME} <{git_notes.TOOL_EMAIL}>")
    return Item(True, f"notes are written as {who.rsplit('>', 1)[0]}>")


def config_valid(setup: Setup) -> Item:
    try:
        policy = config.for_repo(setup.paths)
    except config.ConfigError as e:
        return Item(False, f"the config is not valid: {e}")
    if not policy.exists:
        return Item(False, "no receipt-hooks config (.receipt-hooks.toml or [tool.receipt-hooks] "
                           "in pyproject.toml): run 'receipt init'")
    if not policy.test_commands:
        return Item(False, f"{policy.where('test-command')} is not set: any receipt passes; "
                           f"set it to the command that runs the whole suite")
    return Item(True, f"{policy.path} is valid (test-command "
                      f"{shlex.quote(' / '.join(policy.test_commands))}, require "
                      f"{policy.require})")


def agent_settings(setup: Setup) -> Item:
    import json

    said: list[str] = []
    broken: list[str] = []
    for agent, fmt in FORMATS.items():
        path = os.path.join(setup.root, fmt.settings)
        if not os.path.isfile(path):
            continue
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if fmt.settings.endswith(".json"):
                json.loads(text)
        except (OSError, ValueError) as e:
            broken.append(f"{fmt.settings} is unreadable ({e})")
            continue
        commands = re.findall(r"([^\s\"']*receipt) agent-hook --agent " + re.escape(agent), text)
        if not commands:
            broken.append(f"{fmt.settings} has no stop hook: run 'receipt init --agent {agent}'")
        elif not all(shutil.which(c) for c in commands):
            broken.append(f"{fmt.settings} runs {commands[0]!r}, which does not resolve here: "
                          f"run 'receipt init --agent {agent}' again")
        else:
            said.append(f"{agent} ({fmt.settings})")
    if broken:
        return Item(False, "; ".join(broken))
    if not said:
        return Item(True, "no agent settings here ('receipt init --agent NAME' adds a stop hook)")
    return Item(True, f"agent stop hooks present: {', '.join(said)}")


def environments_ignored(setup: Setup) -> Item:
    from hooks.commands.init import ENVIRONMENT_DIRS

    wanted = ["artifacts/"]
    for markers, directories in ENVIRONMENT_DIRS:
        if any(os.path.exists(os.path.join(setup.root, m)) for m in markers):
            wanted += directories
    # a directory that is a symlink is a file to git (and a path "beyond" it fails the whole
    # check-ignore): ask about the link itself, which is what git status would list
    asked = {d: d.rstrip("/") if os.path.islink(os.path.join(setup.root, d.rstrip("/"))) else d
             for d in wanted}
    ignored = set(git.ignored_paths(setup.root, asked.values()))
    missing = [d for d in wanted if asked[d] not in ignored]
    links = [asked[d] for d in missing if asked[d] != d]
    if links:
        return Item(False, f".gitignore does not cover {', '.join(links)}, a symlink "
                           f"(a pattern ending in / matches only a directory): add "
                           f"{', '.join(repr(link) for link in links)}")
    if missing:
        return Item(False, f".gitignore does not cover {', '.join(missing)}: add "
                           f"{'them' if len(missing) > 1 else 'it'} (receipt init does)")
    return Item(True, f".gitignore covers {', '.join(wanted)}")


ITEMS: tuple[Callable[[Setup], Item], ...] = (
    hook_types_installed, hooks_rev_resolvable, cli_on_path, notes_published, git_identity,
    config_valid, agent_settings, environments_ignored,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    del parser  # no options yet


def run(args: argparse.Namespace) -> int:
    del args
    setup = Setup(git.repo_paths().root)
    items = [check(setup) for check in ITEMS]
    write("".join(item.line() + "\n" for item in items))
    return exits.OK if all(item.ok for item in items) else exits.FINDINGS
