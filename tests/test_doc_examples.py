"""Every example command in README.md and docs/*.md, run for real, in the order the pages give.

What is an example command: in a fenced block tagged as shell (sh, bash, shell, zsh), every
line that is not blank or a comment (a trailing backslash continues it, a trailing "  # ..."
is a comment; a "$ " prompt is dropped); in any other fenced block but a data block (toml,
yaml, json, python: configuration and code, not commands typed here), a line that starts with
a "$ " prompt, the lines after it being its output. A chain "A && B" is one example per part.

Each runs with bash, with the installed ``receipt`` on PATH, in one repository the module
sets up: a tiny passing pytest suite, a bare remote as origin, a ``.venv/bin`` that holds this
venv's ``receipt`` and ``pytest``. The pages run in order (README.md, then docs/ by name), so
they compose: README's ``receipt init`` writes the config later pages rely on. Each example must
end with the exit code its page says (0 unless ``REFUSED`` names it), never with a usage error
(64) or an internal error (70), and never print a traceback; a prompted example must print the
labels of the first output line its page shows. A command that cannot run here is in
``NOT_RUN`` with the reason; an entry no page holds any more fails the module.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

import pytest
from conftest import BIN_DIR
from conftest import SOURCE_ROOT
from conftest import Repo
from conftest import git

PAGES = ("README.md", *sorted(p.relative_to(SOURCE_ROOT).as_posix()
                              for p in (SOURCE_ROOT / "docs").glob("*.md")))
SHELL = {"sh", "bash", "shell", "zsh"}
DATA = {"toml", "yaml", "yml", "json", "python", "py", "ini", "diff"}

INSTALLS = "installs a package from an index or builds this one: the module runs the receipt " \
           "this venv installed"
NOT_RUN: dict[str, str] = {
    "python3 -m venv .venv": "makes the virtual environment the module already runs in",
    ".venv/bin/pip install -q '.[demo]'": INSTALLS,
    ".venv/bin/pip install -q -e '.[test]'": INSTALLS,
    ".venv/bin/pip install -q -e '.[dev]'": INSTALLS,
    "pipx install 'git+https://github.com/receipt-hooks/receipt-hooks@<commit>'": INSTALLS,
    "uv tool install 'git+https://github.com/receipt-hooks/receipt-hooks@<commit>'": INSTALLS,
    "python3 -m pip install 'receipt-hooks @ git+https://github.com/receipt-hooks/receipt-hooks"
    "@<commit>'": INSTALLS,
    "python3 -m pip install ./receipt-hooks": INSTALLS,
    ".venv/bin/receipt demo": "builds a hook environment (~10 s): tests/test_demo.py runs it whole",
    ".venv/bin/pytest -q": "this project's own suite, minutes long: what CI runs",
    "bash .ci/run": "CI itself: ruff, mypy and the suite on three Pythons",
    "receipt run --shard 2/4 -- pytest -q --shard-id 1 --num-shards 4":
        "pytest-shard is not installed here (pytest-split, the test extra's, is run)",
    "receipt run -- npx jest --shard=2/4": "needs jest from the npm registry",
    "receipt run -- cargo nextest run --partition count:2/4": "needs a Rust toolchain and nextest",
}

# (page, command, which occurrence of it on the page): the exit code its page says, where the
# page shows it refusing
Key = tuple[str, str, int]
REFUSED: dict[Key, int] = {
    ("README.md", "git push", 2): 1,  # the stale push check-receipt refuses
}


@dataclass(frozen=True)
class Example:
    page: str
    line: int
    command: str
    occurrence: int
    block: int  # the fenced block's first line: a `cd` lasts to the end of its block
    shown: str = ""  # a prompted command's first output line on the page

    @property
    def key(self) -> Key:
        return (self.page, self.command, self.occurrence)

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.command}"


def split_chain(line: str) -> list[str]:
    """LINE's parts around each `&&` outside quotes."""
    parts, start, quote, i = [], 0, "", 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == quote:
                quote = ""
            elif c == "\\" and quote == '"':
                i += 1
        elif c in "'\"":
            quote = c
        elif line.startswith("&&", i):
            parts.append(line[start:i].strip())
            start = i + 2
        i += 1
    return [p for p in (*parts, line[start:].strip()) if p]


def without_comment(line: str) -> str:
    return re.sub(r"\s+#\s.*$", "", line).rstrip() if not line.lstrip().startswith("#") else ""


def examples(page: str, text: str) -> list[Example]:
    found: list[Example] = []
    seen: dict[str, int] = {}
    lines = text.splitlines()
    block_kind: str | None = None
    block_start = 0
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        if stripped.startswith("```"):
            block_kind, block_start = (stripped[3:].strip().lower(), i + 1) \
                if block_kind is None else (None, 0)
            i += 1
            continue
        if block_kind is None or block_kind in DATA:
            i += 1
            continue
        start = i
        prompted = stripped.startswith("$ ")
        if not prompted and block_kind not in SHELL:
            i += 1
            continue
        command = without_comment(stripped[2:] if prompted else stripped)
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command[:-1].rstrip() + " " + without_comment(lines[i].strip())
        shown = ""
        if prompted and i + 1 < len(lines) and not lines[i + 1].strip().startswith(("$ ", "```")):
            shown = lines[i + 1].strip()
        i += 1
        for part in split_chain(command) if command else []:
            seen[part] = seen.get(part, 0) + 1
            found.append(Example(page, start + 1, part, seen[part], block_start, shown))
    return found


def all_examples() -> list[Example]:
    return [e for page in PAGES for e in examples(page, (SOURCE_ROOT / page).read_text())]


def test_the_rule_reads_commands_as_the_pages_write_them() -> None:
    page = "\n".join([
        "text `receipt run` in prose is no example", "```sh",
        "# a comment line", "receipt init      # with a comment",
        "receipt fuse --max-steps 6 \\", "    --budget 1800 -- pytest -q   # joined",
        "python3 -m venv .venv && .venv/bin/receipt check --between 'a && b'", "```",
        "```", "$ git push", "stale: 1a2b3c4 differs", "output, not a command", "```",
        "```toml", "$ not = 'a command'", "```", "```console", "receipt doctor: ok: x", "```",
    ])
    found = [(e.line, e.command, e.occurrence, e.shown) for e in examples("p.md", page)]
    assert found == [
        (4, "receipt init", 1, ""),
        (5, "receipt fuse --max-steps 6 --budget 1800 -- pytest -q", 1, ""),
        (7, "python3 -m venv .venv", 1, ""),
        (7, ".venv/bin/receipt check --between 'a && b'", 1, ""),
        (10, "git push", 1, "stale: 1a2b3c4 differs"),
    ]


def test_every_name_the_module_keeps_is_still_on_a_page() -> None:
    found = all_examples()
    commands = {e.command for e in found}
    assert [c for c in NOT_RUN if c not in commands] == []
    keys = {e.key for e in found}
    assert [k for k in (*REFUSED, *SETUP) if k not in keys] == []
    words = [w for w in (*PRINTED, SERVER_PATH) if not any(w in c for c in commands)]
    assert words == []


@dataclass
class Place:
    repo: Repo
    remote: Path
    env: dict[str, str]
    words: dict[str, str] = field(default_factory=dict)  # a page's placeholder: its value here

    def receipt(self, *args: str) -> None:
        done = subprocess.run(("receipt", *args), cwd=self.repo.path, env=self.env,
                              capture_output=True, check=False)
        assert done.returncode == 0, done.stderr.decode()

    def commit_all(self, message: str) -> None:
        """Commit the work tree as it is (no hooks: what a page's set-up needs, not a step of
        its own)."""
        self.repo.git("add", "-A")
        self.repo.git("commit", "-q", "--no-verify", "-m", message)


LOCAL_HOOKS = "default_install_hook_types: [pre-commit, pre-push]\nrepos:\n  - repo: local\n" \
              "    hooks:\n"


def hooks_run_here(place: Place) -> None:
    """The hooks `receipt init` added, from the installed entry points instead of a repository
    pre-commit would fetch (no network here): each hook as the package's manifest declares it,
    its language `system`, and the arguments `receipt init` gave it."""
    config = place.repo.path / ".pre-commit-config.yaml"
    written = config.read_text()
    assert "id: check-receipt\n        args: [--publish]\n" in written, written
    manifest = (SOURCE_ROOT / ".pre-commit-hooks.yaml").read_text()
    body = "".join(f"      {line}\n" if line.strip() else "\n" for line in
                   manifest.replace("language: python", "language: system").splitlines())
    body = body.replace("      - id: check-receipt\n",
                        "      - id: check-receipt\n        args: [--publish]\n")
    config.write_text(LOCAL_HOOKS + body)


def a_stale_commit(place: Place) -> None:
    place.repo.write("src/cart.py", "TAX = 0.2\n")
    place.repo.write("tests/test_tax.py", "def test_tax():\n    assert 0.2 * 10 == 2\n")
    place.commit_all("tax")


def a_summary_the_receipt_covers(place: Place) -> None:
    place.repo.write("summary.md", "Checkout totals include tax now. All tests pass.\n")
    place.receipt("run")


def no_pre_commit_pre_push_hook(place: Place) -> None:
    """notes.md's install-hook is the way without pre-commit: this repository stops running
    its pre-push hook through pre-commit."""
    (place.repo.path / ".git" / "hooks" / "pre-push").unlink()


def a_tested_branch_and_a_hook_without_publish(place: Place) -> None:
    """servers.md's pushers: a branch with a receipt of its tip, a pre-push check that does not
    publish by itself (the page says why)."""
    place.commit_all("summary and ledger")
    place.receipt("run")
    place.repo.git("branch", "my-branch")
    place.receipt("install-hook", "--force")


SETUP: dict[Key, Callable[[Place], None]] = {
    ("README.md", "receipt run", 1): hooks_run_here,
    ("README.md", "git push", 2): a_stale_commit,
    ("docs/agents.md", "receipt claims summary.md", 1): a_summary_the_receipt_covers,
    ("docs/notes.md", "receipt install-hook -- --publish origin", 1): no_pre_commit_pre_push_hook,
    ("docs/servers.md", "git push origin my-branch refs/notes/receipts", 1):
        a_tested_branch_and_a_hook_without_publish,
}

# a page's placeholder that stands for a value an earlier example printed
PRINTED = {"h-3f9a0c12": re.compile(r"^(h-[0-9a-f]{8})$", re.M)}  # ledger.md's id
SERVER_PATH = "/srv/git/project.git"


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Place]:
    root = tmp_path_factory.mktemp("docs")
    repo = Repo(root / "shop")
    remote = repo.add_remote()
    repo.write("pyproject.toml", '[project]\nname = "shop"\nversion = "0.1"\n')
    repo.write(".gitignore", ".venv/\n")
    repo.write("src/cart.py", "TAX = 0\n")
    # the project shards with pytest-split, named here because the suite's environment turns
    # pytest's plugin autoloading off
    repo.write("conftest.py", 'pytest_plugins = ["pytest_split.plugin"]\n')
    for name in ("checkout", "cart", "pay", "refund"):
        repo.write(f"tests/test_{name}.py", f"def test_{name}():\n    assert 1 + 1 == 2\n")
    (repo.path / ".venv" / "bin").mkdir(parents=True)
    for program in ("receipt", "pytest"):
        (repo.path / ".venv" / "bin" / program).symlink_to(Path(BIN_DIR) / program)
    repo.commit("shop")
    repo.git("push", "-q", "-u", "origin", "main")
    env = {**os.environ, "DATABASE_URL": "sqlite:///shop.db"}  # fuse.md's --require-env
    yield Place(repo, remote, env, {SERVER_PATH: str(remote)})


def labels(line: str) -> str:
    """The labels a shown output line starts with: "receipt doctor: ok: " of a doctor line."""
    found = re.match(r"(?:[a-z][a-z -]*: )+", line)
    return found.group(0) if found else ""


def test_every_example_command_runs_as_its_page_says(place: Place) -> None:
    broken: list[str] = []
    cwd, block = place.repo.path, (None, 0)
    for example in all_examples():
        if example.command in NOT_RUN:
            continue
        if (example.page, example.block) != block:
            cwd, block = place.repo.path, (example.page, example.block)
        command = example.command
        for word, value in place.words.items():
            command = command.replace(word, value)
        if command.startswith("cd "):
            cwd = Path(command[3:].strip())
            if not cwd.is_dir():
                broken.append(f"{example}: no such directory here")
                cwd = place.repo.path
            continue
        setup = SETUP.get(example.key)
        if setup:
            setup(place)
        done = subprocess.run(("bash", "-c", command), cwd=cwd, env=place.env,
                              capture_output=True, check=False, timeout=120)
        out = (done.stdout + done.stderr).decode("utf-8", "replace")
        for word, printed in PRINTED.items():
            got = printed.search(done.stdout.decode())
            if got:
                place.words[word] = got.group(1)
        expected = REFUSED.get(example.key, 0)
        wants = labels(example.shown)
        if done.returncode != expected or "Traceback" in out or (
                wants and not re.search("^" + re.escape(wants), out, re.M)):
            broken.append(f"{example}: exit {done.returncode} (the page says {expected}"
                          f"{', printing ' + repr(wants) if wants else ''}):\n{out}")
    assert not broken, "\n".join(broken)
    assert git(place.remote, "rev-parse", "--verify", "-q", "refs/heads/my-branch")
