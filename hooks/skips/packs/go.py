"""go test (testing), testify, ginkgo/gomega."""

from __future__ import annotations

from hooks.skips.rules import Pack
from hooks.skips.rules import Rule
from hooks.skips.rules import hand_skip
from hooks.skips.rules import lazy_confirm

confirm_not_helper_process = lazy_confirm("cheats", "confirm_not_helper_process")

TEST_GO = r"_test\.go$"

PACK = Pack(
    "go", family="go", sample="pay/pay_test.go",
    test_files=TEST_GO,
    # the framework's checks: t.Error*/t.Fatal* (and a testify suite's s.Equal...) on a
    # variable declared as the test's (receivers), so fmt.Errorf or errors.Errorf is none
    # (testify's assert./require. first: at one position the first alternative wins)
    assertion=r"\b(?:assert|require)\.\w+\s*\(|\bExpect\s*\(|\bΩ\s*\("
              r"|\bT\(\)\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\s*\("
              r"|\b(?P<recv>\w+)\.(?:(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\s*\("
              r"|(?:Require\(\)\.|Assert\(\)\.)?(?:Equal|NotEqual|True|False|Nil|NotNil"
              r"|NoError|Error|ErrorIs|Contains|Len|Empty|NotEmpty|Panics)\w*\s*\()"
              # testify's own package and helpers: an exported function given the *testing.T
              r"|(?<![\w.])[A-Z]\w*\s*\(\s*(?:t|mockT|\w+\.T\(\))\s*[,)]",
    receivers=r"\b(\w+)\s+\*?testing\.(?:T|B|F|TB)\b|\(\s*(\w+)\s+\*?\w*Suite\s*\)"
              r"|\b(mockT)\b",
    replacement=r"\bEventually\w*\s*\(|\bConsistently\s*\(",
    # a check right under an error guard is setup's (`if err != nil { t.Fatal(err) }`)
    guard=r"^\s*if\b.*\berr\w*\s*!=\s*nil\b",
    test_definition=r"^\s*func\s+Test\w*\s*\(",
    rules=[
        hand_skip("pay/pay_test.go",
                  "func TestBash(t *testing.T) {\n\tif !hasBash() {\n"
                  '\t\tt.Log("no bash, skipping")\n\t\treturn\n\t}\n\tif !runBash() {\n'
                  '\t\tt.Fatal("bash")\n\t}\n}\n',
                  'func TestBash(t *testing.T) {\n\tt.Log("reading the skip list")\n'
                  '\tif !runBash() {\n\t\tt.Fatal("bash")\n\t}\n}\n'),
        Rule("SKP001", "test skipped with t.Skip",
             r"(?:\b\w+|\))\.Skip(?:f|Now)?\s*\(", "func TestPay(t *testing.T) {\n\tt.Skip(\"flaky\")\n}\n",
             "func TestPay(t *testing.T) {\n\tif pay() != 1 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n",
             files=TEST_GO),
        Rule("SKP001", "ginkgo spec skipped (X prefix or Skip)",
             r"(?<![\w.])(?:X(?:It|Describe|Context|When|Entry|Specify|DescribeTable)|Skip)\s*\(",
             "var _ = Describe(\"cart\", func() {\n\tXIt(\"pays\", func() {})\n})\n",
             "var _ = Describe(\"cart\", func() {\n\tIt(\"pays\", func() { Expect(pay()).To(Equal(1)) })\n})\n",
             files=TEST_GO),
        Rule("SKP002", "focused ginkgo spec: every other spec silently stops running",
             r"(?<![\w.])F(?:It|Describe|Context|When|Entry|Specify|DescribeTable)\s*\(",
             "var _ = Describe(\"cart\", func() {\n\tFIt(\"pays\", func() {})\n})\n",
             "var _ = Describe(\"cart\", func() {\n\tIt(\"pays\", func() { Expect(pay()).To(Equal(1)) })\n})\n",
             files=TEST_GO),
        Rule("SKP003", "skip under a constant condition: the test never runs",
             r"(?:\b\w+|\))\.Skip(?:f|Now)?\s*\(", "func TestPay(t *testing.T) {\n\tif true {\n\t\tt.Skip()\n\t}\n}\n",
             "func TestPay(t *testing.T) {\n\tif testing.Short() {\n\t\treturn\n\t}\n}\n",
             files=TEST_GO, previous=r"^\s*if\s+(?:true|1\s*==\s*1|!false)\s*\{\s*$"),
        Rule("SKP004", "assertion that cannot fail",
             r"(?<![\w.!])(?:(?:assert|require)\.)?True\s*\(\s*\w+\s*,\s*true\s*[,)]"
             r"|(?<![\w.!])(?:(?:assert|require)\.)?Equal\s*\(\s*\w+\s*,\s*(\w+|\"\s*\")\s*,\s*\1\s*[,)]"
             r"|\bExpect\s*\(\s*true\s*\)\s*\.\s*To\s*\(\s*BeTrue\s*\(\s*\)\s*\)",
             "func TestPay(t *testing.T) {\n\tassert.True(t, true)\n}\n",
             "func TestPay(t *testing.T) {\n\tassert.True(t, pay())\n}\n", files=TEST_GO),
        Rule("SKP004", "test with an empty body",
             r"^\s*func\s+Test\w*\s*\(\s*\w+\s+\*testing\.T\s*\)\s*\{\s*\}",
             "func TestPay(t *testing.T) {}\n",
             "func TestPay(t *testing.T) { assert.Equal(t, 1, pay()) }\n", files=TEST_GO),
        Rule("SKP005", "pending ginkgo spec: counted, never checked",
             r"(?<![\w.])P(?:It|Describe|Context|When|Entry|Specify)\s*\(",
             "var _ = Describe(\"cart\", func() {\n\tPIt(\"pays\", func() {})\n})\n",
             "var _ = Describe(\"cart\", func() {\n\tIt(\"pays\", func() { Expect(pay()).To(Equal(1)) })\n})\n",
             files=TEST_GO),
        Rule("SKP006", "test definition commented out",
             r"^/*\s*func\s+Test\w*\s*\(", "// func TestPay(t *testing.T) {\n// }\n",
             "// TestPay covers the happy path.\nfunc TestPay(t *testing.T) { assert.Equal(t, 1, pay()) }\n",
             scope="comment", files=TEST_GO),
        Rule("SKP008", "os.Exit(0) in a test file: the test binary ends with success whatever "
             "its tests did",
             r"\b(?:os|syscall)\s*\.\s*Exit\s*\(\s*0\s*\)",
             "func TestMain(m *testing.M) {\n\tos.Exit(0)\n}\n",
             "func TestMain(m *testing.M) {\n\tos.Exit(m.Run())\n}\n",
             files=TEST_GO, confirm=confirm_not_helper_process),
    ],
)
