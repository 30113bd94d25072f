"""PHPUnit and Pest."""

from __future__ import annotations

from hooks.skips.rules import Pack
from hooks.skips.rules import Rule
from hooks.skips.rules import lazy_confirm

confirm_not_doc_comment = lazy_confirm("cheats", "confirm_not_doc_comment")

PACK = Pack(
    "php", family="php", sample="tests/CartTest.php",
    test_files=r"Test\.php$|(^|/)tests?/",
    assertion=r"\$this->assert\w*\s*\(|\bself::assert\w*\s*\(|\bexpect\s*\(",
    test_definition=r"^\s*(public\s+)?function\s+test\w*\s*\(|^\s*(test|it)\s*\(",
    rules=[
        Rule("SKP001", "test skipped (markTestSkipped, ->skip())",
             r"\bmarkTestSkipped\s*\(|->\s*skip\s*\(",
             "public function testPays(): void\n{\n    $this->markTestSkipped('flaky');\n}\n",
             "public function testPays(): void\n{\n    $this->assertSame(1, pay());\n}\n"),
        Rule("SKP002", "focused Pest test: the others silently stop running",
             r"->\s*only\s*\(",
             "test('pays', function () {\n    expect(pay())->toBe(1);\n})->only();\n",
             "test('pays', function () {\n    expect(pay())->toBe(1);\n});\n"),
        Rule("SKP004", "assertion that cannot fail",
             r"->\s*assertTrue\s*\(\s*true\s*[,)]|->\s*assertFalse\s*\(\s*false\s*[,)]"
             r"|->\s*assert(?:Same|Equals)\s*\(\s*(true|false|null|\d+)\s*,\s*\1\s*[,)]"
             r"|\bexpect\s*\(\s*true\s*\)\s*->\s*(?:toBeTrue\s*\(|toBe\s*\(\s*true\s*\))",
             "public function testPays(): void\n{\n    $this->assertTrue(true);\n}\n",
             "public function testPays(): void\n{\n    $this->assertTrue(pay());\n}\n"),
        Rule("SKP005", "incomplete or todo test: counted, never checked",
             r"\bmarkTestIncomplete\s*\(|->\s*todo\s*\(",
             "public function testPays(): void\n{\n    $this->markTestIncomplete();\n}\n",
             "public function testPays(): void\n{\n    $this->assertSame(1, pay());\n}\n"),
        Rule("SKP006", "test definition commented out",
             r"^(?://+|#+|/?\*+)?\s*(?:public\s+)?function\s+test\w*\s*\(|^(?://+|#+)\s*(?:test|it)\s*\(",
             "// public function testPays(): void {}\n",
             "// Pays once per cart.\npublic function testPays(): void\n{\n    $this->assertSame(1, pay());\n}\n",
             scope="comment",
             confirm=confirm_not_doc_comment),
    ],
)
