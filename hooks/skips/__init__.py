"""The skip guard's rule packs, one module per ecosystem, and how a file finds its packs.

Which files each pack reads is kept here, apart from the rules, so that a commit imports and
compiles only the packs its files need.

``identify`` is imported only for files without an extension (scripts with a shebang).
"""

from __future__ import annotations

import importlib
import re

from hooks.skips.needles import literals
from hooks.skips.rules import RULE_TITLES
from hooks.skips.rules import Pack
from hooks.skips.rules import Rule

_CONF_FILES = (r"(^|/)\.github/workflows/[^/]+\.ya?ml$|(^|/)([^/]*\.)?gitlab-ci\.ya?ml$"
               r"|(^|/)azure-pipelines[^/]*\.ya?ml$|(^|/)\.circleci/config\.ya?ml$"
               r"|(^|/)bitbucket-pipelines\.ya?ml$|(^|/)(GNUm|M|m)akefile$|\.mk$"
               r"|(^|/)(tox|pytest|setup)\.(ini|cfg)$|(^|/)pyproject\.toml$"
               r"|(^|/)\.travis\.ya?ml$|(^|/)\.?appveyor\.ya?ml$|(^|/)Jenkinsfile$|(^|/)pom\.xml$"
               r"|(^|/)(ci|\.ci|scripts?|\.github)/(.*/)?[^/]*\.(sh|bash)$")

# pack name: (module, extensions, path regex)
FILES: dict[str, tuple[str, tuple[str, ...], str | None]] = {
    "python": ("python", ("py", "pyi"), None),
    "javascript": ("js", ("js", "jsx", "ts", "tsx", "mjs", "cjs", "mts", "cts"), None),
    "go": ("go", ("go",), None),
    "rust": ("rust", ("rs",), None),
    "ruby": ("ruby", ("rb",), None),
    "jvm": ("jvm", ("java", "kt", "kts", "groovy", "scala"), None),
    "dotnet": ("dotnet", ("cs", "fs", "vb"), None),
    "php": ("php", ("php",), None),
    "swift": ("swift", ("swift",), None),
    "cpp": ("cpp", ("c", "cc", "cpp", "cxx", "c++", "h", "hh", "hpp", "hxx"), None),
    "ci": ("ci", (), _CONF_FILES),
    "ci-json": ("ci", (), r"(^|/)package\.json$"),
    "ci-js": ("ci", (), r"(^|/)(jest|vitest|playwright|cypress)\.config\.[cm]?[jt]s$"),
    "ci-python": ("ci", (), r"(^|/)(conftest|noxfile)\.py$"),
}

# identify's tags for files whose name says nothing (no extension: a script with a shebang)
_TAG_PACKS = {"python": "python", "javascript": "javascript", "ruby": "ruby", "php": "php"}

__all__ = ["FILES", "RULE_TITLES", "Pack", "Rule", "all_packs", "packs_for"]


def load(name: str) -> Pack:
    module = importlib.import_module(f"hooks.skips.packs.{FILES[name][0]}")
    packs: tuple[Pack, ...] = getattr(module, "PACKS", None) or (module.PACK,)
    return next(p for p in packs if p.name == name)


def all_packs() -> list[Pack]:
    return [load(name) for name in FILES]


def _names_for(path: str) -> list[str]:
    base = path.rsplit("/", 1)[-1]
    ext = base.rsplit(".", 1)[-1].lower() if "." in base else ""
    return [name for name, (_m, extensions, paths) in FILES.items()
            if ext in extensions or (paths and _may_match(paths, path))]


def _may_match(pattern: str, path: str) -> bool:
    # the needle check first: most paths rule a pack out without compiling its pattern
    needles = literals(pattern)
    if needles is not None and not any(n in path for n in needles):
        return False
    return re.search(pattern, path) is not None


def packs_for(path: str) -> list[Pack]:
    """The packs whose rules apply to PATH: by name and extension, else by identify's tags."""
    names = _names_for(path)
    if not names and "." not in path.rsplit("/", 1)[-1]:
        try:
            from identify import identify

            tags = identify.tags_from_path(path)
        except (ImportError, ValueError, OSError):
            tags = set()
        names = [pack for tag, pack in _TAG_PACKS.items() if tag in tags]
    return [load(name) for name in names]
