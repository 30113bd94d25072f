"""Success claims about tests, as data: an id, the message, a pattern, and examples.

Each rule has a claim it must find and a near miss it must not (the tests run both through the
scanner), like the skip guard's packs. Patterns see one clause at a time, lower-cased, with
quoted text already blanked; negated, conditional and questioning clauses never reach them
(see scan.py). A rule whose claim is a pronoun ("they all pass", "it passed") counts only where
the sentence or the one before names the tests (``needs_context``); a rule whose claim is
itself worded as a negative ("nothing broke") is negated only by a word before it
(``negative_form``).
"""

from __future__ import annotations

import re

TESTS = r"(?:(?:unit|integration|e2e|end-to-end|regression|new|existing|remaining|relevant|" \
        r"affected|failing|updated|added|all the|all|the|both|my|our|these|those|your|" \
        r"\d+)\s+){0,3}(?:tests?|specs?|test cases?|checks)"
PASSED = r"(?:pass(?:es|ed)?|(?:are|is|were|was|now|all|still|\s)*passing|succeed(?:s|ed)?|" \
       r"went green|(?:are|is|come back|came back|turned|now) green|run clean|ran clean|" \
       r"are ok|are fine|work(?:s|ed)? fine)"


# "passes the config to the loader": pass as a verb with an object is not a test result
NOT_AN_OBJECT = r"(?!\s+(?:the|a|an|its|their|his|her|it|this|that|these|those|them|through|" \
                r"to|into|over|along|by|from|as|control|data|each(?! time)|every(?! time)|" \
                r"my|our|your|" \
                r"null|none|args?|arguments?|parameters?|values?|options?|flags?|kwargs|self)\b)"
# a test runner's command line, as an agent writes it (arguments only in their usual shapes,
# so "pytest -q passes" reads the verb)
RUNNER = r"(?:pytest|py\.test|jest|vitest|mocha|rspec|phpunit|tox|nox|go test|cargo test|" \
         r"cargo nextest run|(?:npm|yarn|pnpm|bun) (?:run )?test|make (?:test|check)|" \
         r"python3? -m (?:pytest|unittest)|python3? manage\.py test|dotnet test|mvn test|" \
         r"gradle test|ctest|bats)(?:\s+(?:-{1,2}[\w=.,-]*|\.{0,2}/[\w./-]*|[\w.-]+/[\w./-]*))*"
# what names the tests, for a pronoun claim to be about them
TEST_CONTEXT = re.compile(r"\b(?:tests?|specs?|suites?|test cases?|pytest|jest|vitest|mocha|"
                          r"rspec|unittest|cargo test|go test|npm test|tox|nox|ci|checks?|"
                          r"test_\w+|\w+_test|\w+\.(?:test|spec)\.\w+|(?:re-?)?ran (?:everything|"
                          r"it all))\b", re.IGNORECASE)


class ClaimRule:
    __slots__ = ("claim", "id", "message", "near_miss", "needs_context", "negative_form",
                 "pattern")

    def __init__(self, id: str, message: str, pattern: str, claim: str, near_miss: str,
                 needs_context: bool = False, negative_form: bool = False) -> None:
        self.id = id
        self.message = message
        self.pattern = re.compile(pattern, re.IGNORECASE)
        self.claim = claim
        self.near_miss = near_miss
        self.needs_context = needs_context
        self.negative_form = negative_form


RULES: tuple[ClaimRule, ...] = (
    ClaimRule("CLM001", "says the tests pass",
              rf"\b{TESTS}\s+(?:now\s+|all\s+|still\s+|should\s+(?:all\s+|now\s+)?|will\s+(?:all\s+|now\s+)?|do\s+)?{PASSED}\b"
              rf"|\bpass(?:es|ed|ing)? all (?:the |of the )?(?:\d+ )?(?:tests|checks|specs)\b"
              rf"|\b(?:every|each) (?:single )?test (?:now )?pass(?:es|ed)\b"
              rf"|\b(?:tests?|specs?|suite)\b[^.;:]{{0,40}}?\b(?:and |all |now |still |also |"
              rf"both |too )*(?:pass(?:es|ed)?|(?:are |is )?passing)\b{NOT_AN_OBJECT}"
              rf"|\beverything (?:now |still |else )?(?:pass(?:es|ed)|is passing)\b{NOT_AN_OBJECT}"
              rf"|\b(\d+)\s*/\s*\1 (?:tests? |specs? )?(?:pass(?:ed|ing)?|green|ok)\b"
              rf"|\b(?:tests?|specs?|test results?|test suite|suite)\W{{0,4}}:\W{{0,4}}(?:all\s+)?"
              rf"(?:pass(?:ed|es|ing)?|green|ok)\b"
              rf"|\b{TESTS}\s+(?:all\s+|now\s+)?(?:run|ran)\s+(?:successfully|clean(?:ly)?|"
              rf"green)\b"
              rf"|\b(?:the|that|this) (?:previously )?(?:failing|flaky|broken|red)(?: one| test| "
              rf"spec| case)?\s+(?:\w+\s+)?(?:now\s+)?(?:pass(?:es|ed)|is passing)\b",
              "Fixed the off-by-one in paginate(); all tests pass.",
              "Fixed the off-by-one in paginate(); the tests did not pass on my machine."),
    ClaimRule("CLM002", "says the suite is green",
              r"\b(?:test suite|suite|tests|build|pipeline|everything|all checks|ci|pytest|jest|"
              rf"vitest|mocha|rspec|tox|nox|cargo test|go test|npm test|the test run|{RUNNER})\s+"
              r"(?:is|are|was|were|stays?|looks?|now|still)\s+(?:all\s+|fully\s+|still\s+)?"
              r"green\b"
              r"|\bgreen across the board\b|\ball green\b"
              r"|\b(?:tests?|suite|ci|build) green\b",
              "The suite is green again after the migration fix.",
              "The suite was red before the migration fix, and I could not get it to run."),
    ClaimRule("CLM003", "says the suite passes",
              rf"\b(?:full |whole |entire |test |the )?suite\s+(?:now\s+|still\s+)?{PASSED}\b"
              r"|\b(?:full |whole |entire |test |the )?suite (?:now )?(?:runs|ran) "
              r"(?:clean(?:ly)?|successfully|green)\b"
              rf"|\b(?:{RUNNER}|the test run|test run)(?:\s+run)?\s+(?:now\s+)?"
              r"(?:passes|passed|succeeds|succeeded|is clean|was clean|exits 0|"
              r"exited 0|exits cleanly|returns 0)\b",
              "The full suite runs clean with the new retry logic.",
              "The full suite takes about four minutes, so I ran only the lint step."),
    ClaimRule("CLM004", "predicts CI will pass",
              r"\b(?:ci|the pipeline|the build|github actions|checks)\s+(?:will|should|is going "
              r"to)\s+(?:\w+\s+)?(?:pass|be green|go green|succeed)\b"
              r"|\b(?:will|should) pass (?:in )?ci\b",
              "CI will pass now that the snapshot is updated.",
              "CI runs on every push to main."),
    ClaimRule("CLM005", "marks the tests done with a check mark",
              r"(?:\u2705|\u2714\ufe0f?|\u2713|\[x\])\s*(?:all\s+)?(?:unit\s+)?(?:tests?|specs?|suite|"
              r"ci|checks)\b|\b(?:tests?|suite|ci|checks)\s*(?::\s*)?(?:\u2705|\u2714|\u2713)",
              "Summary:\n\u2705 tests\n\u2705 lint",
              "Summary:\n\u274c tests (2 failing)\n\u2705 lint"),
    ClaimRule("CLM006", "says it was verified",
              r"\b(?:verified|confirmed|validated|tested) (?:it |this |that |everything |the fix |"
              r"the change |the changes )?(?:locally|end to end|end-to-end|on my machine)\b"
              r"|\b(?:verified|confirmed|validated) (?:that )?(?:it works|it passes|everything|"
              r"the fix|the change|the changes|the behaviou?r|the tests|the suite)\b"
              r"|^\W*(?:i\s+|have\s+|i've\s+)*(?:verified|confirmed)\W*$"
              r"|^\W*(?:verified|confirmed)\s*(?:\u2705|\u2714|\u2713|:)"
              r"|\b(?:all|every) (?:\w+ )?(?:checks|test runs?) (?:pass(?:ed)?|succeeded)\b"
              r"|\b(?:with )?(?:no|zero|0) (?:test )?failures\b"
              r"|\b\d+ (?:tests? )?passed(?:,? (?:0|no) failed)?\b"
              r"(?![^.]*\b[1-9]\d* (?:failed|errors?)\b)"
              r"|\b(?:re-?ran|ran) the (?:\w+ ){0,3}(?:suite|tests|specs) and (?:everything|"
              r"it|they|all) (?:pass(?:es|ed)?|is green|was green|looks good)\b",
              "Verified locally with the staging config.",
              "Could you verify this against the staging config?"),
    ClaimRule("CLM007", "says they pass, of the tests",
              rf"\b(?:they|it|all|all of them|each of them|both|both of them|them all|each one|"
              rf"every one|the rest)(?:\s+(?:\d[\d,]*|two|three|four|five|six|seven|eight|nine|"
              rf"ten|eleven|twelve|of them|of these))?(?:'s|'re)?\s+(?:all\s+|now\s+|still\s+|"
              rf"do\s+|also\s+|both\s+)*(?:(?:run|ran)\s+and\s+)?"
              rf"(?:pass(?:es|ed)?|(?:are\s+|is\s+)?passing|(?:are\s+|is\s+)?(?:all\s+)?green|"
              rf"succeed(?:s|ed)?|went green)\b{NOT_AN_OBJECT}",
              "I fixed the two specs. Both pass now.",
              "I fixed the two specs. Both fail on CI.",
              needs_context=True),
    ClaimRule("CLM008", "says nothing broke",
              r"\bnothing (?:else )?(?:broke|is broken|was broken|regressed|failed|fails|"
              r"is failing)\b|\bno (?:new )?(?:regressions?|test failures|failing tests)\b"
              r"|\b(?:zero|0) (?:failures|failed|failing)\b",
              "Refactored the parser; nothing broke.",
              "I am not sure nothing broke: the suite did not run.",
              negative_form=True),
)

