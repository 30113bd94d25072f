"""``receipt demo``: the whole flow, for real, in a throwaway repository.

A repo with a bare remote, check-receipt installed by ``pre-commit install --hook-type
pre-push``, then: a push refused for want of a receipt, ``receipt run`` on real tests, the push
accepted, a later commit refused as stale. Every command and its real output is printed.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence

from hooks.core.cmdline import own_command

CALC = '''def add(a, b):
    return a + b


def mul(a, b):
    return a * b
'''

TESTS = '''import unittest

from calc import add, mul


class CalcTest(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(2, 3), 5)

    def test_mul(self):
        self.assertEqual(mul(2, 3), 6)


if __name__ == "__main__":
    unittest.main()
'''


def _config() -> str:
    entry = shlex.join(own_command("check-receipt", "hooks.check_receipt"))
    return f"""default_install_hook_types: [pre-commit, pre-push]
repos:
  - repo: local
    hooks:
      - id: check-receipt
        name: check-receipt
        entry: {entry}
        language: system
        stages: [pre-push]
        pass_filenames: false
        always_run: true
"""


class Demo:
    def __init__(self, workdir: str) -> None:
        self.repo = os.path.join(workdir, "project")
        self.remote = os.path.join(workdir, "remote.git")
        self.env = dict(os.environ)
        for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
            self.env.pop(name, None)
        self.env.update({
            "GIT_AUTHOR_NAME": "Receipt Demo", "GIT_AUTHOR_EMAIL": "demo@example.invalid",
            "GIT_COMMITTER_NAME": "Receipt Demo", "GIT_COMMITTER_EMAIL": "demo@example.invalid",
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
        })
        self.failures: list[str] = []

    def sh(self, shown: str, argv: Sequence[str], expect: int | None = 0, quiet: bool = False,
           cwd: str | None = None) -> int:
        print(f"\n$ {shown}", flush=True)
        proc = subprocess.run(argv, cwd=cwd or self.repo, env=self.env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, check=False)
        text = proc.stdout.decode("utf-8", "replace").rstrip()
        if text and not quiet:
            print("  " + text.replace("\n", "\n  "))
        print(f"  [exit {proc.returncode}]", flush=True)
        if expect is not None and proc.returncode != expect:
            self.failures.append(f"'{shown}' exited {proc.returncode}, expected {expect}")
        return proc.returncode

    def write(self, name: str, text: str) -> None:
        with open(os.path.join(self.repo, name), "w", encoding="utf-8") as f:
            f.write(text)

    def step(self, title: str) -> None:
        print(f"\n=== {title}", flush=True)

    def run(self) -> int:
        py = sys.executable
        receipt = own_command("receipt", "hooks.cli")
        self.step("a project with tests, a bare remote, and check-receipt as its pre-push hook")
        self.sh("git init --bare remote.git", ["git", "init", "-q", "--bare", self.remote],
                cwd=os.path.dirname(self.repo))
        os.makedirs(self.repo)
        self.sh("git init -b main project", ["git", "init", "-q", "-b", "main", self.repo])
        self.sh("git remote add origin ../remote.git",
                ["git", "remote", "add", "origin", self.remote])
        self.write("calc.py", CALC)
        self.write("test_calc.py", TESTS)
        self.write(".gitignore", "artifacts/\n__pycache__/\n")
        self.write(".pre-commit-config.yaml", _config())
        shown = _config().rstrip().replace("\n", "\n  ")
        print(f"\n.pre-commit-config.yaml:\n  {shown}")
        self.sh("pre-commit install --hook-type pre-push",
                [py, "-m", "pre_commit", "install", "--hook-type", "pre-push"])
        self.sh("git add -A && git commit -m 'calc with tests'", ["git", "add", "-A"], quiet=True)
        self.sh("git commit -m 'calc with tests'", ["git", "commit", "-q", "-m", "calc with tests"])

        self.step("1. push with no receipt: refused (exit 2, missing)")
        self.sh("git push origin main", ["git", "push", "-q", "origin", "main"], expect=1)

        self.step("2. run the tests through receipt run: the receipt records what really ran")
        self.sh("receipt run -- python -m unittest -v",
                [*receipt, "run", "--", py, "-m", "unittest", "-v"])
        self.sh("receipt show", [*receipt, "show"])

        self.step("3. push again: accepted, the receipt is for this exact tree")
        self.sh("git push origin main", ["git", "push", "-q", "origin", "main"])

        self.step("4. change the code and commit without running the tests: refused as stale")
        self.write("calc.py", CALC.replace("return a * b", "return a * b + 0"))
        self.sh("git commit -am 'tweak mul'", ["git", "commit", "-q", "-am", "tweak mul"])
        self.sh("git push origin main", ["git", "push", "-q", "origin", "main"], expect=1)
        self.sh("receipt check", [*receipt, "check"], expect=3)

        print()
        if self.failures:
            for failure in self.failures:
                print(f"receipt demo: unexpected: {failure}")
            return 1
        print("receipt demo: every step behaved as described: no receipt, no push; a receipt "
              "vouches for one tree and no other.")
        return 0


def main(*, keep: bool = False) -> int:
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        print("receipt demo: the demo installs the hook with pre-commit, which is not installed "
              "here: pip install pre-commit (or pip install 'receipt-hooks[test]')")
        return 1
    workdir = tempfile.mkdtemp(prefix="receipt-demo-")
    try:
        code = Demo(workdir).run()
    finally:
        if keep:
            print(f"receipt demo: kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return code
