"""GoogleTest, Catch2, doctest (C and C++)."""

from __future__ import annotations

from hooks.skips.rules import Pack
from hooks.skips.rules import Rule
from hooks.skips.rules import lazy_confirm

confirm_not_doc_comment = lazy_confirm("cheats", "confirm_not_doc_comment")

PACK = Pack(
    "cpp", family="c", sample="test/cart_test.cpp",
    test_files=r"(_test|_tests|Test|Tests|_unittest)\.(c|cc|cpp|cxx)$|(^|/)tests?/",
    assertion=r"\b(?:EXPECT|ASSERT)_\w+\s*\(|\b(?:REQUIRE|CHECK)(?:_\w+)?\s*\(",
    test_definition=r"^\s*(?:TEST|TEST_F|TEST_P|TYPED_TEST|TEST_CASE|SCENARIO)\s*\(",
    rules=[
        Rule("SKP001", "test skipped (GTEST_SKIP, hidden Catch2 tag, doctest::skip)",
             r"\bGTEST_SKIP\s*\(|\bdoctest::skip\s*\(\s*(?:true\s*)?\)"
             r"|(?:TEST_CASE|SCENARIO)\s*\(.*\"\[(?:\.|!hide|[^\]\"]*\]\[\.)[^\"]*\"",
             "TEST(Cart, Pays) {\n  GTEST_SKIP() << \"flaky\";\n}\n",
             "TEST(Cart, Pays) {\n  EXPECT_EQ(pay(), 1);\n}\n", scope="raw"),
        Rule("SKP004", "assertion that cannot fail",
             r"\b(?:EXPECT|ASSERT)_TRUE\s*\(\s*(?:true|1)\s*\)|\b(?:EXPECT|ASSERT)_FALSE\s*\(\s*(?:false|0)\s*\)"
             r"|\b(?:EXPECT|ASSERT)_EQ\s*\(\s*(true|false|\d+)\s*,\s*\1\s*\)"
             r"|\b(?:REQUIRE|CHECK)\s*\(\s*(?:true|1)\s*\)|\bSUCCEED\s*\(\s*\)",
             "TEST(Cart, Pays) {\n  EXPECT_TRUE(true);\n}\n",
             "TEST(Cart, Pays) {\n  EXPECT_TRUE(pay() > 0);\n}\n"),
        Rule("SKP005", "expected failure (shouldfail/mayfail, doctest::should_fail)",
             r"\bdoctest::(?:should_fail|may_fail)\s*\(|\"[^\"]*\[!(?:shouldfail|mayfail)\][^\"]*\"",
             "TEST_CASE(\"pays\", \"[!shouldfail]\") {\n  REQUIRE(pay() == 2);\n}\n",
             "TEST_CASE(\"pays\", \"[cart]\") {\n  REQUIRE(pay() == 1);\n}\n", scope="raw"),
        Rule("SKP006", "test definition commented out",
             r"^/*\s*(?:TEST|TEST_F|TEST_P|TYPED_TEST|TEST_CASE|SCENARIO)\s*\(",
             "// TEST(Cart, Pays) {\n//   EXPECT_EQ(pay(), 1);\n// }\n",
             "// Pays once per cart.\nTEST(Cart, Pays) {\n  EXPECT_EQ(pay(), 1);\n}\n",
             scope="comment",
             confirm=confirm_not_doc_comment),
        Rule("SKP007", "DISABLED_ prefix: GoogleTest stops running the test",
             r"\b(?:TEST|TEST_F|TEST_P|TYPED_TEST)\s*\(\s*(?:DISABLED_\w*|\w+\s*,\s*DISABLED_\w*)",
             "TEST(Cart, DISABLED_Pays) {\n  EXPECT_EQ(pay(), 1);\n}\n",
             "TEST(Cart, Pays) {\n  EXPECT_EQ(pay(), 1);\n}\n"),
    ],
)
