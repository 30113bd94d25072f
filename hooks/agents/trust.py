"""Whether a client will run the project's stop hook at all: its trust settings, read, never
written.

Codex CLI runs a project's hooks only in a project the user trusts (``[projects."<root>"]
trust_level = "trusted"`` in ``~/.codex/config.toml``), and a new or changed hook only once the
user trusts it in ``/hooks`` (a ``trusted_hash`` under ``[hooks.state]``, keyed by the hooks
file). Gemini CLI runs project hooks only in a trusted folder (``~/.gemini/trustedFolders.json``,
the longest matching rule wins; headless, it will not start in an untrusted one). Both skip an
untrusted hook without a word, so ``receipt init`` says what to do and ``receipt doctor`` reads
where things stand. Trust is the user's decision: nothing here writes a client's settings.

Read as the clients read them (Codex CLI 0.169.0, Gemini CLI 0.61.0): ``CODEX_HOME`` moves
``~/.codex``; ``GEMINI_CLI_TRUSTED_FOLDERS_PATH`` names the trusted-folders file.
"""

from __future__ import annotations

import json
import os

from hooks.agents.formats import FORMATS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _home(home: str | None) -> str:
    return home if home is not None else os.path.expanduser("~")


def codex_config_path(home: str | None = None) -> str:
    codex_home = os.environ.get("CODEX_HOME", "")
    return os.path.join(codex_home or os.path.join(_home(home), ".codex"), "config.toml")


def gemini_trust_path(home: str | None = None) -> str:
    return os.environ.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH", "") or os.path.join(
        _home(home), ".gemini", "trustedFolders.json")


def instructions(agent: str, root: str) -> list[str]:
    """What the user must do, once, for AGENT to run the hook in ROOT; [] when nothing."""
    from hooks.agents.install import hook_command

    if agent == "codex":
        hooks_file = os.path.join(root, FORMATS[agent].settings)
        return [
            "Codex skips the hooks of a project it does not trust, and a new or changed hook "
            "until you trust it, without a warning. Do both, once:",
            f"  1. trust the project: start `codex` in {root} and answer yes when it asks to "
            f"trust the folder (it records [projects.\"{root}\"] trust_level = \"trusted\" in "
            f"{codex_config_path()})",
            f"  2. trust the hook: in that session type /hooks and trust the Stop hook "
            f"'{hook_command(agent)}' from {hooks_file} (again after any change to that file)",
            "  then `receipt doctor` shows what Codex's files say.",
        ]
    if agent == "gemini-cli":
        return [
            "Gemini CLI runs project hooks only in a trusted folder (headless, it will not "
            "start in an untrusted one). Once:",
            f"  trust the folder: start `gemini` in {root} and choose \"Trust folder\" (or "
            f"/permissions in a session); it is recorded in {gemini_trust_path()}",
            "  then `receipt doctor` shows what Gemini's files say.",
        ]
    return []


def _codex(project: str, home: str | None) -> tuple[bool | None, str]:
    from hooks.core.config import ConfigError
    from hooks.core.config import _parse

    path = codex_config_path(home)
    try:
        with open(path, "rb") as f:
            document = _parse(f.read(), path)
    except FileNotFoundError:
        return False, (f"codex: {path} does not exist, so Codex trusts no project and skips "
                       f"this project's hooks: start `codex` in {project} and trust it, then "
                       f"trust the hook in /hooks")
    except (OSError, ConfigError) as e:
        return None, f"codex: cannot read {path}: {e}"
    roots = {project, os.path.realpath(project)}
    projects = document.get("projects")
    level = None
    if isinstance(projects, dict):
        for key, entry in projects.items():
            if key in roots and isinstance(entry, dict):
                level = entry.get("trust_level")
    if level != "trusted":
        said = f"trust_level = {json.dumps(level)}" if level is not None else "no entry"
        return False, (f"codex: the project is not trusted ({said} for {project} in {path}), "
                       f"so Codex skips its hooks: start `codex` in {project} and trust it, "
                       f"then trust the hook in /hooks")
    hooks_file = os.path.join(project, FORMATS["codex"].settings)
    state = document.get("hooks", {}).get("state") if isinstance(document.get("hooks"),
                                                                 dict) else None
    records = [key for key, entry in (state.items() if isinstance(state, dict) else ())
               if isinstance(entry, dict) and entry.get("trusted_hash")
               and any(r in key for r in {hooks_file, os.path.realpath(hooks_file)})]
    if not records:
        return False, (f"codex: the project is trusted but no hook of {hooks_file} is (no "
                       f"trusted_hash under [hooks.state] in {path}), so Codex skips the "
                       f"stop hook: in codex, type /hooks and trust it")
    return True, (f"codex: the project is trusted and {len(records)} hook(s) of {hooks_file} "
                  f"have a trust record in {path}; Codex runs a hook only while it is as it "
                  f"was trusted: after changing {FORMATS['codex'].settings}, trust it again "
                  f"in /hooks")


def _gemini_settings_trust_off(home: str | None) -> bool:
    path = os.path.join(_home(home), ".gemini", "settings.json")
    try:
        with open(path, encoding="utf-8") as f:
            settings: Any = json.load(f)
        return settings["security"]["folderTrust"]["enabled"] is False
    except (OSError, ValueError, KeyError, TypeError):
        return False


def _is_under(parent: str, path: str) -> bool:
    parent = os.path.normpath(parent)
    return path == parent or path.startswith(parent.rstrip(os.sep) + os.sep)


def _gemini(project: str, home: str | None) -> tuple[bool | None, str]:
    if _gemini_settings_trust_off(home):
        return True, ("gemini-cli: folder trust is off (security.folderTrust.enabled = false "
                      "in ~/.gemini/settings.json): project hooks run in every folder")
    path = gemini_trust_path(home)
    try:
        with open(path, encoding="utf-8") as f:
            rules: Any = json.load(f)
    except FileNotFoundError:
        rules = {}
    except (OSError, ValueError) as e:
        return None, f"gemini-cli: cannot read {path}: {e}"
    if not isinstance(rules, dict):
        return None, f"gemini-cli: {path} is not a JSON object"
    where = os.path.realpath(project)
    best, level = -1, None
    for rule, trust in rules.items():  # as Gemini CLI decides: the longest matching rule wins
        if not isinstance(rule, str):
            continue
        effective = os.path.dirname(rule) if trust == "TRUST_PARENT" else rule
        if _is_under(os.path.realpath(effective), where) and len(rule) > best:
            best, level = len(rule), trust
    if level in ("TRUST_FOLDER", "TRUST_PARENT"):
        return True, f"gemini-cli: {project} is a trusted folder ({level} in {path})"
    said = f"DO_NOT_TRUST in {path}" if level == "DO_NOT_TRUST" else f"no rule in {path}"
    return False, (f"gemini-cli: {project} is not a trusted folder ({said}), so Gemini CLI "
                   f"will not run its hooks: start `gemini` there and choose \"Trust folder\"")


def trust_state(agent: str, project: str, home: str | None = None) -> tuple[bool | None, str]:
    """(True: the client will run the project's hooks; False: it will skip them; None: its
    files do not say), and one line saying why, with the fix. PROJECT is the work tree root;
    HOME stands in for the user's home directory (tests)."""
    if agent == "codex":
        return _codex(project, home)
    if agent == "gemini-cli":
        return _gemini(project, home)
    return None, f"{agent}: no trust setting this reads gates its project hooks"
