"""RSpec and minitest. Only spec and test files: `skip` is an ordinary word elsewhere."""

from __future__ import annotations

from hooks.skips.rules import Pack
from hooks.skips.rules import Rule

SPECS = r"(_spec|_test|^test_[^/]*|/test_[^/]*)\.rb$|(^|/)(spec|test)/"

PACK = Pack(
    "ruby", family="ruby", sample="spec/cart_spec.rb",
    test_files=SPECS,
    assertion=r"\bexpect\s*[({]|\bassert\w*\b|\.must_\w+|\bis_expected\b",
    test_definition=r"^\s*(it|specify|example|test)\b|^\s*def\s+test_\w*",
    rules=[
        Rule("SKP001", "example skipped (skip, xit, xdescribe, skip: true)",
             r"(?<![.\w:])(?:skip|x(?:it|describe|context|specify|example|feature|scenario))\b"
             r"(?!\s*[=:.(]\s*[^\"'\s)])|(?<![\w])skip:\s*true\b|:skip\s*=>\s*true\b",
             "it 'pays' do\n  skip 'flaky'\n  expect(pay).to eq(1)\nend\n",
             "it 'pays' do\n  expect(Payment.skip_fees).to eq(1)\nend\n", files=SPECS),
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
             r"(?<![.\w:])pending\b(?!\s*[=:.(]\s*[^\"'\s)])|(?<![\w])pending:\s*true\b",
             "it 'pays' do\n  pending 'not yet'\n  expect(pay).to eq(1)\nend\n",
             "it 'pays' do\n  expect(Payment.pending).to be_empty\nend\n", files=SPECS),
        Rule("SKP006", "example commented out",
             r"^#*\s*(?:it|specify|example|scenario|describe|context)\s*(?:\(|['\"])|^#*\s*def\s+test_\w+",
             "# it 'pays' do\n#   expect(pay).to eq(1)\n# end\n",
             "# pays once per cart\nit 'pays' do\n  expect(pay).to eq(1)\nend\n",
             scope="comment", files=SPECS),
    ],
)
