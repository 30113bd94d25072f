"""Whole-process timings of receipt-hooks against its peers, side by side in one run.

    python bench/bench.py [--runs N] [--write-docs docs/performance.md]

Each row runs two commands alternately N times in the same throwaway repository and prints
their medians and the ratio. Run it with the venv that has receipt-hooks and pre-commit-hooks
installed (the one .ci/run makes); the console scripts are found next to its python. The
package's bytecode is compiled first, as installing a wheel does, so that an editable install
under PYTHONDONTWRITEBYTECODE is not timed compiling its modules.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
ENV = {
    **{k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))},
    "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
}


def sh(argv: Sequence[str], cwd: Path, stdin: bytes | None = None) -> int:
    return subprocess.run(list(argv), cwd=cwd, env=ENV, input=stdin, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, check=False).returncode


def timed(argv: Sequence[str], cwd: Path) -> float:
    t0 = time.perf_counter()
    sh(argv, cwd)
    return time.perf_counter() - t0


def compare(title: str, ours: Sequence[str], peer: Sequence[str], cwd: Path, runs: int,
            target: str, before_each: Callable[[], None] | None = None) -> None:
    # a command that fails fast would time well: both must succeed before they are timed
    for argv in (ours, peer):
        code = sh(argv, cwd)
        if code != 0:
            raise SystemExit(f"bench: {' '.join(argv)[:80]} exited {code} in {cwd}")
    mine: list[float] = []
    theirs: list[float] = []
    for _ in range(runs):
        if before_each:
            before_each()
        mine.append(timed(ours, cwd))
        theirs.append(timed(peer, cwd))
    a, b = statistics.median(mine), statistics.median(theirs)
    print(f"{title:<58} {a * 1000:8.1f} ms {b * 1000:8.1f} ms {a / b:7.2f}x   {target}")


def new_repo(root: Path, name: str) -> Path:
    repo = root / name
    sh(["git", "init", "-q", "-b", "main", str(repo)], root)
    (repo / ".gitignore").write_text("artifacts/\n")
    return repo


def bench_receipts(root: Path, runs: int) -> None:
    repo = new_repo(root, "receipts")
    for i in range(200):
        (repo / f"src{i % 10}").mkdir(exist_ok=True)
        (repo / f"src{i % 10}" / f"m{i}.py").write_text(f"x = {i}\n" * 20)
    sh(["git", "add", "-A"], repo)
    sh(["git", "commit", "-qm", "init"], repo)
    sh([str(BIN / "receipt"), "run", "--", "true"], repo)
    memo = repo / ".git" / "receipt-hooks" / "valid"
    checker = [sys.executable, str(HERE / "minimal_checker.py")]
    compare("check-receipt (validated before) vs minimal checker", [str(BIN / "check-receipt")],
            checker, repo, runs, "target <= 1.5x")
    compare("check-receipt (first check: imports jsonschema) vs minimal",
            [str(BIN / "check-receipt")], checker, repo, runs, "(once per new receipt)",
            before_each=lambda: shutil.rmtree(memo, ignore_errors=True))
    compare("receipt run -- true vs true", [str(BIN / "receipt"), "run", "--", "true"],
            ["true"], repo, runs, "(two tree snapshots)")


def bench_verify(root: Path, runs: int) -> None:
    """receipt verify over 200 commits, each with a receipt in refs/notes/receipts."""
    import json

    repo = new_repo(root, "verify")
    sh(["git", "commit", "-q", "--allow-empty", "-m", "base"], repo)
    sh([str(BIN / "receipt"), "run", "--", "sh", "-c", "echo '=== 3 passed in 0.01s ==='"],
       repo)
    template = json.loads((repo / "artifacts" / "test-receipt.json").read_text())
    for i in range(200):
        (repo / f"f{i}.txt").write_text(f"{i}\n")
        sh(["git", "add", "-A"], repo)
        sh(["git", "commit", "-qm", f"c{i}"], repo)
        tree = subprocess.run(["git", "rev-parse", "HEAD^{tree}"], cwd=repo, env=ENV,
                              capture_output=True, text=True, check=True).stdout.strip()
        receipt = {**template, "git_tree": tree, "git_tree_after": tree}
        sh(["git", "notes", "--ref", "receipts", "add", "-f", "-F", "-", tree], repo,
           stdin=json.dumps([receipt]).encode())
    verify = [str(BIN / "receipt"), "verify", "--range", "HEAD~200..HEAD"]
    if sh(verify, repo) != 0:
        raise SystemExit(f"bench: receipt verify failed in {repo}")
    floor = ["git", "rev-list", "--format=%H %T", "HEAD~200..HEAD"]
    compare("receipt verify --range (200 commits with notes) vs rev-list", verify, floor, repo,
            runs, "target < 2000 ms")


def staged_commit(root: Path, name: str, files: int, lines_per_file: int) -> Path:
    """A repository with FILES new files of LINES_PER_FILE lines staged, none under src/."""
    repo = new_repo(root, name)
    (repo / "README").write_text("bench\n")
    sh(["git", "add", "-A"], repo)
    sh(["git", "commit", "-qm", "init"], repo)
    for i in range(files):
        body = "".join(f"def test_case_{i}_{n}():\n    assert compute({n}) == {n}\n"
                       for n in range(lines_per_file // 2))
        (repo / "tests").mkdir(exist_ok=True)
        (repo / "tests" / f"test_mod{i}.py").write_text(body)
    sh(["git", "add", "-A"], repo)
    return repo


def staged_files(repo: Path) -> list[str]:
    out = subprocess.run(["git", "diff", "--cached", "--name-only"], cwd=repo, env=ENV,
                         capture_output=True, text=True, check=True).stdout
    return out.split()


def bench_commit_stage(root: Path, runs: int) -> None:
    repo = staged_commit(root, "typical", files=20, lines_per_file=25)
    files = staged_files(repo)
    large = [str(BIN / "check-added-large-files"), *files]
    compare("no-inserted-skips (20 files, 500 added lines) vs large-files",
            [str(BIN / "no-inserted-skips"), *files], large, repo, runs, "target <= 1.1x")
    compare("require-ledger-hypothesis (no src/, no ledger) vs large-files",
            [str(BIN / "require-ledger-hypothesis")], large, repo, runs, "target <= 1.0x")
    compare("require-ledger-hypothesis vs git diff --cached (floor)",
            [str(BIN / "require-ledger-hypothesis")], ["git", "diff", "--cached"], repo, runs,
            "(python start-up is most of it)")


def bench_config(root: Path, runs: int) -> None:
    """What reading the repository's config costs a hook: the same staged commit with and
    without a committed .receipt-hooks.toml (validated once, then read from the memo)."""
    bare = staged_commit(root, "no-config", files=20, lines_per_file=25)
    configured = staged_commit(root, "config", files=20, lines_per_file=25)
    (configured / ".receipt-hooks.toml").write_text(
        'test-command = "pytest -q"\nignore = ["assumption-ledger.jsonl"]\n'
        '[skips]\nticket-pattern = "[A-Z]+-[0-9]+"\n')
    sh(["git", "add", "-A"], configured)
    for hook in ("require-ledger-hypothesis", "no-inserted-skips"):
        mine: list[float] = []
        theirs: list[float] = []
        argv = [str(BIN / hook)]
        for repo in (configured, bare):  # warm: the first read validates and remembers
            sh(argv, repo)
        for _ in range(runs):
            mine.append(timed(argv, configured))
            theirs.append(timed(argv, bare))
        a, b = statistics.median(mine), statistics.median(theirs)
        print(f"{hook + ' with a config vs without':<58} {a * 1000:8.1f} ms {b * 1000:8.1f} ms "
              f"{a / b:7.2f}x   +{(a - b) * 1000:.1f} ms, target <= 5 ms")


def bench_large_change(root: Path, runs: int) -> None:
    """Added lines at scale: against git's own diff, and whether the cost grows linearly."""
    floor = ["git", "diff", "--cached", "-U0"]
    per_line: list[str] = []
    for total in (25_000, 50_000, 100_000):
        repo = staged_commit(root, f"large{total}", files=100, lines_per_file=total // 100)
        ours = [str(BIN / "no-inserted-skips")]
        if sh(ours, repo) != 0:
            raise SystemExit(f"bench: no-inserted-skips failed in {repo}")
        mine = statistics.median(timed(ours, repo) for _ in range(max(runs // 3, 3)))
        base = statistics.median(timed(floor, repo) for _ in range(max(runs // 3, 3)))
        per_line.append(f"{mine / total * 1e6:.1f}")
        if total == 100_000:
            print(f"{'no-inserted-skips, 100k added lines vs git diff --cached -U0':<58} "
                  f"{mine * 1000:8.1f} ms {base * 1000:8.1f} ms {mine / base:7.2f}x   "
                  f"target <= 10x")
    print(f"{'no-inserted-skips: us per added line at 25k/50k/100k':<58} "
          f"{' / '.join(per_line):>31}   (flat = linear)")


def bench_fuse(root: Path, runs: int) -> None:
    """The fuse's own cost per step: its time for ten failing steps, less ten direct runs."""
    repo = new_repo(root, "fuse")
    sh(["git", "commit", "-q", "--allow-empty", "-m", "init"], repo)
    # a different failure each time (a counter), so the fuse runs all ten steps
    step = ["sh", "-c", "n=$(cat n 2>/dev/null || echo 0); echo $((n+1)) > n; "
                        "echo \"FAILED t.py::test_$n - E\"; exit 1"]
    steps = 10
    fuse = [str(BIN / "receipt"), "fuse", "--max-steps", str(steps), "--repeat-limit", "99",
            "--", *step]
    per_step: list[float] = []
    direct: list[float] = []
    for _ in range(max(runs // 3, 3)):
        t_fuse = timed(fuse, repo)
        t_direct = sum(timed(step, repo) for _ in range(steps))
        per_step.append((t_fuse - t_direct) / steps)
        direct.append(t_direct / steps)
    overhead = statistics.median(per_step)
    print(f"{'receipt fuse overhead per step (10 steps, amortised)':<58} "
          f"{overhead * 1000:8.1f} ms {statistics.median(direct) * 1000:8.1f} ms "
          f"{'':>8}   target <= 50 ms")
    once = [str(BIN / "receipt"), "fuse", "--once", "--max-steps", "1000", "--repeat-limit",
            "999", "--", *step]
    once_overheads = [timed(once, repo) - timed(step, repo) for _ in range(runs)]
    print(f"{'receipt fuse --once overhead per call':<58} "
          f"{statistics.median(once_overheads) * 1000:8.1f} ms {'':>11} {'':>8}   "
          f"(a whole process per step)")


def bench_agent_hook(root: Path, runs: int) -> None:
    """The stop hook on a 10k-file repository: the agents' default hook timeouts are seconds."""
    import json

    repo = new_repo(root, "agent10k")
    for i in range(10_000):
        folder = repo / f"pkg{i % 100}"
        folder.mkdir(exist_ok=True)
        (folder / f"m{i}.py").write_text(f"x = {i}\n")
    sh(["git", "add", "-A"], repo)
    sh(["git", "commit", "-qm", "init"], repo)
    sh([str(BIN / "receipt"), "run", "--", "true"], repo)
    event = root / "stop.json"
    event.write_text(json.dumps({"session_id": "bench", "cwd": str(repo), "hook_event_name":
                                 "Stop", "stop_hook_active": False,
                                 "last_assistant_message": "Done. All tests pass."}))
    stop = ["sh", "-c", f"{BIN / 'receipt'} agent-hook --agent claude-code < {event}"]
    status = ["git", "status", "--porcelain"]
    compare("agent-hook, 10k files, green receipt covers the tree", stop, status, repo, runs,
            "target <= 1000 ms")
    (repo / "pkg0" / "m0.py").write_text("x = 'changed'\n")
    compare("agent-hook, 10k files, one file changed: blocked", stop, status, repo, runs,
            "target <= 1000 ms")
    (repo / "artifacts" / "test-receipt.json").unlink()
    shutil.rmtree(repo / "artifacts" / "receipts", ignore_errors=True)
    compare("agent-hook, 10k files, no receipt: HEAD is the baseline", stop, status, repo, runs,
            "target <= 1000 ms")


def big_repo(root: Path, name: str, files: int) -> Path:
    """A repository of FILES committed files, built by one ``git fast-import`` and checked out
    (the files' stat data then in the index, as after a clone)."""
    repo = new_repo(root, name)
    stream = bytearray(b"blob\nmark :1\ndata 2\nx\n\ncommit refs/heads/main\n"
                       b"committer bench <bench@example.invalid> 0 +0000\ndata 5\nfiles\n")
    stream += b"M 100644 inline .gitignore\ndata 11\nartifacts/\n\n"
    for i in range(files):
        stream += f"M 100644 :1 d{i % 500}/f{i}.txt\n".encode()
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, env=ENV, input=bytes(stream),
                   check=True)
    sh(["git", "checkout", "-q", "-f", "main"], repo)
    return repo


def bench_scale(root: Path, runs: int) -> None:
    """Large work trees against git's own walk, shard composition, concurrent publishers."""
    import json

    status = ["git", "status", "--porcelain"]
    receipt = str(BIN / "receipt")
    for files, n in ((50_000, runs), (200_000, max(3, runs // 5))):
        repo = big_repo(root, f"files{files}", files)
        compare(f"receipt run -- true, {files // 1000}k files vs git status",
                [receipt, "run", "--", "true"], status, repo, n, "target <= 2.5x")
        if files == 50_000:
            event = root / "stop50k.json"
            event.write_text(json.dumps({"session_id": "bench", "cwd": str(repo),
                                         "hook_event_name": "Stop", "stop_hook_active": False,
                                         "last_assistant_message": "Done."}))
            stop = ["sh", "-c", f"{receipt} agent-hook --agent claude-code < {event}"]
            compare("agent-hook, 50k files, green receipt covers the tree vs git status", stop,
                    status, repo, n, "target <= 3x")
        shutil.rmtree(repo)
    # check-receipt on a tree whose note holds 64 shard receipts vs one with one receipt
    checks = []
    for count in (64, 1):
        repo = new_repo(root, f"shards{count}")
        (repo / "t.txt").write_text("t\n")
        sh(["git", "add", "-A"], repo)
        sh(["git", "commit", "-qm", "init"], repo)
        command = ["sh", "-c", "echo '=== 3 passed in 0.01s ==='"]
        shard = ["--shard", f"1/{count}"] if count > 1 else []
        sh([receipt, "run", *shard, "--", *command], repo)
        first = json.loads((repo / "artifacts" / "test-receipt.json").read_text())
        tree = first["git_tree"]
        shards = [{**first, "shard": {"index": i, "count": count}} for i in range(1, count + 1)]
        note = shards if count > 1 else [first]
        sh(["git", "notes", "--ref", "receipts", "add", "-f", "-F", "-", tree], repo,
           stdin=json.dumps(note).encode())
        shutil.rmtree(repo / "artifacts")  # judged from the notes alone
        checks.append(["sh", "-c", f"cd {repo} && {BIN / 'check-receipt'}"])
    compare("check-receipt, 64 shard receipts vs one receipt", checks[0], checks[1], root,
            runs, "target <= 1.5x")
    bench_publishers(root)


def bench_publishers(root: Path, publishers: int = 8) -> None:
    """PUBLISHERS clones, one receipt each for one tree, publish at the same moment."""
    import json

    remote = root / "publish-remote.git"
    sh(["git", "init", "-q", "--bare", str(remote)], root)
    seed = new_repo(root, "publish-seed")
    sh(["git", "commit", "-q", "--allow-empty", "-m", "base"], seed)
    sh(["git", "push", "-q", str(remote), "main"], seed)
    clones = []
    for i in range(publishers):
        clone = root / f"publisher{i}"
        sh(["git", "clone", "-q", str(remote), str(clone)], root)
        sh([str(BIN / "receipt"), "run", "--", "sh", "-c", f"echo '=== {i + 1} passed ==='"],
           clone)
        clones.append(clone)
    t0 = time.perf_counter()
    procs = [(subprocess.Popen([str(BIN / "receipt"), "publish"], cwd=c, env=ENV,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), c)
             for c in clones]
    walls = []
    for proc, _clone in procs:
        proc.wait()
        walls.append(time.perf_counter() - t0)
    codes = [p.returncode for p, _ in procs]
    tree = subprocess.run(["git", "rev-parse", "main^{tree}"], cwd=remote, env=ENV,
                          capture_output=True, text=True, check=True).stdout.strip()
    shown = subprocess.run(["git", "notes", "--ref", "receipts", "show", tree], cwd=remote,
                           env=ENV, capture_output=True, text=True, check=False).stdout
    landed = len(json.loads(shown)) if shown else 0
    print(f"{f'{publishers} concurrent receipt publish, one bare remote':<58} "
          f"{max(walls) * 1000:8.1f} ms slowest; {landed}/{publishers} receipts on the remote, "
          f"exits {sorted(set(codes))}")


def compile_installed() -> None:
    import compileall

    import hooks

    compileall.compile_dir(str(Path(hooks.__file__).parent), quiet=1)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--only", choices=("verify", "agent-hook", "skips", "scale"),
                        help="run one group of rows")
    parser.add_argument("--keep", metavar="DIR", help="with --only verify: build the "
                                                      "repositories in DIR, kept")
    parser.add_argument("--write-docs", metavar="PAGE",
                        help="also put the rows, as printed, into PAGE between its bench "
                             "markers (docs/performance.md quotes the bench, never a feeling)")
    args = parser.parse_args(argv)
    compile_installed()
    if args.write_docs:
        return _into_page(Path(args.write_docs), [a for a in (argv or sys.argv[1:])
                                                  if not a.startswith("--write-docs")
                                                  and a != args.write_docs])
    if args.only == "verify":
        if args.keep:
            bench_verify(Path(args.keep), args.runs)
            return 0
        with tempfile.TemporaryDirectory(prefix="receipt-bench-") as tmp:
            bench_verify(Path(tmp), args.runs)
        return 0
    print(f"{'median of ' + str(args.runs) + ' whole-process runs':<58} {'ours':>11} "
          f"{'peer':>11} {'ratio':>8}")
    with tempfile.TemporaryDirectory(prefix="receipt-bench-") as tmp:
        if args.only == "agent-hook":
            bench_agent_hook(Path(tmp), args.runs)
            return 0
        if args.only == "scale":
            bench_scale(Path(tmp), args.runs)
            return 0
        if args.only == "skips":
            bench_commit_stage(Path(tmp), args.runs)
            bench_large_change(Path(tmp), args.runs)
            return 0
        bench_receipts(Path(tmp), args.runs)
        bench_verify(Path(tmp), args.runs)
        bench_commit_stage(Path(tmp), args.runs)
        bench_config(Path(tmp), args.runs)
        bench_large_change(Path(tmp), args.runs)
        bench_fuse(Path(tmp), args.runs)
        bench_agent_hook(Path(tmp), args.runs)
        bench_scale(Path(tmp), args.runs)
    return 0


BEGIN, END = "<!-- bench:begin -->\n", "<!-- bench:end -->"


def _into_page(page: Path, argv: list[str]) -> int:
    """Run the bench with ARGV, print its rows, and replace PAGE's block with them."""
    import io
    import platform
    from contextlib import redirect_stdout

    rows = io.StringIO()

    class Tee(io.TextIOBase):
        def write(self, text: str) -> int:
            rows.write(text)
            sys.__stdout__.write(text)
            sys.__stdout__.flush()
            return len(text)

    with redirect_stdout(Tee()):
        code = main(argv)
    text = page.read_text(encoding="utf-8")
    when = time.strftime("%Y-%m-%d", time.gmtime())
    said = (f"`python bench/bench.py {' '.join(argv)}`".replace(" `", "`") +
            f" on {when}, {platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}:\n\n```\n{rows.getvalue().rstrip()}\n```\n")
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    page.write_text(text[:start] + said + text[end:], encoding="utf-8")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
