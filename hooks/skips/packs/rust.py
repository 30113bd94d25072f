"""cargo test (#[test], #[ignore])."""

from __future__ import annotations

from hooks.skips.rules import Pack
from hooks.skips.rules import Rule
from hooks.skips.rules import hand_skip
from hooks.skips.rules import lazy_confirm

confirm_not_doc_comment = lazy_confirm("cheats", "confirm_not_doc_comment")

PACK = Pack(
    "rust", family="c", sample="tests/pay.rs",
    test_files=r"(^|/)tests/.*\.rs$|_tests?\.rs$",
    test_module=r"#\[cfg\(test\)\]",  # a src/ file's unit tests: production code above it
    assertion=r"\b(?:assert|assert_eq|assert_ne|debug_assert\w*)!\s*\(",
    test_definition=r"^\s*#\[(?:tokio::)?test\b",
    # any assert macro (assert_matches!, prop_assert!), a project's assert_* helper,
    # should_panic, an explicit panic!
    replacement=r"\b\w*assert\w*!\s*[(\[{]|\bassert_\w+\s*\(|#\[should_panic\b|\bpanic!\s*\(",
    rules=[
        hand_skip("tests/pay.rs",
                  "#[test]\nfn runs_bash() {\n    if !has_bash() {\n"
                  '        println!("bash not available; skipping test");\n        return;\n'
                  "    }\n    assert!(run_bash());\n}\n",
                  '#[test]\nfn runs_bash() {\n    println!("reading the skip list");\n'
                  "    assert!(run_bash());\n}\n"),
        Rule("SKP001", "test ignored with #[ignore]", r"#\[\s*ignore\b",
             "#[test]\n#[ignore]\nfn pays() {\n    assert_eq!(pay(), 1);\n}\n",
             "#[test]\nfn pays() {\n    assert_eq!(pay(), 1);\n}\n"),
        Rule("SKP003", "ignore under a condition that is always true in tests",
             r"#\[\s*cfg_attr\s*\(\s*(?:test|all\s*\(\s*\))\s*,\s*ignore\b",
             "#[test]\n#[cfg_attr(test, ignore)]\nfn pays() {\n    assert_eq!(pay(), 1);\n}\n",
             "#[test]\n#[cfg_attr(windows, ignore)]\nfn pays() {\n    assert_eq!(pay(), 1);\n}\n"),
        Rule("SKP004", "assertion that cannot fail",
             r"\bassert!\s*\(\s*(?:true|!false)\s*[,)]|\bassert_eq!\s*\(\s*(\w+)\s*,\s*\1\s*[,)]",
             "#[test]\nfn pays() {\n    assert!(true);\n}\n",
             "#[test]\nfn pays() {\n    assert!(pay() > 0);\n}\n"),
        Rule("SKP004", "test with an empty body",
             r"^\s*(?:async\s+)?fn\s+\w+\s*\(\s*\)\s*\{\s*\}",
             "#[test]\nfn pays() {}\n",
             "fn helper() {}\n",
             previous=r"^\s*#\[(?:tokio::)?test\b"),
        Rule("SKP006", "test definition commented out",
             r"^/*\s*#\[(?:tokio::)?test\]", "// #[test]\n// fn pays() { assert_eq!(pay(), 1); }\n",
             "// checks the happy path\n#[test]\nfn pays() {\n    assert_eq!(pay(), 1);\n}\n",
             scope="comment",
             confirm=confirm_not_doc_comment),
        Rule("SKP008", "process::exit(0) in a test: the test binary ends with success and the "
             "tests after it never run",
             r"(?<![\w:])(?:std\s*::\s*)?process\s*::\s*exit\s*\(\s*0\s*\)",
             "#[test]\nfn pays() {\n    std::process::exit(0);\n}\n",
             "#[test]\nfn pays() {\n    assert_eq!(pay(), 1);\n}\n", tests_only=True),
    ],
)
