#!/usr/bin/env python3
"""Write ../labels.json from the hand review, every decision with its reason.

    python3 bench/skips_heldout/review/build_labels.py

Step (a), made before the hook's findings were looked at: every candidate of candidates.json
(candidates.py: broad per-ecosystem regexes over every added line, and test files whose change
removes checks and adds none) read by hand. INSERTIONS names those that are inserted skips,
focus, disabling, vacuous checks, escape hatches or lost checks (rule, kind, why); NOT_INSERTED
gives the reason for every other candidate, by class.
Step (b), after: FINDINGS labels every finding of the hook (evaluate.py --dump) tp or fp. A
finding on a line step (a) labelled an insertion is tp by evaluate.py's own matching; those are
not repeated here.
"""

from __future__ import annotations

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.dirname(HERE)


def span(a: int, b: int) -> range:
    return range(a, b + 1)


COND = "conditional"
PLAIN = "plain"
# candidate k: (rule, kind, why)
INSERTIONS: dict[int, tuple[str, str, str]] = {
    0: ("SKP001", COND, "new test under skipif(sys.version_info >= (3, 14))"),
    5: ("SKP005", COND, "xfail(sys.version_info < (3, 11)) in a pytest.param's marks"),
    7: ("SKP001", COND, "skipif(brotli imported): gated on the environment"),
    8: ("SKP001", COND, "skipif(brotli imported): gated on the environment"),
    9: ("SKP005", PLAIN, "marks=pytest.mark.xfail(reason=...) on a parametrized case, "
                         "no condition"),
    12: ("SKP001", COND, "conftest fixture: pytest.skip under `if request.keywords.get('trio')`"),
    28: ("SKP001", COND, "module-level pytest.skip under `except KeyError` (env var unset)"),
    36: ("SKP001", PLAIN, "uvu testing its own suite.skip: skips.skip('literal', ...) "
                          "(deliberate)"),
    38: ("SKP001", PLAIN, "uvu testing its own modifiers: only.skip(...) (deliberate)"),
    39: ("SKP002", PLAIN, "uvu testing its own modifiers: only.only(...) (deliberate)"),
    40: ("SKP002", PLAIN, "uvu testing its own modifiers: only.only(...) (deliberate)"),
    45: ("SKP001", PLAIN, "uvu suite test skipped: chars.skip('should no differences ...')"),
    46: ("SKP001", PLAIN, "uvu suite test skipped: direct.skip('should no differences ...')"),
    70: ("SKP002", PLAIN, "test.only left in regressions.js"),
    71: ("SKP001", PLAIN, "test.skip on a new regression test"),
    72: ("SKP001", PLAIN, "test.skip on a new regression test"),
    **{k: ("SKP001", PLAIN, "it(...) turned into it.skip(...)") for k in span(73, 76)},
    78: ("SKP002", PLAIN, "test.only on a new test"),
    79: ("SKP002", PLAIN, "describe.only on a new block"),
    80: ("SKP001", PLAIN, "test.skip on a new test"),
    81: ("SKP001", PLAIN, "test.skip on a new test"),
    82: ("SKP002", PLAIN, "describe.skip turned into describe.only: a focus is new (a different "
                          "construct with another effect, not a respelling)"),
    **{k: ("SKP001", PLAIN, "it/describe/test turned into .skip (Map/Set work in progress)")
       for k in span(83, 105)},
    106: ("SKP001", PLAIN, "it.skip with `// TODO: fix`"),
    **{k: ("SKP001", PLAIN, "test.skip/describe.skip in a new test file") for k in span(108, 110)},
    111: ("SKP001", PLAIN, "it.only turned into it.skip: a skip is new (different effect)"),
    112: ("SKP001", PLAIN, "it.only turned into it.skip: a skip is new (different effect)"),
    113: ("SKP002", PLAIN, "it.only on a new test"),
    114: ("SKP002", PLAIN, "it.only on a new test"),
    118: ("SKP001", COND, "t.Skip under `if !features.BindStruct` (a build-tag feature flag)"),
    119: ("SKP001", PLAIN, "t.Skip(\"TODO: needs invalid data example\") at the top of a subtest"),
    **{k: ("SKP001", COND, "skipWindows(t): a helper that skips on Windows only")
       for k in span(120, 126)},
    129: ("SKP001", COND, "t.Skip under `if runtime.GOOS == \"windows\"` (the skipWindows helper)"),
    130: ("SKP001", COND, "t.Skip under `if runtime.GOOS == \"linux\"`"),
    132: ("SKP001", COND, "t.Skipf under a GOOS check"),
    133: ("SKP008", PLAIN, "Travis matrix allow_failures: (go: tip): those jobs may fail"),
    137: ("SKP008", PLAIN, "continue-on-error: true on the `cargo miri test` job"),
    138: ("SKP001", COND, "#[cfg_attr(miri, ignore)]: ignored under miri only"),
    139: ("SKP001", COND, "#[ignore] on the #[rustversion::not(nightly)] variant: toolchain-gated"),
    143: ("SKP001", PLAIN, "xit in a new spec file"),
    144: ("SKP001", PLAIN, "xit in a new spec file"),
    174: ("SKP001", PLAIN, "@Ignore on a test copied into the new KSP test file (the apt copy "
                          "keeps its own @Ignore: one ignored test more)"),
    **{k: ("SKP001", PLAIN, "@Test turned into @Ignore(\"Temporarily ignored pending a new KCT "
                            "release ...\") @Test") for k in span(247, 269) if k != 256},
    271: ("SKP001", PLAIN, "@Ignore(\"Toe-hold test for when ... is resolved.\") on a new test"),
    275: ("SKP001", PLAIN, "an ignored test split in two: duplicatedValueProperty is a new "
                          "@Ignore @Test (its twin keeps the old line's @Ignore)"),
    277: ("SKP001", COND, "assumeTrue(reader instanceof JsonValueReader): parameter-gated"),
    278: ("SKP001", COND, "assumeTrue(reader instanceof JsonValueReader): parameter-gated"),
    **{k: ("SKP001", PLAIN, "new test file whose tests are all @Ignore @Test (codegen not "
                            "written yet; deliberate)") for k in span(289, 329)},
    330: ("SKP001", PLAIN, "@Ignore on manyProperties33 (kotlin-reflect limit; deliberate)"),
    336: ("SKP001", COND, "assumeTrue(factory.encodesToBytes()) in a new test: parameter-gated"),
    342: ("SKP001", COND, "assumeTrue(factory.supportsMultipleTopLevelValuesInOneDocument()) "
                          "added: parameter-gated"),
    # lost checks (file level)
    1: ("SKP009", PLAIN, "tests of the deprecated WS_1004/WS_1005 constants deleted with them"),
    6: ("SKP009", PLAIN, "test_database.py deleted with the `databases` dependency"),
    13: ("SKP009", PLAIN, "test_graphql_async_old_style_executor deleted (old executor dropped)"),
    16: ("SKP009", PLAIN, "legacy database tests deleted with starlette.database"),
    17: ("SKP009", PLAIN, "test_database_url deleted with DatabaseURL"),
    18: ("SKP009", PLAIN, "test_schema_generation_legacy deleted"),
    19: ("SKP009", PLAIN, "test_templates_legacy deleted"),
    33: ("SKP009", PLAIN, "the QUEUE suite (assert.instance(uvu.QUEUE, Array)) deleted as QUEUE "
                         "moved to globalThis"),
    52: ("SKP009", PLAIN, "prototype-pollution tests deleted with the reverted fix"),
    65: ("SKP009", PLAIN, "map/set es5 tests deleted with ES5 support"),
    66: ("SKP009", PLAIN, "es5 original() checks deleted with ES5 support"),
    67: ("SKP009", PLAIN, "'ES5 and Proxy implementation yield same result' deleted with ES5"),
    68: ("SKP009", PLAIN, "'ES5 plugins should throw' tests deleted with ES5 support"),
    69: ("SKP009", PLAIN, "polyfills tests file deleted with ES5 support"),
    115: ("SKP009", PLAIN, "HCL codec tests deleted with the codec"),
    116: ("SKP009", PLAIN, "INI codec tests deleted with the codec"),
    117: ("SKP009", PLAIN, "Java properties codec tests deleted with the codec"),
    166: ("SKP009", PLAIN, "extendsPlatformClassWithProtectedField test deleted, nothing in place"),
    169: ("SKP009", PLAIN, "KAPT processor tests deleted with KAPT support"),
}

PRE = "not an insertion: the construct was already on the line this change edits"
MOVED = "not an insertion: the same line is removed elsewhere in the change (moved)"
REFLOW = "not an insertion: `@Ignore @Test` reflowed onto one or two lines, the @Ignore was there"
WORD = "not a test construct: `skip`/`pass`/`assume`/`exclude` as a word in code or prose"
LIB = "library or type definitions of the framework's own skip/only API, not a test"
HELPER = "a project helper's definition (runPatchTests.only/.skip), not a use"
NAME = "a function name containing `_test_`, not a rename out of collection"
NOT_INSERTED: dict[int, str] = {
    **{k: WORD for k in (2, 3, 4, 15, 31, 32, 41, 43, 44, 50, 51, 55, 56, 57, 77, 107, 127, 131,
                         140, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159,
                         160, 161, 162, 163, 164, 165, 167, 168, 172, 173, 175, 176, 177, 178,
                         179, 180, 181, 182, 183, 184, 185, 186, 187, 189, 190, 192, 193, 194,
                         195, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209,
                         210, 211, 212, 213, 214, 215, 216, 218, 219, 220, 221, 222, 223, 224,
                         225, 226, 227, 230, 233, 234, 235, 236, 238, 240, 241, 242, 243, 244,
                         245, 246, 276, 279, 287, 288, 332, 333, 334, 335, 340)},
    **{k: "an import of Assume/Ignore, not a use" for k in (188, 191, 196, 237, 239, 331, 341)},
    **{k: NAME for k in (11, 20, 21, 23, 24, 26, 27, 29, 30)},
    **{k: MOVED for k in (10, 14, 22, 280, 285)},
    25: PRE + " (the module-level pytest.skip's message changed)",
    135: PRE + " (a reason string added to an existing cfg_attr(miri, ignore))",
    136: PRE + " (a reason string added to an existing #[ignore])",
    **{k: PRE + " (assumeTrue's argument changed)" for k in (337, 338, 339)},
    274: PRE + " (@Ignore @Test fun duplicatedValue() renamed duplicatedValueParameter)",
    **{k: REFLOW for k in (145, 146, 170, 171, 217, 228, 229, 231, 232, 272)},
    # corrected in step (b), when the miss was read: first labelled with its neighbours
    256: REFLOW + " (`@Ignore @Test fun localClassesNotSupported()` split onto three lines)",
    283: "not an insertion: localClassesNotSupported moved with its @Ignore from "
         "KotlinCodeGenTest.kt (removed in this change) to CompilerTest.kt",
    **{k: LIB for k in (34, 42, 47, 48, 49)},
    35: "a suite title naming suite.skip(), a string",
    37: "a suite title naming suite.only(), a string",
    **{k: HELPER for k in (53, 54, 58, 59, 60, 61, 62, 63)},
    64: "a commented copy of a test converted in the same change to runPatchTests("
        "\"simple assignment - 1\"), which still runs: no test disabled",
    128: "the definition line of the skipWindows helper (its t.Skip is labelled)",
    134: "continue-on-error on an upload-artifact step (Cargo.lock), not a test step",
    141: "RSpec config.filter_run :focus enables focusing by tag; no test is focused",
    270: "-Dmaven.test.skip=true in .buildscript/deploy_snapshot.sh: a snapshot deploy script "
         "outside the CI/config files the guard documents (ci/, .ci/, scripts/); not counted",
    # lost-check candidates that are not lost
    142: "the removed tests were already xit (skipped): no running check lost",
    273: "KotlinCompilerCall.kt is a test helper deleted with the switch to kotlin-compile-"
         "testing, not a test",
    **{k: "the removed tests were all @Ignore'd placeholders (fail()): no running check lost"
       for k in (281, 282, 284, 286)},
}

# step (b): findings of the hook, (repo, commit prefix, path, line, rule): (label, why)
HELPER_DEF = "the definition of a project helper offering .only/.skip " \
    "(runPatchTests.only = function ... describe.only), not a test focused or skipped"
FINDINGS: dict[tuple[str, str, str, int, str], tuple[str, str]] = {
    ("encode/starlette", "856c904a6d", "tests/test_exceptions.py", 182, "SKP010"):
        ("tp", "test_exception_middleware_deprecation (pytest.warns checks) deleted with the "
               "deprecation shim (deliberate); step (a) missed it: its regex had no pytest.warns"),
    ("encode/starlette", "e396f079a5", "tests/test_datastructures.py", 47, "SKP010"):
        ("tp", "test_database_url deleted with DatabaseURL"),
    ("encode/starlette", "e396f079a5", "tests/test_schemas.py", 168, "SKP010"):
        ("tp", "test_schema_generation_legacy deleted"),
    ("lukeed/uvu", "70b59e7b48", "test/exit.fails.js", 8, "SKP008"):
        ("tp", "process.exit(0) inside a test ends the run with success; deliberate (uvu's own "
               "fixture that must fail); step (a)'s regex had no process.exit"),
    ("lukeed/uvu", "e419ff993b", "test/uvu.js", 3, "SKP009"):
        ("tp", "the QUEUE suite's assert.instance deleted"),
    ("immerjs/immer", "4d3d6ff88c", "__tests__/base.js", 2953, "SKP010"):
        ("tp", "prototype-pollution tests deleted with the reverted fix"),
    ("immerjs/immer", "eb5ac78c6a", "__tests__/empty.ts", 15, "SKP009"):
        ("tp", "map/set es5 tests deleted with ES5 support"),
    ("immerjs/immer", "eb5ac78c6a", "__tests__/patch.js", 50, "SKP010"):
        ("tp", "'ES5 and Proxy implementation yield same result' deleted with ES5"),
    ("dtolnay/anyhow", "6d0a0196eb", "tests/test_backtrace.rs", 4, "SKP004"):
        ("tp", "`fn test_backtrace() {}`: an empty test body (the stable-toolchain placeholder, "
               "deliberate); step (a)'s regex had no empty-body form"),
    ("square/moshi", "97c22b832e", "moshi-kotlin-tests/src/test/kotlin/com/squareup/moshi/"
                                  "kotlin/reflect/KotlinJsonAdapterTest.kt", 380, "SKP010"):
        ("tp", "extendsPlatformClassWithProtectedField deleted, nothing in its place"),
    ("immerjs/immer", "4b8bcc57a2", "__tests__/patch.js", 61, "SKP002"): ("fp", HELPER_DEF),
    ("immerjs/immer", "4b8bcc57a2", "__tests__/patch.js", 62, "SKP001"): ("fp", HELPER_DEF),
    ("immerjs/immer", "4b8bcc57a2", "__tests__/patch.js", 118, "SKP002"):
        ("fp", HELPER_DEF + " ({only: true} passed inside runPatchTests.only)"),
    ("immerjs/immer", "4b8bcc57a2", "__tests__/patch.js", 137, "SKP001"):
        ("fp", HELPER_DEF + " ({skip: true} passed inside runPatchTests.skip)"),
    ("immerjs/immer", "4b8bcc57a2", "__tests__/patch.js", 212, "SKP006"):
        ("fp", "a commented copy kept 'for comparison' of a test converted in the same change "
               "to runPatchTests(\"simple assignment - 1\"), which still runs: no test disabled"),
}


def main() -> None:
    with open(os.path.join(HERE, "candidates.json"), encoding="utf-8") as f:
        cands = {x["k"]: x for x in json.load(f)}
    both = set(INSERTIONS) & set(NOT_INSERTED)
    undecided = set(cands) - set(INSERTIONS) - set(NOT_INSERTED)
    if both or undecided:
        raise SystemExit(f"decide every candidate once: both {sorted(both)}, "
                         f"undecided {sorted(undecided)}")
    insertions = []
    for k, (rule, kind, why) in sorted(INSERTIONS.items()):
        x = cands[k]
        insertions.append({"repo": x["repo"], "commit": x["commit"], "path": x["path"],
                           "line": x["line"], "rule": rule, "kind": kind, "why": why})
    full = {x["commit"][:10]: x["commit"] for x in cands.values()}
    import lzma
    with lzma.open(os.path.join(CORPUS, "cases.jsonl.xz"), "rt", encoding="utf-8") as f:
        full.update({c["commit"][:10]: c["commit"] for c in map(json.loads, f)})
    findings = [{"repo": r, "commit": full[c], "path": p, "line": n, "rule": rule,
                 "label": lab, "why": why}
                for (r, c, p, n, rule), (lab, why) in FINDINGS.items()]
    have = {(x["repo"], x["commit"], x["path"]) for x in insertions if x["rule"] == "SKP009"}
    for x in findings:  # a tp finding step (a) did not see is an insertion too (as round 1)
        lost = x["rule"] in ("SKP009", "SKP010")
        if x["label"] == "tp" and not (lost and (x["repo"], x["commit"], x["path"]) in have) \
                and not any(i["repo"] == x["repo"] and i["commit"] == x["commit"]
                            and i["path"] == x["path"] and i["line"] == x["line"]
                            for i in insertions):
            insertions.append({k: x[k] for k in ("repo", "commit", "path", "line")}
                              | {"rule": "SKP009" if lost else x["rule"], "kind": PLAIN,
                                 "why": x["why"]})
    out = {"findings": findings, "insertions": insertions,
           "notes": "Held-out corpus, labelled by a reader who did not write the rules, under "
                    "bench/skips_real/README.md's policy. insertion kind: plain = "
                    "unconditional construct; conditional = gated on platform/version/env/"
                    "parameter; in_string = inside a string literal. Step (a) candidates "
                    "(review/candidates.json) were decided before the hook's findings were "
                    "read; step (b) labels every finding. A finding on a labelled insertion's "
                    "line is tp."}
    with open(os.path.join(CORPUS, "labels.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, indent=0)
    print(f"labels.json: {len(findings)} findings, {len(insertions)} insertions")


if __name__ == "__main__":
    main()
