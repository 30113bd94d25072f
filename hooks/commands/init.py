"""``receipt init``: set a repository up: the config, the three hooks, .gitignore, install.

Idempotent: a second run changes nothing. It never rewrites what it did not write: the config
table is added only when absent (``--force`` replaces it), the hooks are appended to an existing
``.pre-commit-config.yaml`` as one more ``repos`` entry, ``artifacts/`` is appended to
``.gitignore``. ``--dry-run`` prints what it would do and touches nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess

import hooks
from hooks.core import config
from hooks.core import git
from hooks.core import git_notes
from hooks.core.cmdline import quoted
from hooks.core.errors import UserError
from hooks.core.fileio import atomic_write
from hooks.core.fileio import symlink_target

REPO_URL = "https://github.com/receipt-hooks/receipt-hooks"
HOOK_IDS = ("check-receipt", "no-inserted-skips", "require-ledger-hypothesis")
PYTEST_MARKERS = (("pyproject.toml", "[tool.pytest"), ("pytest.ini", ""), ("tox.ini", "[pytest]"),
                  ("setup.cfg", "[tool:pytest]"), ("conftest.py", ""))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--test-command", metavar="CMD",
                        help="the suite (default: detected from the repository)")
    parser.add_argument("--dry-run", action="store_true", help="print what would change")
    parser.add_argument("--agent", choices=("claude-code", "codex", "cursor", "gemini-cli"),
                        help="also add that agent's stop hook to its project settings and the "
                             "agent contract to its instructions file")
    parser.add_argument("--force", action="store_true",
                        help="replace a receipt-hooks config that is already there")
    parser.add_argument("--hooks-repo", metavar="URL", default=REPO_URL,
                        help=f"where pre-commit fetches the hooks (default: {REPO_URL}; a "
                             f"fork or mirror)")


def detect_suite(root: str) -> str | None:
    """The command that runs the whole suite, read from the files the project has."""
    def has(name: str, text: str = "") -> bool:
        path = os.path.join(root, name)
        if not os.path.isfile(path):
            return False
        with open(path, encoding="utf-8", errors="replace") as f:
            return text in f.read()

    if os.path.isfile(os.path.join(root, "package.json")):
        with open(os.path.join(root, "package.json"), encoding="utf-8", errors="replace") as f:
            try:
                scripts = json.load(f).get("scripts") or {}
            except (ValueError, AttributeError):
                scripts = {}
        if "test" in scripts:
            for lockfile, manager in (("pnpm-lock.yaml", "pnpm"), ("yarn.lock", "yarn")):
                if os.path.isfile(os.path.join(root, lockfile)):
                    return f"{manager} test"
            return "npm test"
    if any(has(name, text) for name, text in PYTEST_MARKERS) or (os.path.isdir(
            os.path.join(root, "tests")) and has("pyproject.toml")):
        return "pytest"
    if has("Cargo.toml"):
        return "cargo test"
    if has("go.mod"):
        return "go test -v ./..."  # plain go test prints no counts, only one line a package
    for makefile in ("Makefile", "makefile", "GNUmakefile"):
        path = os.path.join(root, makefile)
        if os.path.isfile(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                if any(line.startswith("test:") for line in f):
                    return "make test"
    return None


def _toml_string(text: str) -> str:
    return json.dumps(text)  # a JSON string is a valid TOML basic string


def config_text(suite: str, in_pyproject: bool) -> str:
    fuse = "[tool.receipt-hooks.fuse]" if in_pyproject else "[fuse]"
    lines = [
        "# receipt-hooks policy (docs/configuration.md); command-line options override it",
        f"test-command = {_toml_string(suite)}   # the whole suite: other receipts are off policy",
        "require-tests = true                 # a run whose test counts are not read fails",
        "ignore = [\"assumption-ledger.jsonl\", \".skips-baseline.json\"]  # bookkeeping",
        "",
        fuse,
        "max-steps = 8                        # past it only with --override REASON (logged)",
    ]
    return "\n".join(["[tool.receipt-hooks]", *lines] if in_pyproject else lines) + "\n"


def fetchable_rev(url: str) -> tuple[str, str | None]:
    """(rev, what to tell the user): this version's tag when URL has it, else the commit its
    HEAD is at, else (URL unreachable) the tag, said to be unchecked."""
    tag = f"v{hooks.__version__}"
    refs = git_notes.remote_refs(url, f"refs/tags/{tag}", "HEAD")
    if refs is None:
        return tag, (f"could not reach {url} to check that tag {tag} exists; if pre-commit "
                     f"cannot fetch it, pin a commit instead (rev: <commit sha>) or run "
                     f"{quoted('pre-commit autoupdate --freeze')}")
    if f"refs/tags/{tag}" in refs:
        return tag, None
    head = refs.get("HEAD")
    if head:
        return head, (f"{url} has no tag {tag} yet: pinned the commit its HEAD is at, "
                      f"{head[:12]}; {quoted('pre-commit autoupdate --freeze')} moves it on")
    return tag, f"{url} has no tag {tag} and no HEAD: check the URL (--hooks-repo)"


def hooks_entry(url: str, rev: str, indent: str = "  ") -> str:
    """Our ``repos`` item, its dash at INDENT; check-receipt publishes the receipts to the
    remote being pushed to once the push is let through."""
    lines = [f"- repo: {url}", f"  rev: {rev}", "  hooks:"]
    for hook in HOOK_IDS:
        lines.append(f"    - id: {hook}")
        if hook == "check-receipt":
            lines.append("      args: [--publish]")
    return "".join(f"{indent}{line}\n" for line in lines)


INSTALL_TYPES = ("pre-commit", "pre-push")
INSTALL_TYPES_LINE = f"default_install_hook_types: [{', '.join(INSTALL_TYPES)}]\n"
_TOP_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:(.*)$")
_FLOW_LIST = re.compile(r"^\s*\[([^\]#]*)\]\s*(#.*)?$")

# Directories a project's tools fill that no test run should vouch for, per ecosystem marker.
ENVIRONMENT_DIRS = (
    (("pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "pytest.ini", "tox.ini",
      "conftest.py"), (".venv/", "venv/", "__pycache__/", ".pytest_cache/", ".tox/")),
    (("package.json",), ("node_modules/",)),
    (("Cargo.toml",), ("target/",)),
)


class Plan:
    """What init changes: (path, new content, description); applied only without --dry-run."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.writes: list[tuple[str, bytes, str]] = []
        self.unchanged: list[str] = []
        self.notes: list[str] = []

    def write(self, name: str, content: str, what: str) -> None:
        path = os.path.join(self.root, name)
        outside = symlink_target(path, self.root)
        if outside is not None:
            raise UserError(f"{name} is a symlink to {outside}, outside the repository: "
                            f"receipt init does not write through it; make the change there "
                            f"by hand, or replace the link with a file, and run it again")
        if os.path.islink(path):
            target = os.path.relpath(os.path.realpath(path), os.path.realpath(self.root))
            what += f" (through the symlink to {target})"
        self.writes.append((name, content.encode(), what))

    def keep(self, what: str) -> None:
        self.unchanged.append(what)


def _read(root: str, name: str) -> str | None:
    """NAME's text, None when there is none; refused (nothing written) when it is something
    receipt init cannot edit: a directory, a device, bytes that are not UTF-8."""
    path = os.path.join(root, name)
    if not os.path.lexists(path):
        return None
    if not os.path.isfile(path):
        raise UserError(f"{name} is not a regular file: receipt init edits only files; move it "
                        f"away and run it again")
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except UnicodeDecodeError as e:
        raise UserError(f"{name} is not UTF-8 text ({e.reason} at byte {e.start}): receipt init "
                        f"edits only text; fix it and run it again") from None


def plan_config(plan: Plan, suite: str, force: bool) -> None:
    root = plan.root
    existing = config.load(root, None) if not force else config.NO_CONFIG
    if existing.exists:
        plan.keep(f"{existing.path}: a receipt-hooks config is already there (kept; --force "
                  f"replaces it)")
        return
    pyproject = _read(root, config.PYPROJECT)
    own = _read(root, config.OWN_FILE)
    if own is not None and force:
        plan.write(config.OWN_FILE, config_text(suite, False), "replaced the config")
    elif pyproject is not None and "[tool.receipt-hooks" not in pyproject:
        sep = "" if pyproject.endswith("\n\n") else "\n" if pyproject.endswith("\n") else "\n\n"
        plan.write(config.PYPROJECT, pyproject + sep + config_text(suite, True),
                   f"added [tool.receipt-hooks] with test-command {quoted(suite)}")
    elif pyproject is not None:
        raise UserError("pyproject.toml already has a [tool.receipt-hooks] table: edit it "
                        "by hand, --force does not rewrite pyproject.toml")
    else:
        plan.write(config.OWN_FILE, config_text(suite, False),
                   f"wrote the config with test-command {quoted(suite)}")


PRECOMMIT = ".pre-commit-config.yaml"


def _by_hand(why: str, url: str, rev: str) -> UserError:
    entry = hooks_entry(url, rev).replace("\n", "\\n")
    return UserError(f"{PRECOMMIT} {why}: receipt init edits only block-style YAML, so it "
                     f"changed nothing; add by hand the line {quoted(INSTALL_TYPES_LINE.strip())} "
                     f"and, under repos:, the entry {quoted(entry)}")


def _significant(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#") and stripped not in ("---", "...")


def with_install_types(text: str) -> tuple[str, str | None]:
    """TEXT with both hook types in ``default_install_hook_types`` (added when absent, or
    extended when it is a one-line list), and what changed; ValueError when it cannot tell."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        key = _TOP_KEY.match(line.rstrip("\r\n"))
        if not key or key.group(1) != "default_install_hook_types":
            continue
        listed = _FLOW_LIST.match(key.group(2))
        if not listed:
            raise ValueError("has a default_install_hook_types that is not a one-line list")
        have = [t.strip().strip("'\"") for t in listed.group(1).split(",") if t.strip()]
        missing = [t for t in INSTALL_TYPES if t not in have]
        if not missing:
            return text, None
        lines[i] = f"default_install_hook_types: [{', '.join([*have, *missing])}]\n"
        return "".join(lines), f"added {', '.join(missing)} to default_install_hook_types"
    at = next((i for i, line in enumerate(lines) if _significant(line)), len(lines))
    return ("".join([*lines[:at], INSTALL_TYPES_LINE, *lines[at:]]),
            "added default_install_hook_types: [pre-commit, pre-push]")


def with_hooks(text: str, url: str, rev: str) -> str:
    """TEXT with our entry as the last item of its block-style ``repos`` list; ValueError when
    the list is not one this can extend without breaking the file."""
    lines = text.splitlines(keepends=True)
    start = None
    for i, line in enumerate(lines):
        key = _TOP_KEY.match(line.rstrip("\r\n"))
        if key and key.group(1) == "repos":
            if key.group(2).strip() and not key.group(2).strip().startswith("#"):
                raise ValueError("has a flow-style repos list ([...])")
            start = i
    if start is None:
        raise ValueError("has no block-style repos: list")
    indent, end = None, start + 1
    for i in range(start + 1, len(lines)):
        line = lines[i]
        if not _significant(line):
            continue
        item = re.match(r"^(\s*)- ", line)
        if indent is None and item:
            indent = item.group(1)
        if not line[:1].isspace() and not (indent == "" and line.startswith("- ")):
            break  # the next top-level key
        end = i + 1
    body = "".join(lines[:end])
    if body and not body.endswith("\n"):
        body += "\n"
    return body + hooks_entry(url, rev, "  " if indent is None else indent) + "".join(lines[end:])


def plan_precommit(plan: Plan, url: str) -> None:
    name = PRECOMMIT
    existing = _read(plan.root, name)
    has_hooks = existing is not None and all(f"id: {hook}" in existing for hook in HOOK_IDS)
    rev = ""
    if not has_hooks:
        rev, note = fetchable_rev(url)
        if note:
            plan.notes.append(note)
    if existing is None:
        plan.write(name, INSTALL_TYPES_LINE + "repos:\n" + hooks_entry(url, rev),
                   f"wrote it with the three hooks at rev {rev} (check-receipt --publish: a "
                   f"push that passes publishes its receipts to the remote pushed to)")
        return
    first = next((line for line in existing.splitlines() if _significant(line)), "")
    try:
        if first.lstrip().startswith(("{", "[")):
            raise ValueError("is flow-style YAML ({...})")
        text, added_types = with_install_types(existing)
        said = [added_types] if added_types else []
        if not has_hooks:
            text = with_hooks(text, url, rev)
            said.append(f"appended the three hooks at rev {rev} (check-receipt --publish: a "
                        f"push that passes publishes its receipts to the remote pushed to)")
    except ValueError as e:
        raise _by_hand(str(e), url, rev or "<rev>") from None
    if not said:
        plan.keep(f"{name}: the three hooks and both hook types are already there")
        return
    plan.write(name, text, "; ".join(said))


def plan_gitignore(plan: Plan) -> None:
    existing = _read(plan.root, ".gitignore")
    present = {line.strip().strip("/") for line in (existing or "").splitlines()}
    wanted = ["artifacts/"]
    for markers, directories in ENVIRONMENT_DIRS:
        if any(os.path.exists(os.path.join(plan.root, m)) for m in markers):
            wanted += directories
    missing = [d for d in wanted if d.strip("/") not in present]
    if not missing:
        plan.keep(f".gitignore: {', '.join(wanted)} already ignored")
        return
    body = existing or ""
    if body and not body.endswith("\n"):
        body += "\n"
    plan.write(".gitignore", body + "".join(f"{d}\n" for d in missing),
               f"added {', '.join(missing)}")


def plan_baseline(plan: Plan, policy: config.Config) -> bool:
    """Whether the skip baseline is to be written: without it, --all-files runs (what
    pre-commit.ci runs) have nothing to compare with and pass saying so."""
    baseline = str(policy.section("skips").get("baseline", config.DEFAULT_BASELINE))
    if os.path.exists(os.path.join(plan.root, baseline)):
        plan.keep(f"{baseline}: the skip baseline is already there")
        return False
    return True


def write_skip_baseline(root: str, dry_run: bool) -> None:
    policy = config.load(root, None)
    name = str(policy.section("skips").get("baseline", config.DEFAULT_BASELINE))
    if dry_run:
        print(f"receipt init: would write {name}: the skip baseline (the skips already in "
              f"tracked files), so --all-files runs report only new ones")
        return
    from hooks.no_inserted_skips import run as skips

    skips(["--write-baseline"], "receipt init")


def run(args: argparse.Namespace) -> int:
    root = git.repo_paths().root
    suite = args.test_command or detect_suite(root)
    if not suite:
        raise UserError("no test suite found (pytest, package.json 'test', Cargo.toml, go.mod, "
                        "a Makefile 'test' target): pass --test-command 'CMD'")
    plan = Plan(root)
    plan_config(plan, suite, args.force)
    plan_precommit(plan, args.hooks_repo)
    plan_gitignore(plan)
    baseline = plan_baseline(plan, config.NO_CONFIG)
    if args.agent:  # an agent settings file init cannot merge stops it before anything is written
        from hooks.agents import install as agent_install

        agent_install.plan(root, args.agent, config.NO_CONFIG)
    verb = "would change" if args.dry_run else "changed"
    for name, content, what in plan.writes:
        if not args.dry_run:
            atomic_write(os.path.join(root, name), content)
        print(f"receipt init: {verb} {name}: {what}")
    if args.agent:  # after the config is written: the contract is filled from it
        for agent_file, text, change in agent_install.plan(root, args.agent,
                                                           config.load(root, None)):
            if text is None:
                plan.keep(f"{agent_file}: already there")
                continue
            if not args.dry_run:
                atomic_write(os.path.join(root, agent_file), text.encode())
            print(f"receipt init: {verb} {agent_file}: {change}")
        from hooks.agents.trust import instructions

        for line in instructions(args.agent, root):  # the client's trust: the user's to give
            print(f"receipt init: {line}")
    if baseline:
        write_skip_baseline(root, args.dry_run)
    for note in plan.notes:
        print(f"receipt init: note: {note}")
    for what in plan.unchanged:
        print(f"receipt init: unchanged {what}")
    precommit = shutil.which("pre-commit")
    install = ["pre-commit", "install", "--hook-type", "pre-commit", "--hook-type", "pre-push"]
    if precommit is None:
        print("receipt init: pre-commit is not on PATH: install it, then run "
              f"{quoted(shlex.join(install))}")
    elif args.dry_run:
        print(f"receipt init: would run {quoted(shlex.join(install))}")
    else:
        proc = subprocess.run([precommit, *install[1:]], cwd=root, capture_output=True,
                              text=True, check=False)
        if proc.returncode != 0:
            last = (proc.stderr or proc.stdout).strip().splitlines() or [str(proc.returncode)]
            raise UserError(f"{quoted(shlex.join(install))} failed: {last[-1]}")
        print(f"receipt init: ran {quoted(shlex.join(install))}")
    if not args.dry_run:
        print("receipt init: next: 'receipt run' runs the suite and writes the receipt; commit "
              "the config and .pre-commit-config.yaml")
    return 0
