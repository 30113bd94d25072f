"""pytest and unittest."""

from __future__ import annotations

from hooks.skips.rules import Pack
from hooks.skips.rules import Rule
from hooks.skips.rules import hand_skip
from hooks.skips.rules import lazy_confirm


def opens_string(first: str) -> bool:
    """FIRST, a test body's first non-blank line (stripped), can begin a docstring."""
    return first.lstrip("rRuU")[:1] in ("'", '"')


confirm_constant_condition = lazy_confirm("pybody", "confirm_constant_condition")
confirm_unconditional_xfail = lazy_confirm("pybody", "confirm_unconditional_xfail")
confirm_docstring_only = lazy_confirm("pybody", "confirm_docstring_only")
confirm_early_return = lazy_confirm("pybody", "confirm_early_return")
confirm_module_alias = lazy_confirm("pybody", "confirm_module_alias")
confirm_in_code = lazy_confirm("cheats", "confirm_in_code")
confirm_not_forked = lazy_confirm("cheats", "confirm_not_forked")
confirm_not_made_failed = lazy_confirm("cheats", "confirm_not_made_failed")
confirm_swallowed_assertion = lazy_confirm("cheats", "confirm_swallowed_assertion")

_TEST_DEF = r"^\s*(?:async\s+)?def\s+test\w*\s*\(.*:\s*$"
_CONFTEST = r"(^|/)conftest\.py$"
_ZERO = r"(?:0|False)"

PACK = Pack(
    "python", family="python", sample="tests/test_sample.py",
    test_files=r"(^|/)(test_[^/]*|[^/]*_test|conftest)\.py$|(^|/)tests?/[^/]*\.py$",
    # an assert statement, or a call that asserts: unittest's, pytest.raises/warns (also as a
    # context manager), mock's assert_called..., a project's own assert_*/check_* helpers
    assertion=r"^\s*(?:assert\b|(?:with\s+|await\s+|\w+\s*=\s*)?(?:\w+\.)*"
              r"(?:assert\w*|fail|raises|warns|deprecated_call|check\w*|verify\w*)\s*\()"
              r"|\bzip\s*\(.*\bstrict\s*=\s*True\b",  # zip(strict=True) checks the lengths
    test_definition=r"^\s*(async\s+)?def\s+test\w*\s*\(|^\s*class\s+Test\w*",
    # an assert counts only inside a test function: not in a helper or a mock deleted
    function_definition=r"^\s*(?:async\s+)?def\s+\w+|^\s*class\s+\w+",
    replacement=r"\b(?:eventually|wait_until|wait_for|poll\w*|retry_until)\s*\(",
    rules=[
        hand_skip("tests/test_sample.py",
                  "def test_pay():\n    if db is None:\n"
                  '        print("no database, skipping")\n        return\n'
                  "    assert pay() == 1\n",
                  'def test_pay():\n    print("reading the skip list")\n    assert pay() == 1\n'),
        Rule("SKP001", "test skipped with pytest.mark.skip",
             r"(?<![\w.])(?:pytest\.)?mark\.skip\b(?!if)",
             "@pytest.mark.skip(reason='flaky')\ndef test_pay():\n    assert pay() == 1\n",
             "@pytest.mark.slow\ndef test_pay():\n    assert pay() == 1\n"),
        Rule("SKP001", "test skipped with unittest.skip",
             r"@unittest\.skip\b(?!If|Unless)",
             "@unittest.skip('later')\ndef test_pay(self):\n    self.assertEqual(pay(), 1)\n",
             "@unittest.mock.patch('x')\ndef test_pay(self, m):\n    self.assertEqual(pay(), 1)\n"),
        Rule("SKP001", "test skipped at run time",
             r"\bpytest\.skip\s*\(|\bself\.skipTest\s*\(|\braise\s+(?:unittest\.)?SkipTest\b"
             r"|\braise\s+pytest\.skip\.Exception\b",
             "def test_pay():\n    pytest.skip('broken')\n",
             "def test_pay():\n    pytest.importorskip('stripe')\n    assert pay() == 1\n"),
        Rule("SKP001", "pytest.skip or unittest.skip under another name: its calls skip",
             r"(?<![\w.])(?:pytest|unittest)\s*\.\s*skip\b(?!\s*[(.])"
             r"|^\s*from\s+(?:pytest|unittest)\s+import\s+(?:.*[\s,(])?skip\b(?![\w.])",
             "from pytest import skip as later\ndef test_pay():\n    later('broken')\n",
             "from pytest import raises\ndef test_pay():\n    raises(ValueError, pay)\n"),
        Rule("SKP001", "test skipped through pytest or unittest imported under another name",
             r"(?<![\w.])(?!pytest\b|unittest\b)\w+\s*\.\s*(?:mark\s*\.\s*)?skip\b(?![\w.])",
             "import pytest as pt\n\ndef test_pay():\n    pt.skip('broken')\n",
             "import pytest as pt\n\ndef test_pay():\n    reader.skip(3)\n",
             confirm=confirm_module_alias),
        Rule("SKP001", "test skipped with a mark looked up by name",
             r"\bgetattr\s*\(\s*(?:pytest\s*\.\s*)?mark\s*,\s*[\"']skip[\"']",
             "@getattr(pytest.mark, 'skip')\ndef test_pay():\n    assert pay() == 1\n",
             "@getattr(pytest.mark, 'slow')\ndef test_pay():\n    assert pay() == 1\n",
             scope="raw"),
        Rule("SKP001", "test returns before it checks anything",
             r"^\s*(?:if\b.*:\s*)?return\s*(?:None\s*)?(?:#.*)?$",
             "def test_pay():\n    return\n    assert pay() == 1\n",
             "def test_pay():\n    if not pay():\n        return\n    assert refund()\n",
             confirm=confirm_early_return, tests_only=True, scope="raw"),
        Rule("SKP003", "skip condition is a constant: the test never runs",
             r"\bskip(?:if|If|Unless)\s*\(",
             "@pytest.mark.skipif(1 == 1, reason='x')\ndef test_pay():\n    assert pay()\n",
             "@pytest.mark.skipif(sys.platform == 'win32', reason='posix')\n"
             "def test_pay():\n    assert pay()\n", confirm=confirm_constant_condition),
        Rule("SKP004", "assertion that cannot fail",
             r"^\s*assert\s+(?:True|1|not\s+(?:False|0|None)|\"\s*\"|'\s*'|\"[^\"]+\"|'[^']+')"
             r"\s*(?:,|$)",
             "def test_pay():\n    assert True\n",
             "def test_pay():\n    assert pay() is True\n"),
        Rule("SKP004", "unittest assertion that cannot fail",
             r"\bself\.assert(?:True|_)\s*\(\s*(?:True|1)\s*[,)]"
             r"|\bself\.assertFalse\s*\(\s*(?:False|0|None)\s*[,)]"
             r"|\bself\.assert(?:Equal|Equals)\s*\(\s*(True|False|None|\d+)\s*,\s*\1\s*[,)]",
             "def test_pay(self):\n    self.assertTrue(True)\n",
             "def test_pay(self):\n    self.assertTrue(False, 'must not get here')\n"),
        Rule("SKP004", "test body that does nothing",
             r"^\s*(?:pass|\.\.\.)\s*$",
             "def test_pay():\n    pass\n",
             "def helper():\n    pass\n",
             previous=_TEST_DEF),
        Rule("SKP004", "test body that is only a docstring",
             r"^\s*(?:async\s+)?def\s+test\w*\s*\(",
             "def test_pay():\n    \"\"\"todo\"\"\"\n",
             "def test_pay():\n    \"\"\"Pays once.\"\"\"\n    assert pay() == 1\n",
             confirm=confirm_docstring_only, body_start=opens_string, scope="raw"),
        Rule("SKP005", "expected failure: the test can fail and still pass",
             r"(?<![\w.])(?:pytest\.)?mark\.xfail\b|\bpytest\.xfail\s*\(|@(?:unittest\.)?expectedFailure\b",
             "@pytest.mark.xfail\ndef test_pay():\n    assert pay() == 2\n",
             "@pytest.mark.xfail(sys.platform == 'win32', reason='no fork')\n"
             "def test_pay():\n    assert pay() == 2\n", confirm=confirm_unconditional_xfail),
        Rule("SKP006", "test definition commented out",
             r"^#+\s*(?:(?:async\s+)?def\s+test\w*\s*\(|class\s+Test\w*\b)",
             "# def test_pay():\n#     assert pay() == 1\n",
             "# the test below covers refunds\ndef test_refund():\n    assert refund() == 1\n",
             scope="comment"),
        Rule("SKP007", "__test__ = False: pytest stops collecting this module or class",
             r"^\s*__test__\s*=\s*False\b",
             "class TestPay:\n    __test__ = False\n",
             "class PayHelper:\n    enabled = False\n"),
        # test code that fakes a green run (a file that forks exits in its child)
        Rule("SKP004", "assertion failure swallowed by an except that does nothing: the test "
             "passes whatever it checks",
             r"(?:^|:)\s*(?P<at>pass|\.\.\.)\s*$",
             "def test_pay():\n    try:\n        assert pay() == 1\n    except AssertionError:\n"
             "        pass\n",
             "def test_pay():\n    try:\n        assert pay() == 1\n    except AssertionError:\n"
             "        pass\n    else:\n        raise RuntimeError('pay must refuse')\n",
             confirm=confirm_swallowed_assertion, tests_only=True),
        Rule("SKP004", "assertion failure suppressed (suppress(AssertionError)): the test passes "
             "whatever it checks",
             r"\bsuppress\s*\((?:[^)]*[\s,(])?(?:builtins\s*\.\s*)?AssertionError\b",
             "def test_pay():\n    with suppress(AssertionError):\n        assert pay() == 1\n",
             "def test_pay():\n    with suppress(KeyError):\n        del cache['pay']\n"
             "    assert pay() == 1\n", tests_only=True),
        Rule("SKP008", "os._exit(0) in test code: the run ends with success and the tests "
             "after it never run",
             rf"\bos\s*\.\s*_exit\s*\(\s*{_ZERO}\s*\)",
             "import os\n\ndef test_pay():\n    os._exit(0)\n",
             "import os\n\ndef test_pay():\n    if os.fork() == 0:\n        os._exit(0)\n",
             confirm=confirm_not_forked, tests_only=True),
        Rule("SKP008", "pytest.exit with returncode 0: the run ends with success and the tests "
             "after it never run",
             rf"\bpytest\s*\.\s*exit\s*\((?:.*\breturncode\s*=\s*"
             rf"|\s*(?:\"[^\"]*\"|'[^']*'|\w+)\s*,\s*){_ZERO}\s*\)",
             "def pytest_sessionstart(session):\n    pytest.exit('done', returncode=0)\n",
             "def pytest_sessionstart(session):\n    pytest.exit('no database')\n",
             sample="tests/conftest.py", tests_only=True),
        Rule("SKP008", "conftest exits with status 0: the run ends with success before the "
             "tests decide it",
             rf"(?<![\w.])(?:sys\s*\.\s*)?(?:exit|quit)\s*\(\s*(?:{_ZERO}|None)?\s*\)"
             rf"|\braise\s+SystemExit\b\s*(?:\(\s*(?:{_ZERO}|None)?\s*\))?\s*$",
             "import sys\n\ndef pytest_sessionstart(session):\n    sys.exit(0)\n",
             "import sys\n\ndef pytest_sessionstart(session):\n    sys.exit('needs Python 3.9')\n",
             sample="tests/conftest.py", files=_CONFTEST),
        Rule("SKP008", "conftest rewrites test reports (outcome, wasxfail): a failure is "
             "counted as something else",
             r"\.\s*(?:outcome|wasxfail)\s*=(?!=)",
             "def pytest_runtest_logreport(report):\n    report.outcome = 'passed'\n",
             "def pytest_runtest_logreport(report):\n    if report.outcome == 'failed':\n"
             "        log(report)\n",
             sample="tests/conftest.py", files=_CONFTEST, confirm=confirm_not_made_failed),
        Rule("SKP008", "conftest sets the run's exit status to success",
             rf"\.\s*(?:exitstatus|testsfailed)\s*=\s*(?:{_ZERO}|(?:\w+\s*\.\s*)*ExitCode\s*\.\s*OK)\b",
             "def pytest_sessionfinish(session, exitstatus):\n    session.exitstatus = 0\n",
             "def pytest_sessionfinish(session, exitstatus):\n    if warned(session):\n"
             "        session.exitstatus = 1\n",
             sample="tests/conftest.py", files=_CONFTEST),
        Rule("SKP008", "test code writes a summary line ('N passed') to the output itself",
             r"(?:\bos\s*\.\s*write|\.\s*write|(?<![\w.])print)\s*\(.*\b\d+\s+passed\b",
             "import os\n\ndef test_pay():\n    os.write(1, b'=== 12 passed in 0.05s ===')\n",
             "def test_pay(pytester):\n    pytester.makepyfile(\"print('1 passed')\")\n",
             scope="raw", confirm=confirm_in_code, tests_only=True),
    ],
)
