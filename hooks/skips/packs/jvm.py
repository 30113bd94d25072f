"""JUnit 4/5, TestNG, Kotest, Spock (Java, Kotlin, Groovy, Scala)."""

from __future__ import annotations

from hooks.skips.rules import Pack
from hooks.skips.rules import Rule
from hooks.skips.rules import hand_skip
from hooks.skips.rules import lazy_confirm

confirm_not_doc_comment = lazy_confirm("cheats", "confirm_not_doc_comment")

PACK = Pack(
    "jvm", family="jvm", sample="src/test/java/CartTest.java",
    test_files=r"(^|/)src/test/|Tests?\.(java|kt|groovy|scala)$|Spec\.(groovy|kt|scala)$",
    assertion=r"\bassert\w*\s*\(|\bassertThat\b|\bverify\s*\(|\bshould\w*\b|\bexpect\s*[({]"
              r"|(?<![\w.])fail\s*\(",
    # an annotation may come first on the line: ``@Ignore @Test fun ...``
    test_definition=r"^\s*(?:@\w+(?:\([^()\n]*\))?\s+)*@(?:Test|ParameterizedTest|RepeatedTest)\b"
                    r"|^\s*public\s+void\s+test\w*\s*\(",  # JUnit 3: collected by its name
    # the raising and polling forms (Kotlin's assertFailsWith<E> { }, kotest's
    # shouldThrow<E> { }, AssertJ, Awaitility), which take a block, not only a call
    replacement=r"\b(?:assert\w*|expectThrows|shouldThrow\w*|should\w*|assertFailsWith"
                r"|untilAsserted|until|eventually|await)\s*(?:<[^>]*>)?\s*[({]",
    rules=[
        hand_skip("src/test/java/CartTest.java",
                  "@Test\nvoid pays() {\n    if (db == null) {\n"
                  '        System.out.println("no database, skipping");\n        return;\n'
                  "    }\n    assertEquals(1, pay());\n}\n",
                  '@Test\nvoid pays() {\n    System.out.println("reading the skip list");\n'
                  "    assertEquals(1, pay());\n}\n"),
        Rule("SKP001", "test disabled (@Disabled, @Ignore, enabled = false)",
             r"@(?:Disabled|Ignore)\b|@Test\s*\(\s*enabled\s*=\s*false\b"
             r"|\benabled\s*=\s*false\b|\.config\s*\(\s*enabled\s*=\s*false\b"
             r"|(?<![\w.])x(?:test|it|describe|context|should|given|when|then)\s*\(",
             "@Disabled\n@Test\nvoid pays() {\n    assertEquals(1, pay());\n}\n",
             "@Test\nvoid pays() {\n    assertEquals(1, pay());\n}\n"),
        Rule("SKP002", "focused spec: the others silently stop running",
             r"@IgnoreRest\b|(?<![\w.])f(?:it|describe|context)\s*\(",
             "@IgnoreRest\ndef 'pays'() {\n    expect: pay() == 1\n}\n",
             "def 'pays'() {\n    expect: pay() == 1\n}\n"),
        Rule("SKP003", "assumption that is constantly false: the test never runs",
             r"\bassumeTrue\s*\(\s*false\b|\bassumeFalse\s*\(\s*true\b"
             r"|\bAssume\.assumeTrue\s*\(\s*false\b",
             "@Test\nvoid pays() {\n    assumeTrue(false);\n}\n",
             "@Test\nvoid pays() {\n    assumeTrue(isLinux());\n}\n"),
        Rule("SKP004", "assertion that cannot fail",
             r"\bassertTrue\s*\(\s*true\s*[,)]|\bassertFalse\s*\(\s*false\s*[,)]"
             r"|\bassertEquals\s*\(\s*(true|false|null|\d+)\s*,\s*\1\s*[,)]"
             r"|\bassertThat\s*\(\s*true\s*\)\s*\.\s*isTrue\s*\(|\btrue\s+shouldBe\s+true\b",
             "@Test\nvoid pays() {\n    assertTrue(true);\n}\n",
             "@Test\nvoid pays() {\n    assertTrue(pay() > 0);\n}\n"),
        Rule("SKP005", "pending feature: expected to fail",
             r"@PendingFeature\b",
             "@PendingFeature\ndef 'pays'() {\n    expect: pay() == 1\n}\n",
             "@Unroll\ndef 'pays'() {\n    expect: pay() == 1\n}\n"),
        Rule("SKP006", "test definition commented out",
             r"^/*\s*\*?\s*@(?:Test|ParameterizedTest)\b",
             "// @Test\n// void pays() { assertEquals(1, pay()); }\n",
             "// pays once\n@Test\nvoid pays() {\n    assertEquals(1, pay());\n}\n",
             scope="comment",
             confirm=confirm_not_doc_comment),
    ],
)
