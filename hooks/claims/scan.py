"""Reading text for success claims, a sentence and a clause at a time.

What a claim is not, decided before any rule looks (hard negatives an agent writes daily):

- quoted: text in quotes or backticks, code blocks, ``>`` quote lines, and reported speech
  ("the issue says all tests pass on main");
- negated: a negation before the claim in its clause ("not all tests pass", "I couldn't get
  the tests to pass");
- conditional or hedged: "if the tests pass", "once CI is green", "to make sure the suite
  passes", "it might pass now";
- a question: the sentence ends with '?'.

Text is normalised before anything reads it (NFKC, zero-width and invisible characters taken
out, common confusables such as Cyrillic U+0430 read as their Latin look-alikes), so a claim
written to slip past the rules is read as it looks.
"""

from __future__ import annotations

import re
import unicodedata

from hooks.claims.rules import RULES
from hooks.claims.rules import RUNNER
from hooks.claims.rules import TEST_CONTEXT
from hooks.claims.rules import ClaimRule

_FENCE = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.DOTALL)
_QUOTED = re.compile(r"\"[^\"\n]*\"|\u201c[^\u201d\n]*\u201d|`[^`\n]*`"
                     r"|(?<![\w'])'[^'\n]{3,}?'(?![\w'])|\u2018[^\u2019\n]{3,}?\u2019")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[^a-z\s])|\n")
_CLAUSE_BREAK = re.compile(r";|\s[-\u2013\u2014]\s|,\s*(?=(?:but|though|although|however|"
                           r"and|so|yet|except)\b)|\b(?=but\b)")
_NEGATION = re.compile(r"\b(?:not|no longer|never|nor|cannot|without|unable|yet to|"
                       r"fail(?:s|ed|ing)? to|\w+n't|nothing|none of)\b|n't\b", re.IGNORECASE)
_CONDITION = re.compile(
    r"\b(?:if|once|when|whenever|unless|until|assuming|provided|as long as|whether|in case|"
    r"so that|in order|to (?:make sure|ensure|check|confirm|verify|see|get|make)|make sure|ensure|"
    r"expect(?:s|ed|ing)?|hope(?:fully)?|might|may|could|would|maybe|perhaps|probably|"
    r"need(?:s|ed)? to|wait(?:ing)? for|goal|want|wants|wanted|hoped|intended|aim|try|trying|"
    r"tried|check (?:that|whether)|(?<!continue )(?<!continues )to pass|"
    r"next step|to-?do|plan(?:s|ned)? to|"
    r"please|let me know)\b", re.IGNORECASE)
_REPORTED = re.compile(r"\b(?:says?|said|claims?|claimed|reports? that|reported that|"
                       r"according to|"
                       r"the (?:issue|ticket|pr|description|user|reviewer) (?:says?|said|"
                       r"claims?|reports?|states?|mentions?|wrote)|"
                       r"previously(?! (?:failing|broken|red|flaky|skipped))|used to|"
                       r"last (?:week|time|run)|on main|upstream)\b", re.IGNORECASE)
# what follows a claim and moves it to another time or place: "passed before my change"
_QUALIFIED = re.compile(r"^\W*(?:before|yesterday|last|earlier|previously|only|on main|upstream|"
                        r"in the past|until|on (?:some|other)|sometimes|intermittently)\b",
                        re.IGNORECASE)
# a part, not the whole: "3 of 5 tests pass", "most tests pass"
_PARTIAL = re.compile(r"\b(?:\d+|some|most|half|a few|several|many)\s+(?:of|out of)\s+"
                      r"(?:the\s+)?$|\b(?:some|most|half|a few|several|many)\s+(?:of\s+)?"
                      r"(?:the\s+)?$|\bonly (?:the |a few |some |\d+ )?(?:[\w-]+ ){0,2}$"
                      r"|\bthe (?:old|previous|former|original) $",
                      re.IGNORECASE)
# a hedged claim beside an admission that nothing ran is no claim: "should pass now, but I
# wasn't able to run them"
_HEDGE = re.compile(r"\b(?:should|think|believe|expect|guess|suspect)\b", re.IGNORECASE)
_NOT_RUN = re.compile(r"\b(?:wasn't|was not|weren't|couldn't|could not|didn't|did not|"
                      r"haven't|have not|hasn't|unable to|not able to)\s+"
                      r"(?:(?:been\s+)?able\s+to\s+)?(?:run|execute|test|verify|check)\b",
                      re.IGNORECASE)
# "though it passes on Linux" beside "still fails on macOS": a mixed result, not a pass
_CONTRAST = re.compile(r"^\W*(?:though|although|but|while|whereas|even though)\b",
                       re.IGNORECASE)
_FAILS = re.compile(r"(?<!nothing )(?<!never )(?<!no )(?<!none )\b(?:fails|failed|fail|"
                    r"errors|errored|broke|crashes|crashed)\b", re.IGNORECASE)
_RUNNER_CODE = re.compile(RUNNER, re.IGNORECASE)
_QUOTE_LINE = re.compile(r"^\s*>.*$", re.MULTILINE)
# invisible in any rendering: zero-width spaces and joiners, marks, word joiner and the
# invisible operators, the BOM, the soft hyphen, the Mongolian vowel separator
_INVISIBLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e"
                        "\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]")
# letters that look like Latin ones, as Unicode's confusables list pairs them (Cyrillic,
# Greek, and a few Latin extensions NFKC leaves alone)
_CONFUSABLES = str.maketrans(
    "аеорсухіјѕԁһӏԛԝүɑɡɩοαεικνρτυχ"
    "АВЕКМНОРСТХУІЈЅԌԚԜΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijsdhlqwyagioaeikvptux"
    "ABEKMHOPCTXYIJSGQWABEZHIKMNOPTYX")


class Claim:
    __slots__ = ("line", "rule", "sentence")

    def __init__(self, rule: ClaimRule, line: int, sentence: str) -> None:
        self.rule = rule
        self.line = line
        self.sentence = sentence


def _blank(match: re.Match[str]) -> str:
    """Quoted text becomes spaces (newlines kept), so line numbers and positions hold."""
    return re.sub(r"[^\n]", " ", match.group(0))


def normalised(text: str) -> str:
    """TEXT as it reads: NFKC, without invisible characters, confusables as Latin letters."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", _INVISIBLE.sub("", text))
    return text.translate(_CONFUSABLES)


def _blank_unless_runner(match: re.Match[str]) -> str:
    """Inline code naming a test runner reads as its words ("`cargo test` is green"); other
    quoted text is blanked."""
    inner = match.group(0)[1:-1]
    if match.group(0).startswith("`") and _RUNNER_CODE.fullmatch(inner):
        return " " + inner + " "
    return _blank(match)


def unquoted(text: str) -> str:
    text = _FENCE.sub(_blank, text)
    text = _QUOTE_LINE.sub(_blank, text)
    return _QUOTED.sub(_blank_unless_runner, text)


def sentences(text: str) -> list[tuple[int, int, int]]:
    """(line number, start, end) of each sentence of TEXT."""
    found: list[tuple[int, int, int]] = []
    start = 0
    for cut in [*_SENTENCE_END.finditer(text), None]:
        end = cut.start() if cut else len(text)
        if text[start:end].strip():
            found.append((text.count("\n", 0, start) + 1, start, end))
        start = cut.end() if cut else end
    return found


def _clauses(sentence: str) -> list[str]:
    parts, start = [], 0
    for cut in _CLAUSE_BREAK.finditer(sentence):
        parts.append(sentence[start:cut.start()])
        start = cut.end()
    parts.append(sentence[start:])
    return [p for p in parts if p.strip()]


def _claims_in(clause: str, context: str) -> ClaimRule | None:
    for rule in RULES:
        m = rule.pattern.search(clause)
        if not m:
            continue
        before = clause[:m.start()]
        said = before if rule.negative_form else clause[:m.end()]
        if _NEGATION.search(said) or _CONDITION.search(clause[:m.end()]) \
                or any(r.start() < m.start() for r in _REPORTED.finditer(clause[:m.end()])) \
                or _PARTIAL.search(before) \
                or _QUALIFIED.search(clause[m.end():]):
            continue
        if rule.needs_context and not TEST_CONTEXT.search(context):
            continue
        if _FAILS.search(clause[m.end():]):  # "passed once and failed twice": mixed
            continue
        return rule
    return None


def find_claims(text: str) -> list[Claim]:
    """Every sentence of TEXT that claims the tests pass, with the first rule it meets."""
    text = normalised(text)
    plain = unquoted(text)
    claims: list[Claim] = []
    previous = ""
    for line, start, end in sentences(plain):
        sentence = plain[start:end].strip()
        context, previous = previous + " " + text[start:end], text[start:end]
        if sentence.endswith("?"):
            continue
        clauses = _clauses(sentence)
        for clause in clauses:
            rule = _claims_in(clause, context)
            if rule is not None and _HEDGE.search(clause) and _NOT_RUN.search(sentence):
                continue
            if rule is not None and any(
                    _FAILS.search(other) and (_CONTRAST.search(other) or _CONTRAST.search(clause))
                    for other in clauses if other is not clause):
                continue
            if rule is not None:
                original = " ".join(text[start:end].split())
                claims.append(Claim(rule, line, original[:300]))
                break
    return claims


def says_no_receipt(text: str) -> bool:
    """The contract's honest exit: 'NO RECEIPT', in capitals, outside quotes and code."""
    return re.search(r"\bNO RECEIPT\b", unquoted(normalised(text))) is not None
