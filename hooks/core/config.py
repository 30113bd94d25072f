"""Repository policy: ``[tool.receipt-hooks]`` in pyproject.toml, or ``.receipt-hooks.toml``.

One file, versioned with the code, read by every hook and command; their own options override
it (pre-commit's convention). Reading it must cost a hook almost nothing, so:

- neither file, or a pyproject.toml that never mentions receipt-hooks: no TOML parse at all;
- a config whose exact bytes were read before: its table is loaded from a JSON copy kept in
  the git dir under the digest of (schema, file name, bytes); no TOML parser, no jsonschema;
- otherwise the TOML is parsed, validated against ``schemas/config.schema.json`` and checked
  further (regexes compile, commands split), and only a config that passed is remembered.

Every problem is one line naming the file, the line and the key.
"""

from __future__ import annotations

import os

from hooks.core.errors import CONFIG_ERROR
from hooks.core.errors import UserError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any

    from hooks.core.git import RepoPaths

PYPROJECT = "pyproject.toml"
OWN_FILE = ".receipt-hooks.toml"
COMMITTED_FILES = (OWN_FILE, PYPROJECT)  # where a commit may hold its config (from_bytes)
TABLE = ("tool", "receipt-hooks")
DEFAULT_LEDGER = "assumption-ledger.jsonl"
DEFAULT_BASELINE = ".skips-baseline.json"
DEFAULT_IGNORE = (DEFAULT_LEDGER, DEFAULT_BASELINE)
REQUIRE_TIP, REQUIRE_EVERY_COMMIT = "tip", "every-commit"
# The keys whose value names one file from the root. Their files are left out of the tree a
# receipt vouches for (bookkeeping), so a directory or a glob there would leave source out too:
# each must name one file, and names no directory in the tree judged (``file_key_directories``).
FILE_KEYS: tuple[tuple[str, ...], ...] = (("ledger",), ("skips", "baseline"))
FILE_KEY_DEFAULTS = (DEFAULT_LEDGER, DEFAULT_BASELINE)
_GLOB_CHARACTERS = frozenset("*?[]\\")
# The named groups a summary-pattern may have: the counts of a receipt's "tests".
SUMMARY_GROUPS = ("passed", "failed", "skipped", "errors", "total")


class ConfigError(UserError):
    """The config is unreadable or invalid; the message is one line: file:line: key: what."""

    def __init__(self, message: str, code: int = CONFIG_ERROR) -> None:
        super().__init__(message, code)


class Config:
    """The policy table, keys as written (kebab-case), and the file it came from."""

    __slots__ = ("data", "path")

    def __init__(self, data: dict[str, Any], path: str | None) -> None:
        self.data = data
        self.path = path  # repo-relative, for messages; None when there is no config

    @property
    def exists(self) -> bool:
        return self.path is not None

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def section(self, name: str) -> dict[str, Any]:
        value = self.data.get(name)
        return value if isinstance(value, dict) else {}

    @property
    def test_commands(self) -> list[str]:
        value = self.data.get("test-command")
        if value is None:
            return []
        return [value] if isinstance(value, str) else list(value)

    @property
    def require_tests(self) -> bool:
        """Default true once a config exists: a run that counted nothing proves nothing."""
        return bool(self.data.get("require-tests", self.exists))

    @property
    def require(self) -> str:
        """Which commits need a receipt: "tip" (the newest of each pushed ref or range) or
        "every-commit" (every commit a push or range adds)."""
        return str(self.data.get("require", REQUIRE_TIP))

    @property
    def summary_pattern(self) -> re.Pattern[str] | None:
        """The project's own test summary line (``summary-pattern``), checked when loaded."""
        value = self.data.get("summary-pattern")
        if not isinstance(value, str):
            return None
        import re

        return re.compile(value)

    @property
    def ledger(self) -> str:
        return str(self.data.get("ledger", DEFAULT_LEDGER))

    @property
    def ignore(self) -> list[str]:
        """Globs left out of the tree match; the ledger follows ``ledger`` when moved."""
        value = self.data.get("ignore")
        if value is not None:
            return list(value)
        return [self.ledger, str(self.section("skips").get("baseline", DEFAULT_BASELINE))]

    def file_keys(self, defaults: bool = False) -> list[tuple[str, str]]:
        """(key as written, value) of each FILE_KEYS key this config sets; with DEFAULTS, the
        default value of each one it does not set too."""
        found = []
        for path, default in zip(FILE_KEYS, FILE_KEY_DEFAULTS):
            table: Any = self.data
            for part in path[:-1]:
                table = table.get(part) if isinstance(table, dict) else None
            if isinstance(table, dict) and isinstance(table.get(path[-1]), str):
                found.append((".".join(path), str(table[path[-1]])))
            elif defaults:
                found.append((".".join(path), default))
        return found

    @property
    def routes(self) -> list[tuple[str, str]]:
        return [(r["paths"], r["command"]) for r in self.data.get("route", [])]

    def where(self, key: str) -> str:
        """'pyproject.toml [tool.receipt-hooks] fuse.max-steps' for messages about a key."""
        if self.path == PYPROJECT:
            return f"{self.path} [tool.receipt-hooks] {key}"
        return f"{self.path or OWN_FILE} {key}"


NO_CONFIG = Config({}, None)


def for_repo(paths: RepoPaths) -> Config:
    """The config of the repository at PATHS, remembered in its git dir once valid; a file key
    it sets to a directory of the work tree is refused (``file_key_directories``; a default
    path that is a directory is for the command that reads the file to refuse)."""
    found = load(paths.root, os.path.join(paths.common_dir, "receipt-hooks"))
    for key, value in found.file_keys():
        if os.path.isdir(os.path.join(paths.root, value)):
            raise ConfigError(_names_a_directory(found, key, value, "the work tree"))
    return found


def file_key_directories(policy: Config, commits: list[str], cwd: str | None) -> None:
    """ConfigError when a file key of POLICY names a directory in one of COMMITS: its files
    would be left out of the tree comparison, and an old receipt would vouch for changes to
    them. One git process for every commit and key."""
    keys = policy.file_keys(defaults=True)
    if not commits:
        return
    from hooks.core import git

    kinds = git.object_kinds([f"{c}:{value}" for c in commits for _key, value in keys], cwd=cwd)
    for commit in commits:
        for key, value in keys:
            if kinds.get(f"{commit}:{value}") == "tree":
                raise ConfigError(_names_a_directory(policy, key, value, git.short(commit)))


def _names_a_directory(policy: Config, key: str, value: str, where: str) -> str:
    return (f"{policy.where(key)}: {value!r} is a directory in {where}: {key} must name one "
            f"file, or the files in it are left out of the tree a receipt vouches for")


def load(root: str, memo_dir: str | None) -> Config:
    """The repository's config at ROOT, or NO_CONFIG; ConfigError when it is wrong."""
    return from_bytes(_read(os.path.join(root, OWN_FILE)), _read(os.path.join(root, PYPROJECT)),
                      memo_dir)


def committed(commits: list[str], paths: RepoPaths) -> dict[str, Config]:
    """The config committed in each of COMMITS (``COMMIT:.receipt-hooks.toml``, else its
    pyproject.toml table), read in one git process, validated and remembered as ``load``'s.

    What a commit is judged by: the work tree's copy may be uncommitted, ignored, or another
    branch's, and none of those reach the remote."""
    from hooks.core import git

    wanted = list(dict.fromkeys(commits))
    raw = git.blobs([f"{c}:{name}" for c in wanted for name in COMMITTED_FILES])
    memo = os.path.join(paths.common_dir, "receipt-hooks")
    found: dict[str, Config] = {}
    for commit in wanted:
        try:
            found[commit] = from_bytes(raw[f"{commit}:{OWN_FILE}"], raw[f"{commit}:{PYPROJECT}"],
                                       memo)
        except ConfigError as e:
            raise ConfigError(f"{git.short(commit)}: {e}") from e
    return found


def from_bytes(own_raw: bytes | None, py_raw: bytes | None, memo_dir: str | None) -> Config:
    """The config .receipt-hooks.toml (OWN_RAW) and pyproject.toml (PY_RAW) hold, or NO_CONFIG."""
    mentions = py_raw is not None and b"receipt-hooks" in py_raw
    if own_raw is not None and mentions:
        data = _parse(py_raw or b"", PYPROJECT)
        if _table(data) is not None:
            raise ConfigError(f"both {OWN_FILE} and {PYPROJECT} [tool.receipt-hooks] hold a "
                              f"receipt-hooks config: keep one and delete the other")
    if own_raw is not None:
        return _validated(own_raw, OWN_FILE, memo_dir)
    if py_raw is not None and mentions:
        return _validated(py_raw, PYPROJECT, memo_dir)
    return NO_CONFIG


def _read(path: str) -> bytes | None:
    from hooks.core.fileio import UnreadableFile
    from hooks.core.fileio import read_bounded

    try:
        return read_bounded(path, 1 << 20)
    except FileNotFoundError:
        return None
    except UnreadableFile as e:
        raise ConfigError(f"{os.path.basename(path)}: the config {e}") from e


def _memo_path(memo_dir: str, name: str, raw: bytes) -> str:
    """Keyed by the schema as installed, the file's name, size and CRC-32: hashlib's OpenSSL
    load alone would cost a hook more than the rest of reading the config."""
    import zlib

    from hooks.core import schemas

    schema = zlib.crc32(schemas.schema_identity(schemas.CONFIG))
    return os.path.join(memo_dir, f"config-{name.lstrip('.')}-{len(raw)}-"
                                  f"{zlib.crc32(raw):08x}-{schema:08x}.json")


def _validated(raw: bytes, name: str, memo_dir: str | None) -> Config:
    import json  # only a repository with a config pays for it: hooks run on every commit

    memo = _memo_path(memo_dir, name, raw) if memo_dir else None
    if memo:
        try:
            with open(memo, encoding="utf-8") as f:
                remembered = json.load(f)
            return Config(remembered, name) if isinstance(remembered, dict) else NO_CONFIG
        except (OSError, ValueError):
            pass
    document = _parse(raw, name)
    table = document if name == OWN_FILE else _table(document)
    if table is not None:  # None: pyproject.toml names receipt-hooks elsewhere (a dependency)
        prefix: list[str | int] = [] if name == OWN_FILE else list(TABLE)
        _check(table, raw.decode("utf-8", "replace"), name, prefix)
    if memo:
        import contextlib

        from hooks.core.fileio import atomic_write

        # a read-only git dir costs the next hook a parse, nothing else
        with contextlib.suppress(OSError):
            atomic_write(memo, json.dumps(table).encode())
    return NO_CONFIG if table is None else Config(table, name)


def _parse(raw: bytes, name: str) -> dict[str, Any]:
    import re

    try:
        import tomllib
    except ImportError:  # Python < 3.11
        import tomli as tomllib  # type: ignore[no-redef,import-not-found,unused-ignore]
    try:
        parsed: dict[str, Any] = tomllib.loads(raw.decode("utf-8"))
        _finite(parsed, name)
        return parsed
    except UnicodeDecodeError as e:
        raise ConfigError(f"{name}: not UTF-8 text ({e.reason} at byte {e.start})") from e
    except RecursionError as e:  # arrays or tables nested deeper than Python's stack
        raise ConfigError(f"{name}: not valid TOML here: nested too deeply to read") from e
    except tomllib.TOMLDecodeError as e:
        found = re.search(r"\(at line (\d+), column \d+\)", str(e))
        line = found.group(1) if found else max(len(raw.splitlines()), 1)  # end of document
        reason = re.sub(r"\s*\(at (line|end of document).*", "", str(e))
        where = f"{name}:{line}"
        raise ConfigError(f"{where}: not valid TOML: {reason}") from e


def _finite(document: dict[str, Any], name: str) -> None:
    """TOML's nan and inf are numbers no setting takes: nan passes every bound a schema sets
    (no comparison with it holds), so a budget of nan would be no budget."""
    import math

    stack: list[tuple[str, Any]] = [("", document)]
    while stack:
        key, value = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            raise ConfigError(f"{name}: {key} = {value}: not a number a setting takes")
        if isinstance(value, dict):
            stack.extend((f"{key}.{k}" if key else k, v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((f"{key}[{i}]", v) for i, v in enumerate(value))


def _table(document: dict[str, Any]) -> dict[str, Any] | None:
    tool = document.get(TABLE[0])
    table = tool.get(TABLE[1]) if isinstance(tool, dict) else None
    if table is not None and not isinstance(table, dict):
        raise ConfigError(f"{PYPROJECT}: tool.receipt-hooks must be a table "
                          f"([tool.receipt-hooks])")
    return table


def _check(table: dict[str, Any], text: str, name: str, prefix: list[str | int]) -> None:
    from hooks.core import schemas

    problems = schemas.located_errors(schemas.CONFIG, table)
    if not problems:
        problems = _semantic_problems(table)
    if not problems:
        return
    path, message = problems[0]
    key = ".".join(str(p) if isinstance(p, str) else f"[{p}]" for p in path)
    key = key.replace(".[", "[") or "(table)"
    if "is not valid under any of the given schemas" in message and path == ["test-command"]:
        message = "must be a command (a string) or a list of commands"
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    from hooks.core.tomllines import line_of

    line = line_of(text, [*prefix, *path])
    raise ConfigError(f"{name}:{line}: {key}: {message}{more}")


def _summary_pattern(pattern: str, problems: list[tuple[list[str | int], str]]) -> None:
    """``summary-pattern`` must compile and name its counts: passed or failed at least, and
    only the groups the counter reads (a misspelt group would count nothing, silently)."""
    import re

    try:
        groups = set(re.compile(pattern).groupindex)
    except re.error as e:
        problems.append((["summary-pattern"], f"not a regular expression: {pattern!r} ({e})"))
        return
    unknown = sorted(groups - set(SUMMARY_GROUPS))
    if unknown:
        problems.append((["summary-pattern"], f"names a group the counts have no place for: "
                                              f"{', '.join(unknown)} (the groups: "
                                              f"{', '.join(SUMMARY_GROUPS)})"))
    elif not groups & {"passed", "failed"}:
        problems.append((["summary-pattern"], f"has no named group passed or failed: "
                                              f"{pattern!r} (e.g. (?P<passed>\\d+))"))


def _semantic_problems(table: dict[str, Any]) -> list[tuple[list[str | int], str]]:
    """What the schema cannot say: regexes that do not compile, commands that do not split."""
    import re
    import shlex

    problems: list[tuple[list[str | int], str]] = []

    def regex(path: list[str | int], pattern: object) -> None:
        try:
            re.compile(str(pattern))
        except re.error as e:
            problems.append((path, f"not a regular expression: {pattern!r} ({e})"))

    def command(path: list[str | int], text: object) -> None:
        try:
            shlex.split(str(text))
        except ValueError as e:
            problems.append((path, f"cannot be split into words: {text!r} ({e})"))

    commands = table.get("test-command")
    if isinstance(commands, str):
        command(["test-command"], commands)
    elif isinstance(commands, list):
        for i, c in enumerate(commands):
            command(["test-command", i], c)
    for i, route in enumerate(table.get("route", [])):
        regex(["route", i, "paths"], route["paths"])
        command(["route", i, "command"], route["command"])
    if "require-platform" in table:
        regex(["require-platform"], table["require-platform"])
    for i, pattern in enumerate(table.get("hypothesis-paths", [])):
        regex(["hypothesis-paths", i], pattern)
    if "summary-pattern" in table:
        _summary_pattern(table["summary-pattern"], problems)
    skips = table.get("skips", {})
    if "ticket-pattern" in skips:
        regex(["skips", "ticket-pattern"], skips["ticket-pattern"])
    for key, value in Config(table, None).file_keys():
        why = _not_one_file(value)
        if why:
            where: list[str | int] = list(key.split("."))
            problems.append((where, f"must name one file from the repository root, "
                                             f"not a directory or a glob: {value!r} {why}"))
    return problems


def _not_one_file(value: str) -> str:
    """Why VALUE cannot name one file by a plain path; '' when it can."""
    parts = value.split("/")
    if not value or "\n" in value:
        return "is empty or holds a newline"
    if set(value) & _GLOB_CHARACTERS:
        return "holds a glob character (* ? [ ] \\)"
    if value.startswith((":", "/")):
        return "starts with ':' (git pathspec magic) or '/'"
    if value.endswith("/"):
        return "ends with '/'"
    if any(p in ("", ".", "..") for p in parts):
        return "has an empty, '.' or '..' part"
    return ""
