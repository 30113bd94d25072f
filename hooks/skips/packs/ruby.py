"""RSpec and minitest. Only spec and test files: `skip` is an ordinary word elsewhere."""

from __future__ import annotations

from hooks.skips.rules import Pack
from hooks.skips.rules import Rule

SPECS = r"(_spec|_test|^test_[^/]*|/test_[^/]*)\.rb$|(^|/)(spec|test)/"
_STATEMENT = r"(?:^|[;{|]|\bdo\b|\bthen\b)\s*"  # where a statement starts
# what follows a local variable or a method's receiver, not a call's argument
_NOT_A_VALUE = r"(?!\s*(?:[=.,)\]}?]|::|[-+*/|&]=|:(?!:)))"
_EXAMPLE = r"^\s*(?:it|specify|example|scenario|describe|context|feature|test)\b"

PACK = Pack(
    "ruby", family="ruby", sample="spec/cart_spec.rb",
    test_files=SPECS,
    # minitest, RSpec, bacon's `.should`, a project's own assert_*/verify* helpers
    assertion=r"\bexpect\s*[({]|\b(?:assert|refute|verify)\w*\b|\.(?:must|wont)_\w+"
              r"|\bis_expected\b|\.should\b",
    test_definition=r"^\s*(it|specify|example|test)\b|^\s*def\s+test_\w*",
    rules=[
        Rule("SKP001", "example skipped (skip, xit, xdescribe, skip: metadata)",
             # `skip` as a statement, not a variable or an argument named skip
             rf"{_STATEMENT}skip\b{_NOT_A_VALUE}"
             r"|(?<![.\w:])x(?:it|describe|context|specify|example|feature|scenario)\b"
             rf"{_NOT_A_VALUE}|{_EXAMPLE}.*(?:(?<![\w])skip:|:skip\s*=>)\s*(?!false\b|nil\b)\S",
             "it 'pays' do\n  skip 'flaky'\n  expect(pay).to eq(1)\nend\n",
             "it 'pays' do\n  expect(Payment.skip_fees).to eq(1)\n  run(skip)\nend\n",
             files=SPECS),
        Rule("SKP002", "focused example: every other example silently stops running",
             r"(?<![.\w:])f(?:it|describe|context|specify|example)\b(?!\s*=)"
             r"|(?<![\w])focus:\s*true\b|:focus\s*=>\s*true\b|,\s*:focus\b",
             "fit 'pays' do\n  expect(pay).to eq(1)\nend\n",
             "it 'pays' do\n  expect(fitness).to eq(1)\nend\n", files=SPECS),
        Rule("SKP003", "skip under a constant condition: the example never runs",
             r"(?<![.\w])skip\b.*\bif\s+true\b|(?<![.\w])skip\b.*\bunless\s+false\b",
             "it 'pays' do\n  skip 'later' if true\nend\n",
             "it 'pays' do\n  expect(pay).to eq(1) if true\nend\n", files=SPECS),
        Rule("SKP004", "assertion that cannot fail",
             r"\bexpect\s*\(\s*true\s*\)\s*\.\s*to\s*(?:\(\s*)?(?:be\s*\(?\s*true|eq\s*\(\s*true|be_truthy)"
             r"|(?<![.\w])assert\s*\(?\s*true\s*\)?\s*$|\bassert_equal\s*\(?\s*(\w+)\s*,\s*\1\s*\)?\s*$",
             "it 'pays' do\n  expect(true).to be true\nend\n",
             "it 'pays' do\n  expect(pay).to be true\nend\n", files=SPECS),
        Rule("SKP005", "pending example: counted, never checked",
             rf"{_STATEMENT}pending\b{_NOT_A_VALUE}|{_EXAMPLE}.*(?<![\w])pending:\s*true\b",
             "it 'pays' do\n  pending 'not yet'\n  expect(pay).to eq(1)\nend\n",
             "it 'pays' do\n  expect(Payment.pending).to be_empty\nend\n", files=SPECS),
        Rule("SKP006", "example commented out",
             r"^#*\s*(?:it|specify|example|scenario|describe|context)\s*(?:\(|['\"])|^#*\s*def\s+test_\w+"
             r"|^#*\s*(?:describe|context)\s+[A-Z]\w*(?:::\w+)*(?:\s*,.*)?\s+do\b",
             "# it 'pays' do\n#   expect(pay).to eq(1)\n# end\n",
             "# pays once per cart\nit 'pays' do\n  expect(pay).to eq(1)\nend\n",
             scope="comment", files=SPECS),
    ],
)
