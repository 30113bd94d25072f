"""Real git, real bare remotes, real pre-commit: shared set-up for every test module.

The session runs with a git config of its own (no user or system config leaks in), no
GIT_INDEX_FILE or GIT_DIR left by a surrounding hook, and one PRE_COMMIT_HOME, so pre-commit
builds the hook environment for this package once.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

SOURCE_ROOT = Path(__file__).resolve().parents[1]
BIN_DIR = str(Path(sys.executable).parent)

_LEAKY_VARS = (
    "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE",
    "PRE_COMMIT_FROM_REF", "PRE_COMMIT_TO_REF", "PRE_COMMIT", "GITHUB_ACTIONS",
    "PYTEST_ADDOPTS", "PYTEST_PLUGINS", "NODE_OPTIONS", "GOFLAGS", "PYTHONOPTIMIZE",  # recorded
    # a CI job's description of its build: verify takes its policy source from these
    "GITHUB_EVENT_NAME", "GITHUB_EVENT_PATH", "GITHUB_REF", "GITHUB_SHA", "GITHUB_BASE_REF",
    "GITHUB_STEP_SUMMARY", "GITLAB_CI", "CI_DEFAULT_BRANCH", "CI_COMMIT_REF_NAME",
    "CI_COMMIT_BRANCH", "CI_COMMIT_SHA", "CI_COMMIT_TAG", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME",
    "AGENT_CMD", "MAX_STEPS", "REPEAT_LIMIT", "LOG", "LEDGER", "FINGERPRINT_FILE",
    "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR",  # name the project the agent hook judges
)


def run_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One directory for the whole test run, shared by pytest-xdist's workers (each worker's
    temp dir sits in it), so that they share one pre-commit store and one hook environment."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


GITCONFIG = (
    "[user]\n\tname = Test User\n\temail = test@example.invalid\n"
    "[init]\n\tdefaultBranch = main\n"
    "[advice]\n\tdetachedHead = false\n"
    "[protocol \"file\"]\n\tallow = always\n"
    # throwaway repositories need no durability: no fsync of every ref and pack, and no
    # maintenance or gc started after each commit and fetch
    "[core]\n\tfsync = none\n[maintenance]\n\tauto = false\n[gc]\n\tauto = 0\n"
)


def isolated_env(home: Path, root: Path) -> dict[str, str]:
    """The environment every test runs in, with its git config written in HOME and the test
    run's shared directory ROOT; what it sets (``_LEAKY_VARS`` are removed besides)."""
    gitconfig = home / "gitconfig"
    gitconfig.write_text(GITCONFIG)
    return {
        "GIT_CONFIG_GLOBAL": str(gitconfig),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Test User", "GIT_AUTHOR_EMAIL": "test@example.invalid",
        "GIT_COMMITTER_NAME": "Test User", "GIT_COMMITTER_EMAIL": "test@example.invalid",
        "PRE_COMMIT_HOME": str(root / "pre-commit-home"),
        "PATH": BIN_DIR + os.pathsep + os.environ.get("PATH", ""),
        "NO_COLOR": "1",
        # git reaches no network: receipt init's look-up of its own tag fails at once
        "GIT_ALLOW_PROTOCOL": "file",
        # the test projects' pytest loads no plugin of this venv (xdist...): a tenth of a
        # second saved on each of the suite's ~150 inner pytest runs; no receipt records it
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        # the test projects' Python writes no bytecode, on every machine: a file rewritten
        # within the same second at the same size (the scripted agent's attempts) would
        # otherwise run from the bytecode of its previous content
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def isolate(home: Path, root: Path) -> None:
    for name in _LEAKY_VARS:
        os.environ.pop(name, None)
    os.environ.update(isolated_env(home, root))


@pytest.fixture(scope="session", autouse=True)
def isolated_environment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    saved = dict(os.environ)
    isolate(tmp_path_factory.mktemp("home"), run_root(tmp_path_factory))
    yield
    os.environ.clear()
    os.environ.update(saved)


@dataclass
class Result:
    code: int
    out: str
    err: str

    @property
    def both(self) -> str:
        return self.out + self.err


def run(argv: Sequence[str], cwd: Path | str, *, stdin: str | None = None,
        env: dict[str, str] | None = None, timeout: float | None = 600) -> Result:
    proc = subprocess.run(
        list(argv), cwd=cwd, input=(stdin or "").encode(), capture_output=True,
        env={**os.environ, **(env or {})}, timeout=timeout, check=False,
    )
    return Result(proc.returncode, proc.stdout.decode("utf-8", "replace"),
                  proc.stderr.decode("utf-8", "replace"))


def in_process(main: Callable[[list[str]], int], argv: Sequence[str], cwd: Path | str,
               env: dict[str, str] | None = None) -> Result:
    """A command's ``main(argv)`` called in this process from CWD (with ENV added to the
    environment), as its console script calls it: the exit code it returns (or argparse's
    SystemExit), and what it wrote to stdout and stderr, bytes written to ``sys.stdout.buffer``
    (a command's streamed output) included. For the cases of a behaviour whose process wiring
    one process test already covers."""
    out_bytes, err_bytes = io.BytesIO(), io.BytesIO()
    # write_through: text and bytes written to the same stream stay in the order written
    out = io.TextIOWrapper(out_bytes, encoding="utf-8", errors="replace", write_through=True)
    err = io.TextIOWrapper(err_bytes, encoding="utf-8", errors="replace", write_through=True)
    before, saved = os.getcwd(), dict(os.environ)
    os.chdir(cwd)
    os.environ.update(env or {})
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(argv))
            except SystemExit as e:  # argparse's usage errors
                code = e.code if isinstance(e.code, int) else 1
    finally:
        os.chdir(before)
        os.environ.clear()
        os.environ.update(saved)
    return Result(code, out_bytes.getvalue().decode("utf-8", "replace"),
                  err_bytes.getvalue().decode("utf-8", "replace"))


def receipt_main(cwd: Path | str, *argv: str, env: dict[str, str] | None = None) -> Result:
    """``receipt ARGV`` through the CLI's main in process: exit code and messages (the console
    script and each command's process wiring have their own tests)."""
    from hooks import cli

    return in_process(cli.main, argv, cwd, env)


def receipt_check(cwd: Path | str, *args: str) -> Result:
    return receipt_main(cwd, "check", *args)


def check_receipt(cwd: Path | str, *args: str) -> Result:
    """The check-receipt hook's main in process: its verdict, exit code and messages (the
    console script, stdin and the hook under pre-commit have their own tests)."""
    from hooks import check_receipt as hook

    return in_process(hook.main, args, cwd)


def git(repo: Path, *args: str) -> str:
    proc = subprocess.run(("git", *args), cwd=repo, capture_output=True,
                          check=False)
    assert proc.returncode == 0, f"git {' '.join(args)}: {proc.stderr.decode()}"
    return proc.stdout.decode("utf-8", "replace").strip()


class Repo:
    """A temporary git repository with a few helpers; ``remote`` is a real bare repository."""

    def __init__(self, path: Path, *, init: bool = True) -> None:
        """INIT false: PATH already is a repository (a copy of a fixture's template, say)."""
        self.path = path
        if init:
            git(path.parent, "init", "-q", "--template=", str(path))

    def git(self, *args: str) -> str:
        return git(self.path, *args)

    def write(self, name: str, content: str | bytes = "") -> Path:
        target = self.path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content)
        return target

    def commit(self, message: str = "change", *files: str, **contents: str) -> str:
        for name, text in contents.items():
            self.write(name.replace("__", "/"), text)
        self.git("add", "-A", *files)
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.git("rev-parse", "HEAD")

    def run(self, *argv: str, stdin: str | None = None, env: dict[str, str] | None = None,
            cwd: Path | None = None, timeout: float | None = 600) -> Result:
        return run(argv, cwd or self.path, stdin=stdin, env=env, timeout=timeout)

    def receipt(self, *argv: str, env: dict[str, str] | None = None,
                cwd: Path | None = None) -> Result:
        """``receipt ARGV`` in this process (``receipt_main``): a test of what a command
        decides; ``run("receipt", ...)`` where the process itself is under test."""
        return receipt_main(cwd or self.path, *argv, env=env)

    def add_remote(self) -> Path:
        remote = self.path.parent / (self.path.name + "-remote.git")
        git(self.path.parent, "init", "-q", "--bare", "--template=", str(remote))
        self.git("remote", "add", "origin", str(remote))
        return remote


def copied(template: Path, where: Path) -> Repo:
    """A copy of TEMPLATE (a ``repo`` and its bare ``repo-remote.git``, built once per module)
    in WHERE, origin pointed at the copied remote: a test changes its copy, never the template."""
    import shutil

    shutil.copytree(template, where, symlinks=True, dirs_exist_ok=True)
    repo = Repo(where / "repo", init=False)
    repo.git("remote", "set-url", "origin", str(where / "repo-remote.git"))
    return repo


def built_template(tmp_path_factory: pytest.TempPathFactory,
                   build: Callable[[Repo], object]) -> Path:
    """A repository (artifacts/ ignored) that BUILD sets up, and any remote it adds, in a
    directory of their own: a module-scoped fixture's template for ``copied``."""
    repo = Repo(tmp_path_factory.mktemp("published") / "repo")
    repo.write(".gitignore", "artifacts/\n__pycache__/\n")
    build(repo)
    return repo.path.parent


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    r = Repo(tmp_path / "repo")
    r.write(".gitignore", "artifacts/\n__pycache__/\n")
    return r


PASSING_TEST = "import sys\nprint('=== 3 passed in 0.01s ===')\nsys.exit(0)\n"
FAILING_TEST = "import sys\nprint('=== 1 failed, 2 passed in 0.01s ===')\nsys.exit(1)\n"


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """This package's source as a committed git repo: what a user's config points pre-commit at.

    Every test points at this one path and commit, so pre-commit builds the hooks' environment
    once per test run, with a plain (non-editable) pip install of the package, as it does for
    users. It is built with no timeout (a busy machine may take minutes), so that no test
    that merely runs a hook pays for the build or times out on it; usually by the prebuild
    process started at collection, while the workers run other tests.
    """
    return ensure_hook_repo(run_root(tmp_path_factory))


def ensure_hook_repo(root: Path) -> tuple[str, str]:
    dest, built_rev = root / "hook-repo", root / "hook-repo.rev"
    with once(root, "hook-repo"):
        if not built_rev.exists():
            shutil.rmtree(dest, ignore_errors=True)  # a build that died half way
            _snapshot_source(dest)
            rev = git(dest, "rev-parse", "HEAD")
            user = root / "env-builder"
            shutil.rmtree(user, ignore_errors=True)
            user.mkdir()
            git(user, "init", "-q", "--template=")
            (user / ".pre-commit-config.yaml").write_text(
                precommit_config((str(dest), rev), *MANIFEST_HOOKS))
            built = run(["pre-commit", "install-hooks"], user, timeout=None)
            assert built.code == 0, built.both
            built_rev.write_text(rev)
    return str(dest), built_rev.read_text()


@contextlib.contextmanager
def once(root: Path, name: str) -> Iterator[None]:
    """Hold the test run's lock NAME: one process (an xdist worker or the prebuild) builds a
    shared fixture; the others wait, then reuse what it built."""
    import fcntl

    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


# Fixtures built once per test run in the run's shared directory, by name: conftest's
# hook_repo, test_scale_shards' sharded. Collection starts one process that builds those the
# collected tests use, so no worker waits idle for a build while the machine has work to do.
PREBUILT = {"hook_repo": "conftest:ensure_hook_repo",
            "sharded": "test_scale_shards:ensure_sharded"}
_prebuild: list[subprocess.Popen[bytes]] = []


def start_prebuild(config: pytest.Config, items: Sequence[pytest.Item]) -> None:
    used = sorted({name for item in items for name in getattr(item, "fixturenames", ())
                   if name in PREBUILT})
    if not used or config.getoption("collectonly"):
        return
    root = run_root(config._tmp_path_factory)  # type: ignore[attr-defined]
    try:  # the first collecting worker starts it; the others find it started
        os.close(os.open(root / "prebuild.started", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return
    home = root / "prebuild-home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in _LEAKY_VARS}
    env.update(isolated_env(home, root))
    with open(root / "prebuild.log", "wb") as log:
        _prebuild.append(subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("prebuild.py")), str(root),
             *(PREBUILT[name] for name in used)],
            cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT))


def pytest_sessionfinish(session: pytest.Session) -> None:
    for proc in _prebuild:  # done long before, on every run but the shortest
        try:
            proc.wait(timeout=600)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _snapshot_source(dest: Path) -> None:
    """Copy the checkout's files (tracked, and untracked but not ignored) into a new repo."""
    listed = subprocess.run(
        ("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"),
        cwd=SOURCE_ROOT, stdout=subprocess.PIPE, check=True,
    ).stdout.split(b"\0")
    for raw in listed:
        source = SOURCE_ROOT / raw.decode()
        if raw and source.is_file():
            (dest / raw.decode()).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / raw.decode())
    git(dest, "init", "-q", "--template=")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "snapshot for tests")


MANIFEST_HOOKS = ("check-receipt", "no-inserted-skips", "require-ledger-hypothesis")


def precommit_config(hook_repo: tuple[str, str], *hooks: str, args: Sequence[str] = ()) -> str:
    path, rev = hook_repo
    lines = [f"repos:\n  - repo: {path}\n    rev: {rev}\n    hooks:"]
    for hook in hooks:
        lines.append(f"      - id: {hook}")
        if args:
            lines.append(f"        args: [{', '.join(args)}]")
    return "\n".join(lines) + "\n"


def scan_new_file(path: str, text: str, capsys: pytest.CaptureFixture[str],
                  enabled: frozenset[str] = frozenset()) -> tuple[int, str]:
    """The hook's core and report, in process, on a file the change adds whole (every line is
    an added line, as when it is staged new): the exit code and what the hook prints."""
    from hooks.skips import packs_for
    from hooks.skips.allowances import DEFAULT_TICKET
    from hooks.skips.filescan import FileScan
    from hooks.skips.report import report

    scan = FileScan(path, packs_for(path), text)
    hits = scan.hits(scan.candidates(list(enumerate(scan.raw_lines(), 1)), enabled))
    capsys.readouterr()
    code = report([(hit, scan) for hit in hits], allow=True, ticket=DEFAULT_TICKET, fmt="text",
                  prog="no-inserted-skips")
    return code, capsys.readouterr().out


# The few tests that build a hook environment or run the whole demo take 5-10 s each: started
# first, so that pytest-xdist's workers do not end the run waiting on one of them.
SLOW_FIRST = ("test_check_receipt_framework.py", "test_own_code.py", "test_ledger_remote.py",
              "test_demo.py", "test_first_hour.py")


def pytest_configure(config: pytest.Config) -> None:
    """Compile this package's bytecode once, as installing a wheel does: the suite starts a
    few thousand receipt processes, and where PYTHONDONTWRITEBYTECODE is set (CI images often
    set it) each would otherwise compile every module it imports, a tenth of a second each."""
    import compileall

    if not os.environ.get("PYTEST_XDIST_WORKER"):
        compileall.compile_dir(str(SOURCE_ROOT / "hooks"), quiet=1)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.path.name not in SLOW_FIRST)
    start_prebuild(config, items)
