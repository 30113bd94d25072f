"""xUnit, NUnit, MSTest (C#, F#, VB)."""

from __future__ import annotations

from hooks.skips.rules import Pack
from hooks.skips.rules import Rule
from hooks.skips.rules import lazy_confirm

confirm_not_doc_comment = lazy_confirm("cheats", "confirm_not_doc_comment")

PACK = Pack(
    "dotnet", family="c", sample="tests/CartTests.cs",
    test_files=r"Tests?\.(cs|fs|vb)$|(^|/)tests?/|\.Tests?/",
    assertion=r"\bAssert\.\w+\s*\(|\.Should\s*\(\s*\)|\bCollectionAssert\.\w+\s*\(",
    test_definition=r"^\s*\[\s*(?:Fact|Theory|Test|TestMethod|TestCase)\b",
    rules=[
        Rule("SKP001", "test skipped ([Fact(Skip = ...)], [Ignore], [Explicit], Assert.Ignore)",
             r"\[\s*(?:Fact|Theory)\s*\(\s*Skip\s*=|\[\s*(?:Ignore|Explicit)\b"
             r"|\bAssert\.(?:Ignore|Inconclusive)\s*\(",
             "[Fact(Skip = \"flaky\")]\npublic void Pays() { Assert.Equal(1, Pay()); }\n",
             "[Fact]\npublic void Pays() { Assert.Equal(1, Pay()); }\n"),
        Rule("SKP003", "skip under a constant condition: the test never runs",
             r"\bSkip\.If\s*\(\s*true\b|\bSkip\.IfNot\s*\(\s*false\b|\bAssume\.That\s*\(\s*false\b",
             "[SkippableFact]\npublic void Pays() { Skip.If(true); }\n",
             "[SkippableFact]\npublic void Pays() { Skip.If(OperatingSystem.IsWindows()); }\n"),
        Rule("SKP004", "assertion that cannot fail",
             r"\bAssert\.(?:True|IsTrue)\s*\(\s*true\s*[,)]|\bAssert\.(?:False|IsFalse)\s*\(\s*false\s*[,)]"
             r"|\bAssert\.(?:Equal|AreEqual)\s*\(\s*(true|false|null|\d+)\s*,\s*\1\s*[,)]"
             r"|\bAssert\.Pass\s*\(",
             "[Fact]\npublic void Pays() { Assert.True(true); }\n",
             "[Fact]\npublic void Pays() { Assert.True(Pay() > 0); }\n"),
        Rule("SKP006", "test definition commented out",
             r"^/*\s*\[\s*(?:Fact|Theory|Test|TestMethod|TestCase)\b",
             "// [Fact]\n// public void Pays() { Assert.Equal(1, Pay()); }\n",
             "// Pays once per cart.\n[Fact]\npublic void Pays() { Assert.Equal(1, Pay()); }\n",
             scope="comment",
             confirm=confirm_not_doc_comment),
    ],
)
