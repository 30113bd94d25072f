"""Spellings of a skip that are easy to miss, each through the real staged diff, and the
legitimate code next to them that must stay quiet."""

from __future__ import annotations

import pytest
from conftest import Repo
from conftest import scan_new_file

HOOK = "no-inserted-skips"
BASE = {
    "tests/test_calc.py": "from calc import add\n\ndef test_a():\n    assert add(1, 2) == 3\n",
    "tests/__init__.py": "",
}
T = "import pytest\nimport unittest\n\n"

CAUGHT = [
    # runtime skip under another name
    ("tests/test_s.py", T + "sk = pytest.skip\n\ndef test_x():\n    sk('no')\n    assert f()\n",
     "SKP001"),
    ("tests/test_s.py", "from pytest import skip as s\n\ndef test_x():\n    s('no')\n", "SKP001"),
    ("tests/test_s.py", "from unittest import mock, skip\n\n@skip('x')\ndef test_x():\n"
                        "    assert f()\n", "SKP001"),
    ("tests/test_s.py", T + "@getattr(pytest.mark, 'skip')\ndef test_x():\n    assert f()\n",
     "SKP001"),
    ("tests/test_s.py", "import pytest as pt\n\ndef test_x():\n    pt.skip('no')\n", "SKP001"),
    ("tests/test_s.py", "import unittest as ut\n\n@ut.skip('x')\ndef test_x():\n    assert f()\n",
     "SKP001"),
    ("tests/test_s.py", T + "def test_x():\n    raise pytest.skip.Exception('no')\n", "SKP001"),
    # constant conditions, however spelled
    *[("tests/test_s.py", T + f"@pytest.mark.{call}\ndef test_x():\n    assert f()\n", "SKP003")
      for call in ("skipif(1 == 1, reason='x')", "skipif(not 0, reason='x')",
                   "skipif(condition=True, reason='x')", "skipif('True', reason='x')",
                   "skipif(\"1 == 1\", reason='x')", "skipif(True and 2 > 1, reason='x')",
                   "skipif(\n    1,\n    reason='x',\n)")],
    ("tests/test_s.py", T + "SKIP = True\n\n@pytest.mark.skipif(SKIP, reason='x')\n"
                            "def test_x():\n    assert f()\n", "SKP003"),
    *[("tests/test_s.py", T + f"class T(unittest.TestCase):\n    @unittest.{call}\n"
                              "    def test_x(self):\n        self.assertTrue(f())\n", "SKP003")
      for call in ("skipUnless(0, 'x')", "skipUnless(False, 'x')", "skipIf(2 > 1, 'x')")],
    # an expected failure with no condition, or a constant one, however spelled
    *[("tests/test_s.py", T + f"@pytest.mark.{call}\ndef test_x():\n    assert f()\n", "SKP005")
      for call in ("xfail", "xfail(reason='later')", "xfail(True, reason='x')",
                   "xfail(condition=1 == 1, reason='x')", "xfail(raises=KeyError)",
                   "xfail(\n    'True',\n    reason='x',\n)")],
    ("tests/test_s.py", T + "def test_x():\n    if IS_PYPY:\n        pytest.xfail('no')\n"
                            "    assert f()\n", "SKP005"),
    # a test body that ends before it checks anything
    ("tests/test_s.py", "def test_x():\n    return\n    assert f()\n", "SKP001"),
    ("tests/test_s.py", "def test_x():\n    if True: return\n    assert f()\n", "SKP001"),
    ("tests/test_s.py", "def test_x():\n    if 1:\n        return\n    assert f()\n", "SKP001"),
    ("tests/test_s.py", "def test_x():\n    y = f()\n    return None\n    assert y\n", "SKP001"),
    ("tests/test_s.py", "def test_x():\n    \"\"\"todo\"\"\"\n", "SKP004"),
    ("tests/test_s.py", "class TestX:\n    def test_x(self):\n        'todo'\n        pass\n",
     "SKP004"),
    # JavaScript: bracket access and spaced member access
    ("tests/a.test.js", "it['only']('x', () => {\n  expect(f()).toBe(3);\n});\n", "SKP002"),
    ("tests/a.test.js", "describe[\"only\"]('a', () => {\n  it('x', () => {\n"
                        "    expect(f()).toBe(3);\n  });\n});\n", "SKP002"),
    ("tests/a.test.js", "test .only('x', () => {\n  expect(f()).toBe(3);\n});\n", "SKP002"),
    ("tests/a.test.js", "describe . only ('a', () => {\n  it('x', () => {\n"
                        "    expect(f()).toBe(3);\n  });\n});\n", "SKP002"),
    ("tests/a.test.js", "it['skip']('x', () => {\n  expect(f()).toBe(3);\n});\n", "SKP001"),
    ("tests/a.test.js", "test.skip ('x', () => {\n  expect(f()).toBe(3);\n});\n", "SKP001"),
    # configuration that deselects
    ("pytest.ini", "[pytest]\naddopts = -k \"test_a\"\n", "SKP008"),
    ("pyproject.toml", "[tool.pytest.ini_options]\naddopts = \"-q -ktest_a\"\n", "SKP008"),
    ("pyproject.toml", "[tool.pytest.ini_options]\ntestpaths = [\"nothing\"]\n", "SKP008"),
    ("pytest.ini", "[pytest]\ntestpaths = nothing other\n", "SKP008"),
    ("conftest.py", "def pytest_collection_modifyitems(items):\n    items.clear()\n", "SKP008"),
    ("conftest.py", "def pytest_collection_modifyitems(items):\n"
                    "    items[:] = [i for i in items if 'a' in i.name]\n", "SKP008"),
    ("tests/conftest.py", "def pytest_collection_modifyitems(items):\n    del items[1:]\n",
     "SKP008"),
    ("conftest.py", "collect_ignore_glob = ['tests/*']\n", "SKP008"),
    ("conftest.py", "def pytest_ignore_collect(collection_path):\n    return True\n", "SKP008"),
    ("pytest.ini", "[pytest]\npython_files = check_*.py\n", "SKP008"),
    ("setup.cfg", "[tool:pytest]\npython_functions = check\n", "SKP008"),
]

QUIET = [
    ("tests/test_s.py", T + "@pytest.mark.skipif(sys.platform == 'win32', reason='posix')\n"
                            "def test_x():\n    assert f()\n"),
    ("tests/test_s.py", T + "@pytest.mark.skipif(False, reason='never')\ndef test_x():\n"
                            "    assert f()\n"),
    ("tests/test_s.py", T + "@pytest.mark.skipif('sys.version_info < (3, 8)', reason='x')\n"
                            "def test_x():\n    assert f()\n"),
    ("tests/test_s.py", T + "@unittest.skipUnless(HAS_NUMPY, 'numpy')\ndef test_x():\n"
                            "    assert f()\n"),
    # an xfail under a runtime condition, as a skipif under one
    *[("tests/test_s.py", T + f"@pytest.mark.{call}\ndef test_x():\n    assert f()\n")
      for call in ("xfail(PY_3_14_PLUS, reason='broken on 3.14')",
                   "xfail(\n    sys.platform == 'win32',\n    reason='no fork',\n)",
                   "xfail(condition=IS_PYPY, reason='x')", "xfail('sys.version_info < (3, 9)')",
                   "xfail(False, reason='never')")],
    ("tests/test_s.py", T + "def test_x():\n    with pytest.raises(pytest.skip.Exception):\n"
                            "        g()\n"),
    ("tests/test_s.py", T + "HAS = False\ntry:\n    import numpy\n    HAS = True\n"
                            "except ImportError:\n    pass\n\n"
                            "@pytest.mark.skipif(not HAS, reason='numpy')\ndef test_x():\n"
                            "    assert f()\n"),
    ("tests/test_s.py", "import pytest as pt\n\ndef test_x():\n    reader.skip(3)\n"
                        "    assert reader.read() == 1\n"),
    ("pytest.ini", "[pytest]\npython_files = test_*.py *_checks.py\n"),
    ("tests/test_s.py", "def helper():\n    return\n\ndef test_x():\n    if not f():\n"
                        "        return\n    assert g()\n"),
    ("tests/test_s.py", "def test_x():\n    assert f()\n    return\n"),
    ("tests/test_s.py", "def test_x():\n    \"\"\"Adds once.\"\"\"\n    assert f()\n"),
    ("tests/a.test.js", "it('runs only once', () => {\n  expect(f()).toBe(3);\n});\n"),
    ("tests/a.test.js", "const only = opts['only'];\nexpect(only).toBe(true);\n"),
    ("pyproject.toml", "[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n"
                       "addopts = \"-ra --strict-markers\"\n"),
    ("conftest.py", "def pytest_collection_modifyitems(items):\n"
                    "    items.sort(key=lambda i: i.name)\n"),
]


def _repo(repo: Repo) -> Repo:
    for path, text in BASE.items():
        repo.write(path, text)
    repo.commit("base")
    return repo


# Each spelling reaches the hook's core in process (a new file: every line is an added line);
# one of each family also goes through the real staged diff and the hook's process.
THROUGH_THE_HOOK = [CAUGHT[0], CAUGHT[-1], next(c for c in CAUGHT if c[0].endswith(".js"))]


@pytest.mark.parametrize("path, text, rule", CAUGHT)
def test_each_spelling_is_reported(path: str, text: str, rule: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out = scan_new_file(path, text, capsys)
    assert code == 1, (text, out)
    assert f"{path}:" in out and f": {rule} " in out, out


@pytest.mark.parametrize("path, text, rule", THROUGH_THE_HOOK)
def test_a_spelling_is_reported_through_the_staged_diff(repo: Repo, path: str, text: str,
                                                        rule: str) -> None:
    _repo(repo).write(path, text)
    repo.git("add", "--", path)
    result = repo.run(HOOK)
    assert result.code == 1, (text, result.both)
    assert f"{path}:" in result.out and f": {rule} " in result.out, result.out


@pytest.mark.parametrize("path, text", QUIET)
def test_the_code_beside_them_stays_quiet(path: str, text: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert scan_new_file(path, text, capsys) == (0, ""), text


@pytest.mark.parametrize("path, text", [QUIET[0], QUIET[-1]])
def test_the_code_beside_them_stays_quiet_through_the_staged_diff(repo: Repo, path: str,
                                                                  text: str) -> None:
    _repo(repo).write(path, text)
    repo.git("add", "--", path)
    result = repo.run(HOOK)
    assert (result.code, result.out) == (0, ""), (text, result.both)


def test_a_test_renamed_away_from_its_prefix_is_reported(repo: Repo) -> None:
    _repo(repo).write("tests/test_calc.py", BASE["tests/test_calc.py"].replace(
        "def test_a", "def check_a"))
    repo.git("add", "-A")
    result = repo.run(HOOK)
    assert result.code == 1
    assert "tests/test_calc.py:3:1: SKP007 test renamed so the runner no longer collects it" \
        in result.out


def test_a_test_module_renamed_away_from_the_pattern_is_reported(repo: Repo) -> None:
    _repo(repo).git("mv", "tests/test_calc.py", "tests/calc_tests.py")
    result = repo.run(HOOK)
    assert result.code == 1
    assert ("tests/calc_tests.py:1:1: SKP007 test file renamed to a name its runner does not "
            "collect (test_*.py, *.test.js, *_test.go, *_spec.rb)") in result.out


@pytest.mark.parametrize("old, new", [("src/cart.test.js", "src/cart.js"),
                                      ("pay/pay_test.go", "pay/pay_tests.go"),
                                      ("spec/pay_spec.rb", "spec/pay.rb")])
def test_test_files_of_other_runners_renamed_away_are_reported(repo: Repo, old: str,
                                                               new: str) -> None:
    _repo(repo).write(old, "x\n")
    repo.commit("test file")
    repo.git("mv", old, new)
    result = repo.run(HOOK)
    assert result.code == 1, result.both
    assert f"{new}:1:1: SKP007 test file renamed" in result.out


@pytest.mark.parametrize("new", ["tests/test_calc2.py", "tests/calc_test.py",
                                 "tests/unit/test_calc.py"])
def test_a_module_renamed_within_the_pattern_is_quiet(repo: Repo, new: str) -> None:
    (_repo(repo).path / new).parent.mkdir(parents=True, exist_ok=True)
    repo.git("mv", "tests/test_calc.py", new)
    result = repo.run(HOOK)
    assert (result.code, result.out) == (0, "")


def test_a_rename_that_keeps_the_prefix_is_quiet(repo: Repo) -> None:
    _repo(repo).write("tests/test_calc.py", BASE["tests/test_calc.py"].replace(
        "def test_a", "def test_adds"))
    repo.git("add", "-A")
    result = repo.run(HOOK)
    assert (result.code, result.out) == (0, "")
