"""XCTest and Swift Testing."""

from __future__ import annotations

from hooks.skips.rules import Pack
from hooks.skips.rules import Rule
from hooks.skips.rules import lazy_confirm

confirm_not_doc_comment = lazy_confirm("cheats", "confirm_not_doc_comment")

PACK = Pack(
    "swift", family="jvm", sample="Tests/CartTests/CartTests.swift",
    test_files=r"Tests?\.swift$|(^|/)Tests/",
    assertion=r"\bXCTAssert\w*\s*\(|#expect\s*\(|#require\s*\(",
    test_definition=r"^\s*func\s+test\w*\s*\(|^\s*@Test\b",
    rules=[
        Rule("SKP001", "test skipped (XCTSkip, .disabled)",
             r"\bthrow\s+XCTSkip\s*\(|@Test\s*\([^)]*\.disabled\b|@Suite\s*\([^)]*\.disabled\b",
             "func testPays() throws {\n    throw XCTSkip(\"flaky\")\n}\n",
             "func testPays() throws {\n    XCTAssertEqual(pay(), 1)\n}\n"),
        Rule("SKP003", "skip under a constant condition: the test never runs",
             r"\bXCTSkipIf\s*\(\s*true\b|\bXCTSkipUnless\s*\(\s*false\b"
             r"|\.enabled\s*\(\s*if:\s*false\s*\)|\.disabled\s*\(\s*if:\s*true\s*\)",
             "func testPays() throws {\n    try XCTSkipIf(true)\n}\n",
             "func testPays() throws {\n    try XCTSkipIf(isSimulator)\n}\n"),
        Rule("SKP004", "assertion that cannot fail",
             r"\bXCTAssert(?:True)?\s*\(\s*true\s*[,)]|\bXCTAssertFalse\s*\(\s*false\s*[,)]"
             r"|\bXCTAssertEqual\s*\(\s*(true|false|nil|\d+)\s*,\s*\1\s*[,)]|#expect\s*\(\s*true\s*\)",
             "func testPays() {\n    XCTAssert(true)\n}\n",
             "func testPays() {\n    XCTAssert(pay() == 1)\n}\n"),
        Rule("SKP005", "expected failure: the test can fail and still pass",
             r"\bXCTExpectFailure\s*\(|\bwithKnownIssue\s*[({]",
             "func testPays() {\n    XCTExpectFailure(\"known\")\n    XCTAssertEqual(pay(), 2)\n}\n",
             "func testPays() {\n    XCTAssertEqual(pay(), 1)\n}\n"),
        Rule("SKP006", "test definition commented out",
             r"^/*\s*(?:func\s+test\w*\s*\(|@Test\b)",
             "// func testPays() {\n//     XCTAssertEqual(pay(), 1)\n// }\n",
             "// Pays once per cart.\nfunc testPays() {\n    XCTAssertEqual(pay(), 1)\n}\n",
             scope="comment",
             confirm=confirm_not_doc_comment),
    ],
)
