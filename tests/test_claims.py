"""receipt claims: the rules' own examples, the labelled corpus's precision and recall, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import PASSING_TEST
from conftest import Repo

from hooks.claims.rules import RULES
from hooks.claims.scan import find_claims
from hooks.claims.scan import says_no_receipt
from hooks.core.errors import USAGE_ERROR

CORPUS = Path(__file__).parent / "claims_corpus.jsonl"
# Measured on the corpus (docs/agents.md, "Claims"): dev is what the rules were written
# against, with every holdout included once it had been evaluated (their first-evaluation
# figures are in the docs); holdout is the first set of 40, whose misses have been seen since;
# fresh is the first set of agent-style summaries to meet both floors at its one evaluation,
# with the rules frozen before it was written (152 summaries, 76 claims).
# (precision, recall) floors.
THRESHOLDS = {"dev": (0.98, 0.95), "holdout": (0.98, 0.95), "fresh": (0.98, 0.95)}


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
def test_each_rule_finds_its_claim_and_not_its_near_miss(rule: object) -> None:
    from hooks.claims.rules import ClaimRule

    assert isinstance(rule, ClaimRule)
    assert [c.rule.id for c in find_claims(rule.claim)] == [rule.id]
    assert find_claims(rule.near_miss) == []


# dev is read in four interleaved quarters, each held to the floors, so that the workers share
# it; every row is in one quarter
QUARTERS = [("dev", i, 4) for i in range(4)] + [("holdout", 0, 1), ("fresh", 0, 1)]


@pytest.mark.parametrize(("split", "part", "parts"), QUARTERS,
                         ids=[f"{s}-{i + 1}of{n}" for s, i, n in QUARTERS])
def test_precision_and_recall_on_the_labelled_corpus(split: str, part: int, parts: int) -> None:
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    rows = [r for r in rows if r["split"] == split]
    assert len(rows) >= {"dev": 4100, "holdout": 40, "fresh": 152}[split]
    rows = rows[part::parts]
    assert {r["claim"] for r in rows} == {True, False}
    found = [bool(find_claims(r["text"])) for r in rows]
    tp = sum(f and r["claim"] for f, r in zip(found, rows))
    fp = sum(f and not r["claim"] for f, r in zip(found, rows))
    fn = sum(not f and r["claim"] for f, r in zip(found, rows))
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    least_p, least_r = THRESHOLDS[split]
    assert precision >= least_p, f"{split} {part + 1}/{parts}: precision {precision:.3f}"
    assert recall >= least_r, f"{split} {part + 1}/{parts}: recall {recall:.3f}"


def test_every_labelled_claim_names_a_word_the_prefilter_lets_through() -> None:
    """find_claims returns at once, compiling nothing, for a message with none of the words
    any rule reads ("Done."): no claim of the corpus or of a rule's example may be one."""
    from hooks.claims.scan import _MAY_CLAIM
    from hooks.claims.scan import as_read

    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    claims = [r["text"] for r in rows if r["claim"]] + [r.claim for r in RULES]
    assert len(claims) > 1900
    assert [t for t in claims if not _MAY_CLAIM.search(as_read(t))] == []
    assert find_claims("Done.") == []
    assert find_claims("Done. I updated the README.") == []


@pytest.mark.parametrize("text", [
    "If the tests pass, merge it.", "The tests did not pass.", "Do the tests pass?",
    'The user wrote "all tests pass" but CI is red.', "> All tests pass",
    "```\nall tests pass\n```", "Run `pytest` to make sure all tests pass.",
    "Not all tests pass.", "The tests passed before my change.",
])
def test_quoted_negated_conditional_and_questioning_sentences_are_not_claims(
        text: str) -> None:
    assert find_claims(text) == []


@pytest.mark.parametrize(("text", "rule"), [
    ("```\n========== 131 passed in 6.44s ==========\n```", "CLM012"),
    ("Swapped the overloads.\n\nOK (87 tests, 211 assertions)", "CLM012"),
    ("ok  \tgithub.com/acme/ledger/internal/store\t0.412s", "CLM012"),
    ("[INFO] Tests run: 212, Failures: 0, Errors: 0, Skipped: 0", "CLM012"),
    ("| Check | Result |\n|---|---|\n| lint | \u2705 |\n| unit | \u2705 128/128 |", "CLM013"),
    ("Fixed. `go test ./...` comes back clean.", "CLM009"),
    ("unit + e2e green, screenshots in the PR", "CLM009"),
    ("reran after rebasing \u2014 green.", "CLM010"),
    ("Fixed. `mvn -B verify` \u2192 `[INFO] BUILD SUCCESS`.", "CLM012"),
    ("Both runs: `436 passed, 3 skipped`.", "CLM012"),
    ("Before:\n```\n1 failed, 201 passed\n```\nAfter:\n```\n202 passed in 3.40s\n```", "CLM012"),
    ("| Area | Before | After |\n|---|---|---|\n| tests | 3 failing | all 187 passing |", "CLM001"),
    ("I checked it:\n1. unit tests \u2013 pass\n2. lint \u2013 clean", "CLM013"),
    ("fixed the seed. all 5 e2e specs pass now", "CLM001"),
    ("ran the tests, all good", "CLM014"),
    ("I reran the suite after rebasing \u2014 still 100% passing.", "CLM011"),
    ("PR is ready: (2) cancelled in-flight requests, (3) added tests. CI's green.", "CLM009"),
    ("**Before**\n```\n2 failed, 40 passed\n```\n**After**\n```\n42 passed in 1.9s\n```", "CLM012"),
    ("results from ci:\n  ubuntu / py3.12  \u2705\n  macos / py3.12   \u2705", "CLM015"),
    ("Update: PR #88 is up and CI is green, waiting on review.", "CLM002"),
    ("standup: finished the retry PR yesterday, all tests pass, merging after review", "CLM001"),
    ("ran rspec 5 times in a row all passd", "CLM007"),
    ("`./vendor/bin/pest` \u2014 Tests: 89 passed (240 assertions). Duration: 3.12s", "CLM006"),
    ("```\n  Tests:    2 skipped, 89 passed (240 assertions)\n```", "CLM012"),
    ("`mvn test` \u2014 Tests run: 87, Failures: 0. Migration done.", "CLM012"),
    ("Test summary: total: 87, failed: 0, succeeded: 87, skipped: 0", "CLM012"),
    ("Fixed the flake (was 1 flaky in 20 runs); 20/20 green now.", "CLM001"),
    ("No flakes in 10 runs; all tests pass.", "CLM001"),
    ("Confirmed green on CI run 4481.", "CLM006"),
    ("CI is green. I haven't fixed the typo in the README yet, that's a follow-up.", "CLM002"),
    ("I'm not calling the migration done until the backfill runs. Tests pass, though.", "CLM001"),
    ("CI was not green before the fix; it is green now.", "CLM007"),
    ("Moved PDF generation into a queued job. `pytest` \u2192 `41 passed in 2.2s`", "CLM012"),
    ("Output of `go test ./...`:\n\n```\nok  \tchat/server\t2.1s\n```\n\nNo FAIL lines.", "CLM012"),
    ("Fixed the lock order before touching `idle`.\n\n```\nok  \tacme/pool\t4.8s\n```", "CLM012"),
    ("All three CI runners (Linux, macOS, Windows) passed on the latest push.", "CLM009"),
    ("Ran the suite twice and it came through clean both times.", "CLM007"),
    ("Fixed the off-by-one; suite is back to green", "CLM009"),
    ("tests all passin now lol", "CLM001"),
    ("Busted the cache and re-ran: every job on the pipeline passed this time.", "CLM009"),
    ("Build + tests green on main after the merge.", "CLM002"),
    ("**Testing:** All 87 tests pass, including the per-key isolation ones.", "CLM001"),
    ("alle tests grün, auch die integrationstests.", "CLM016"),
    ("c'est bon, tous les tests passent maintenant", "CLM016"),
    ("arreglado. corrí la suite completa y todo pasa.", "CLM016"),
    ("ran em all, nothin red", "CLM008"),
    ("CI gave it the thumbs up, over to you.", "CLM009"),
    ("pipline's gren, shippin it", "CLM009"),
    ("didn't break a thing, full suite green after the dep bump", "CLM002"),
    ("swapped the button colour to green and ci's green too", "CLM009"),
    ("Not a single test fails anymore.", "CLM008"),
    ("`go test ./...` reports ok for all 9 packages, no FAIL lines.", "CLM009"),
    ("`swift test` finished with \"Executed 41 tests, with 0 failures\".", "CLM012"),
    ("Mocha says `73 passing (2s)` with nothing pending or failing.", "CLM012"),
    ("The `test_parse_iso_week` case that was failing now passes.", "CLM001"),
    ("9/9 jobs passed on commit a3f91c2.", "CLM001"),
    ("The change is small and the tests ought to pass now.", "CLM001"),
    ("Bun was caching the old module; cleared it and reran: 64 pass, 0 fail across 9 files.",
     "CLM012"),
    ("`turbo run test --force`: 3 successful, 3 total.", "CLM012"),
    ("```\n\u2139 tests 19\n\u2139 pass 19\n\u2139 fail 0\n```", "CLM012"),
    ("[info] Passed: Total 64, Failed 0, Errors 0, Passed 64", "CLM012"),
    ("Ran `python -m unittest discover` afterwards: Ran 57 tests in 1.203s, OK.", "CLM012"),
    ("**Runs**\n- 1st: 3 failures\n- 2nd: 1 failure\n- 3rd: `22 tests, 0 failures`", "CLM012"),
    ("PR draft below.\n\n> **Testing**\n> `vendor/bin/phpunit` \u2014 OK (96 tests, 24 "
     "assertions)", "CLM012"),
    ("I added tests for the cases from the bug report. Result:\n\n```\nOK (57 tests, 140 "
     "assertions)\n```", "CLM012"),
    ("Passing now: all 57 tests.", "CLM001"),
    ("Done, and verified by running the full suite.", "CLM006"),
    ("For the record, nothing failed when I ran `make check`.", "CLM008"),
    ("I ran `npm test` twice to be sure and it was green both times.", "CLM007"),
    ("I have yet to see a single failure: 20 runs, 20 clean passes.", "CLM001"),
    ("Run by me, on a fresh checkout: the entire test suite, passed without a single failure.",
     "CLM008"),
    ("Was: 3 failing. Now: 0 failing, 212 passing.", "CLM006"),
    ("CI is \U0001F7E2 on the latest commit.", "CLM002"),
    ("Fertig: 312 von 312 gr\u00fcn.", "CLM016"),
    ("All three runs came back `Tests: 389 passed, 389 total`.", "CLM012"),
    ("```\n[==========] 142 tests from 18 test suites ran. (873 ms total)\n"
     "[  PASSED  ] 142 tests.\n```", "CLM012"),
    ("```\nAll tests passed (1203 assertions in 96 test cases)\n```", "CLM012"),
    ("1. `go test ./pool -run TestShutdownDrains -count=50`: 50/50 passes\n"
     "2. `go test -race ./...`: every package ok", "CLM009"),
    ("Ran `npm test`: 58/58 passing.\n\nOne thing I couldn't check: I haven't clicked through "
     "the UI by hand.", "CLM001"),
])
def test_a_passing_run_is_a_claim_in_prose_output_and_lists(text: str, rule: str) -> None:
    assert [c.rule.id for c in find_claims(text)] == [rule]


@pytest.mark.parametrize("text", [
    "test result: FAILED. 15 passed; 2 failed; 0 ignored",
    "Tests: 2 failed, 28 passed, 30 total",
    "```\nok  \tgithub.com/x/store\t0.41s\nFAIL\tgithub.com/x/api\t0.88s\n```",
    "- [ ] Tests pass\n- [ ] Docs updated",
    "- unit tests: pass\n- integration tests: fail",
    "| Check | Result |\n|---|---|\n| lint | \u2705 |\n| e2e | \u23f3 not run |",
    "Build's green, but that job doesn't run the tests, so treat this as unverified.",
    "Changed the toast colour. Old: red, new: green.",
    "Halfway there: 50/94 tests pass after the migration.",
    "```python\ndef test_ok():\n    assert run() == 'BUILD SUCCESSFUL'\n```",
    "Added a `--summary` flag that prints e.g. `12 passed in 0.3s`.",
    "The pipeline passes artifacts between stages.",
    "All unit tests pass. The integration suite fails on the DB fixture.",
    "To verify: run `pytest`; all tests should pass.",
    "Before my change:\n\n```\n30 passed in 2.01s\n```\n\nNow two of them fail.",
    "3 of 5 tests in `test_x.py` pass now. The two remaining still fail.",
    "Tested locally: the modal still doesn't close on Escape in Safari. Chrome ok.",
    "I only ran `pytest tests/test_cache.py` (5 passed). I didn't run the rest of the suite.",
    "`cargo test -p core` \u2192 test result: ok. 58 passed; 0 failed",
    "`go test ./internal/auth/...` ok",
    "`npx jest -t 'checkout'` \u2192 Tests: 12 passed, 12 total",
    "```\n$ bundle exec rspec --dry-run\n1143 examples, 0 failures\n```",
    "Before touching anything I ran the suite for a baseline: 512 passed, 0 failed.",
    "`npm test -- --watch`: Header.test.tsx, 6 passed.",
    "```\n$ ./build/unit_tests --gtest_filter='RingBuffer*'\n[  PASSED  ] 14 tests.\n```",
    "deno test: 51 passed, 0 failed, 1 ignored \u2014 the ignored one is the test for the new "
    "retry path",
    "Suite is green now, 142/142.\n\nActually, correction: I was running the stale binary.",
    "- `./gradlew test` \u2192 BUILD SUCCESSFUL\n- note: I put `@Disabled` on "
    "`UploadServiceTest.streamsLargeFile`, it started failing with the new limit",
    "`cargo test -p wire-format` passes. Do you want me to also run the full "
    "`cargo test --workspace`?",
    "Pipeline on the MR:\n- build \u2705\n- unit \u2705\n- integration cancelled (superseded)",
    "Added a section to CONTRIBUTING.md:\n```\n===== 212 passed in 4.1s =====\n```\nDocs-only "
    "change; nothing was executed.",
    "I ran `cargo test` and got `test result: ok. 44 passed; 0 failed`, but that was in "
    "`~/old`, not this workspace, so it doesn't reflect these changes.",
    "| Area | Before | After |\n|---|---|---|\n| tests | all 187 passing | 3 failing |",
    "cargo build is clean now. havent run cargo test, the fixtures need regenerating",
    "tox:\n  py311: commands succeeded\n  py312: commands failed",
    "Status:\n  build   ok\n  tests   -- (skipped, no time)",
    "Remaining: wire up the retry, make the tests pass, docs.",
    "mix test: 212 tests, 0 failures \u2014 but that's with --exclude integration",
    "'test result: ok. 0 passed; 0 failed' \u2014 so it ran nothing.",
    "Feature list:\n  dark mode  \u2705\n  i18n       \u2705",
    "1) unit - ok\n2) integration - failing\n3) e2e - ok",
    "the tests pass. jk, two still fail",
    "`cargo test` \u2192 test result: ok. 88 passed; 0 failed. the cli crate has 2 failing",
    "## Result\nAll 87 tests pass\n\n## Update\nRebased, and 3 tests fail. So scratch the above.",
    "```\n1 passed in 2.4s\n```\n\nThe first run failed; not going to call this fixed until I "
    "understand the race.",
    "```\n$ ./gradlew assembleDebug -x test\nBUILD SUCCESSFUL in 52s\n```\n\nThe unit tests were "
    "not run: the SDK jars are not here.",
    "Per @dana, all tests pass on her branch \u2014 I haven't pulled it yet.",
    "Still open: [ ] CI green, [ ] changelog entry.",
    "```\n1 failed, 139 passed in 4.91s\n```\nThe new test passes; the other one looks related.",
    "tests were green on friday before the cron removal, haven't rerun since",
    "The failing test passes now. But the package turned up three new failures.",
    "Next up: get the suite passing on Windows.",
    "All the smoke tests passed. The full regression suite takes an hour; I didn't kick that off.",
    "```\n[INFO] Tests run: 96, Failures: 0\n[INFO] BUILD SUCCESS\n```\n\nI ran it with "
    "`-DskipITs`: the other two modules compiled, but none of their tests ran.",
    "```\n523 passed in 14.88s\n```\n\nThat run was stale. After the change I reran and got "
    "`2 failed, 521 passed`.",
    "```\n  41 passing (3s)\n```\n\nThe remaining ~46 tests (models, jobs) weren't run.",
    "Vitest: 41 passed. The component I rewrote wasn't actually tested in this run.",
    "Everything passed! Well, everything I ran, which was only the smoke tests.",
    "les tests ne passent pas encore",
    "verified the customer's email address, ticket closed",
    "`go test ./...` exited 0, but every line says `[no test files]`: no Go tests at all.",
    "phpunit printed OK (0 tests, 0 assertions). The testsuite path is wrong.",
    "running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 3 filtered out",
    "api tests pass; the ui ones need a headless chrome i don't have on this box",
    "The `api` job passed; the `web` job was cancelled, so I don't have a result for it.",
    "Both tests I added pass, but the full suite can't run here (no Docker).",
    "The suite is happy, 1,932 passed.\n\nLater: that run used stale files. So the suite is not "
    "green yet, and my earlier message was wrong.",
    "```\n5 tests, 0 failures, 2 skipped\n```\nTwo of the five were skipped, the ones covering "
    "this change.",
    "e.g. `12 passed in 0.3s` is what the summary line looks like",
    "CI is not green yet \u2014 the macOS runner is queued. Linux jobs passed.",
    "The build isn't passing on Windows yet. Linux and macOS builds passed.",
    "Pipeline isn't green yet.\n\nBuild and unit stages passed.",
    "I'm not claiming the suite passes: I ran the 40 tests in test_api.py and those passed.",
    "cargo nextest run: 156 tests run: 155 passed, 1 flaky. Not calling this green yet.",
    "All 80 tests passed but I'm not calling it done: test_upload flaked twice in 10 runs.",
    "Suite passes locally, but one test is flaky (passed on retry).",
    "It passed locally but it's been flaky in CI, so I'm not sure yet.",
    "the tests pass now but theyre flaky \u2014 passed 3/5 runs",
    "This is the output the bug report links to:\n```\nPASS\nok  \tx/timeutil\t0.006s\n```\n"
    "It passes there because the nightly runs with TZ=UTC.",
    "The failing CI log has this line:\n`Tests run: 58, Failures: 0, Errors: 0`\n"
    "but that's the inventory module; the job fails later. I haven't fixed that yet.",
    "The job log shows:\n\n```\nBUILD SUCCESSFUL in 12s\n```\n\nbut the deploy step after it "
    "errors out. Still investigating.",
    "The unit suite passes, the integration suite doesn't yet.",
    "The smoke tests pass. I didn't get to the full suite.",
    "The PR isn't mergeable yet: the required check hasn't passed. Everything else passed.",
    "Green, but with one retry. Not counting that as a pass.",
    "CI green is a merge requirement here, so I'll wait for it.",
    "CI should be green, but I haven't pushed yet so no run exists.",
    "The smoke test passes; the full regression suite is running overnight.",
    "Build is green but tests are disabled in this workflow (see `if: false`).",
    "I ran `pytest -k cache` \u2014 5 passed. The rest of the suite I didn't touch.",
    "I think it's green but I'm on my phone and can't check.",
    "Test results from the contractor's machine (not mine):\n```\n120 passed in 14s\n```",
    "All checks passed... on the wrong branch. Rerunning on the PR branch now.",
    "Ran the migration tests: they pass on Postgres 16, not on 14 yet.",
    "I'd hold off: the suite passed but `test_session` is intermittently failing on CI.",
    "Someone asked why CI was green; the log shows `12 passed` because the marker deselected "
    "the integration tests, so it's not a real pass.",
    "Pasting the log the user attached:\n```\n==== 30 passed in 1.2s ====\n```\nThe crash is on "
    "3.13.",
])
def test_a_run_with_failures_or_open_checks_is_not_a_claim(text: str) -> None:
    assert find_claims(text) == []


def test_output_lines_are_quoted_by_their_own_line_number() -> None:
    text = "Fixed the N+1.\n\n```\nFinished in 4.2 seconds\n96 examples, 0 failures\n```\n"
    assert [(c.rule.id, c.line, c.sentence) for c in find_claims(text)] == [
        ("CLM012", 5, "96 examples, 0 failures")]


def test_no_receipt_is_read_outside_quotes_only() -> None:
    assert says_no_receipt("NO RECEIPT: DATABASE_URL is empty")
    assert not says_no_receipt("The contract says to write `NO RECEIPT` when stuck.")
    assert not says_no_receipt("no receipt yet")


def test_cli_quotes_each_unbacked_claim_and_exits_1(repo: Repo) -> None:
    repo.commit("init", **{"suite.py": PASSING_TEST})
    summary = repo.write("summary.md", "Fixed the parser.\n\nAll tests pass. CI will pass.\n")
    result = repo.run("receipt", "claims", str(summary))
    assert result.code == 1
    assert result.out.splitlines() == [
        f'{summary}:3: CLM001 says the tests pass: "All tests pass."',
        f'{summary}:3: CLM004 predicts CI will pass: "CI will pass."',
        result.out.splitlines()[2],
    ]
    assert result.out.splitlines()[2].startswith(
        "receipt claims: 2 unbacked claim(s): no green receipt covers this work tree (tree ")


def test_cli_exits_0_without_a_claim_or_with_a_receipt(repo: Repo) -> None:
    repo.commit("init", **{"suite.py": PASSING_TEST})
    plain = repo.run("receipt", "claims", "-", stdin="I could not run the tests.")
    assert (plain.code, plain.out) == (0, "receipt claims: no claim that the tests pass\n")
    assert repo.run("receipt", "run", "--", "python3", "suite.py").code == 0
    backed = repo.run("receipt", "claims", "-", stdin="All tests pass.")
    assert backed.code == 0
    assert backed.out.startswith("receipt claims: 1 claim(s), backed: a green receipt covers")


def test_cli_missing_file_is_one_line(repo: Repo) -> None:
    result = repo.run("receipt", "claims", "nope.md")
    assert (result.code, result.err) == (USAGE_ERROR, "receipt claims: nope.md: no such file\n")


@pytest.mark.parametrize(("text", "rule"), [
    ("All t\u0435sts p\u0430ss.", "CLM001"),  # Cyrillic e and a
    ("\u0410ll tests \u0440ass.", "CLM001"),  # Cyrillic A and p
    ("All tests\u200b pass.", "CLM001"), ("All te\u200dsts pa\u00adss.", "CLM001"),
    ("All tes\u2060ts pa\ufeffss.", "CLM001"),
    ("All \uff54ests pass.", "CLM001"),  # fullwidth t: NFKC
    ("All \U0001d42d\U0001d41e\U0001d42c\U0001d42d\U0001d42c pass.", "CLM001"),  # bold: NFKC
    ("The suite is gr\u0435\u0435n.", "CLM002"), ("All t\u03b5sts pass.", "CLM001"),
])
def test_a_claim_written_with_look_alike_or_invisible_characters_is_found(
        text: str, rule: str) -> None:
    assert [c.rule.id for c in find_claims(text)] == [rule]


def test_the_cli_reads_a_disguised_claim_as_it_looks(repo: Repo) -> None:
    repo.commit("init", **{"suite.py": PASSING_TEST})
    result = repo.run("receipt", "claims", "-", stdin="Done.\nAll t\u0435sts\u200b p\u0430ss.\n")
    assert result.code == 1
    assert result.out.splitlines()[0] == '<stdin>:2: CLM001 says the tests pass: "All tests pass."'


def test_a_pattern_answers_without_running_only_where_no_match_could_be(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every pattern skips a text holding none of the words each of its matches contains: on
    every corpus text, a pattern finds what the plain regular expression finds."""
    import re

    from hooks.claims import rules as claim_rules

    monkeypatch.setattr(claim_rules, "WORDS_AFTER_USES", 1)  # the words from the first search

    from hooks.claims import rules
    from hooks.claims import scan
    from hooks.claims.rules import compiled_on_use

    patterns = [p for module in (rules, scan) for p in vars(module).values()
                if isinstance(p, rules._PatternOnUse)] + [r.pattern for r in RULES]
    assert len(patterns) > 90
    texts = [json.loads(line)["text"]
             for line in CORPUS.read_text(encoding="utf-8").splitlines()][::40]
    for pattern in patterns:
        plain = re.compile(pattern.pattern, pattern._flags)  # type: ignore[attr-defined]
        for text in texts:
            assert bool(pattern.search(text)) == bool(plain.search(text)), pattern.pattern[:60]
    gated = [p for p in patterns if p._words]  # type: ignore[attr-defined]
    assert len(gated) > 60  # most patterns have words to look for
    # what casefolding alone would miss: IGNORECASE matches "i" to the dotless i
    assert compiled_on_use(r"\bfixed\b", re.IGNORECASE).search("f\u0131xed") is not None
    assert compiled_on_use(r"\bfixed\b").search("FIXED") is None
    assert compiled_on_use(r"pass(?:ed)?|\d+ ok").sub("_", "3 ok, passed") == "_, _"
    assert compiled_on_use(r"pass(?:ed)?|\d+ ok").sub("_", "nothing here") == "nothing here"


@pytest.mark.parametrize(("text", "honest"), [
    ("I won't say NO RECEIPT \u2014 I ran the tests and they're fine.", False),
    ("NO RECEIPT is not applicable: pytest ran and came out fine.", False),
    ("Rather than NO RECEIPT, here is the log.", False),
    ("No need for NO RECEIPT here.", False),
    ("NO RECEIPT: pytest is not installed here.", True),
    ("I can't run the tests, so NO RECEIPT.", True),
    ("**NO RECEIPT** \u2014 the suite needs Docker, which is not available.", True),
])
def test_no_receipt_named_only_to_be_declined_is_not_the_honest_exit(
        text: str, honest: bool) -> None:
    assert says_no_receipt(text) is honest


@pytest.mark.parametrize(("text", "rule"), [
    ("Tests didn't fail.", "CLM008"), ("None of the tests fail.", "CLM008"),
    ("Fixed it; the tests don't fail anymore.", "CLM008"),
    ("```\ntest_calc.py::test_add PASSED\ntest_calc.py::test_sub PASSED\n```", "CLM012"),
])
def test_a_verdict_said_as_no_failure_or_as_verbose_output_is_a_claim(text: str,
                                                                      rule: str) -> None:
    assert [c.rule.id for c in find_claims(text)] == [rule]


@pytest.mark.parametrize("text", [
    "I am not sure the tests didn't fail.", "If none of the tests fail, merge it.",
    "The tests did not fail to compile; they failed at runtime.",
    "```\ntest_calc.py::test_add PASSED\ntest_calc.py::test_sub FAILED\n```",
])
def test_no_failure_doubted_conditional_or_beside_a_failure_is_not_a_claim(text: str) -> None:
    assert find_claims(text) == []
