"""Success claims about tests, as data: an id, the message, a pattern, and examples.

Each rule has a claim it must find and a near miss it must not (the tests run both through the
scanner), like the skip guard's packs. Patterns see one clause at a time, lower-cased, with
quoted text already blanked; negated, conditional and questioning clauses never reach them
(see scan.py). A rule whose claim is a pronoun ("they all pass", "it passed") counts only where
the sentence or the one before names the tests (``needs_context``); a rule whose claim is
itself worded as a negative ("nothing broke") is negated only by a word before it
(``negative_form``).

Most claims have one shape: a verification subject (``SUBJECT``: the tests, the suite, CI, the
pipeline, the build, a runner's command, "everything", two kinds of test joined, "all three
envs") and a success verdict (``VERDICT``: passed, went green, came back clean; "is happy" only
of the tests, CI or a runner). CLM009 is that shape; the rules before it are the phrasings that
do not fit it. An ``output`` rule reads a test run's own output or a list of ticked checks, line
by line and inside code blocks too, and counts only where nothing in its block (its paragraph
or code block) failed or is still open; an output rule with ``needs_context`` (a row ticked at
its end) counts only where its block names the tests, CI or a runner.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable
from collections.abc import Iterator
from typing import Any
from typing import cast


class _PatternOnUse:
    """A regular expression compiled the first time it is used: the rules and the scanner
    hold ~100 of them, ~130 ms of compiling, and a message that names no verdict needs none.

    A pattern searched many times (a long text, a corpus) also finds words every match must
    contain (``_necessary_words``, from a parse of its own): a search, match or substitution in
    a text holding none of them answers at once, without running the pattern. The longest
    patterns (CLM009's is 17 kB) cost a third of a millisecond a clause, and most clauses name
    none of their words; the parse costs more than one message's searches save, so a stop
    hook's short message never pays for it.

    The scanner asks the same pattern of the same sentence or clause several times (is it a
    failure, an admission, a withdrawal); a search keeps its last few answers."""

    __slots__ = ("_compiled", "_flags", "_recent", "_source", "_uses", "_words")

    def __init__(self, source: str, flags: int) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None
        self._words: re.Pattern[str] | None = None
        self._uses = 0  # searches before the words are looked for; -1 once they were
        self._recent: dict[str, re.Match[str] | None] = {}

    @property
    def pattern(self) -> str:
        return self._source

    def _compile(self) -> re.Pattern[str]:
        self._compiled = re.compile(self._source, self._flags)
        return self._compiled

    def _cannot_match(self, string: str) -> bool:
        if self._uses >= 0:
            self._uses += 1
            if self._uses < WORDS_AFTER_USES:
                return False
            self._uses = -1
            necessary = _necessary_words_of(self._source, self._flags)
            self._words = None if necessary is None else re.compile(
                "|".join(re.escape(w) for w in sorted(necessary, key=len, reverse=True)))
        if self._words is None:
            return False
        # one search in C for any of the words, not a Python loop over them
        return self._words.search(_folded(string)) is None

    def search(self, string: str, *span: int) -> re.Match[str] | None:
        compiled = self._compiled or self._compile()
        if span:
            return compiled.search(string, *span)
        recent = self._recent
        if string in recent:
            return recent[string]
        found = None if self._cannot_match(string) else compiled.search(string)
        if len(recent) >= RECENT_ANSWERS:
            recent.clear()
        recent[string] = found
        return found

    def match(self, string: str, *span: int) -> re.Match[str] | None:
        compiled = self._compiled or self._compile()
        if not span and self._cannot_match(string):
            return None
        return compiled.match(string, *span)

    def fullmatch(self, string: str, *span: int) -> re.Match[str] | None:
        compiled = self._compiled or self._compile()
        if not span and self._cannot_match(string):
            return None
        return compiled.fullmatch(string, *span)

    def finditer(self, string: str, *span: int) -> Iterator[re.Match[str]]:
        compiled = self._compiled or self._compile()
        if not span and self._cannot_match(string):
            return iter(())
        return compiled.finditer(string, *span)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str,
            count: int = 0) -> str:
        compiled = self._compiled or self._compile()
        if self._cannot_match(string):
            return string
        return compiled.sub(repl, string, count)

    def __getattr__(self, name: str) -> object:
        return getattr(self._compiled or self._compile(), name)


@functools.lru_cache(maxsize=64)
def _folded(text: str) -> str:
    # IGNORECASE matches "i" to the dotless i (U+0131), which casefold keeps; every other
    # ASCII letter's case-insensitive matches casefold to it (checked over all of Unicode)
    return text.casefold().replace("\u0131", "i")


WORDS_AFTER_USES = 64
RECENT_ANSWERS = 16  # a message's sentences and their clauses


def _necessary_words_of(source: str, flags: int) -> frozenset[str] | None:
    """The words one of which is in every match of SOURCE (None where no such words are
    known: a pattern that may match without a literal, or a parser this Python lacks)."""
    try:
        parser: Any = importlib.import_module("re._parser")
    except ImportError:  # Python < 3.11: the same module under its old name
        parser = importlib.import_module("sre_parse")
    try:
        # an int, as re.compile passes: a RegexFlag's & would cost an enum call a node
        return _necessary_words(parser.parse(source, int(flags)))
    except Exception:  # an internal API changed: every search runs the pattern
        return None


def _necessary_words(items: Any) -> frozenset[str] | None:
    """Words (casefolded ASCII runs of literal characters) one of which every match of the
    parsed ITEMS contains; of the candidates, the set whose shortest word is longest."""
    best: frozenset[str] | None = None

    def consider(candidate: frozenset[str] | None) -> None:
        nonlocal best
        if candidate and (best is None or _strength(candidate) > _strength(best)):
            best = candidate

    run: list[str] = []
    for op, arg in items:
        name = str(op)
        if name == "LITERAL" and arg < 128:
            run.append(chr(arg))
            continue
        if run:
            consider(frozenset({"".join(run).casefold()}))
            run = []
        if name == "SUBPATTERN":
            consider(_necessary_words(arg[-1]))
        elif name == "ATOMIC_GROUP":
            consider(_necessary_words(arg))
        elif name == "BRANCH":
            branches = [_necessary_words(branch) for branch in arg[1]]
            if all(branches):
                consider(frozenset().union(*cast("list[frozenset[str]]", branches)))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT") and arg[0] >= 1:
            consider(_necessary_words(arg[2]))
    if run:
        consider(frozenset({"".join(run).casefold()}))
    return best


def _strength(words: frozenset[str]) -> tuple[int, int]:
    return min(map(len, words)), -len(words)


def compiled_on_use(source: str, flags: int = 0) -> re.Pattern[str]:
    """SOURCE as a pattern that is compiled when first searched (typed as the pattern it is)."""
    return cast("re.Pattern[str]", _PatternOnUse(source, flags))

TESTS = r"(?:(?:unit|integration|e2e|end-to-end|regression|new|existing|remaining|relevant|" \
        r"affected|failing|updated|added|all the|all|the|both|my|our|these|those|your|" \
        r"\d+)\s+){0,3}(?:tests?|specs?|test cases?|checks)"
# (no quantified run of spaces beside another: a long one must not cost its square)
PASSED = r"(?:pass(?:es|ed)?|(?:(?:are|is|were|was|now|all|still)\s+)*passing|succeed(?:s|ed)?|" \
       r"went green|(?:are|is|come back|came back|turned|now) green|run clean|ran clean|" \
       r"are ok|are fine|work(?:s|ed)? fine)"


# "passes the config to the loader": pass as a verb with an object is not a test result
# ("passed this time" is a time, not an object)
NOT_AN_OBJECT = r"(?!\s+(?:the|a|an|its|their|his|her|it|" \
                r"(?:this|that)(?!\s+(?:time|round|run|go|morning|afternoon|evening|week)\b)|" \
                r"these|those|them|through|" \
                r"to|into|over|along(?! with)|by|from(?!\s+(?:top|start|end)\b)|as|control|data|each(?! time)|" \
                r"every(?! (?:single )?time| iteration| run)|" \
                r"my|our|your|" \
                r"null|none|args?|arguments?|parameters?|values?|options?|flags?|kwargs|self)\b" \
                r"|\s+(?:code review|review|qa|inspection|muster|audit)\b" \
                r"|\s{3,}\S)"  # or quoted text, blanked: "passes `--frozen-lockfile` to pnpm"
# a test runner's command line, as an agent writes it (arguments only in their usual shapes,
# so "pytest -q passes" reads the verb)
RUNNER = r"(?:(?:(?:poetry|uv|pipenv|hatch|pdm|rye) run |bundle exec |(?:npx|bunx|pnpm exec) )?" \
         r"(?:pytest|py\.test|jest|vitest|mocha|rspec|phpunit|playwright(?: test)?|" \
         r"cypress(?: run)?|tox(?: -e [\w,.-]+)?|nox(?: -s [\w,.-]+)?|go test|cargo test|cargo nextest run|" \
         r"(?:npm|yarn|pnpm|bun)(?: -[\w-]+)* (?:run )?test(?::[\w-]+)?|" \
         r"(?:npm|yarn|pnpm) (?:run )?vitest|make (?:test|check|verify|ci)|" \
         r"python3? -m (?:pytest|unittest)|python3? manage\.py test|dotnet test|" \
         r"(?:mvn|\.?/?mvnw) (?:test|verify|install|package)|" \
         r"(?:gradle|\.?/?gradlew)(?: :?[\w:-]*(?:test|check|build)\w*)+|" \
         r"(?:bin/)?rails test|rake (?:test|spec)|swift test|mix test|deno test|sbt \+?test|zig build test|" \
         r"turbo (?:run )?test|nx (?:run-many -t |affected -t )?test|" \
         r"flutter test|bazel test|ctest|bats|helm unittest)" \
         r"(?:\s+(?:-{1,2}[\w=.,-]*|\.{0,2}/[\w./-]*|[\w.-]+/[\w./-]*|run))*)"
# before a failure word of another language: counted as none ("0 Fehler", "ninguno falló")
_NONE_BEFORE = r"(?<!vorher )(?<!zuvor )(?<!cero )(?<!zero )(?<!nada )(?<!no )(?<!solo )(?<!único )(?<!única )(?<!ningún )(?<!ninguno )(?<!ninguna )(?<!nenhuma )(?<!nenhum )(?<!sem )(?<!sin )(?<!0 )(?<!keine )(?<!kein )(?<!aucun )(?<!aucune )(?<!sans )(?<!ohne )(?<!einzigen )(?<!nenhum pacote )(?<!nenhum teste )(?<!nenhum job )"
# kinds of tests that name a part of the suite, or, joined ("unit + e2e"), the suite
KINDS = r"(?:unit|integration|e2e|end-to-end|smoke|nightly|contract|acceptance|regression|" \
        r"snapshot|component|model|request|system|functional|api|ui|browser)"
# what a verification claim is about: the tests, the suite, CI, the build, a runner, everything
# (a bare "run" only as a full, whole, entire or complete one)
SUBJECT = r"(?:(?:the|my|our|all|both|full|whole|entire|complete|remaining|existing|new|updated|" \
          rf"affected|relevant|\d+|{KINDS})\s+){{0,4}}(?:tests?|test suites?|suites?|specs?|" \
          r"(?:test )?harness(?: runs?)?|(?:regression |test )?packs?|" \
          r"test cases?|test runs?|checks|ci|pipelines?|builds?|workflows?|jobs?|matrix|matrices|nightly|nightlies|" \
          r"github actions|jenkins|buildkite|circleci|travis(?: ci)?|gitlab ci|" \
          r"(?<=full |hole |tire |lete )runs?)" \
          r"|(?:all|both|every|each)\s+(?:\d+\s+|of the\s+)?(?:\w+\s+){0,2}" \
          r"(?:envs?|environments?|" \
          r"packages?|targets?|platforms?|jobs?|runners?|python versions|node versions|browsers?|" \
          r"checks?|runs?|sessions?|stages?|steps?|" \
          r"scenarios?|examples?|cases?|suites?|workspaces?|modules?|crates?|projects?|" \
          r"matrix (?:entries|jobs))" \
          rf"|{KINDS}(?:\s*(?:\+|&|and|,)\s*(?:the\s+)?" \
          rf"(?:(?:full|nightly|whole|new|old)\s+){{0,2}}" \
          rf"{KINDS}){{1,4}}" \
          r"(?:\s+(?:tests|suites|specs))?" \
          rf"|(?:the\s+)?(?:full\s+|whole\s+)?{RUNNER}(?:\s+runs?)?" \
          r"|everything|all of (?:it|them)|(?:the\s+)?whole thing|it all"
# what it did: passed, went green, came back clean ("is happy" only of the tests, CI or a runner)
_LINK = r"(?:'s|'re|\s+(?:is|are|r|was|were|has|have|been|now|still|all|both|also|too|again|" \
        r"fully|consistently|stays?|stayed|looks?|looked|seems?|came back|comes? back|ran|runs?|" \
        r"finishes|completes|" \
        r"went|goes|go|turned|turns|completed?|finished|should|ought to|will|be|do|does|did|each|" \
        r"came through|comes? through|went through|goes through|got through|lit up|lights up|(?:ran|runs) and (?:came|comes) back))"
# a verb may follow its subject straight away ("CI passed"), a state needs a link ("CI is
# green") unless nothing stands between them ("unit + e2e green")
VERDICT = rf"{_LINK}{{0,4}}\s+(?:all\s+|100%\s+|fully\s+)?(?:pass(?:es|ed)?|succeed(?:s|ed)?|" \
          r"(?:went|goes|got|gets) (?:all the way )?through|held(?: up)?|holds(?: up)?)\b" \
          rf"|{_LINK}{{1,4}}\s+(?:all\s+|100%\s+|fully\s+|back\s+to\s+)?" \
          r"(?:100%(?!\s*(?:of|coverage|covered|cpu|sure))|passing|green|clean(?:ly)?|spotless|pristine|" \
          r"successful(?:ly)?)\b"
STATE = r"\s+(?:all\s+|both\s+|now\s+|back\s+to\s+)?(?:passing|green|clean|successful)\b"
# what may follow a verdict: not an object ("passes artifacts between stages") or a noun it
# describes ("clean code")
VERDICT_END = r"(?=\s*(?:$|[^\w\s]|\d|(?:on|in|for|with|locally|now|again|too|also|cleanly|" \
              r"consistently|fine|after|against|under|across|both|all|every|each|and|as|" \
              r"including|without|but|though|although|except|apart|when|once|so|here|there|" \
              r"first|twice|reliably|successfully|green|ok|today|from|via|within|everywhere|" \
              r"throughout|end|this|since|then|which|yet|still|btw|anyway|too|overall|no cap|fr|ngl|tbh|imo|lol|overnight|af|" \
              r"(?:the |my |this )?(?:first|second|third|last) time|" \
              r"(?:un|ex|re)?[a-z]+ly)\b))"
# where a verdict said of the run just described ends: at the clause's end, or at an emoji
CLAUSE_END = r"(?:\W*(?=$|[,.;!)])|\s*[\U0001F300-\U0001FAFF\u2600-\u27BF])"
SOFT_VERDICT = r"(?:'s|'re|\s+(?:is|are|was|were|looks?|seems?|came back|comes? back))\s+" \
               r"(?:all\s+|now\s+)?(?:happy|ok|fine|good|gucci|peachy)\b(?!\s+to\b)"
# what names the tests, for a pronoun claim to be about them
TEST_CONTEXT = compiled_on_use(r"\b(?:tests?|specs?|suites?|test cases?|pytest|jest|vitest|mocha|"
                          r"rspec|unittest|cargo test|go test|npm test|tox|nox|ci|(?<!ruff )(?<!cargo )(?<!flake8 )(?<!biome )checks?|"
                          r"jobs?|pipelines?|workflows?|builds?|re-?ran|rerun|tested|"
                          r"phpunit|playwright|cypress|gradlew?|mvn|make (?:test|check)|"
                          rf"(?:re-?)?ran (?:the |both |all )?{KINDS}\b|"
                          r"test_\w+|\w+_test|\w+\.(?:test|spec)\.\w+|flaky|the only (?:failure|failing \w+|red \w+)|ran (?:em|'em|them|it) all|ran (?:em|'em|them)|"
                          r"ran the (?:whole )?lot|"
                          r"(?:re-?)?ran (?:everything|"
                          r"it all|the whole thing))\b", re.IGNORECASE)


class ClaimRule:
    __slots__ = ("claim", "id", "message", "near_miss", "needs_context", "negative_form",
                 "output", "pattern")

    def __init__(self, id: str, message: str, pattern: str, claim: str, near_miss: str,
                 needs_context: bool = False, negative_form: bool = False,
                 output: bool = False) -> None:
        self.id = id
        self.message = message
        self.pattern = compiled_on_use(pattern, re.IGNORECASE)
        self.claim = claim
        self.near_miss = near_miss
        self.needs_context = needs_context
        self.negative_form = negative_form
        self.output = output


RULES: tuple[ClaimRule, ...] = (
    ClaimRule("CLM001", "says the tests pass",
              rf"\b{TESTS}\s+(?:now\s+|all\s+|still\s+|(?:should|ought\s+to)\s+(?:all\s+|now\s+)?|"
              rf"will\s+(?:all\s+|now\s+)?|do\s+)?{PASSED}\b{NOT_AN_OBJECT}"
              rf"|\bpass(?:es|ed|ing)? all (?:the |of the )?(?:\d+ )?(?:tests|checks|specs)\b"
              rf"|\bpass(?:es|ed|ing)? (?:all of (?:it|them)|the lot)\b"
              rf"|\bpass(?:es|ed)? (?:the |its |our )?(?:{KINDS} )?(?:tests|specs|ci)\b"
              rf"(?=\s*(?:$|[,.;!)]|(?:and|now|too|again|locally|on|in)\b))"
              rf"|\b(?:pass(?:ed|ing)?|green|ok)\W{{0,3}}(?P<of>\d+)\s*/\s*(?P=of)\b"
              rf"|\b(?:every|each) (?:single )?test (?:now )?pass(?:es|ed)\b"
              r"|\b(?:ran|reran|re-ran) the (?:whole|full|entire) suite\b[^.;\n]{0,20}:\s*(?P<ws>[1-9][\d,]*)\s*/\s*(?P=ws)\b"
              rf"|\bgreen\W{{0,4}}\((?:full|whole|entire|complete) (?:run|suite|test run)\)"
              rf"|\ball systems (?:go|nominal|green) on (?:the )?(?:tests|ci|suite|test suite|pipeline)\b"
              rf"|\b(?:green|passed|passing|clean) every (?:single )?time\b"
              rf"|\band so (?:is|are|does|did) everything else\b"
              rf"|\ball (?:the )?[1-9][\d,]* (?:tests|specs|checks)\s*[\u2705\u2714]"
              rf"|\b(?:tests?|specs?) that (?:was|were) (?:red|failing|broken)(?:\s*\([^()\n]{{0,80}}\))?\s+"
              rf"(?:is|are)\s+(?:now\s+)?(?:green|passing)\b"
              rf"|\b(?:main|master|trunk)(?:'s| is) (?:green|passing) again\b"
              rf"|\b(?:both|all three|all four|each|every) (?:times|runs?)\W{{0,3}}(?:green|clean|passed|passing)\b"
              rf"|\bheld up (?:fine |well |ok )?(?:under|through|in) the (?:full |whole |entire )?(?:test run|suite|test suite)\b"
              rf"|\b(?:re-?ran|ran) (?:the |my |our )?(?:full |whole |entire )?(?:suite|tests|test suite)\b[^.;]{{0,40}}?"
              rf"\b(?:ran|came back|went|was) (?:all |totally |completely )?(?:clean|green)\b"
              # a list in parentheses between the subject and its verdict
              rf"|\b(?:every|each) (?:single )?test(?: in (?:the|this) (?:repo|suite|project|codebase|workspace))?"
              rf"\s*\([^()\n]{{0,100}}\)\s*(?:now |still )?pass(?:es|ed)\b"
              rf"|^\W*pass(?:,?\s+pass){{2,}}\b|^\W*green(?:[,.!]?\s+green){{2,}}\b"
              rf"|\beverything (?:that was (?:red|failing) )?(?:went|turned) green\b"
              rf"|\b100\s*% pass(?:ed)?\b"
              rf"|\b(?:the )?(?:suite|tests|test suite|pass rate) (?:is )?(?:back )?(?:to|at) 100\s*%"
              rf"(?!\s*(?:coverage|covered|of\b))"
              rf"|\bso (?:does|do|did) (?:every|each) (?:other |single )?(?:test|spec)\b"
              rf"|\b(?:tests?|specs?|suites?)\b[^.;:,]{{0,40}}?"
              rf"(?:,\s+(?:which\s+|(?:including|plus|along with|even|old and new)\b"
              rf"[^.;:,]{{0,40}},\s*)|,\s+{KINDS}(?:\s*(?:,|and|&|\+)\s*{KINDS})+,\s*)?"
              rf"\b(?:and |all |now |still |also |"
              rf"both |too )*(?:pass(?:es|ed)?|(?:are |is )?passing)\b{NOT_AN_OBJECT}"
              rf"|\beverything (?:now |still |else )?(?:pass(?:es|ed)?|is passing)\b{NOT_AN_OBJECT}"
              rf"|\ball (?:the )?[1-9][\d,]* (?:now |still )?(?:pass(?:es|ed)?|green)\b{NOT_AN_OBJECT}"
              rf"|\b[1-9][\d,]* (?:consecutive |straight )?runs? (?:in a row )?(?:passing|passed|green|clean)\b"
              rf"|\b(?P<n>\d[\d,]*)\s*/\s*(?P=n) (?:tests? |specs? |jobs? |checks? |suites? |runs? )?"
              rf"(?:fully |all )?(?:(?:pass(?:ed|ing)?|green|ok)\b|"
              rf"\u2705|\u2714|\u2713)"
              rf"|\b(?:tests?|specs?|test results?|test suite|suite|verification|testing|ci|checks|"
              rf"status|result|build|{RUNNER})(?:\s+run)?(?:\s+#\d+)?\W{{0,4}}:\W{{0,4}}"
              rf"(?:all\s+)?"
              rf"(?:(?:pass(?:ed|es|ing)?|green|ok|clean|success(?:ful)?)\b{NOT_AN_OBJECT}|"
              rf"(?P<lab>\d+)\s*/\s*(?P=lab)\b)"
              rf"|\b{TESTS}\s+(?:all\s+|now\s+)?(?:(?:have|has)\s+)?(?:been\s+)?"
              rf"(?:run|ran|executed|completed|finished)\s+"
              rf"(?:successfully|clean(?:ly)?|"
              rf"green)\b"
              rf"|\b(?:the|that|this) (?:previously )?(?:failing|flaky|broken|red)(?: one| test| "
              rf"spec| case)?\s+(?:\w+\s+)?(?:now\s+)?(?:pass(?:es|ed)|is passing)\b"
              rf"|^\W*(?:passing|passed|green|all green|all passing)(?:\s+now)?\s*:\s*(?:all\s+)?"
              rf"(?:\d+\s+|[a-z]+-?[a-z]*\s+)?(?:tests|specs|checks)\b"
              rf"|\bas (?:does|do) (?:every|all the|all|the) (?:other |rest of the )?(?:tests?|specs?)\b"
              rf"|\bthe (?:existing|other|remaining|old) (?:\d+|ones)\s+(?:still\s+|all\s+)*pass(?:es|ed)?\b"
              rf"|\b(?:the )?(?:thing|one) that was (?:failing|broken|red)\b[^.;]{{0,40}}?\b(?:passes|is passing|is green|passed)\b"
              rf"|\b(?:went through|passed|succeeded|is green|came back clean)\b[^.;]{{0,40}}?"
              rf"\bso did (?:the |all (?:the )?)?(?:\w+ )?(?:tests|specs|suite|ci|checks)\b"
              rf"|\b(?P<r>\d+) runs, (?P=r) (?:clean )?pass(?:es)?\b"
              rf"|\bgreen is what (?:the )?(?:ci|pipeline|build|tests?|checks?|suite) (?:shows?|says|reports?)\b"
              rf"|\b(?:test|spec|case)\b\s*,?\s+(?:that|which)\s+(?:was|were|had been|used to be)\s+"
              rf"(?:failing|broken|red|flaky)(?:\s+before(?:\s+(?:my|the|this) (?:change|fix))?)?,?\s+"
              rf"(?:is\s+|are\s+)?(?:now\s+)?(?:pass(?:es|ed|ing)|green)\b"
              rf"|\b(?:green|passing|passes|pass)\b[^.;]{{0,30}}?\bso (?:is|does|are|do) (?:everything(?: else)?|"
              rf"the rest|all the others)\b",
              "Fixed the off-by-one in paginate(); all tests pass.",
              "Fixed the off-by-one in paginate(); the tests did not pass on my machine."),
    ClaimRule("CLM002", "says the suite is green",
              r"\b(?:test suite|suite|tests|build|pipeline|everything|all checks|ci|pytest|jest|"
              rf"vitest|mocha|rspec|tox|nox|cargo test|go test|npm test|the test run|{RUNNER})\s+"
              r"(?:is|are|was|were|stays?|looks?|now|still|comes? (?:up|back)|came (?:up|back))\s+(?:all\s+|fully\s+|still\s+|entirely\s+|"
              r"completely\s+|totally\s+|100%\s+)?green\b"
              r"|\bgreen across the (?:board|matrix|pipeline)\b|\ball green\b"
              r"|\bgreen (?:build|run|pipeline|ci|suite|test run|board)\b"
              r"|\b(?:tests|suite|build|pipeline|ci|checks|matrix)(?:'s|\s+is|\s+are)\s+(?:now\s+)?all\s+"
              r"(?:check ?marks|ticks|green ticks|green checks)\b"
              r"|\b(?:tests?|suite|ci|build) green\b|\b(?:test suite|the suite|the tests|ci) agrees?\b|\ball (?:the )?(?:\d[\d,]* )?(?:tests|specs) (?:are |now )?green\b"
              r"|\b(?:(?:the|this) (?:ci |test |full |whole )?(?:re-?)?run|(?:the )?(?:second|2nd|third|3rd|next|new|latest) (?:ci )?run)\b(?:\s+(?:on|of|for|from) [^.;,]{1,30}?)?"
              r"\s+(?:is|was)\s+(?:all\s+|fully\s+|entirely\s+|completely\s+)?green\b"
              r"|\b(?:every|each) (?:ci )?job\s+(?:is\s+|was\s+|came back\s+|went\s+)?green\b"
              r"|\b(?:re-?run|run|build|pipeline|workflow)\s+#\d+\s+(?:is|was|went|came back)\s+(?:all\s+|fully\s+)?green\b"
              r"|\b(?:test suite|suite|tests)\s+(?:is|are|stays?|remains?)\s+(?:still\s+)?"
              r"(?:fully\s+|perfectly\s+|completely\s+)?happy\b",
              "The suite is green again after the migration fix.",
              "The suite was red before the migration fix, and I could not get it to run."),
    ClaimRule("CLM003", "says the suite passes",
              rf"\b(?:full |whole |entire |test |the )?suite\s+(?:now\s+|still\s+)?{PASSED}\b"
              r"|\b(?:full |whole |entire |test |the )?suite (?:now )?(?:runs|ran) "
              r"(?:clean(?:ly)?|successfully|green)\b"
              rf"|\b(?:{RUNNER}|the test run|test run)(?:\s+run)?\s+(?:now\s+)?"
              r"(?:passes|passed|succeeds|succeeded|is clean|was clean|exits 0|"
              rf"exited 0|exits cleanly|returns 0|is (?:fully |all )?passing)\b{NOT_AN_OBJECT}"
              rf"|\b(?:{RUNNER})\b[^.;]{{0,40}}?\b(?:finished|completed|ended) with (?:0|zero|no) (?:failed|failures?|failing tests?)\b"
              rf"|\b(?:{RUNNER})\b[^.;]{{0,80}}?\b(?:each one|every one|all of them|each|every package) exited (?:with )?(?:code )?0\b"
              rf"|\b(?:{RUNNER}|(?:the )?suite|(?:the )?tests)\s+(?:ran|runs|run)\s+(?:to completion|all the way through|"
              r"through)\s+with\s+(?:nothing|no\s+(?:test\s+)?(?:failures?|errors?)|zero failures|0 failures)"
              r"(?:\s+failing)?\b",
              "The full suite runs clean with the new retry logic.",
              "The full suite takes about four minutes, so I ran only the lint step."),
    ClaimRule("CLM004", "predicts CI will pass",
              r"\b(?:ci|the pipeline|the build|github actions|checks)\s+(?:will|should|is going "
              r"to)\s+(?:\w+\s+)?(?:pass|be green|go green|succeed)\b"
              r"|\b(?:will|should) pass (?:in )?ci\b|\b(?:this|it|that)(?:'ll| will| should) make (?:ci|the (?:build|pipeline|suite|tests?)) (?:go )?(?:green|pass)\b|\b(?:this|it|that)(?:'ll| will) (?:be green|go green|pass) (?:on|in) (?:ci|the pipeline)\b"
              r"|\b(?:will|should)\s+(?:clear|get through|make it through)\s+(?:ci|the pipeline|the checks)\b"
              r"|\b(?:will|should)\s+(?:sail|breeze|glide|go)\s+through\s+(?:ci|the pipeline|"
              r"the checks)\b",
              "CI will pass now that the snapshot is updated.",
              "CI runs on every push to main."),
    ClaimRule("CLM005", "marks the tests done with a check mark",
              rf"(?:\u2705|\u2714\ufe0f?|\u2713|\[x\])\s*(?:all\s+)?(?:unit\s+)?(?:tests?|specs?|suite|"
              rf"ci|checks|{RUNNER})\b|\b(?:tests?|suite|ci|checks|{RUNNER})`?(?:\s+run)?(?:\s+#\d+)?\s*"
              rf"(?::\s*|\u2192\s*|->\s*)?"
              r"(?:\u2705|\u2714|\u2713)",
              "Summary:\n\u2705 tests\n\u2705 lint",
              "Summary:\n\u274c tests (2 failing)\n\u2705 lint", output=True),
    ClaimRule("CLM006", "says it was verified",
              r"\b(?:verified|confirmed|validated|tested) (?:it |this |that |everything |the fix |"
              r"the change |the changes )?(?:locally|end to end|end-to-end|on my machine)\b"
              r"|(?:^\W*|\b(?:i|we)(?:'ve| have)?\s+)(?:also\s+|just\s+|now\s+)?"
              r"(?:verified|validated)\s+"
              r"(?:the|this|that|it|my|our|both|all|each)\b(?!\s+(?:\w+\s+)?(?:bug|issue|problem|"
              r"crash|failure|regression|repro|error)s?\b)"
              # what is verified is the work, not a fact about something else
              r"(?!\s+(?:[\w']+\s+)?(?:customer|user|email|address|account|dns|records?|cert\w*|"
              r"invoice|payment|identity|credentials?|signatures?|checksums?|hash(?:es)?|tickets?|"
              r"spelling|translations?|links?|urls?|licen[cs]e|numbers|figures|totals?|dates?|"
              r"timestamps?|ownership|permissions|phone|domain|headers?|names?|fields?|contrast|ratios?|"
              r"values?|config values)s?\b)"
              r"(?![^.;]{0,40}\bwith (?:the )?(?:[\w-]+ team|product|design|legal|pm|qa|support)\b)"
              r"|\b(?:verified|validated|checked) (?:it |this |the fix |the change )?against the (?:full |whole |entire )?"
              r"(?:test )?suite\b"
              r"|\b(?:verified|confirmed|validated) (?:that )?(?:it works|it passes|everything|"
              r"the fix|the change|the changes|the behaviou?r|the tests|the suite)\b"
              r"|^\W*(?:i\s+|have\s+|i've\s+)*(?:verified|confirmed)\W*$"
              r"|^\W*(?:verified|confirmed)\s*(?:\u2705|\u2714|\u2713|:)(?![^.\n]*\b(?:customer|user|client|reporter|"
              r"they|he|she) (?:confirmed|said|says|reported|verified)\b)"
              r"|\beverything (?:has been |was |is |got )?(?:verified|confirmed)\b"
              r"|\bpassed (?P<all>\d+) (?:of|out of) (?P=all)\b"
              r"|\b(?P<in_words>(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(?:one|two|three|four|five|six|seven|eight|nine))?|"
              r"eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|ten|nine|eight|seven|six|five|four|three|two)) "
              r"(?:of|out of) (?P=in_words) (?:\w+ )?(?:pass|passed|passing|green|ok)\b"
              r"|\b(?:test run|tests|suite|run|ci|pipeline)\b[^.;]{0,40}\bcame back 100\s?%"
              r"|\b(?P<whole>\d[\d,]*) (?:of|out of|/) (?P=whole) (?:\w+ ){0,2}(?:successful|succeeded|"
              r"passed|passing|green|ok)\b"
              r"|^\W*(?:also\s+|just\s+)?(?:verified|validated)\s+(?:it\s+|the fix\s+|this\s+)?"
              r"(?:on|in|against)\b"
              r"|\b(?:fix|change|patch|it|this|that)\s+(?:is|was|has been|got)\s+(?:now\s+)?"
              r"(?:verified|validated)\s+(?:on|in|against|locally|end to end|end-to-end)\b"
              r"(?!\s+(?:every|each|all)\b)"
              r"|\bsuccessfully ran (?:all )?(?:the )?(?:\d+ )?(?:tests|specs|test suite|suite)\b"
              r"|\b(?:verified|confirmed) (?:it |this |the fix |working )?by running (?:the )?(?:full |whole |"
              r"entire )?(?:test suite|suite|tests|specs)\b"
              r"|\b(?:confirmed|verified) (?:it(?:'s| is) )?green\b"
              r"|^\W*(?:(?:done|fixed|implemented|built|added|pushed|tested)\W+(?:and\s+)?)+"
              r"(?:verified|confirmed)\W*$"
              r"|^\W*(?:(?:all\s+)?(?:done|fixed|implemented|finished|changed|updated|refactored|"
              r"patched)\W+(?:and\s+)?)+(?:fully\s+)?tested(?:\s+(?:locally|end to end|end-to-end))?\W*$"
              r"|\btested (?:it|this|that|the fix|the change|locally)?\W*(?:and\s+)?"
              r"(?:it\s+|everything\s+)?(?:works|is working)(?:\s+(?:fine|as expected|correctly|now))?"
              r"\W*$"
              r"|\b(?:everything|it all) checks out\b"
              r"|\bpass(?:ed|ing|es)?:\s*[1-9]\d*,?\s+fail(?:ed|ing|ures?)?:\s*0\b"
              r"|\b(?:all|every) (?:\w+ )?(?:checks|test runs?) (?:pass(?:ed)?|succeeded)\b"
              r"|\b(?:with )?(?:no|zero|0) (?:test )?failures\b"
              # the same count, in French, Spanish, Portuguese and German: "87 tests, 0 échec"
              r"|\b[1-9]\d* (?:tests?|testes|pruebas)\b[^.;\n]{0,20}?\b(?:0|zéro|cero|zero|null|aucun|"
              r"ningún|ninguna|nenhum|nenhuma|keine?)\s+(?:échecs?|fehler|fehlschläge|fallos?|fallas|"
              r"falhas?|erreurs?|errores|erros)\b"
              r"|\b0 (?:échecs?|fallos|falhas|fehlschläge)\b"
              r"|\b0 fail(?:ed|ures?)?(?:,? |\W{1,6}\(?)[1-9]\d* pass(?:ed)?\b"
              r"|\b(?:completed|finished|ran|executed|passed)\s+(?:cleanly\s+|successfully\s+)?"
              r"without (?:any |a single )?(?:test )?failures\b"
              rf"|\bverified (?:it |this |the fix )?(?:with|via|using)\s+(?:the )?(?:full |whole )?"
              rf"(?:{RUNNER}|suite|tests|test suite)\b"
              r"|\b[1-9][\d,]* (?:tests? )?passed(?:,? (?:0|no) failed)?\b"
              r"|\b[1-9][\d,]* (?:tests? )?passing\b"
              r"(?![^.]*\b[1-9]\d* (?:failed|errors?)\b)"
              r"|\b(?:re-?ran|ran) the (?:\w+ ){0,3}(?:suite|tests|specs) and (?:everything|"
              r"it|they|all) (?:pass(?:es|ed)?|is green|was green|looks good)\b",
              "Verified locally with the staging config.",
              "Could you verify this against the staging config?"),
    ClaimRule("CLM007", "says they pass, of the tests",
              rf"\b(?:they|it|the run|the rerun|all|all of them|each of them|both|both of them|them all|each one|"
              rf"every one|the rest)(?:\s+(?:\d[\d,]*|two|three|four|five|six|seven|eight|nine|"
              rf"ten|eleven|twelve|of them|of these|sets|suites|runs|kinds|groups|halves)"
              rf"(?:\s+of (?:them|these))?)?(?:'s|'re)?\s+"
              rf"(?:all\s+|now\s+|still\s+|fully\s+|"
              rf"do\s+|also\s+|both\s+){{0,4}}(?:(?:run|ran)\s+and\s+)?"
              rf"(?:pass(?:es|ed)?|(?:are\s+|is\s+|was\s+|were\s+)?passing|"
              rf"(?:are\s+|is\s+|was\s+|were\s+)?(?:all\s+)?green|"
              rf"succeed(?:s|ed)?|went green|(?:came|come|comes) (?:back|through) clean|ran clean|"
              rf"(?:came|come|comes) back (?:fully |all )?green|"
              rf"(?:are\s+|is\s+)?(?:all\s+|fully\s+)?clean)\b{NOT_AN_OBJECT}"
              # a prediction after the fix: "That was the one thing breaking the suite, it'll be green now"
              rf"|\b(?:it|this|that)(?:'ll|\s+will|\s+should)\s+(?:go\s+|be\s+|turn\s+)?green\s+(?:now|again)\b",
              "I fixed the two specs. Both pass now.",
              "I fixed the two specs. Both fail on CI.",
              needs_context=True),
    ClaimRule("CLM008", "says nothing broke",
              r"\bnothing (?:else |(?:i|we) (?:touched|changed) |that was (?:already |previously )?(?:passing|green) )?(?:broke|is broken|was broken|regressed|failed|fails|fell over|"
              r"is failing)\b|\bno (?:new )?(?:regressions?|test failures|failing tests)\b"
              r"|\bnothing's (?:failing|broken|red)\b"
              r"|\bthere (?:isn't|is not|wasn't|was not) (?:a single|one) (?:test )?failure\b"
              r"|\b(?:couldn't|could not|can't|cannot|wasn't able to|weren't able to|unable to) (?:get|make) (?:a single|any|one) "
              r"(?:(?:red )?(?:test|spec)s? (?:to )?(?:fail|go red|break|out of (?:it|this|them))|red)\b"
              r"|\bno failures (?:in|across) (?:any|all|every)\b"
              r"|\b(?:0|zero|none) (?:of|out of) (?:the )?[\d,]+ (?:\w+ )?(?:failing|failed|fail)\b"
              r"|\b(?:couldn't|could not|can't|cannot) find (?:a single|one|any) (?:failing (?:test|spec)|"
              r"(?:test )?failure)s?\b"
              r"|\b(?:zero|0) (?:failures|failed|failing)\b"
              r"|\bnothing else (?:is |was |got |seems |appears )?(?:to be )?"
              r"(?:affected|impacted)\b"
              r"|\bnot (?:a )?single (?:test )?(?:failure|failing test|test failed)\b"
              r"|\bnot (?:a )?single (?:test|spec|case) (?:fails|failed|is failing)\b"
              r"|\bnot (?:one|a single) (?:test )?failures? (?:left|remaining)\b"
              r"|\b(?:yet to see|haven't seen|have not seen|never saw|never seen|didn't see|"
              r"did not see)\s+(?:a single|one|any)\s+(?:test\s+)?failures?\b"
              r"|\b(?:nothing|zero|no)(?: in the (?:\w+ )?(?:suite|tests?|build|ci|pipeline|matrix|run))? "
              r"(?:is |was |went |turned )?reds?\b"
              r"|\bnot (?:a )?single (?:red|failing) (?:x|cross|mark|test|job|check|spec)\b"
              rf"|\bno complaints from (?:the )?(?:{RUNNER}|ci|tests|suite|test runner|runner|any of them)\b"
              rf"|\bno surprises from (?:the )?(?:suite|tests|test suite|ci|{RUNNER})\b|\bnothing complained\b|\b(?:i|we) broke nothing\b"
              r"|\b(?:ran|re-?ran) (?:the |my )?(?:whole |full |entire )?(?:suite|tests|test suite)\b[^.;]{0,40}?"
              r"\b(?:it|they) (?:didn't|did not) complain\b"
              r"|\b(?:suite|tests|ci)\s*:\s*0 (?:red|failures|failed|failing)\b"
              r"|\b(?:didn't|did not|never) (?:see|get|spot|hit) (?:anything|a single|one|any)\s+(?:red|failing|failures?)\b"
              r"(?!,?\s+but\b)"
              r"|\b(?:wasn't|was not|weren't|were not|isn't|is not) (?:a single|one|any) (?:red|failing|failed) "
              r"(?:jobs?|checks?|tests?|specs?)\b"
              rf"|\b(?:suite|tests|ci|runner|{RUNNER}) (?:didn't|did not|doesn't|does not) complain\b"
              r"|\bnone (?:of them )?(?:failing|failed|fail)\b|\b(?:zero|0) regressions?\b"
              r"|\b(?:couldn't|could not|can't|cannot) (?:get|make) it (?:to )?fail (?:anymore|any more|again)\b"
              r"|\b(?:\d+|two|three|four|five|ten) times in a row\b[^.;\n]{0,20}\bclean\b"
              r"|\bneither (?:one |run |of them |job )?(?:reported|showed|had|gave) (?:a |any )?"
              r"(?:failures?|errors?)\b"
              r"|\bno (?:tests?|specs?) (?:failed|fail(?:ed|ures?)?|(?:is|are) failing)\b"
              r"|\bnot (?:one|a single) fail(?:ed|ing|ure)? (?:line|test|result)\b"
              r"|\bnothing (?:that was (?:green|passing) )?(?:went|turned) red\b"
              r"|\bnone of (?:the |my |our |these )?(?:\d+ )?(?:tests?|specs?|checks?) "
              r"(?:fail(?:s|ed)?|(?:is|are|was|were) failing|broke)\b"
              r"|\b(?:the |all (?:the )?|my |our )?(?:tests?|specs?|suite) (?:didn't|did not|"
              r"don't|do not|doesn't|does not|no longer|never) fail(?:s|ed)?\b(?!\s+to\b)"
              rf"|\b(?:{SUBJECT}),?\s+(?:runs?|ran|completes?|completed|finishe[sd]|pass(?:es|ed)?|"
              r"went through|goes through|got through|ate it|handled it)"
              r"\s+without (?:any |a single |a )?(?:errors?|failures?|failing tests?|issues?|"
              r"problems?|complaints?|hiccups?|hitch(?:es)?|reds?|blips?)\b",
              "Refactored the parser; nothing broke.",
              "I am not sure nothing broke: the suite did not run.",
              negative_form=True),
    ClaimRule("CLM009", "says the checks came back clean",
              rf"\b(?:{SUBJECT})(?:\s+run)?(?:\s+#\d+)?(?:\s*\([^()]{{0,60}}\))?"
              rf"(?:\s+(?:on|in|for|under|across|against)\s+[^.;:,]{{1,25}}?)?"
              rf"(?:\s+(?:afterwards|after that|then|this time|today|locally))?"
              rf"(?:{VERDICT}){NOT_AN_OBJECT}{VERDICT_END}|\b(?:{SUBJECT}){STATE}{VERDICT_END}"
              rf"|\b(?:{SUBJECT})\s+(?:was|were)\s+(?:red|failing|broken)\b[^.;]{{0,40}}?\band (?:is|are) "
              rf"(?:now )?(?:green|passing)\b"
              rf"|\b(?:every|each|all)\s+(?:\w+\s+)?(?:packages?|crates?|modules?|suites?|tests?|jobs?)\s+"
              rf"(?:reports?|reported|shows?|showed)\s+(?:ok|pass(?:ed)?|green|success)\b"
              rf"|\b(?:{SUBJECT})\s+(?:gave|gives|has given) (?:it|us|me|this|the pr|the change) "
              rf"(?:the |a |its )?(?:thumbs[- ]up|green light|all[- ]clear)"
              rf"|\b(?:{RUNNER})\s+(?:reports?|reported|shows?|showed|prints?|printed|gives?|gave)"
              rf"\s+(?:all\s+)?(?:ok|green|pass(?:ed|ing)?|success)\b(?!\s+(?:for|on)\s+(?:some|"
              rf"most|half|\d+ of)\b)"
              rf"|\b(?:(?:the\s+)?(?:{RUNNER})|tests|suite|ci|checks|build|(?:all|both|every|each)\s+"
              rf"(?:\w+\s+)?(?:packages?|envs?|jobs?|targets?))(?:{SOFT_VERDICT})"
              rf"|\b(?:{RUNNER}|tests|specs|suite|ci|checks|build|(?:all|both|every|each)\s+"
              rf"(?:\w+\s+)?(?:packages?|envs?|jobs?|targets?|workspaces?|crates?|modules?|"
              rf"suites?|specs?))\s+(?:all\s+|are\s+)?ok\b"
              rf"|\b(?:{SUBJECT})\b[^.;:]{{0,30}}:\s*(?:pass(?:ed)?|ok|green|success)\b{NOT_AN_OBJECT}"
              rf"|\b(?:{SUBJECT})\s+(?:came|comes) back (?:all )?(?:ok|okay|fine)\b"
              r"|\b(?:sailed|breezed|cruised|flew) through (?:ci|the pipeline|the checks|(?:all )?the tests|"
              r"the (?:test )?suite|the matrix)\b"
              rf"|\b(?:{RUNNER}|tests|specs|suite|output)\s+(?:is|was|are|were)\s+all dots\b|\ball dots,? no [fe]s\b"
              r"|\b(?:the\s+)?(?:pr|pull request|mr|merge request|branch)(?:\s+#?\d+)?\s+(?:is|'s|looks|went|"
              r"turned)\s+(?:all\s+)?green\b"
              rf"|\b(?:{RUNNER}|tests|ci|checks|matrix)\s*:\s*[^.;:\n]{{0,40}}?\ball (?:ok|green|"
              rf"pass(?:ed|ing)?)\b"
              rf"|\b(?:{RUNNER})\s+(?:exit(?:ed|s)?\s+(?:with\s+)?(?:code\s+|status\s+)?|"
              rf"exit code\s+|returned\s+|rc=)0\b"
              rf"|\bexit (?:code|status) (?:of )?0 (?:from|for) (?:the )?(?:{RUNNER}|tests|suite)\b",
              "Fixed. `go test ./...` comes back clean, and CI passed on all three runners.",
              "The build passes the `--release` flag through to cargo now."),
    ClaimRule("CLM010", "says green, of the run just described",
              r"(?:^|[,:()]|\s[-\u2013\u2014]|\u2192|->)\s*(?:(?:and|so|now|it's|it is|still|all|"
              r"100%|fully|should(?: now)? be|(?:this|it|that)(?:'ll| will| should)(?: now)? be)\s+)*(?:all\s+(?:[1-9][\d,]*\s+)?)?green(?:\s+(?:now|again|locally|too|"
              r"both times|every (?:single )?(?:time|run)|each time|all \d+ times|throughout|"
              r"on (?:ci|my machine|my end|the branch)|(?:and )?(?:in|on) ci))*(?:\s*\([^()\n]{0,40}\))?\W*"
              r"(?=$|[,.;!)])",
              "Reran it after the rebase, green now.",
              "Reran it after the rebase: mostly green, one flaky failure."),
    ClaimRule("CLM011", "says it came back clean, of the tests just named",
              r"(?:^[^\w\s]*|[,:(]|\s[-\u2013\u2014]|\u2192|->)\s*(?:(?:and|so|now|it|they|still|all|both|100%|"
              r"should|ought to)"
              r"\s+)*(?:came back clean|comes back clean|came through clean|ran clean|runs clean|"
              r"(?:a )?clean bill of health|"
              r"passed|passing|"
              r"succeeded|"
              r"passes|all passed|all pass|pass(?:ed)? every time|(?:(?<=should )|(?<=ought to ))pass(?![^.;?!\n]*\b(?:once|if|when|as soon as|after|until)\b))"
              r"(?:\s+(?:now|again|locally|too|"
              r"both times|every time|throughout|cleanly|clean|fine|successfully|"
              r"after (?:the |my |a )?(?:rebase|fix|change|merge|revert|update)))*"
              r"(?:\s*\([^()\n]{0,60}\))?"  # "passed (lint + 129 unit tests)"
              rf"{CLAUSE_END}",
              "Ran `go test -race ./...` \u2014 came back clean.",
              "Ran `go test -race ./...` \u2014 it hung on TestWatcher."),
    ClaimRule("CLM012", "pastes a passing test run",
              r"\b\d+ passed(?:, \d+ (?:skipped|deselected|xfailed|xpassed|warnings?))*"
              r" in [\d.]+m?s\b"
              r"|(?:^|:\s|\s/\s|\b(?:says|reports?|reported|gives|gave|came back|comes back|shows|showed|prints|printed)\s|\u2192\s|\u2014\s)\s*tests:\s+(?:\d+ (?:skipped|todo), )*\d+ passed, \d+ total"
              r"|\btest suites:\s+(?P<suites>[1-9]\d*) passed, (?P=suites) total\b"
              r"|\btest files\s+(?P<files>[1-9]\d*) passed \((?P=files)\)"
              r"|^\s*all tests passed \([1-9][\d,]* assertions? in [1-9][\d,]* test cases?\)"
              r"|\b(?P<cabal>[1-9]\d*) of (?P=cabal) test suites(?: \([^()\n]*\))? passed\b"
              r"|\btest successful in [\d.]+m?s\. [1-9]\d* tests? run\b"
              r"|^\s*\[\s+PASSED\s+\]\s+[1-9]\d* tests?\."
              r"|^\s*test (?:suites|files):?\s+\d+ passed"
              r"|^\s*tests\s+\d+ passed \(\d+\)"
              r"|\btest result: ok\. [1-9]\d* passed; 0 failed"
              r"|\b[1-9]\d* passed \([\d.]+(?:m|s|ms|h)\)|\ball specs passed!"
              r"|^\s*all [1-9]\d* tests passed\b"
              r"|\bsuccessfully ran target test for [1-9]\d* projects?\b|\blerna success run ran npm script '?test'? in [1-9]\d* packages\b"
              r"|\b(?P<ut>[1-9]\d{0,2}(?:[ \u2009,]\d{3})*) tests\s+(?P=ut)\s*\u2705"
              r"|\btests=\"[1-9]\d*\" failures=\"0\" errors=\"0\"(?: skipped=\"0\")?"
              r"|^\W*[1-9][\d,]*\s*[\u2713\u2714]\s+0\s*[\u2717\u2718]\W*$"
              r"|\b[1-9][\d,]*\s*\u2705\s*/?\s*0\s*\u274c"
              r"|^\W*(?P<nn>[1-9]\d[\d,]*)\s*/\s*(?P=nn)\W*$"
              # a table whose status column passes every row: "| core | 412 | pass |"
              r"|^\s*\|[^\n|]*\|\s*[1-9][\d,]*\s*\|\s*(?:pass(?:ed)?|ok|green|\u2705)\s*\|\s*$"
              r"|^\s*[1-9]\d* passing \(\d+(?:ms|s|m)\)\s*$"
              r"|^\s*tests:\s+[1-9][\d,]* passed \([\d,]+ assertions\)"
              r"|\bfailed:\s*(?:none|0)\b[^\n]{0,40}?\bpassed:\s*[1-9]"
              r"|\bpassed:\s*[1-9][\d,]*[^\n]{0,40}?\bfailed:\s*(?:none|0)\b"
              r"|^\s*#\s*pass\s+[1-9]\d*\s*$"
              r"|\bran [1-9]\d* tests? in [\d.]+m?s\W{1,8}ok\b"
              # pytest -v: a test ID and its verdict
              r"|^\s*[\w./-]+\.py::[\w\[\].-]+(?:::[\w\[\].-]+)*\s+passed\b"
              r"|^\s*ok\s+\S+\s+(?:[\d.]+m?s|\(cached\))"
              r"|\bok \([1-9][\d,]* tests?, [\d,]+ assertions?\)"
              r"|(?-i:\bBUILD SUCCESS(?:FUL)?\b)|(?-i:\*\* TEST SUCCEEDED \*\*)"
              r"|\b[1-9]\d* tests? 0 failures 0 ignored\b"
              r"|\btests run: [1-9]\d*, failures: 0\b(?!, errors: [1-9])"
              r"|\btests:\s+(?:\d+ (?:skipped|todo|risky|incomplete|warnings?), )*[1-9]\d* passed"
              r" \(\d+ assertions?\)"
              r"|\b\d+ (?:examples?|tests?|runs?)(?:, \d+ assertions)?, 0 failures\b"
              r"|\bpassed!\s+-\s+failed:\s+0, passed:\s+[1-9]\d*"
              r"|\bexecuted \d+ tests?, with 0 failures"
              r"|\bcongratulations :\)"
              r"|^\s*(?:py\d+|[\w.-]+-py\d+): (?:ok|commands succeeded)\b"
              r"|(?:^|:\s|\bsays\s|\u2192\s)\s*\d+ passing \(\d+m?s\)"
              r"|^\s*nox > \* [\w.-]+: success\b"
              r"|^ran \d+ tests? in [\d.]+s$"
              r"|\b100% tests passed, 0 tests failed"
              r"|\b(?:tests )?passed:\s*[1-9]\d*,\s*failed:\s*0\b"
              r"|\b(?P<nx>\d+) tests? run: (?P=nx) passed\b"
              r"|\btest summary: total: (?P<dn>[1-9]\d*), failed: 0, succeeded: (?P=dn)\b"
              r"|^\s*[1-9]\d* pass\s*$|\bok \| [1-9]\d* passed \| 0 failed\b"
              r"|^\s*\d+ passed \([\d.]+(?:ms|s|m)\)"
              r"|\b[1-9]\d* pass(?:ed)?,? 0 fail(?:ed|ures?)?\b"
              r"|\b(?P<ts>[1-9]\d*) successful, (?P=ts) total\b"
              r"|^\s*(?:#|\u2139|i) pass [1-9]\d*\s*$"
              r"|\btests (?P<nt>[1-9]\d*),? pass (?P=nt),? fail 0\b"
              r"|#\s*pass\s+[1-9]\d*\b[^\n]{0,20}#\s*fail\s+0\b"
              r"|\{ total: (?P<tt>[1-9]\d*), pass: (?P=tt) \}"
              r"|\bpassed: total (?P<sb>[1-9]\d*), failed 0, errors 0, passed (?P=sb)\b"
              r"|\bran [1-9]\d* tests?(?: in [\d.]+s)?,? ok\b"
              r"|^\s*#\s*pass:\s+[1-9]\d*\s*$"  # automake's test-suite summary
              # jest's per-file lines, a make check's [PASS] or PASS: lines
              r"|(?-i:^\s*(?:\[PASS\]|PASS:?)\s+[\w./:\[\]-]+(?:\s+\([\d.]+\s*m?s\))?\s*$)"
              r"|\+[1-9]\d*: all tests passed!"
              r"|^\s*#\s*pass:\s*[1-9]\d*\s*$"
              r"|\[ fail 0 \| warn \d+ \| skip \d+ \| pass [1-9]\d* \]"
              r"|\b[1-9]\d* tests? 0 failures(?: 0 ignored)?\b"
              r"|\bnox > session [\w.-]+ was successful\b"
              r"|\[\s*[1-9]\d* tests successful\s*\]"  # the JUnit console launcher
              r"|^\s*testing \S+ tests passed\b"  # Julia's Pkg.test
              r"|\bexecuted (?P<ka>[1-9]\d*) of (?P=ka) success\b|^\s*total: [1-9]\d* success\s*$"  # karma
              r"|\bexecuted (?P<bz>[1-9]\d*) out of (?P=bz) tests?: (?P=bz) tests? pass\b"
              r"|\bpass=(?P<dbt>[1-9]\d*) warn=\d+ error=0 skip=\d+ total=(?P=dbt)\b"
              r"|(?:^|:\s)\s*\d+ passed(?:, \d+ (?:skipped|deselected|xfailed|xpassed|warnings?))*"
              r"\s*\W?\s*$",
              "```\ntest result: ok. 23 passed; 0 failed; 0 ignored\n```",
              "```\ntest result: FAILED. 15 passed; 2 failed; 0 ignored\n```",
              output=True),
    ClaimRule("CLM013", "ticks every check",
              rf"^\W*(?:\d+[.)]\s*)?(?:\u2705|\u2714\ufe0f?|\u2713|\u2611\ufe0f?)\s*[^|\n]{{0,30}}?"
              rf"(?:\b(?:lint|types|typecheck|tsc|mypy|build|{KINDS}|tests?|specs?|ci|suite|checks|"
              rf"{RUNNER})\b"
              rf"|\(\d+\)|\b(\d+)/\1\b)"
              rf"|^\W*(?:[-*+]\s*|\d+[.)]\s*)?(?:lint|types|typecheck|build|{KINDS}|tests?|specs?|ci|"
              rf"suite|checks)(?:\s+(?:tests|specs|suite))?\s*(?::|\s[-\u2013\u2014]|\u2192|->)\s*"
              rf"(?:pass(?:ed|ing)?|ok|green|"
              rf"success(?:ful)?)\W*$"
              rf"|^\s*\|[^|\n]*\b(?:lint|types|typecheck|build|{KINDS}|tests?|specs?|ci|suite|checks)"
              rf"\b[^|\n]*\|(?:[^|\n]*\|)*?\s*(?:(?P<cellnn>[1-9][\d,]*)\s*/\s*(?P=cellnn)\s*\||\u2705|\u2714\ufe0f?|\u2713|pass(?:ed|ing)?\b|"
              rf"green\b|ok\b|success(?:ful)?\b)",
              "| Check | Result |\n|---|---|\n| lint | \u2705 |\n| unit | \u2705 128/128 |",
              "| Check | Result |\n|---|---|\n| lint | \u2705 |\n| unit | \u274c 3 failing |",
              output=True),
    ClaimRule("CLM014", "says all good, of the tests just named",
              r"(?:^[^\w\s]*|[,:(]|\s[-\u2013\u2014]|\u2192|->)\s*(?:(?:and|so|now|it's|it is|they're|"
              r"they are|still|everything(?:'s| is)?|looks?)\s+)*all (?:good|ok|fine)"
              rf"(?:\s+(?:now|again|locally|too|here))*{CLAUSE_END}",
              "Ran the tests, all good.",
              "Read through the docs, all good.",
              needs_context=True),
    ClaimRule("CLM015", "ticks every row of a list of runs",
              r"^[ \t]*(?:[-*+][ \t]*)?[\w.-][^\n|]{0,60}?[ \t](?:\u2705|\u2714\ufe0f?|\u2713)"
              r"[ \t]*$",
              "CI matrix:\n  ubuntu / py3.12  \u2705\n  macos / py3.12   \u2705",
              "CI matrix:\n  ubuntu / py3.12  \u2705\n  macos / py3.12   \u274c",
              needs_context=True, output=True),
    # German, French, Spanish and Portuguese, as people write them beside English; a clause
    # that negates or tells of a failure in its own language is no claim
    ClaimRule("CLM016", "says the tests pass, in German, French, Spanish or Portuguese",
              # ("keine Regressionen", "pas de régression", "sin errores": nothing broke)
              r"^(?!.*\b(?:nicht|kein\w*(?!\s+(?:regression|fehler|problem|ausf|fehlgeschlagen))|"
              r"fast|beinahe|presque|casi|quase|a priori|niet|non(?!\s+si\s+(?:è|e)\s+rott|-r[ée]gress)|nenhum\w*(?!\s+(?:(?:pacote|teste|job)s?\s+)?(?:falh|erro|regress|verm|quebr|testes? falh))|(?<!falló )(?<!fallo )(?<!fallaron )ningun\w*(?!\s+(?:fall|error|regres))|"
              r"pas(?!\s+d[e']\s*(?:régression|erreur|problème|échec))|jamais|"
              r"no(?!\s+(?:hay\s+)?(?:regresiones|errores|fallos)|\s+se\s+(?:rompió|rompio)\s+nada|\s+(?:ci|pipeline|github|gitlab|pr|branch|servidor|commit|job)\b|\s+falla(?:n)?\s+nada|\s+fall(?:ó|o|aron|a|an)\s+(?:ninguno|ninguna|nada|ni uno))"
              # Portuguese "no" is "in the": "corrigi o bug no agendador ... tudo passou"
              r"(?![^\n]*\b(?:tudo|testes|suíte|rodei|passou|passaram|corrigi)\b)|não(?!\s+quebrou\s+nada)|nao(?!\s+quebrou\s+nada)|nunca|ni|nem|"
              r"sauf|excepto|salvo|exceto|außer|menos)\b)"
              # a failure word, not one counted as none ("0 Fehler", "ninguno falló")
              rf"(?!.*(?:{_NONE_BEFORE}\bfehl\w*|\bscheiter\w*|\brot\b|{_NONE_BEFORE}échou(?!ait|aient)\w*|"
              rf"{_NONE_BEFORE}\bfall(?:a|an|aron|ó|am|aram|os?)\b|"
              rf"{_NONE_BEFORE}\bfalh(?!ava)\w*|\brouge\b|\bojo\b|\b[1-9]\d* (?:échecs?|fehlgeschlagen|fallid[oa]s?|falhas?)\b))"
              r".*?(?:\b(?:tests?|testes|suite|suíte|testsuite|test-suite|paquetes|pacotes|pakete)\b(?:[^.;:()]|\([^()\n]{0,100}\)){0,40}?\b(?:grün|bestanden|"
              r"laufen (?:\w+ ){0,2}durch|läuft (?:\w+ ){0,2}durch|passe|"
              r"passent|passaient|ont (?:tous )?passé|sont (?:tous |toutes )?(?:passés|verts?|ok)|"
              r"pasan?|pasaron|pasó|passou|sind (?:alle )?durch|(?:toda |inteira |completa )?verde|slagen|slaagt|geslaagd|groen|passano|sono passati|passa(?!\s+(?:por|per|pelo|pela|a|o|i|il|la)\b)|"
              r"están en verde|está en verde|esta en verde|passam|passaram|passando|pasando|au vert)\b"
              r"|\b(?:pasan|pasaron|passam|passaram|passent) (?:todos |todas |tous |toutes )?"
              r"(?:los |las |os |as |les )?(?:\d+ )?(?:tests?|pruebas|testes|checks|jobs|paquetes|pacotes)\b"
              r"|\b(?:alles|tout|todo|tudo) (?:ist |est |está |esta )?(?:grün|vert|en verde|verde|"
              r"passe|pasa|passa)\b"
              r"|\b(?:la |die |a )?(?:ci|pipeline|build) (?:ist|est|está|esta|war|läuft) (?:\w+ )?"
              r"(?:grün|verte?|en verde|verde|durch|erfolgreich)\b"
              r"|\b(?:tous|toutes) les (?:tests|jobs|checks) sont (?:passés|verts|ok)\b"
              r"|\b100\s*% (?:bestanden|réussis|aprobados|passados|superati)\b"
              r"|\b(?P<pt>[1-9]\d*)\s*/\s*(?P=pt) (?:passando|pasando|bestanden|réussis|passati|geslaagd)\b"
              r"|\b(?P<von>[1-9]\d*) (?:von|sur|de) (?P=von) (?:grün|bestanden|verts?|réussis|en verde|pasan)\b"
              r"|\b(?:todas|todos) (?:pasan|pasaron|passam|passaram)\b|\btudo (?:passando|verde|ok)\b|\bpasa (?:completa|entera)\b"
              r"|\balles (?:bestanden|grün|durch)\b|\btutto (?:ok|verde|passa)\b|\bzero fallimenti\b|\b[1-9]\d* esempi, 0 fallimenti\b|\bnessun[ao]? (?:errore|fallimento|test fallito|regressione)\b|\bpassano tutti\b"
              r"|\b(?:las|los) pruebas (?:pasan|pasaron)\b|\b(?:pasan?|pasó|passou) (?:sin|sem) (?:errores|fallos|problemas|erros|problemas)\b"
              r"|\b(?:läuft|lief|laufen|liefen)\s+(?:\w+\s+){0,2}(?:erfolgreich|fehlerfrei|sauber|grün)\b"
              r"|\b(?:läuft|lief|laufen|liefen)\s+(?:\w+\s+)?durch\b(?=[^.;]*\b(?:grün|0 fehler|keine fehler|"
              r"bestanden)\b)"
              r"|\b(?:ci|pipeline|build)(?:\s+\w+){1,3}\s+(?:ist|est|está|esta|war)\s+(?:\w+\s+)?"
              r"(?:grün|verte?|en verde|verde)\b"
              r"|\b(?:ci|pipeline|build|testes?|suíte)(?:\s+(?:inteira|inteiro|toda|todo|completa|completo))?\s+(?:passou|passaram|ficou verde|está verde)\b"
              r"|\b(?:ci|pipeline|build|suite)\s+(?:pasó|pasaron|paso(?=\s+(?:en verde|bien|sin|todo)\b))"
              r"|\b(?:passou|pasó|passaram|pasaron|pasa|passa) (?:tudo|todo|todos|todas)\b|\b(?:tudo|todo) (?:passou|pasó)\b"
              r"|\b(?:sin|sem) (?:ningún|ningun|nenhuma|nenhum|un solo|uma única) (?:fallo|falla|falha|error|erro)\b"
              r"|\b(?:la |le )?(?:ci|pipeline|build) (?:est |a )?pass[ée]e? au vert\b"
              r"|\b(?:ci|pipeline|build)\s+(?:verdinho|verdinha|tá verde|ta verde)\b"
              r"|\b(?:ci|pipeline|build|tests?|suite|testsuite)\s+(?:komplett|vollständig|ganz|durchweg)\s+grün\b"
              r"|\bsono tutti (?:verdi|passati)\b|\b(?:la )?(?:ci|pipeline) (?:è|e) (?:tutta |tutto )?verde\b|\btest (?:sono )?tutti (?:verdi|passati|ok)\b"
              r"|\bnon si (?:è|e) rotto (?:niente|nulla)\b|\b(?:niente|nulla) (?:si (?:è|e) )?rotto\b"
              r"|\b(?:ci|pipeline|build)\s+(?:is|was)\s+(?:helemaal\s+)?groen\b"
              r"|\b(?:elke|iedere) keer (?:groen|geslaagd)\b|\bjedes mal grün\b|\bverte? à chaque fois\b"
              r"|\brien (?:de cassé|n'a cassé|n'est cassé)\b|\b(?:la )?suite (?:\w+ )?(?:est|était) (?:toute )?verte?\b"
              r"|\bnada (?:quebrou|falhou|se rompió|se rompio|rompió)\b|\bno se (?:rompió|rompio) nada\b|\bn[ãa]o quebrou nada\b"
              r"|\b(?:pruebas|tests?|testes),? (?:todas|todos) (?:en verde|em verde|verdes?|pasan|passam|ok)\b"
              r"|\btodos os (?:jobs|testes|checks) (?:passaram|estão verdes)\b|\bpipeline (?:está |ficou )?verde\b"
              r"|\b(?:ci|pipeline) en verde\b|\bsin (?:tests?|pruebas) fallid[oa]s\b"
              r"|\b(?:toutes les )?vérifications (?:de la )?(?:ci )?sont (?:passées|vertes|ok)\b(?=\s*\([^)]*\btests?\b)"
              r"|\baucun (?:échec|test (?:en )?échec)\b"
              r"|\b(?:ya )?no falla(?:n)? nada\b|\bnada falla\b"
              r"|\bno fall(?:ó|o|aron|a|an) (?:ninguno|ninguna|nada|ni uno)\b"
              r"|\b(?:terminó|termino|acabó|quedó|salió|finalizó|terminou|acabou|ficou)\s+"
              r"(?:en verde|em verde|verde|bien|sin errores|sem erros|correctamente|com sucesso)\b"
              r"|\b(?:nenhum|nenhuma|ninguno|ninguna|ningún)(?: (?:teste|test|prueba)s?)? (?:falhou|falló|fallo|quebrou|rompió)\b"
              r"|\b[1-9]\d* (?:tests? |testes |pruebas |tests? sind )?(?:réussis|passés|bestanden|erfolgreich|"
              r"aprobad[oa]s|exitos[oa]s|aprovados|passaram|pasaron)\b"
              r"|\b(?:tests?|testes|pruebas)\b[^.;:]{0,40}?\b(?:réussissent|ont réussi)\b)",
              "Bug behoben, alle Tests grün.",
              "Bug behoben, aber die Tests sind noch nicht grün."),
)
