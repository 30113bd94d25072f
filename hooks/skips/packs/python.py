"""pytest and unittest."""

from __future__ import annotations

from collections.abc import Sequence

from hooks.skips.rules import Confirm
from hooks.skips.rules import Pack
from hooks.skips.rules import Rule


def _pybody(name: str) -> Confirm:
    """pybody's check NAME, imported (with ast) only when a line needs it: most commits
    never do."""
    def confirm(lines: Sequence[str], text: str, line: int, col: int) -> bool:
        from hooks.skips import pybody

        reported: bool = getattr(pybody, name)(lines, text, line, col)
        return reported
    return confirm


def opens_string(first: str) -> bool:
    """FIRST, a test body's first non-blank line (stripped), can begin a docstring."""
    return first.lstrip("rRuU")[:1] in ("'", '"')


confirm_constant_condition = _pybody("confirm_constant_condition")
confirm_docstring_only = _pybody("confirm_docstring_only")
confirm_early_return = _pybody("confirm_early_return")
confirm_module_alias = _pybody("confirm_module_alias")

_TEST_DEF = r"^\s*(?:async\s+)?def\s+test\w*\s*\(.*:\s*$"

PACK = Pack(
    "python", family="python", sample="tests/test_sample.py",
    test_files=r"(^|/)(test_[^/]*|[^/]*_test|conftest)\.py$|(^|/)tests?/[^/]*\.py$",
    # an assert statement, or a call that asserts: unittest's, pytest.raises/warns (also as a
    # context manager), mock's assert_called..., a project's own assert_*/check_* helpers
    assertion=r"^\s*(?:assert\b|(?:with\s+|await\s+|\w+\s*=\s*)?(?:\w+\.)*"
              r"(?:assert\w*|fail|raises|warns|deprecated_call|check\w*|verify\w*)\s*\()"
              r"|\bzip\s*\(.*\bstrict\s*=\s*True\b",  # zip(strict=True) checks the lengths
    test_definition=r"^\s*(async\s+)?def\s+test\w*\s*\(|^\s*class\s+Test\w*",
    rules=[
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
             "@pytest.mark.parametrize('n', [1])\ndef test_pay(n):\n    assert pay() == n\n"),
        Rule("SKP006", "test definition commented out",
             r"^#+\s*(?:(?:async\s+)?def\s+test\w*\s*\(|class\s+Test\w*\b)",
             "# def test_pay():\n#     assert pay() == 1\n",
             "# the test below covers refunds\ndef test_refund():\n    assert refund() == 1\n",
             scope="comment"),
        Rule("SKP007", "__test__ = False: pytest stops collecting this module or class",
             r"^\s*__test__\s*=\s*False\b",
             "class TestPay:\n    __test__ = False\n",
             "class PayHelper:\n    enabled = False\n"),
    ],
)
