"""Reading text for success claims, a sentence and a clause at a time.

What a claim is not, decided before any rule looks (hard negatives an agent writes daily):

- quoted: text in quotes or backticks, code blocks, ``>`` quote lines, and reported speech
  ("the issue says all tests pass on main");
- negated: a negation before the claim in its clause ("not all tests pass", "I couldn't get
  the tests to pass");
- conditional or hedged: "if the tests pass", "once CI is green", "to make sure the suite
  passes", "it might pass now";
- a question: in a sentence that ends with '?', its last clause and any clause that asks
  ("Do the tests pass, and is CI green?"); a claim before the question still counts;
- mixed or unverified: a run's failure count in the sentence ("15 passed; 2 failed"), a failure
  now beside it in its sentence ("two fail on Windows; the rest pass") or its paragraph ("All
  unit tests pass. The integration suite fails."), one told as settled (fixed, before a rerun,
  "fails on main") aside; an admission in the sentence that the tests did not run ("build's
  green, but that job doesn't run the tests"); a part ("mostly", "only", "except"); "green"
  beside colour words; an item of a list or table whose list shows a failure or an open check
  ("- e2e: not run", "| unit | 3 failed |");
- instructions and requirements: "To verify: run `pytest`; all tests should pass", "Acceptance
  criteria: all tests pass";
- unticked boxes ("- [ ] Tests pass") are to-dos.

A test run's pasted output is read in code blocks too (the ``output`` rules): pytest's
"N passed in Xs", jest's "Tests: N passed, N total", cargo's "test result: ok", go's "ok  <pkg>"
lines, BUILD SUCCESSFUL, "N examples, 0 failures" and the like, each only where nothing in its
block failed; a run's summary pasted as inline code counts too, unless its line shows it as an
example. What the text labels as the state before the work (a "Before:" section followed by an
"After:" one, a table's "Before" column) is blanked before anything reads it.

Text is normalised before anything reads it (NFKC, zero-width and invisible characters taken
out, common confusables such as Cyrillic U+0430 read as their Latin look-alikes), so a claim
written to slip past the rules is read as it looks.
"""

from __future__ import annotations

import bisect
import re
import unicodedata

from hooks.claims.rules import KINDS
from hooks.claims.rules import NOT_AN_OBJECT
from hooks.claims.rules import RULES
from hooks.claims.rules import RUNNER
from hooks.claims.rules import TEST_CONTEXT
from hooks.claims.rules import ClaimRule
from hooks.claims.rules import compiled_on_use

_FENCE = compiled_on_use(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.DOTALL)
_QUOTED = compiled_on_use(r"\"[^\"\n]*\"|\u201c[^\u201d\n]*\u201d|`[^`\n]*`"
                     r"|(?<![\w'])'[^'\n]{3,}?'(?![\w'])|\u2018[^\u2019\n]{3,}?\u2019")
_SENTENCE_END = compiled_on_use(r"(?<=[.!?])\s+(?=[^a-z\s])|\n")
_CLAUSE_BREAK = compiled_on_use(r";|\s[-\u2013\u2014]\s|,\s*(?=(?:but|though|although|however|"
                           r"and|so|yet|except)\b)|\b(?=but\b)")
_NEGATION = compiled_on_use(r"\b(?:not|no longer|never|nor|cannot|without|unable|yet to|nobody|no one|"
                       r"fail(?:s|ed|ing)? to(?!\s+\d)|\w+n't|nothing|none of)\b|n't\b", re.IGNORECASE)
_CONDITION = compiled_on_use(
    r"(?<!merged )(?<!merging )(?<!landed )(?<!shipped )\bafter(?=\s+(?:a\s+)?green\b)|\b(?:if|once(?!\s+(?:more|again)\b|\s+(?:that|this|it) (?:was|were|had been|landed|went)\b|"
    r"\s+(?:i|we) (?:added|fixed|removed|changed|updated|moved|replaced|reverted|dropped|pinned|bumped)\b)|when|whenever|unless|until|assuming|provided|as long as|whether|in case|"
    r"so that|in order|as soon as|(?<!yet )(?<!asked me )(?<!asked us )"
    r"to (?:make sure|ensure|check|confirm|verify|see|get|make)|"
    r"(?<!asked me to )(?<!asked us to )(?:make sure|ensure)|"
    r"expect(?:s|ed|ing)?|hope(?:fully)?|might|may|could|would|maybe|perhaps|probably|kinda|sorta|"
    # "if" in French, Spanish, German
    r"(?<!\bnon )si(?=\s+\w)(?!\s+(?:è|e|sono|era)\s+rott)|se(?=\s+(?:i|il|la|lo|gli|le|os|as|o|a|tutto|tudo|todos|todas)\b)|wenn|falls|sofern|cuando|lorsque|wäre|wären|würde|würden|sería|serían|serait|seraient|seria|"
    r"need(?:s|ed)? to|wait(?:ing)? for|goal|want|wants|wanted|hoped|intended|aim|try|trying|"
    r"tried|hoping|supposed to|must|required(?!\s+(?:status\s+)?(?:checks?|jobs?|tests?)\b)|"
    r"requires|requirements?|criteria|precondition|prerequisite|definition of done|"
    r"my understanding|as far as i (?:know|can tell)|afaik|i assume|after (?:you|we)\b|"
    r"presumably|supposedly|apparently|reportedly|allegedly|in theory|in principle|"
    r"theoretically|on paper|ideally|fingers crossed|knock on wood|touch wood|with (?:any )?luck|"
    r"will (?:confirm|verify|check|run|test|see)|"
    r"check (?:that|whether)|(?<!continue )(?<!continues )(?<!ought )(?<!going )to pass|"
    r"next step|(?<!pasa )(?<!pasó )(?<!passa )(?:(?-i:TODO)|to-do|todo(?=\s*:))(?!\s+(?:pasa|pasó|está|esta|en verde|verde|bien)\b)|plan(?:s|ned)? to|"
    r"i'll|i will|we'll|we will|i'm going to|gonna|work(?:ing)? on (?:getting|making)|"
    r"remaining\s*:|left to do|still to do|outstanding\s*:|"
    r"(?<!should )(?<!will )(?<!'ll )(?:make|get) (?:the |all )?(?:\w+ )?(?:tests?|specs?|suites?|ci|builds?) (?:to )?"
    r"(?:pass(?:ing)?|green)|"
    r"please|let me know)\b", re.IGNORECASE)
# ("cargo-nextest says: ..." is the runner's own output, not hearsay)
_REPORTED = compiled_on_use(r"\b(?:(?:dependabot|renovate|[\w-]+bot|someone else)'s\s+(?:pr|branch|run|build)|"
                       r"(?:main|master|develop|trunk)'s\s+(?:ci|pipeline|build|run|tests?)|^\W*(?:main|master|develop|trunk)\s+(?:is|was)\s+(?:still\s+)?(?:green|passing)\b|"
                       r"^\W*(?:their|the user's|the customer's|his|her)\s+(?=(?:\w+\s+)?(?:tests?|ci|suite|build))|(?<!to )(?<!nextest )(?<!pytest )(?<!vitest )(?<!jest )(?<!phpunit )"
                       r"(?<!mocha )(?<!rspec )(?<!cargo )(?<!tox )(?<!nox )(?<!ctest )(?<!bazel )"
                       r"(?<!gradle )(?<!maven )(?<!dotnet )(?<!pest )(?<!deno )(?<!bun )(?<!mix )(?<!playwright )"
                       r"(?<!cypress )(?<!ci )(?<!pipeline )says?|"
                       r"said|claims?|claimed|reports? that|reported that|"
                       r"(?<!cases you )(?<!case you )(?<!ones you )(?<!bugs you )(?<!issues you )(?<!points you )(?<!things you )(?<!scenarios you )mentioned|quot(?:e|es|ed|ing)|"
                       r"(?:you|they|he|she) (?:wrote|think|thought|believe|saw)|"
                       r"asked (?:why|whether|if|how)|"
                       r"(?:as )?per (?:the|your|their|his|her)|^\W*per\s+@?[\w.-]+(?:'s)?\W*,|"
                       r"according to|"
                       r"the (?:issue|ticket|pr|description|user|reviewer) (?:says?|said|"
                       r"claims?|reports?|states?|mentions?|wrote)|"
                       r"previously(?! (?:failing|broken|red|flaky|skipped))|used to|"
                       r"before (?:my|the|this|that|(?:i|we)(?!\s+(?:hand|send|push|merge|ship|wrap|open|submit|pass)\w*))\b|before (?:touching|changing|editing) anything\b|for a baseline\b|baseline first\b|yesterday(?!\s*:)|earlier today|"
                       r"(?<!one )last (?:week|time|run(?!\s*:))|(?<!rebased )(?<!rebasing )(?<!rebase )(?<!landed )(?<!lands )(?<!land )on main(?!\s+(?:again|after|now|since|post-merge)\b)|"
                       r"upstream)\b", re.IGNORECASE)
# what follows a claim and moves it to another time or place: "passed before my change"
_QUALIFIED = compiled_on_use(r"^\W*(?:before|yesterday(?!\s*:)|last|earlier|previously|only|"
                        r"(?:on|in) (?:the |a )?(?:old|previous|former|clean checkout before)\b|"
                        r"(?<!\()[^,;.()]{0,40}?\bbefore (?:the|my|this|that|our) (?:refactor|change|changes|patch|fix|edits?|"
                        r"migration|rewrite|upgrade)\b|"
                        # a part named after it: "tests green for the auth module"
                        r"(?:for|in) (?:the )?(?!(?:whole|entire|full|every|each|all)\b)[\w./-]+ "
                        r"(?:module|package|crate|service|component|folder|directory|area|changes?)\b|"
                        r"in theory|in principle|on paper|theoretically|sur la branche [\w./-]+|auf dem branch [\w./-]+|en la rama [\w./-]+|"
                        r"on (?:the |last night's )?nightly\b(?![^.;]*\b(?:after|since)\b)|"
                        r"on main(?!\s+(?:again|after|now|since|post-merge)\b)|upstream|"
                        r"on (?:mon|tues|wednes|thurs|fri|satur|sun)day|"
                        r"on (?:the )?(?:his|her|their|your|someone's|[\w-]+'s|[\w-]+s') (?:[\w-]+ )?"
                        r"(?:branch|machine|fork|laptop|box)|"
                        r"in the past|until|on (?:some|other)|sometimes|intermittently|except|"
                        r"apart from|other than|save for|if|unless|"
                        r"when(?!\s+(?:i|we)\s+(?:ran|re-?ran|tried|tested|executed|checked)\b)|"
                        r"whenever|"
                        r"as soon as|on (?:the )?(?:previous|old|earlier|prior)|"
                        r"(?:on|in|against|for|with) (?:the |a )?(?:wrong|different)|"
                        r"faster|slower|quicker|more (?:often|reliably|quickly)|"
                        r"(?:that's|that is|which is|and that's) (?:all|it)\b(?! good)|"
                        r"nothing else (?:ran|runs|was run))\b",
                        re.IGNORECASE)
# a part, not the whole: "3 of 5 tests pass", "most tests pass"
_PARTIAL = compiled_on_use(r"\b\d{1,2}(?:\.\d+)?\s*%\s+of\s+(?:the\s+)?$"
                      r"|\b(?:\d+|some|most|half|a few|several|many)\s+(?:of|out of)\s+"
                      r"(?:the\s+)?$|\b(?P<part>\d+)\s+(?:of|out of)\s+(?!(?P=part)\s)\d+\s+$"
                      r"|\bonly\s+(?:ran|run|tested|executed|checked)\b.*$|\b\d+\s*/\s*$"
                      r"|\b(?:mostly|nearly|almost|largely|partly)\s+$"
                      r"|\b(?:some|most|half|a few|several|many)\s+(?:of\s+)?"
                      r"(?:the\s+)?(?:[\w-]+\s+){0,2}$"
                      r"|\bonly (?:the |a few |some |\d+ )?(?:[\w-]+ ){0,2}$"
                      r"|\bthe (?:old|previous|former|original) $"
                      r"|\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:of|out of)\s+"
                      r"(?:the\s+)?(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+"
                      r"(?:[\w-]+\s+)?$",
                      re.IGNORECASE)
# ... or a part inside the claim: "the tests mostly pass"
_HALF = compiled_on_use(r"\b(?:mostly|partly|partially|largely|nearly|almost|somewhat)\b", re.IGNORECASE)
# a hedged claim beside an admission that nothing ran is no claim: "should pass now, but I
# wasn't able to run them"
_HEDGE = compiled_on_use(r"\b(?:should|think|believe|expect|guess|suspect)\b", re.IGNORECASE)
_UNSURE = compiled_on_use(r"\b(?:not sure|unsure|no idea|can't tell|couldn't tell|not certain|not confident|"
                          r"(?:can't|cannot|couldn't) (?:say|be) (?:for )?sure)\b",
                          re.IGNORECASE)
_NOT_RUN = compiled_on_use(r"\b(?:wasn't|was not|weren't|couldn't|could not|didn't|did not|can't|cannot|"
                      r"haven't|have not|hasn't|unable to|not able to)\s+"
                      r"(?:(?:been\s+)?able\s+to\s+)?(?:run|execute|test|verify|check|push(?:ed)?)\b",
                      re.IGNORECASE)
# what not running leaves the tests' verdict standing: "I haven't run the benchmarks"
_NOT_THE_TESTS = r"(?!(?:\s+(?:the|any|it|them|this|that))?\s+(?:lint|linter|formatter|" \
                 r"formatting|style|types?|typecheck|benchmarks?|perf|performance|docs|" \
                 r"documentation|changelog|coverage|against prod\w*|in prod\w*|on prod\w*)\b)"
# beside a claim, an admission that what passed is not the tests: "build's green, but that
# job doesn't run the tests, so treat this as unverified"
_UNVERIFIED = compiled_on_use(
    r"\b(?:unverified|untested|(?:doesn't|does not|don't|do not|didn't|did not|haven't|have not|"
    r"hasn't|never|couldn't|could not|can't|cannot|wasn't able to|weren't able to|unable to|"
    r"not able to|wasn't|was not|weren't|were not|(?:haven't|have not|hasn't|has not) been able to)"
    r"\s+(?:actually\s+|yet\s+|really\s+)?(?:been\s+)?"
    r"(?:(?:get|gotten|got) (?:it |them |that |those |the tests |the suite )?to\s+)?"
    rf"(?:run|ran|re-?run|re-?ran|execute|executed|test|tested|re-?tested|verify|verified|confirm|confirmed|check|"
    rf"checked|try|tried|launch|launched|kick off|kicked off|trigger|triggered|start|started)\b"
    rf"{_NOT_THE_TESTS}"
    rf"|(?<!\bno )(?<!\bor )(?<!\bnor )(?<!\bwithout )(?<!\bzero )(?<!\b0 )"
    rf"\bskip(?:ped)?\s+(?:running\s+)?(?:the\s+)?(?:{RUNNER}|tests|test suite|suite)\b"
    r"|-DskipTests\b|--skip-tests\b"
    r"|(?:tests?|specs?|suite)(?:\s*\([^)\n]{0,60}\))?\s+(?:were|was|are|is|have|has)(?:\s+not|n't)"
    r"\s+(?:yet\s+)?"
    r"(?:been\s+)?(?:run|executed)"
    r"|(?:hasn't|has not|haven't|have not|isn't|is not|not yet)\s+(?:started|finished|completed|"
    rf"run\b{_NOT_THE_TESTS}|done)|still (?:running|queued|pending|in progress|going)|(?:sitting|waiting|stuck) in (?:the )?queue"
    r"|\bran nothing\b|\bnothing (?:actually |really )?(?:ran|was run)\b"
    r"|\b(?:(?:ran|run|tested|executed) only|only (?:ran|tested|executed))\b(?![^.]*\bbut\b)"
    r"|\bran (?:only )?the tests (?:i|we) (?:touched|changed|wrote|added)\b"
    r"|\blet (?:ci|the pipeline|github actions|the ci) (?:do|run|handle|take care of)\b"
    r"|\b(?:hasn't|has not|haven't|have not|didn't|did not) (?:yet )?(?:picked up|started on)\b"
    # Portuguese: "rodei só os testes do módulo", "ficaram de fora"
    r"|\b(?:rodei|executei|testei) (?:só|apenas|somente)\b|\bficaram de fora\b"
    r"|\bno (?:\w+ )?tests (?:actually )?(?:ran|were run)\b"
    r"|\b(?:need|needs|require|requires)\b[^.;]{0,60}?\b(?:i|we)\s+(?:don't|do not)\s+have\b"
    r"|(?:don't|do not|didn't|did not)\s+have\s+(?:a |any )?results?\b|(?:can't|cannot) vouch\b"
    r"|\bpartial (?:local )?run\b|\binterrupted\b|\bstopped (?:them|it) after\b"
    r"|(?:(?<!\bwill )|(?<=\bi will )|(?<=\bwe will ))\b(?:still )?need to (?:run|re-?run)\b"
    r"(?!\s+(?:the )?(?:migrations?|migrate|make migrate|install|setup|bootstrap)\b)|\b(?:haven't|have not|didn't|did not) \w+ or (?:run|ran)\b"
    r"|\b(?:which|that) (?:was|were) (?:just|only)\b(?!\s+(?:because|due to|since|from|a matter of)\b)|\b(?:i|we|i've|we've) only (?:ran|run|re-?run|re-?ran|tested|executed)\b"
    r"|\b(?:i|we) (?:ran|run|tested|executed) only\b"
    r"|\b(?:i|we) (?:skipped|excluded|disabled|deselected|left out) (?:(?:the )?(?:\w+ ){0,3}(?:tests|specs|suite)|"
    r"them|those|these|it|that)\b"
    r"|\b(?:the )?only (?:test|spec|one|package|crate|module|file|suite|workspace) (?:i|we) "
    r"(?:ran|run|tried)\b|\bnever picked (?:the job|it) up\b"
    r"|(?:don't|do not|didn't|did not) have (?:a |an |the )?[\w -]{0,30}(?:machine|box|runner|environment|access)\b"
    r"|\bonly compiles\b|\bno test (?:step|stage|job)\b"
    r"|\b(?:have|has|did)\W+not\W+(?:run|ran|tested|executed)\b|\bunconfirmed\b"
    r"|(?:haven't|have not|don't|do not) (?:got|have) (?:a|any) (?:\w+ )?runs?\b"
    r"|\bthe (?:\d+|two|three|four|five|six|seven|eight|nine|ten) (?:skipped|pending|ignored) (?:ones )?(?:are|were) "
    r"(?:exactly |precisely |all )?(?:the )?(?:new|entire|whole|ones? (?:covering|for|that cover))\b"
    r"|\bwithout running (?:a single|any|the) (?:\w+ )?tests?\b"
    r"|\b(?:someone|somebody|you) (?:with [\w ]{1,20} )?(?:should|will need to|needs to|has to|"
    r"must) (?:run|re-?run)\b"
    r"|\bnone of (?:the|their|its|these|those|our) (?:\w+ )?tests (?:ran|were run|run)\b"
    r"|(?:don't|do not) have a (?:clean|green|passing|full) run\b"
    r"|(?:didn't|did not|haven't|have not|never) (?:kick(?:ed)?|start(?:ed)?) (?:that |it |them |"
    r"the \w+ )?off\b"
    r"|\b(?:not|nothing|isn't|aren't)\s+(?:\w+\s+){0,4}covered by (?:any )?(?:automated )?tests\b"
    r"|\bno (?:\w+ )?(?:automated )?(?:test suite|tests) (?:for|in|here|at all|cover(?:s|ing)?|that cover)\b"
    # a selection, a part run alone, or the rest left for later: "18 passed, 302 deselected",
    # "only ran the accounts file", "the full regression pack is scheduled for tonight"
    r"|\b(?:just|only) (?:the |a )?[\w-]+ subset\b"
    r"|(?:^|[.;!]\s)\W*only (?:ran|tested|executed)\b(?![^.;]*\bbut\b)"
    r"|\bonly (?:the )?(?:[\w-]+ ){0,2}(?:tests?|specs?) (?:ran|were run|got run)\b"
    r"|\bonly (?:covered|covers|exercised|hit)\b"
    r"|\b(?:is|are) scheduled\b|\bscheduled (?:for|to run)\b"
    r"|\bwill run (?:tonight|overnight|tomorrow|later|after)\b"
    r"|\b(?:the )?rest of the (?:suite|tests|specs) (?:needs|requires|wasn't|was not|isn't|is not)\b"
    r"|(?:didn't|did not|no) (?:have )?time (?:for|to run|to test)\b"
    r"|\bthe (?:parts?|bits?|areas?|modules?|ones?) (?:i|we) (?:ran|tested|covered)\b"
    # the same, in Portuguese, Spanish, French and German: "o resto não rodei", "solo corrí"
    r"|\b(?:não|nao) (?:rodei|rodamos|executei|executamos|testei|rodou|foi rodad[oa])\b"
    r"|\b(?:só|apenas|somente) (?:rodei|executei|testei)\b"
    r"|\bno (?:corrí|ejecuté|he corrido|he ejecutado|probé|se corrió|se ejecutó)\b"
    r"|\b(?:solo|sólo|solamente) (?:corrí|ejecuté|probé)\b"
    r"|\bn'ai (?:pas|rien) (?:lancé|exécuté|testé|fait tourner)\b|\bn'ai lancé que\b"
    r"|\bnicht (?:ausgeführt|laufen lassen|gestartet|getestet)\b|\bnur (?:die |den )?\w+ (?:laufen lassen|ausgeführt)\b"
    r"|\b(?:\d+|two|three|four|some|several|a few|half) (?:of (?:the|them|these)\s*(?:\w+\s+)?)?"
    r"(?:\w+\s+)?(?:were|was|got) skipped\b"
    r"|(?:didn't|did not|haven't|have not|never)\s+(?:got|get|gotten)\s+(?:a?round\s+)?to\b"
    rf"|(?:tests?|specs?|suite|{KINDS})(?:\s+(?:tests?|step|stage|job|run|phase|suite))?"
    r"\s+(?:are|were|is|was|got)\s+"
    r"(?:all\s+)?(?:skipped|disabled|turned off|commented out|excluded|not wired)"
    r"|\bno (?:ci )?runs? (?:exists?|yet)\b"
    r"|\b(?:the rest|everything else|the others)\b[^.;]{0,40}?(?:\bnot\b|n't)\s+"
    r"(?:\w+\s+)?(?:run|ran|touch|touched|test|tested|tried|check|checked|look|looked))",
    re.IGNORECASE)
# the tests, or a run of them, not done yet: "Tests pending.", "the e2e job is still queued"
_TEST_PENDING = compiled_on_use(r"(?:^|\n)[ \t]*[-*+][ \t]+[\w./:-]+[ \t]+(?:[^\w\s]+[ \t]*)?(?:cancell?ed|aborted|not started|not run|pending|queued|waiting)\b|"
                           r"\b(?:tests?|specs?|suites?|e2e|integration|ci|jobs?)\b[^.;:]{0,30}?"
                           r"\b(?:pending(?![ \t]{2,}skipped\b)|queued|still running|not (?:yet )?run|in progress|tourne encore|läuft noch|sigue corriendo|ainda (?:está )?rodando|"
                           r"(?:is|are) running(?!\s+(?:in|faster|slower|under|with|against|on|"
                           r"as|through|clean|green|fine|again)\b))\b",
                           re.IGNORECASE)
# a clause beside a claim that takes part of it back: "except the 3 in test_legacy.py", "but
# one", "but only the lint stage ran", "but not in CI"
_TAKEN_BACK = compiled_on_use(r"^\W*(?:except|apart from|other than|save for|bar)\b"
                         r"|^\W*(?:just|only) (?:one|two|three|a couple of|a few|\d+) (?:errors?|failures?|"
                         r"failing)\b"
                         r"|\bonly\s+(?:ran|run|tested|executed|checked)\b"
                         r"|^\W*but (?:one|two|three|\d+|a few|some|a couple)\b"
                         r"|^\W*(?:but|though|although|while|whereas)\b.*(?:\bonly\b|"
                         r"\bnot (?:in|on|with|under|for|when)\b|\bexclud\w*|\bskipp(?:ed|ing)\b|"
                         r"\bminus\b)", re.IGNORECASE)
# an instruction or a plan at the start of a clause: "Next: confirm CI is green"
_IMPERATIVE = compiled_on_use(r"^\W*(?:\d+[.)]\s*)?(?:next(?:\s+up)?\s*:\s*|then\s+)?"
                         r"(?:confirm|verify|check|ensure|get(?:ting)?|making|"
                         r"make(?!\s+(?:test|check|verify|ci)\b)|keep)\b", re.IGNORECASE)
# a failure that is not the present state: "fails without the fix", "fails on main"
_BEFORE_FIX = compiled_on_use(r"^\s*(?:on main|before|without (?:the|my|this) (?:fix|change|patch)|"
                         r"previously|originally|earlier|in the old|on the old|until)\b",
                         re.IGNORECASE)
# reported after the claim: "passes in CI per the badge"
_HEARSAY_AFTER = compiled_on_use(r"\b(?:volgens|laut|selon|según|segundo|per(?=\s)(?!\s+(?:setting|run|config\w*|platform|os|browser|shard|package|module|file|"
                            r"commit|flag|target|version|node|python|job|worker|env\w*|cent|se)\b)|according to|going by|judging by|apparently|"
                            r"reportedly|"
                            r"supposedly|allegedly|(?:the|a) (?:reviewer|user|issue|ticket|author|"
                            r"description|readme|badge|docs?) (?:says?|said|claims?|reports?|wrote)"
                            r"|(?:he|she|they|you) (?:says?|said|claims?|wrote))\b", re.IGNORECASE)
# a sentence that tells the reader what to do or what to expect: "To verify: run `pytest`;
# all tests should pass", "Run the suite; the tests pass on 3.11"
_INSTRUCTION = compiled_on_use(r"\W*(?:(?:to|how to) (?:verify|test|check|confirm|reproduce)|"
                          r"steps to (?:reproduce|test|verify)|(?:reviewer )?checklist|"
                          r"testing instructions|expected(?: output| result)?|acceptance criteria|"
                          r"(?:acceptance|merge|review) checklist|task|goal|objective|"
                          r"requirements?|definition of done|acceptance|plan|next steps?|to-?do|"
                          # a standup's plan: "Today: run the full suite", "Hoy: correr la suite"
                          r"today|tomorrow|hoy|mañana|hoje|amanhã|heute|morgen|aujourd'hui|demain|oggi|domani|baseline)"
                          r"(?:\s+for [^:\n]{0,40})?\s*:"
                          # "Bitte vor dem Merge die Testsuite laufen lassen", "Por favor, corran ..."
                          r"|\W*(?:bitte|por favor|merci de|favor)\b(?=[^.\n]*\b(?:laufen|run|corr|rod|lanc|execut|prüf))"
                          # "To verify locally, run `pytest`; all tests should pass"
                          # "Before merging, run `npm test`", "Make sure to run `rspec` after the migration"
                          r"|\W*(?:(?:before|after|when|once)\s+[^,;:\n]{0,30},\s*|make sure (?:to|you)\s+|"
                          r"be sure to\s+|remember to\s+|don't forget to\s+)(?:please\s+)?(?:run|re-?run|execute|try)\b"
                          r"|\W*to (?:verify|test|check|confirm|reproduce)\b[^.;:\n]{0,40}?,\s*"
                          r"(?:please\s+|just\s+|simply\s+)?(?:run|try|execute|re-?run|use|open)\b"
                          r"|\W*(?:please\s+)?(?:run|try|execute|re-?run)\b(?!\s*[:#]|\s+by\b)"
                          r"|\W*(?:you|reviewers?|the reviewer) (?:can|could|may|might want to) "
                          r"(?:verify|test|check|confirm|reproduce|run|try)\b",
                          re.IGNORECASE)
# a clause that ends by moving the claim back in time: "passed in the wrong order before"
_ENDS_EARLIER = compiled_on_use(r"[^,;]*\b(?:before|previously|earlier|yesterday)\W*$", re.IGNORECASE)
# what introduces a code block that is not this work's run: "Before my change:", "Expected
# output:", "The issue's log:", "e.g." (a time or an expectation only in the line that leads
# into the block; whose run it is, in the paragraph before it too)
_LEAD_IN_WHEN = compiled_on_use(r"\b(?:before(?!\s+(?:(?:i|we)\s+)?(?:push|commit|merg|open|submit|sen[dt]|hand|ship|wrap)\w*)|previously|earlier|baseline|on main|upstream|example|starting commit|"
                           r"e\.g\.|(?<!as )expected|should|would|yesterday|"
                           r"(?<!one )last (?:week|time)|(?<!the )(?<!my )(?<!our )last run|issue|ticket|their|bug reports?|"
                           r"link(?:s|ed|ing)?)\b", re.IGNORECASE)
# someone else's run, not other code: "not mine, didn't touch it" is of code
_NOT_MINE = r"not mine(?![,;\s\u2014-]+(?:i\s+)?(?:didn't|did not|haven't|have not) touch)"
_LEAD_IN_COLON = compiled_on_use(r"\b(?:client|cliente|kunde)\b", re.IGNORECASE)
_LEAD_IN = compiled_on_use(r"\b(?:(?:issue|ticket)(?:'s|\s+#?\d+(?:'s)?|\s+(?:log|output|report)s?)|"
                      r"reporter|(?<!\benv )(?<!\benvs )(?<!\bjob )(?<!\bjobs )(?<!\bsuite )(?<!\bci )"
                      r"(?<!\btox )(?<!\bnox )(?<!\bit )(?<!\bthey )reported|user's (?:log|output|run|ci|build|report|paste|trace)s?|their (?:log|output|run|ci|build)s?|"
                      r"attached|customer'?s?(?!\s+(?:in|with|on|who|that|whose|from|were|was|are|is|could|can|would)\b)|someone(?:'s| else's)?|linked|" + _NOT_MINE + r"|"
                      r"contractor'?s?|colleague'?s?|teammate'?s?|co-?worker'?s?|"
                      r"another (?:team|machine|dev)|(?:sent|gave|pasted|posted) (?:me|us)|(?:log|output|run|trace) you (?:pasted|posted|sent|shared|attached)|from (?:his|her|their) run|"
                      r"(?<!\bi )(?<!\bwe )(?<!\bi've )(?<!\bwe've )(?:shared|forwarded)(?!\s+(?:base|class|module|lib\w*|helpers?|config\w*|fixtures?|"
                      r"components?|code|folder|runners?|cache|state|memory|types|utils?|dir\w*|volumes?|db|database|pool|infra\w*|package)\b))\b", re.IGNORECASE)
# ... or a log being discussed, which is not this work's run where the message tells of a
# failure or something not fixed: "The failing CI log has this line:", "The job log shows:"
_DISCUSSED = compiled_on_use(r"\b(?:logs?|this line|these lines|snippet|excerpt|shows?|"
                        r"has this|contains|failing|failed|broken|red)\b", re.IGNORECASE)
_ASKS = compiled_on_use(r"\W*(?:do|does|did|is|are|was|were|can|could|should|will|would|has|have|"
                   r"why|how|what|whether|any idea)\b", re.IGNORECASE)
# a requirement, not a result: "tests passing on CI is required"
_REQUIRED_AFTER = compiled_on_use(r"[^,;]*?\b(?:is|are)\s+(?:required|needed|mandatory|a must|"
                             r"an? (?:[\w-]+ )?(?:precondition|prerequisite|requirement|"
                             r"blocker|gate))\b",
                             re.IGNORECASE)
# "green" as a colour, not a verdict
_COLOUR = compiled_on_use(r"\b(?:colou?rs?|amber|yellow|blue|orange|purple|pink|background|"
                     r"foreground|css|theme|palette|led|traffic light|hex)\b"
                     r"|#(?=[0-9a-f]*[a-f])[0-9a-f]{3,6}\b|#\d{6}\b",  # not a PR's "#412"
                     re.IGNORECASE)
# a green said of the tests or CI is a verdict even beside colour words
_GREEN_OF = compiled_on_use(r"\b(?:ci|tests?|suites?|builds?|pipelines?|checks|jobs?)\b", re.IGNORECASE)
# "though it passes on Linux" beside "still fails on macOS": a mixed result, not a pass
_CONTRAST = compiled_on_use(r"^\W*(?:though|although|but|while|whereas|even though)\b",
                       re.IGNORECASE)
_FAILS = compiled_on_use(r"\b(?:fails|failed|fail|failing|failures|errors|errored|fallimenti|falliscono|fallisce|falliti|(?<=\b1 )error|segfault(?:s|ed)?|broke|crashes|crashed|dies|died|red|hangs|hung|"
                    r"deadlocks|deadlocked|times out|timed out|cancell?ed|aborted|cancelad[oa]s?)\b"
                    r"(?!:?\s*0\b)", re.IGNORECASE)
# "no new type errors", "nothing failed", "0 errors": a failure word its own words deny
_DENIED = compiled_on_use(r"(?:\b(?:no|not|nothing|never|none|without|zero|0)|n't)\s+(?:\S+\s+){0,3}$"
                          # "I wasn't able to make a single test fail"
                          r"|(?:\b(?:unable|not able)|n't(?: been)? able|\bcould(?:n't| not)|\bcan(?:'t|not))\s+(?:to\s+)?(?:make|get)\s+"
                          r"(?:a single|any|one|a|the)\s+(?:\S+\s+){0,2}$",
                     re.IGNORECASE)
# what a test run's own output says when something failed, anywhere in the block it is in
_RUN_FAILED = compiled_on_use(r"\b(?:two|three|four|five|six|seven|eight|nine|ten|a few|several|"
                         r"a couple of)\s+(?:new\s+|more\s+)?failures\b"
                         r"|\b[1-9]\d*-odd (?:failures|failing|failed)\b"
                         r"|(?<!#)\b[1-9]\d{0,2}(?:,\d{3})*\d*\s+(?:failed|failures?|failing|fails?|"
                         r"errors?|flaky|flakes?|flaked|timed out|timeouts?)\b"
                         r"(?!\s+(?:tests?|specs?|cases?|ones?)\b)"
                         r"|(?<!no )\b(?:failures|errors|failed)\s*[:=]\s*[1-9]"
                         r"|(?-i:\bFAIL(?:ED|URE|S)?\b)(?!:?\s*0\b)"
                         r"|[\u274c\u2717\u2718\U0001f534](?!\ufe0e?\ufe0f?\s*0\b)|\bnot ok \d"
                         # the same, in French, Spanish, Portuguese and German: "mais 2 échouent encore"
                         r"|\b[1-9]\d* (?:(?:tests?|testes|pruebas) )?(?:échouent|échoués?|échecs|fallan|fallaron|"
                         r"fallidos?|fallidas?|falham|falharam|falhas|falharam|schlagen fehl|fehlgeschlagen)\b",
                         re.IGNORECASE)
# a list or table of checks with one still open is not a list of passes
_PENDING = compiled_on_use(r"[\u23f3\u23ed\u2753\u2754]|\u26a0(?!\ufe0f?\s*\d+ warnings?)|\bnot run\b|\b(?:tests?|specs?|e2e) next\b|(?<!nothing )(?<!nothing else )(?<!no )(?<!\b0 )(?<!zero )\bpending\b(?![ \t]{2,}skipped\b)"
                      # (not pending ones told as the long-standing ones: "12 pending (the same ones as on main)")
                      r"(?![^.\n]{0,80}\b(?:long-standing|pre-existing|unrelated|same (?:\w+ )?(?:ones? )?(?:as|on) main)\b)"
                      # (a task in progress on a standup's list is no check: "- PAY-230 in progress")
                      r"|^(?![ \t]*[-*+][ \t]+[A-Z][A-Z0-9]*-\d+\b)[^\n]*\bin progress\b"
                      r"|(?<!\ba )(?<!\bthe )\bqueued\b(?!\s+(?:[\w-]+\s+)?(?:jobs?|tasks?|"
                      r"workers?|messages?|emails?|events?|items?|requests?|retries|webhooks?|notifications?|mails?|"
                      r"deliveries|uploads?|downloads?|exports?|imports?|writes?|updates?|payments?|orders?)\b)"
                      rf"|^[ \t]*(?:[-*+][ \t]*)?\[ \][^\n]*\b(?:tests?|specs?|suites?|ci|checks?|lint|"
                      rf"types?|typecheck|builds?|{KINDS}|{RUNNER})\b"
                      r"|\|\s*(?:[^\w\s]\s*)?(?:fail(?:ed|ing|s)?|red|errors?|errored|broken|skipped|todo)\b"
                      r"|^[^\w\n]*(?:fail(?:ed|ing|s)?|red|broken)\b(?!\s*:?\s*(?:0|none)\b)"
                      r"|:[ \t]*(?:[^\w\s][ \t]*)?(?:(?!no\b|none\b|zero\b|\d)\w+\s+)?(?:fail(?:ed|ing|s)?|red|"
                      r"errors?|errored|broken|skipped)\b(?![ \t]*:?[ \t]*0\b)"
                      r"|^[ \t]*(?:[-*+][ \t]*)?\w[\w./-]*[ \t]{2,}(?:[-\u2013\u2014(][-\u2013\u2014\s(]*)?"
                      r"(?:skipped|not run|n/a|todo|fail(?:ed|ing|s)?|red|broken|still flaky)\b"
                      r"|\bstill flaky\b"
                      r"|\s[-\u2013\u2014]\s*(?:[^\w\s]\s*)?(?:fail(?:ed|ing|s)?|red|errors?|errored|broken|"
                      r"skipped|not run)\b(?!:?\s*0\b)",
                      re.IGNORECASE | re.MULTILINE)
# a count told as the state before: "(was 6 failing, now 0)", "from 3 failed to 0"
_WAS = compiled_on_use(r"\b(?:(?:was|were|had been|used to be)(?:\s+at|:)?|(?:down\s+)?from)\s+\d+\s+"
                  r"(?:failing|failed|failures?|errors?|flaky|flakes?|red)\b", re.IGNORECASE)
_EARLIER = compiled_on_use(r"\b(?:before(?!\s+(?:(?:i|we)\s+(?:hand|send|push|merge|ship|wrap|open|submit|pass)\w*|wrapping|finishing|pushing|committing|merging|handing|"
                      r"opening|submitting|sending|(?:it|they) (?:went|turned|passed|came))\b)|vor dem|previously|earlier|initially|originally|yesterday(?!\s*:)|baseline|"
                      r"avant (?:mon|ma|le|la|les)|antes de|vorher|vor meiner|prima (?:del|della|di)|"
                      r"at the time of|when (?:i|we) (?:started|began|picked (?:it|this) up)|at the starting commit|last (?:green|passing|successful)|"
                      r"(?:the )?(?:1st|first|initial) (?:ci |test )?(?:run|try|attempt|pass|go)\b|"
                      r"(?:1st|2nd|first|second)(?: (?:run|try|attempt|pass|go))?:|"
                      r"last (?:week|night|time|run(?!\s*:))|this morning|"
                      r"after (?:\w+ ){0,2}(?:days?|hours?|weeks?|months?|rounds?|attempts?|tries) of|"
                      r"was:|(?<![\w-])(?:main|master|trunk)(?: branch)?(?:'s|\s+(?:is|was|has been|itself))(?:\s+still)?\s+(?:red|failing|broken)\b)[^.\n]*", re.IGNORECASE)
# a line of a list or a table, or a "label: value" line
_ITEM = compiled_on_use(r"^[ \t]*(?:[-*+]\s|\d+[.)]\s|\||[^\s:]+(?:[ \t][^\s:]+){0,3}:\s"
                   r"|\w[\w./-]*[ \t]{2,}\S)",
                   re.MULTILINE)
_RUNNER_CODE = compiled_on_use(RUNNER, re.IGNORECASE)
_QUOTE_LINE = compiled_on_use(r"^[ \t]*>.*$", re.MULTILINE)
# "green-lit", "green-field": another word
_GREEN_WORD = compiled_on_use(r"green-(?=\w)", re.IGNORECASE)
# what output lines do not read: text in quotation marks, inline code other than a runner's
# command ("prints e.g. `12 passed in 0.3s`"), and code blocks tagged as source code (a run's
# output comes untagged or as text, console, shell or a log)
_PROSE_QUOTE = compiled_on_use(r"\"[^\"\n]*\"|\u201c[^\u201d\n]*\u201d")
_INLINE_CODE = compiled_on_use(r"(?<!`)`[^`\n]+`(?!`)")
_SOURCE_FENCE = compiled_on_use(r"^[ \t]*(?:```|~~~)[ \t]*(?!(?:text|txt|console|shell|sh|bash|zsh|"
                           r"log|output|plaintext|plain|terminal|shell-session|ansi|markdown|md)?[ \t]*$)"
                           r"[^\n]*\n.*?(?:^[ \t]*(?:```|~~~)[ \t]*$|\Z)",
                           re.DOTALL | re.MULTILINE)
# an unticked box claims nothing: "- [ ] Tests pass" in a template is a to-do
_UNTICKED = compiled_on_use(r"^[ \t]*(?:[-*+][ \t]*)?\[ \].*$|\[ \][^\[\n,;]*", re.MULTILINE)
# how far back a negation reaches: not past a colon or an "and" ("Not much to say: the tests
# pass", "the repro no longer crashes and the tests pass")
_SCOPE = compiled_on_use(r":\s|\band\s|[.!?]\s|\b(?i:without) (?:any|the|a) (?:filters?|-k|selection|retries|cache|flags?)\b,?\s")  # nor past a sentence on an output line
_BLOCK_BREAK = compiled_on_use(r"\n\s*\n")
# invisible in any rendering: zero-width spaces and joiners, marks, word joiner and the
# invisible operators, the BOM, the soft hyphen, the Mongolian vowel separator
_INVISIBLE = compiled_on_use("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e"
                        "\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]")
# letters that look like Latin ones, as Unicode's confusables list pairs them (Cyrillic,
# Greek, and a few Latin extensions NFKC leaves alone)
_CONFUSABLES = str.maketrans(
    "аеорсухіјѕԁһӏԛԝүɑɡɩοαεικνρτυχ"
    "АВЕКМНОРСТХУІЈЅԌԚԜΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijsdhlqwyagioaeikvptux"
    "ABEKMHOPCTXYIJSGQWABEZHIKMNOPTYX")
# marks that say "passed" as a tick does, read as the tick: a green circle, a green heart
_VERDICT_MARKS = str.maketrans({"\U0001f7e2": "\u2705", "\U0001f49a": "\u2705"})


class Claim:
    __slots__ = ("at", "line", "rule", "sentence")

    def __init__(self, rule: ClaimRule, line: int, sentence: str, at: int = 0) -> None:
        self.rule = rule
        self.line = line
        self.sentence = sentence
        self.at = at  # where in the text its sentence or line starts


def _blank(match: re.Match[str]) -> str:
    """Quoted text becomes spaces (newlines kept), so line numbers and positions hold."""
    return re.sub(r"[^\n]", " ", match.group(0))


def normalised(text: str) -> str:
    """TEXT as it reads: NFKC, without invisible characters, confusables as Latin letters."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", _INVISIBLE.sub("", text))
    return text.translate(_CONFUSABLES).translate(_VERDICT_MARKS)


_TEST_NAME = compiled_on_use(r"test_\w{2,}|\w{2,}_test|Test[A-Z]\w+|[\w./-]+\.(?:test|spec)\.[jt]sx?"
                        r"|[\w./-]*tests?/[\w./-]+\.py::\w+")


# a clause that starts with an exception: "Alles grün, bis auf `test_export`, der ..."
_EXCEPT_FIRST = compiled_on_use(r"\W*(?:except|apart from|other than|save for|bis auf|außer|ausser|sauf|"
                                r"excepto|salvo|exceto)\b", re.IGNORECASE)
# inline code that reads as its word: a verdict ("came back `ok`") or a branch ("on `main`")
_WORDS_IN_CODE = frozenset({"ok", "pass", "passed", "passing", "green", "success",
                            "main", "master", "develop", "trunk"})


def _blank_unless_runner(match: re.Match[str]) -> str:
    """Inline code naming a test runner reads as its words ("`cargo test` is green",
    "`npm ci && npm test` all pass"), one naming a test reads as "test" ("`test_x`, which was
    red, passes now"); other quoted text is blanked."""
    inner = match.group(0)[1:-1]
    if _TEST_NAME.fullmatch(inner):
        return " test" + " " * (len(match.group(0)) - 5)
    if inner.strip().lower() in _WORDS_IN_CODE:
        return " " + inner + " "
    if match.group(0).startswith("`") and _RUNNER_CODE.fullmatch(
            re.split(r"&&|\|\||;", inner)[-1].strip()):
        return " " + inner + " "
    return _blank(match)


# what a line says of inline code it shows as an example, not as this work's run: "prints e.g.
# `12 passed in 0.3s`", "the message looks like `BUILD SUCCESS`"
_SHOWN_AS_EXAMPLE = compiled_on_use(r"\be\.g\.|\b(?:prints?|printed|(?<!test )(?<!run )(?<!runner )"
                               r"outputs?(?!\s*(?::|for\b|from\b|of\b))|emits?|"
                               r"shows? up as|"
                               r"formats?|messages?|strings?|looks? like|such as|like|e\.g\.|"
                               r"example|expected|should|would|instead of|rather than|used to)\b",
                               re.IGNORECASE)


# ... or just after it: "`12 passed in 0.3s` is what the summary line looks like"
_EXAMPLE_AFTER = compiled_on_use(r"[^\n]*?\b(?:looks? like|is what|format|example|template)\b",
                            re.IGNORECASE)


# a run's count of no failures, which reads with the count of passes beside it: "`# fail 0`"
_NONE_FAILED = compiled_on_use(r"\s*#?\s*(?:fail(?:ed|ures?)?|errors?)\s*:?\s*0\s*", re.IGNORECASE)


def _said_before(match: re.Match[str]) -> int:
    """Where what MATCH's line says just before it begins (a bounded look back keeps a long
    line linear)."""
    window = max(match.start() - 80, 0)
    return max(match.string.rfind("\n", window, match.start()) + 1, window)


def _blank_unless_run(match: re.Match[str]) -> str:
    """Inline code as output lines see it: a runner's command, or a test run's own summary
    pasted inline ("Both runs: `436 passed, 3 skipped`", "`[INFO] BUILD SUCCESS`"), unless
    the line shows it as an example; other inline code is blanked."""
    inner = match.group(0)[1:-1]
    begin = _said_before(match)
    if (any(r.pattern.search(inner) for r in _OUTPUT_RULES) or _NONE_FAILED.fullmatch(inner)) \
            and not _SHOWN_AS_EXAMPLE.search(match.string, begin, match.start()) \
            and not _LEAD_IN.search(match.string, begin, match.start()) \
            and not _EXAMPLE_AFTER.match(match.string, match.end(), match.end() + 80):
        return " " + inner + " "
    return _blank_unless_runner(match)


def _blank_unless_runs_words(match: re.Match[str]) -> str:
    """A quote of a test run's own summary where the line names the runner just before it
    ("`swift test` finished with "Executed 41 tests, with 0 failures""): the run's words,
    read; any other quote is someone's words, blanked."""
    inner = match.group(0)[1:-1]
    begin = _said_before(match)
    if _RUNNER_CODE.search(match.string, begin, match.start()) \
            and not _SHOWN_AS_EXAMPLE.search(match.string, begin, match.start()) \
            and not _REPORTED.search(match.string, begin, match.start()) \
            and any(r.pattern.search(inner) for r in _OUTPUT_RULES):
        return " " + inner + " "
    return _blank(match)


def _marked(match: re.Match[str]) -> str:
    """Quoted text as sentences see it: blanked, but a sentence may start at it."""
    return "Q" + _blank(match)[1:]


def unquoted(text: str) -> str:
    text = _GREEN_WORD.sub("green_", _FENCE.sub(_blank, text))
    text = _QUOTE_LINE.sub(_blank, text)
    text = _UNTICKED.sub(_blank, text)
    return _QUOTED.sub(_blank_unless_runner, text)


# a lower-case sentence after a full stop ("fixed it. tests pass"), but not after an
# abbreviation, an ellipsis or a path ("./...")
_LOWER_START = compiled_on_use(r"(?<!\.\.)(?<!\b\w\.)(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bvs\.)"
                          r"(?<!\bincl\.)(?<!\bapprox\.)(?<!\besp\.)(?<!\bcf\.)"
                          r"(?<=\w[.!?])\s+(?=[a-z])")


def sentences(text: str) -> list[tuple[int, int, int]]:
    """(line number, start, end) of each sentence of TEXT."""
    found: list[tuple[int, int, int]] = []
    start = 0
    cuts = sorted([*_SENTENCE_END.finditer(text), *_LOWER_START.finditer(text)],
                  key=lambda m: m.start())
    line, counted = 1, 0
    for cut in [*cuts, None]:
        if cut is not None and cut.start() < start:
            continue
        end = cut.start() if cut else len(text)
        if text[start:end].strip():
            line, counted = line + text.count("\n", counted, start), start
            found.append((line, start, end))
        start = cut.end() if cut else end
    return found


def _clauses(sentence: str) -> list[str]:
    parts, start = [], 0
    for cut in _CLAUSE_BREAK.finditer(sentence):
        if sentence.count("(", 0, cut.start()) > sentence.count(")", 0, cut.start()):
            continue  # a break inside parentheses is no cut: "every test (unit, and the slow ones) passes"
        parts.append(sentence[start:cut.start()])
        start = cut.end()
    parts.append(sentence[start:])
    return [p for p in parts if p.strip()]


def _fails(text: str) -> bool:
    """TEXT says something failed: a failure word no "no"/"0"/"nothing" just before denies."""
    return any(not _DENIED.search(text[:m.start()]) for m in _FAILS.finditer(text))


# the tests, CI or a run failing: "The integration suite fails on the DB fixture"
_TEST_FAILS = compiled_on_use(rf"\b(?:tests?|specs?|suites?|ci|pipelines?|builds?|jobs?|checks?|"
                         rf"{RUNNER}|{KINDS}|it|they|\d+|remaining|the rest|others|"
                         rf"one|two|three|four|five|six)\b(?:(?!\b(?:main|master|trunk)\b)[^.;:]){{0,40}}?\b(?:fails?|failed|"
                         r"(?:is|are|still|started|starts|began) failing|errors? out|errored|"
                         r"(?:is|are|went|turned|still) red|"
                         r"broke|crashed|hangs|hung|timed out|times out)\b"
                         r"|\b(?:jobs?|runs?|builds?|pipelines?|workflows?|ci|runners?|integration|e2e|unit|smoke)\b[^.;:]{0,30}?"
                         r"\b(?:got |was |were )?(?:cancell?ed|aborted|died|dies|crashes|crashed|cancelad[oa]s?|abgebrochen|annulée?s?)\b",
                         re.IGNORECASE)
# the whole told as not passing, now, or a refusal to call it so: "CI is not green yet",
# "the suite isn't passing", "Not calling this green until I understand the flake"; what
# else the paragraph says passed is then a part ("Linux jobs passed")
_NOT_WHOLE = compiled_on_use(
    r"\b(?:\w+ )?(?:specs?|tests?) (?:were |are )?excluded\b"
    r"|\bthe (?:\d+ |two |three )?(?:skipped|ignored)(?: ones?| specs?| tests?)? (?:is|are) the (?:ones?|tests?|specs?) (?:for|covering|that cover)\b"
    r"|\bthe (?:skipped|ignored) (?:ones?|specs?|tests?) cover\b|\bthe (?:skipped|ignored) (?:one|test|spec) is the (?:new|added)\b|\b(?:skipped|ignored)\b[^.;]*\b(?:are|were) the ones (?:covering|that cover|testing)\b"
    r"|\b(?:run|suite|it|tests?) (?:got |was |were )?(?:cut off|cut short)\b"
    r"|\bpass(?:ed|es)?\s+(?P<passed_times>\d+)\s+(?:out\s+)?of\s+(?!(?P=passed_times)\b)\d+\s+(?:times|runs|tries|attempts)\b"
    r"|\b(?:ci|the pipeline) on (?:main|master|trunk) (?:passed|is green|was green)\b(?=[^.\n]*\b(?:so|but)\b[^.\n]*\b(?:this|my) branch\b)"
    r"|\bpass(?:es|ed)? (?:on its own|in isolation|by itself|alone)\b|(?<!\band )(?<!\bplus )\b(?:everything|all) else (?:passes|passed|is green|pass)\b"
    r"|\b(?:skipped|ignored|pending)\b[^.]{0,160}\b(?:cover|test|exercise)s? (?:exactly |precisely )?[^.;]{0,60}\b(?:this|my|the) "
    r"(?:upgrade|change|fix|pr|patch|refactor|bump) (?:changes|touches|modifies|rewrites|affects)\b"
    r"|\b(?:didn't|did not|haven't|have not) (?:touch|run|get to) the [\w-]+ (?:tests|specs)\b(?=[^.]*\b(?:tomorrow|later|next|need|needs)\b)"
    r"|\bthe rest(?: of (?:the )?(?:suite|tests|specs))? (?:i|we) (?:left|leave) (?:to|for)\b"
    r"|\bskip(?:ped|s)?\b[^.;]{0,80}\b(?:which|that)(?:'s| is| was) (?:exactly |precisely )?the (?:code path|path|code|module|function|"
    r"method|part|thing|feature|endpoint) (?:i|we) (?:changed|touched|modified|fixed|rewrote)\b"
    r"|\bskip(?:ped|s)?\b[^.;]{0,80}\b(?:which|that)(?:'s| is| was) (?:exactly |precisely )?the (?:one|test|spec) that (?:actually |really )?"
    r"(?:covers|tests|exercises) (?:this|my|the) \w+"
    r"|\bgot through (?:only )?\d+ of \d+\b|\bbefore it (?:crashed|died|hung|timed out)\b|\b(?:is|are) (?:still )?skipping\b"
    r"|,\s*(?:ci|the pipeline|e2e|integration)\s+(?:is\s+)?(?:still\s+)?(?:pending|queued)\b"
    r"|\b(?:targeted|related) (?:tests?|specs?)\b|\b(?:tests?|specs?) related to (?:the )?(?:changed|touched|modified) files\b|\b(?:tests?|specs?) (?:for|of|covering|related to) the (?:changed|touched|modified) (?:files?|code|modules?)\b"
    r"|\bonly ran what(?:'s| is| was) (?:related|relevant)\b|\bonly ran (?:that|this|the) (?:one )?(?:file|test|spec)\b"
    r"|\b(?:not sure|unsure) about the (?:other|remaining) (?:suites?|tests?|modules?)\b|\bwant me to (?:also )?run the (?:full|whole|entire|rest)\b"
    r"|\bwas skipped because\b|\b(?:can't|cannot|couldn't) be collected\b|\bshould (?:i|we) run the (?:full|whole|entire|complete)\b"
    r"|\b(?:leave|leaving|left) (?:those|them|that|these|the rest) (?:to|for) (?:ci|the pipeline|later|tomorrow)\b"
    r"|\b(?:i'd|i would|i'll|we'd|we should|you should|you'll want to)\s+(?:still\s+)?(?:run|kick off|do)\s+(?:the\s+|a\s+)?(?:full|whole|entire|complete)\b"
    r"|\bjust the (?:module|package|file|folder|crate|tests?|ones?) (?:i|we) (?:touched|changed)\b"
    r"|\b(?:will|i'll|going to|gonna) (?:do|kick off|run|start) (?:a |the )?(?:full|whole|complete) (?:run|suite|test run)\b|"
    r"\b(?:ci|builds?|pipelines?|tests?|specs?|suites?|checks?|jobs?|matrix|runs?|workflows?|"
    rf"{RUNNER}|it|this|everything)(?:'s|'re|\s+(?:is|are|has|have|does|do))?"
    r"(?:\s+not|n't)\s+(?:(?:yet|all|fully|quite|completely|entirely|really|actually|been|gone|"
    r"going|turned|come back)\s+){0,3}(?:green|passing|clean|pass(?:ed)?|succeed(?:ed)?)\b"
    rf"{NOT_AN_OBJECT}"
    r"|\bnot (?:yet |all |fully |quite )?green\b"
    r"|\bnot (?:a )?(?:real|genuine|true|meaningful|trustworthy)\s+(?:pass|green|result)\b"
    r"|\bnot count(?:ing)? (?:that|this|it|them) as (?:a )?(?:pass|green)\b"
    r"|\bfalse (?:green|pass)\b"
    r"|\b(?:tests?|specs?|suites?|ci|builds?|jobs?|ones?|others|the rest)\s+(?:still\s+)?"
    r"(?:doesn't|don't|isn't|aren't|hasn't|haven't|won't|does not|do not|is not|are not)"
    r"(?:\s+yet)?\s*(?:$|[.,;!)])"
    r"|(?:\bnot|n't|\bholding off on|\brefuse to)\s+(?:\w+\s+){0,2}?(?:call(?:ing)?|"
    r"declar(?:e|ing)|say(?:ing)?|claim(?:ing)?|mark(?:ing)?|consider(?:ing)?|report(?:ing)?)\s+"
    r"(?:(?:(?:this|it|that|them|things|ci|the (?:build|suite|run|tests|pipeline|ci|pr|change|fix))"
    r"\s+)?(?:as\s+|is\s+|are\s+)?(?:green|passing|clean|verified|a pass)"
    r"|(?:this|it|that|them)\s+(?:as\s+)?(?:done|fixed|stable|ready))\b", re.IGNORECASE)
# a test that is flaky now: "`auth.spec` is flaky", "test_upload flaked twice in 10 runs"
_FLAKY_NOW = compiled_on_use(r"(?:'s|'re|\b(?:is|are|still|remains?|seems?|looks?|been|theyre|its))"
                        r"\s+(?!(?:not|never|no longer)\b)(?:\w+\s+)?flaky\b"
                        r"|\bflaked\s*(?:[.;!]|$)|\bflak(?:ed|es|ing)\s+(?:on|in|about|once|twice|again|sometimes|"
                        r"\d+|locally|intermittently)\b"
                        r"|\bpass(?:ed|es)\s+(?:in\s+|on\s+)?(?P<part>\d+)\s*(?:/|of|out of)\s*"
                        r"(?!(?P=part)\b)\d+\s+(?:runs|times|attempts|tries)\b"
                        # a pass on a retry: "passed on retry #3", "212 passed, 1 rerun"
                        r"|\b[1-9]\d* reruns?\b(?![^.;\n]*\ball (?:green|passed|pass)\b)|\bneeded (?:the|a) rerun\b|\(\s*[1-9]\d* flaky\s*\)|(?-i:\bFLAKY\b)"
                        r"|\bon the (?:second|third|fourth|\d+(?:nd|rd|th)) (?:run|try|attempt|go)\b"
                        r"|\b(?:passed|passes|green) (?:only )?(?:on|after) (?:retry|rerun|attempt) #?\d+\b"
                        r"|\bpass(?:ed|es)? (?:only )?on (?:the |a )?(?:re-?run|retry)\b"
                        r"|\b(?:needed|took|after) (?:a |one |two |three |a couple of |several |\d+ )?(?:re-?tr(?:y|ies)|re-?runs?)\b"
                        r"|\bretry plugin\b|--retryTimes\b|--reruns\b|\bde novo (?:duas|três|\d+) vezes\b|\botra vez (?:dos|tres|\d+) veces\b"
                        r"|\bkeeps? flaking\b|\bkept flaking\b|\bre-?run (?:the )?[\w-]+ job (?:twice|again|\d+ times)\b"
                        r"|\b(?:passed|passes|green) (?:only )?(?:on|after) (?:the )?(?:second|third|fourth|fifth|"
                        r"\d+(?:st|nd|rd|th)) (?:retry|rerun|attempt|try)\b", re.IGNORECASE)
# not fixed yet: "I haven't fixed that yet", "haven't written a reproducing test yet"
_NOT_FIXED = compiled_on_use(
    r"(?:\b(?:not|never)|n't)\s+(?:yet\s+|actually\s+)?(?:been\s+)?(?:fixed|resolved|solved|"
    r"reproduced|tracked (?:it )?down|found the cause|(?:written|added) a (?:repro\w*|"
    r"reproducing|regression|failing) test)\b|\byet to (?:fix|resolve|reproduce)\b"
    r"|\bstill (?:open|unresolved|investigating|debugging|digging|looking into)\b",
    re.IGNORECASE)
# a failure told as settled: fixed since, or before a rerun
_SETTLED = compiled_on_use(r"\b(?:was|were|had been|used to|fix(?:ed|es|ing)?|resolved|addressed|reproduc\w+|"
                      r"re-?ran|rerun|re-?tried|retried|on retry|at first|first (?:push|run|try|"
                      r"attempt|time))\b", re.IGNORECASE)


def _run_failed(text: str) -> bool:
    """TEXT shows a run's failure its own words do not deny ("No FAIL lines")."""
    return any(not _DENIED.search(text[:m.start()]) for m in _RUN_FAILED.finditer(text))


# what checks code without running a test
_LINTER_NAMES = r"go vet|staticcheck|golangci-lint|ruff(?: check)?|eslint|mypy|pyright|(?:cargo )?clippy|tsc|" \
                r"flake8|pylint|rubocop|prettier|black|isort|shellcheck|hadolint|biome(?: check)?|cargo check|cargo fmt"
_LINTERS = compiled_on_use(rf"[\s`*(-]*(?:(?:i\s+)?ran\s+)?`?(?:{_LINTER_NAMES})\b", re.IGNORECASE)


# a fix told after a run's failures: "2 failures; fixed the tz handling and reran"
_FIXED_SINCE = compiled_on_use(r"\b(?:fixed|resolved|addressed|(?:removed|reverted|dropped|deleted|patched|corrected) "
                               r"(?:it|them|that|those|this)|added (?:that|the|a|an) (?:\w+ )?(?:guard|check|lock|mutex)|"
                               r"(?:regenerated|re-recorded|updated) (?:it|them|the snapshots?)|after (?:the|my|that|this|a) "
                               r"(?:fix|change|patch))\b"
                               # not a fix of something else: "3 failed, fixed the lint"
                               r"(?!\s+(?:(?:the|a|some|my|one|two)\s+)?(?:lint\w*|typos?|docs?|"
                               r"documentation|formatting|style|changelog|readme|comments?|"
                               r"warnings?|first|one|other)\b)", re.IGNORECASE)


_LEADS_WITH = re.compile(r"\W*(?:(?:i|we)\s+|and\s+|then\s+)*", re.IGNORECASE)


def _fixed_first(sentence: str) -> bool:
    """SENTENCE starts by telling of a fix: "Fixed them, all tests pass." """
    lead = _LEADS_WITH.match(sentence)
    return _FIXED_SINCE.match(sentence, lead.end() if lead else 0) is not None


def _now_after_fix(sentence: str) -> str | None:
    """What SENTENCE tells after the fix of the run's failures it shows ("Had 2 failures;
    fixed them, all pass": "them, all pass"), "" when it shows none, None when they stand."""
    was = _FAILED_BEFORE.sub(lambda m: " " * len(m.group(0)),
                             _WAS.sub(lambda m: " " * len(m.group(0)), sentence))
    ends = [m.end() for m in _RUN_FAILED.finditer(was) if not _DENIED.search(was[:m.start()])]
    if not ends:
        return ""
    fixed = _FIXED_SINCE.search(sentence, max(ends))
    if fixed is None or _DENIED.search(sentence[:fixed.start()]) \
            or re.match(r"\W*(?:\w+\W+){0,3}?yet\b", sentence[fixed.end():], re.I) \
            or _run_failed(sentence[fixed.end():]):
        return None
    return sentence[fixed.end():]


def _flaky_now(text: str) -> bool:
    """TEXT says a test is flaky now, not before the fix ("was flaky", "fixed the flaky ...")."""
    if _RETRIED.search(text):
        return True  # a pass that took a retry is flaky whenever the retry was
    return any(not _DENIED.search(text[:m.start()]) for m in _FLAKY_NOW.finditer(text)) \
        and _FLAKE_SETTLED.search(text) is None and _EARLIER.search(text) is None


_RETRIED = compiled_on_use(r"\bretry plugin\b|--retryTimes\b|--reruns\b|\bneeded (?:a|\d+|two|three) retr(?:y|ies)\b"
                           r"|\bafter (?:a|one|two|\d+) retr(?:y|ies)\b|\bpass(?:ed|es)? on (?:a |the )?retry\b"
                           r"|\b(?:passed|green) on (?:the )?(?:second|2nd|third|3rd) (?:try|attempt|run)\b"
                           r"|\b(?:second|2nd|third|3rd) (?:try|attempt|run) (?:passed|was green|went green)\b"
                           r"|\btook (?:two|2|three|3) runs\b|\bpassed when (?:i|we) re-?ran\b|\bhad to (?:hit )?re-?run\b"
                           r"|\btimed out the first time\b|\bhit (?:retry|re-?run)\b",
                           re.IGNORECASE)
# a flake told as settled: a rerun does not settle it, a fix does
_FLAKE_SETTLED = compiled_on_use(r"\b(?:was|were|had been|used to|fix(?:ed|es|ing)?|resolved|(?:is|are) (?:now )?gone|"
                            r"addressed|de-?flaked|no longer)\b", re.IGNORECASE)


def _fails_now(text: str) -> bool:
    """TEXT says something fails now: not denied, not before the fix ("fails on main",
    "previously failed", "was failing")."""
    if (_EARLIER.search(text) or _SETTLED.search(text)) \
            and not re.search(r"\bsame as (?:yesterday|before|last time)\b", text, re.I):
        return False
    return any(not _DENIED.search(text[:m.start()]) and not _BEFORE_FIX.match(text[m.end():])
               for m in _FAILS.finditer(text)) \
        or re.search(r"\b(?:are|is|still|keeps?|started|starts|began)\s+(?:\w+ly\s+)?failing\b",
                     text, re.I) is not None


def _partial(before: str, claimed: str) -> bool:
    """A part, not the whole ("3 of 5 tests pass"); "all 5 of 5" is the whole."""
    found = _PARTIAL.search(before)
    if found is None or re.search(r"\band (?:all )?(?:the )?(?:new|old) (?:ones|tests)\b", claimed, re.I):
        return False  # "the old tests and the new ones pass": the whole
    count = re.match(r"\D*(\d+)\s+(?:of|out of)\s+$", found.group(0))
    return not (count and claimed.startswith(count.group(1) + " "))


# a negation, but not of a failure ("no longer throws", "doesn't crash")
_DOES_NOT = compiled_on_use(r"(?:\b(?:not|never|cannot)\b|n't\b)(?!\s+(?:\w+\s+)?(?:throw|crash|fail|"
                       r"error|break|hang|regress|leak|panic|raise|time out|flake)\w*)",
                       re.IGNORECASE)


# a place the claim does not reach, told after it: "they pass on Postgres 16, not on 14 yet"
_NOT_ON = compiled_on_use(r"[^.;]*?,\s*(?:but\s+)?not\s+(?:on|in|with|under|for|yet|against)\b",
                     re.IGNORECASE)


# a time word that places what follows it in the past, unless a present-tense claim follows
# in its own clause: "yesterday finished the export, PR is up and CI is green"
_TEMPORAL = compiled_on_use(r"yesterday|earlier today|(?<!one )last (?:week|time|run)", re.IGNORECASE)
_APART = compiled_on_use(r",\s|\band\s")
_PRESENT = compiled_on_use(r"(?:'s|'re|\b(?:is|are|now|pass(?:es)?|passing))\b", re.IGNORECASE)


# a failure a relative clause tells as past: "the two tests that were red", "the one that
# failed on main"
_FAILED_BEFORE = compiled_on_use(r"\b(?:the )?(?:\w+ )?failures? had\b[^,;]*|\bthe only reason (?:they|it|the tests?) (?:were|was) (?:red|failing)\b[^,;]*|\bthe failing (?:one|test|spec) was (?:just |only )?(?:a|an|the)\b[^,;]*|"
                                 r"\bthe (?:\w+ )?failures? (?:were|was) (?:all )?(?:the same|from|caused by|due to|because)\b"
                                 r"[^,;]*(?=[^.]*\b(?:gone|fixed|resolved)\b)|\bthe only (?:failing|red) (?:test|spec)(?: on the branch)? was\b[^,;]*"
                                 r"|\b(?:that|which|who)\s+(?:(?:was|were|had been|used to be)\s+(?:\w+\s+)?"
                                 r"(?:failing|failed|red|broken|flaky)|(?:used to fail|failed|broke)\s+"
                                 r"(?:before|earlier|previously|yesterday|on main|on master|on the base))\b"
                                 r"|\bfixed (?:the |a |that |this )?(?:last |remaining |only |one )?"
                                 r"(?:failing|broken|red) \w+"
                                 r"|\b(?:was|were|had been) (?:the only (?:thing|one|test)s? )?"
                                 r"(?:failing|failed|red|broken)\b",
                                 re.IGNORECASE)


def _told_now(clause: str, word: re.Match[str], claim: re.Match[str]) -> bool:
    """WORD (a time word) does not reach CLAIM: a comma or an "and" stands between them and
    CLAIM is in the present tense."""
    return _TEMPORAL.fullmatch(word.group(0)) is not None \
        and _APART.search(clause, word.end(), claim.start()) is not None \
        and _PRESENT.search(claim.group(0)) is not None \
        and re.search(r"\b(?:was|were|had)\b", claim.group(0), re.I) is None


# what a negation may deny and still leave a success standing: "didn't break a thing"
_OF_A_FAILURE = compiled_on_use(r"\s+(?:\w+\s+)?(?:throw|crash|fail|error|break|broke|hang|regress|"
                           r"leak|panic|raise|time out|flake|fell over|falls? over|blew up|"
                           r"blows? up|went wrong|goes wrong)\w*", re.IGNORECASE)


_PREDICTION = compiled_on_use(r"\b(?:should|will|ought to|going to|gonna)\b|'ll\b", re.IGNORECASE)
# (not this work's own CI run: "CI will pass once this is merged", "after this push")
_CONDITION_AFTER = compiled_on_use(r"\bas long as\b|\b(?:once|when|after|as soon as)\b(?!\s+(?:this|it|it's|the (?:pr|branch|push|"
                                   r"change|fix|merge|ci run|runner)|my (?:pr|push|branch)|a runner|ci|"
                                   r"merged|pushed)\b)|\b(?:if|unless|until|assuming|provided|pending)\b",
                                   re.IGNORECASE)


def _negates(said: str) -> bool:
    """SAID holds a negation that is not of a failure."""
    return any(not _OF_A_FAILURE.match(said, n.end()) for n in _NEGATION.finditer(said))


def _claims_in(clause: str, context: str, rules: tuple[ClaimRule, ...] = RULES,
               named: bool | None = None) -> ClaimRule | None:
    """The first rule whose claim CLAUSE makes; CONTEXT (or NAMED, when given) says whether the
    tests are named nearby, for a rule that needs them."""
    for rule in rules:
        m = rule.pattern.search(clause)
        if not m:
            continue
        before = clause[:m.start()]
        said = before if rule.negative_form else clause[:m.end()]
        # a negation reaches no further than a colon: "Not much to say: the tests pass"
        said = said[max((c.end() for c in _SCOPE.finditer(said) if c.end() <= m.start()),
                        default=0):]
        if _negates(said) or _CONDITION.search(clause[:m.end()]) \
                or _IMPERATIVE.search(clause) \
                or any(r.start() < m.start() and not _told_now(clause, r, m)
                       for r in _REPORTED.finditer(clause[:m.end()])) \
                or _partial(before, m.group(0)) or _HALF.search(m.group(0)) \
                or _A_PART.search(before) \
                or (_EXCEPT_FIRST.match(before) and _OF_THE_TESTS.search(before)) \
                or _QUALIFIED.search(clause[m.end():]) or _HEARSAY_AFTER.search(clause[m.end():]) \
                or re.match(r"[^,;]*\b(?<!-)only\b(?!\s+(?:reason|difference|problem|failure)\b)", clause[m.end():]) \
                or re.match(r"(?:[^.;]|\.{2,})*\b(?:except|apart from|other than|save for|but not|otherwise|"
                            r"bis auf|außer|ausser|sauf|excepto|salvo|menos|exceto|tranne|eccetto|behalve)\b"
                            r"(?![^.;]*\b(?:also|too|as well)\b)", clause[m.end():]) \
                or _REQUIRED_AFTER.match(clause[m.end():]) or _NOT_ON.match(clause[m.end():]) \
                or _ENDS_EARLIER.match(clause[m.end():]) \
                or ("green" in m.group(0).lower() and _COLOUR.search(context)
                    and not _GREEN_OF.search(m.group(0))):
            continue
        if rule.needs_context and not (
                TEST_CONTEXT.search(context) is not None if named is None else named):
            continue
        # a prediction on a condition: "CI should go green once #482 is merged"
        if _PREDICTION.search(clause[:m.end()]) and _CONDITION_AFTER.search(clause, m.end()):
            continue
        # "passed once and failed twice": mixed; not a failure told as past ("including the
        # two that were red on main")
        if _fails(_FAILED_BEFORE.sub("", _WAS.sub("", _EARLIER.sub("", clause[m.end():])))):
            continue
        # what it introduces says otherwise: "Tested locally: the modal still doesn't close"
        after = re.match(r"\s*:(.*)", clause[m.end():])
        if after and _DOES_NOT.search(after.group(1)):
            continue
        if "," in before and _fails_now(_FAILED_BEFORE.sub("", before[:before.rindex(",")])):  # "2 fail, the rest pass"
            continue
        return rule
    return None


_PROSE_RULES = tuple(r for r in RULES if not r.output)
_OUTPUT_RULES = tuple(r for r in RULES if r.output)


def _blocks(text: str) -> list[tuple[int, int]]:
    """(start, end) of each block of TEXT: a paragraph, or a code block with its blank lines."""
    spans: list[tuple[int, int]] = []
    fences = [(m.start(), m.end()) for m in _FENCE.finditer(text)]
    fence_starts = [a for a, _ in fences]
    start = 0
    for cut in [*_BLOCK_BREAK.finditer(text), None]:
        end = cut.start() if cut else len(text)
        i = bisect.bisect_left(fence_starts, cut.start()) - 1 if cut is not None else -1
        if i >= 0 and cut is not None and cut.start() < fences[i][1]:
            continue
        spans.append((start, end))
        start = cut.end() if cut else end
    return spans


def _open_or_failed(block: str) -> bool:
    """BLOCK shows a failure or a check still open, now (not "before: 3 failed"), or a run of
    no tests or of a selection."""
    block = _WAS.sub("", _EARLIER.sub("", block))
    if _ZERO_TESTS.search(block) or _a_selection(block):
        return True
    # (a word in code is a name: "a mutex around `pending`")
    return _run_failed(block) or _PENDING.search(_A_NAME_IN_CODE.sub(_blank, block)) is not None


_A_NAME_IN_CODE = compiled_on_use(r"`[\w.]+`")


class _Blocks:
    """The blocks of a text, each judged once: does it show a failure or an open check?"""

    def __init__(self, text: str) -> None:
        self.text = text
        self.spans = _blocks(text)
        self.starts = [a for a, _ in self.spans]
        self.ends = dict(self.spans)
        self.judged: dict[int, bool] = {}
        self.named: dict[int, bool] = {}
        self.failing: dict[int, list[int]] = {}  # block: starts of its sentences that fail now
        # blocks that tell of something not fixed yet ("I haven't fixed that yet"): they take
        # back a run's output there, not a sentence's claim
        self.unfixed: set[int] = set()

    def of(self, at: int) -> int:
        """The start of the block AT is in."""
        return self.spans[max(bisect.bisect_right(self.starts, at) - 1, 0)][0]

    def names_tests(self, at: int) -> bool:
        """The block AT is in names the tests, CI or a runner."""
        start = self.of(at)
        if start not in self.named:
            self.named[start] = TEST_CONTEXT.search(self.text, start, self.ends[start]) is not None
        return self.named[start]

    def listed(self, at: int) -> bool:
        """The block AT is in has more than one line."""
        start = self.of(at)
        return "\n" in self.text[start:self.ends[start]].strip()

    def open_or_failed(self, at: int) -> bool:
        start = self.of(at)
        if start not in self.judged:
            self.judged[start] = _open_or_failed(self.text[start:self.ends[start]])
        return self.judged[start]


# a section labelled as the state before the work, up to the one labelled as after it
# ("Before:" a failing run, "After:" a passing one): only the after is this work's result
_BEFORE_LABEL = compiled_on_use(
    r"^[ \t]*[^\w\n]{0,6}(?:before|previously|originally|baseline|on main|old|without (?:the|my|"
    r"this) (?:fix|change|patch))\b(?:[^\n]{0,60}:)?[ \t*_]*$", re.IGNORECASE | re.MULTILINE)
_AFTER_LABEL = compiled_on_use(
    r"^[ \t]*[^\w\n]{0,6}(?:after|now|new|with (?:the|my|this) (?:fix|change|patch))\b"
    r"(?:[^\n]{0,60}:|[ \t*_]*$)", re.IGNORECASE | re.MULTILINE)
_TABLE = compiled_on_use(r"(?:^[ \t]*\|.*\n?){2,}", re.MULTILINE)
_BEFORE_COLUMN = compiled_on_use(r"\W*(?:before|old|previously|was|main|baseline|before \S+)\W*",
                            re.IGNORECASE)


def _without_before_columns(match: re.Match[str]) -> str:
    """A table with a "Before" column, that column blanked: "| tests | 3 failing | all 187
    passing |" under "| Area | Before | After |" reads as its after."""
    rows = match.group(0).split("\n")
    header = rows[0].split("|")
    gone = {i for i, cell in enumerate(header) if 0 < i < len(header) - 1
            and _BEFORE_COLUMN.fullmatch(cell.strip())}
    if not gone:
        return match.group(0)
    out = []
    for row in rows:
        cells = row.split("|")
        out.append("|".join(" " * len(c) if i in gone and i < len(cells) - 1 else c
                            for i, c in enumerate(cells)))
    return "\n".join(out)


_INSTRUCTIONS = compiled_on_use(r"^[ \t]*#{1,6}[ \t]*(?:how to (?:test|verify|check|reproduce)|next steps|to ?do|testing "
                           r"instructions|steps to (?:test|verify|reproduce)|to (?:test|verify)|"
                           r"reviewer (?:steps|instructions))\b[^\n]*\n(?:(?![ \t]*#{1,6}\s)[^\n]*(?:\n|$))*",
                           re.IGNORECASE | re.MULTILINE)


_ASKED = r"(?:requirements?|acceptance criteria|definition of done|merge criteria)"
_ASKED_LIST = compiled_on_use(rf"^(?:(?:[ \t]*#{{1,6}}[^\n]*\b{_ASKED}\b[^\n]*|[ \t]*\*\*[^\n]*\b{_ASKED}\b[^\n]*\*\*[ \t]*)\n(?:[ \t]*\n)?"
                         rf"|(?:[^\n]*\b{_ASKED}\b[^\n]*|[ \t]*[#*_]*[ \t]*(?:to-?do|next steps?|remaining|plan)"
                         r"(?: (?:for|from|in) [^:\n]{0,40})?[*_]*[ \t]*):[ \t]*[*_]*[ \t]*\n)"
                         r"(?:[ \t]*(?:[-*+]|\d+[.)])[^\n]*(?:\n|$))+",
                         re.IGNORECASE | re.MULTILINE)


def _as_now(text: str) -> str:
    """TEXT without what it labels as the state before the work (a "Before:" section followed
    by an "After:" one, a table's "Before" column), positions kept."""
    afters = [m.start() for m in _AFTER_LABEL.finditer(text)]
    pieces: list[str] = []
    at = 0
    for label in _BEFORE_LABEL.finditer(text):
        i = bisect.bisect_right(afters, label.end())
        if label.start() < at or i == len(afters):
            continue
        pieces += [text[at:label.start()], re.sub(r"[^\n]", " ", text[label.start():afters[i]])]
        at = afters[i]
    text = _TABLE.sub(_without_before_columns, "".join(pieces) + text[at:])
    return _ASKED_LIST.sub(_blank, _INSTRUCTIONS.sub(_blank, text))


# a negative written without its apostrophe, as tired people type: "havent run it", "didnt"
_NO_APOSTROPHE = compiled_on_use(r"\b(have|has|had|did|does|do|is|are|was|were|could|would|should|"
                            r"must)nt\b", re.IGNORECASE)


# the verdict words as tired people mistype them: "all passd", "sucessful", "tets"
_TYPOS = compiled_on_use(r"\b(?:(?P<passed>pas+e*d|pased|passsed)|"
                    r"(?P<passing>pas+ing|pasing|pas+ng|pas+ign|pas+in(?=\s|$|[.,!'])|pas+in')|"
                    r"(?P<succeeded>suc+e+ded|succeedd)|(?P<successful>suc+es+ful+)|"
                    r"(?P<tests>tets|tsets|tesst|testss|tsts)|(?P<unit_tests>unittests)|(?P<green>gre{3,}n|gren)|"
                    r"(?P<everything>evrything|everyting|evertyhing|everthing|everythign|everythng)|(?P<every>evry|evrey)|"
                    r"(?P<the>teh)|(?P<all>al)(?= (?:green|passing|pass|good)\b)|"
                    r"(?P<verified>verfied|verifed|verifid)|(?P<pipeline>pipline|pipleine)|"
                    r"(?P<nothing>nothin'?(?=\s))|(?P<regressions>regresions|regresssions|regressons)|(?<=\ball )(?P<pass>pas)(?=\s|$|[.,!])|"
                    r"(?P<passes>pasess|passess|pases|(?<=\ball )passs|(?<=\btests )pas(?=\s|$|[.,!])))(?!\w)", re.IGNORECASE)


def _typo(match: re.Match[str]) -> str:
    word = (match.lastgroup or "").replace("_", " ")
    return word if match.group(0).lower() != word else match.group(0)


# a quoted block the message introduces as its own draft ("PR draft below."): its words
_DRAFT_QUOTE = compiled_on_use(r"^(?P<lead>[^\n>]*\bdraft\b[^\n]*)\n(?:[ \t]*\n)?(?P<quote>(?:[ \t]*>[^\n]*(?:\n|$))+)",
                          re.IGNORECASE | re.MULTILINE)


def _own_drafts(text: str) -> str:
    """TEXT with the "> " marks of a quoted block it introduces as its own draft made spaces
    (positions kept): a PR body the agent wrote is its claim, someone's quoted words are not."""
    def unmark(m: re.Match[str]) -> str:
        if re.search(r"\b(?:their|your|his|her|user's|someone's|reviewer's)\b", m["lead"], re.I):
            return m.group(0)
        quote = re.sub(r"^([ \t]*)>", r"\1 ", m["quote"], flags=re.MULTILINE)
        return m.group(0)[:m.start("quote") - m.start()] + quote
    return _DRAFT_QUOTE.sub(unmark, text)


# every word some rule starts from (tests/test_claims.py checks each claim the corpus holds
# has one); a message with none, "Done.", is no claim
_MAY_CLAIM = re.compile(r"test|spec|suite|\bci\b|pipeline|build|check|job|run\b|ran\b|pass|green|"
                        r"gr[üu]n|vert|verde|clean|\bok\b|succe|verif|confirm|valid|work|went through|"
                        r"[\u2705\u2714\u2713\u2611]|\[x\]|fail|broke|break|regress|\bred\b|good|fine|"
                        r"happy|thumbs|clear|100%|\d\s*/\s*\d|bestanden|durch|pasa|sail|breeze|fell over|"
                        r"blew up|went wrong|error|nothing|none|zero|neither|congratulations|single|"
                        r"rott|quebr|cass|rompi|groen|aucun",
                        re.IGNORECASE)


_TICK_AS_VERDICT = compiled_on_use(r"\b(is|are|was|were)[^\S\n]+(?=\u2705)", re.IGNORECASE)


def as_read(text: str) -> str:
    """TEXT as the rules read it: normalised, negatives written without an apostrophe,
    mistyped verdicts in their usual spelling and a tick after "is" read as green ("CI is ✅")."""
    read = _TYPOS.sub(_typo, _NO_APOSTROPHE.sub(r"\1n't", normalised(text)))
    return _TICK_AS_VERDICT.sub(r"\1 green ", read)


# a question about the tests, quoted, and the yes that answers it
_ASKED_IF_PASS = compiled_on_use(r"^[ \t]*>[^\n]*\b(?:tests?|specs?|suite|ci|build)\b[^\n]*"
                                 r"\?[ \t]*$", re.IGNORECASE | re.MULTILINE)
_VERDICT_ASKED = compiled_on_use(r"\b(?:pass|green|clean|ok)", re.IGNORECASE)
_YES = compiled_on_use(r"\W*(?:(?:yes|yep|yeah|yup|they do|they did|sí|sim|oui|ja)\b(?!\s+and\s+no\b)"
                       r"|[\U0001F7E2\u2705][^\S\n]*(?=\n|$))",
                       re.IGNORECASE)


def _answers(text: str, spans: list[tuple[int, int, int]]) -> set[int]:
    """Starts of the sentences that say yes to a quoted question about the tests, first after it."""
    found = set()
    for asked in _ASKED_IF_PASS.finditer(text):
        after = [a for _line, a, b in spans if a >= asked.end() and text[a:b].strip()]
        yes = _YES.match(text, after[0]) if after else None
        # a yes in words answers whether they pass; a green mark, whether CI is ("> ci?" "🟢")
        if yes and (_VERDICT_ASKED.search(asked.group(0)) or not yes.group(0)[-1:].isalpha()) \
                and not text[after[0]:].lstrip().startswith(">"):
            found.add(after[0])
    return found


def find_claims(text: str) -> list[Claim]:
    """Every sentence of TEXT that claims the tests pass, with the first rule it meets."""
    text = as_read(text)
    if not _MAY_CLAIM.search(text):
        return []  # no word any rule reads: none of the patterns is compiled
    text = _own_drafts(_as_now(text))
    plain = unquoted(text)
    marked = _QUOTED.sub(_marked, _UNTICKED.sub(_blank, _QUOTE_LINE.sub(_blank, _FENCE.sub(
        _blank, text))))
    blocks = _Blocks(text)
    claims: list[Claim] = []
    previous = ""
    spans = sentences(marked)
    for _, a, b in spans:
        if (_TEST_FAILS.search(plain[a:b]) and _fails_now(plain[a:b])) \
                or _TEST_PENDING.search(plain[a:b]) \
                or (_UNVERIFIED.search(plain[a:b]) and _OF_THE_TESTS.search(plain[a:b])
                    and not _by_hand(plain[a:b])) \
                or _a_selection(plain[a:b], filters=False) \
                or (_run_failed(_WAS.sub("", _EARLIER.sub("", plain[a:b])))
                    and _now_after_fix(plain[a:b]) is None) \
                or (_NOT_WHOLE.search(plain[a:b]) and not _EARLIER.search(plain[a:b])) \
                or _flaky_now(plain[a:b]):
            blocks.failing.setdefault(blocks.of(a), []).append(a)
        elif _NOT_FIXED.search(plain[a:b]):
            blocks.unfixed.add(blocks.of(a))
    fixes = [a for _, a, b in spans if _fixed_first(plain[a:b].strip())]
    answers = _answers(text, spans)
    for line, start, end in spans:
        sentence = plain[start:end].strip()
        context, previous = previous + " " + text[start:end], text[start:end]
        if _INSTRUCTION.match(sentence):
            continue
        # linters alone, named first or after a colon: "`go vet ./...` and `staticcheck ./...`
        # both came back clean", "Type errors are all fixed: `tsc --noEmit` passes now"
        if any(_LINTERS.match(text, at, end) for at in
               (start, *(start + m.end() for m in re.finditer(r":\s+", text[start:end])))) \
                and not TEST_CONTEXT.search(_LINTERS.sub(" ", text[start:end])):
            continue
        # a run's own output beside the claim says something failed: "15 passed; 2 failed";
        # what it tells after a fix of them counts ("2 failures; fixed them and reran: all pass")
        since_fix = _now_after_fix(sentence)
        if since_fix is None:
            continue
        sentence = since_fix or sentence
        clauses = _clauses(sentence)
        if start in answers:
            yes = _YES.match(clauses[0])
            clauses[0] = "the tests pass" + clauses[0][yes.end():] if yes else clauses[0]
        for clause in clauses:
            # a question: its last clause, or one that asks ("Do the tests pass, and is CI
            # green?"), but not a claim before it ("Done, tests pass, but should it be X?")
            if sentence.endswith("?") and (clause is clauses[-1] or _ASKS.match(clause)):
                continue
            rule = _claims_in(clause, context, _PROSE_RULES)
            if rule is not None and _HEDGE.search(clause) and (_NOT_RUN.search(sentence)
                                                               or _UNSURE.search(sentence)):
                continue
            # a failure beside it, now: "two tests fail on Windows; the rest pass"
            if rule is not None and any(_fails_now(other) or _TAKEN_BACK.search(other)
                                        or _TEST_PENDING.search(other) or _EXCEPT_FIRST.match(other)
                                        for other in clauses if other is not clause):
                continue
            # "build's green, but that job doesn't run the tests": an admission beside it;
            # "All 80 passed but I'm not calling it done": a refusal; "... but one is flaky"
            if rule is not None and (_UNVERIFIED.search(sentence) or _flaky_now(sentence)
                                     or _a_selection(text[start:end])
                                     or _RETRIED.search(text[start:end]) or (
                    _NOT_WHOLE.search(sentence) and not _EARLIER.search(sentence))):
                continue
            # a list's item is judged with its list: "- unit: pass" above "- e2e: fail" (a line
            # alone that tells of a fix since is judged as a sentence: "Should be good now: the
            # failing assertion ..., I updated it and the suite goes through")
            if rule is not None and _ITEM.match(text, text.rfind("\n", 0, start) + 1) \
                    and (blocks.listed(start) or not _SINCE.search(sentence)) \
                    and blocks.open_or_failed(start):
                break
            # "All unit tests pass. The integration suite fails on the DB fixture.": mixed
            # (not a failure told before a sentence that starts with its fix: "Had 2 failures.
            # I fixed them. All tests pass.")
            if rule is not None and any(
                    a != start and not any(a < f <= start for f in fixes)
                    for a in blocks.failing.get(blocks.of(start), [])):
                break
            if rule is not None:
                original = " ".join(text[start:end].split())
                claims.append(Claim(rule, line, original[:300], start))
                break
    claims.extend(_output_claims(text, blocks, {c.line for c in claims}))
    claims.extend(_table_claims(text, {c.line for c in claims}))
    # a later line takes it back: "So scratch the above; this isn't green anymore", "I'm not
    # going to call this fixed until I understand the race", "so the unit tests were not run"
    withdrawn = max((a for _line, a, b in spans
                     if _withdraws(plain[a:b]) or _fails_inline(text[a:b])
                     or _named_test_fails(text[a:b])), default=-1)
    retracted = max((b for _line, a, b in spans if _RETRACTED.search(plain[a:b])), default=-1)
    # (not one told as before: "Previously it said [no tests to run]; now 12 pass")
    no_tests = max((m.start() for m in _ZERO_TESTS.finditer(text)
                    if not _EARLIER.search(text, text.rfind("\n", 0, m.start()) + 1,
                                           _line_end(text, m.start()))), default=-1)
    if not _GO_RAN.search(text):  # go's packages, none with a test
        no_tests = max(no_tests, text.rfind("[no test files]"))
    # ... and a run of no tests voids what its line and the lines above it claim
    no_tests_end = -1 if no_tests < 0 else text.find("\n", no_tests)
    if no_tests >= 0 and no_tests_end < 0:
        no_tests_end = len(text)
    claims = [c for c in claims if c.at >= withdrawn and c.at > no_tests_end and c.at >= retracted]
    # the prose beside a pasted run of no tests, or of failures: "Nothing failed." after it,
    # "Tests look good:" leading into it
    beside = _beside_a_bad_run(text, blocks.spans)
    claims = [c for c in claims if not any(a <= c.at < b for a, b in beside)]
    # "The new test passes" beside a run that shows failures: a part, not the whole
    if any(_PART.search(c.sentence) for c in claims) \
            and _run_failed(_WAS.sub("", _EARLIER.sub("", text))):
        claims = [c for c in claims if not _PART.search(c.sentence)]
    return sorted(_of_the_tests(text, claims) if claims else claims, key=lambda c: c.line)


def _of_the_tests(text: str, claims: list[Claim]) -> list[Claim]:
    """CLAIMS, less what the message as a whole shows is not a pass of the tests."""
    if not _NAMES_TESTS.search(text):
        # checked by a build, a linter or by hand: "`cargo build --release` succeeded. All
        # green.", "Verified the fix manually. Verified ✅" (unless CI itself is named)
        if _OTHER_CHECK.search(text):
            claims = [c for c in claims
                      if _NAMES_CI_ITSELF.search(c.sentence) and not _A_CHECK_JOB.search(c.sentence)]
        # a build told as passing, where nothing names a test: "Build succeeds on linux-x64
        # and macos-arm64. Artifacts are attached to the workflow run."
        claims = [c for c in claims if not _BUILD_PASSES.match(c.sentence)]
        # "✅ lint ✅ build. All checks green.": ticks, none of a test
        ticks = [c for c in claims if c.rule.id in ("CLM013", "CLM015")]
        if ticks and not _NAMES_CI_ITSELF.search(text) \
                and all(_LINT_TICK.search(c.sentence) for c in ticks):
            return []
    # a run its message says was filtered ("ran it with `--spec ...`"), and nothing told whole
    # (go's every package, unfiltered, is: "`go test -run X` 50/50; `go test -race ./...` ok")
    if _FILTERED.search(text) and not _whole_told(text):
        return []
    # one kind of tests said not to have run: a pass of another kind is a part ("Integration
    # tests against the mock IdP were not run ... ✅ unit tests pass")
    if _KIND_NOT_RUN.search(text):
        claims = [c for c in claims if not (_A_KIND.search(c.sentence) and not _WHOLE_WORD.search(c.sentence))]
    # a run of named test files, and nothing told whole: a part ("`pytest tests/test_queue.py` — 14 passed")
    if not _WHOLE_TOO.search(text) and (_ONE_FILE_RUN.search(text) or (
            (_SUBDIR_RUN.search(text) or (_PACKAGE_RUN.search(text) and not _NAMES_CI_ITSELF.search(text)
                                         and not _GO_ALL.search(text)))
            and sum(1 for _ in _RUNNER_CODE.finditer(text)) <= 1)):
        # (a folder or a package of the tests, when it is the only run the message names:
        # "`cargo test -p core` → ok", "`go test ./internal/auth/...` ok", "`mvn test -pl api`")
        return []
    # the tests said not to have run: what else passed is not them ("Tests: not run. Build verified")
    if _TESTS_NOT_RUN.search(text):
        claims = [c for c in claims if _NAMES_TESTS.search(c.sentence)]
    return claims


_KINDS_OF_TESTS = r"(?:unit|integration|e2e|end-to-end|ui|browser|contract|acceptance|system|api|smoke)\s+(?:tests?|specs?|suite)\b"
_KIND_NOT_RUN = compiled_on_use(rf"\b{_KINDS_OF_TESTS}[^.;\n]{{0,80}}?(?:\b(?:were|was|are|is|have|has)(?:\s+not|n't)(?:\s+been)?\s+"
                                r"(?:run|executed)|\bnot (?:yet )?run)\b", re.IGNORECASE)
_A_KIND = compiled_on_use(rf"\b{_KINDS_OF_TESTS}", re.IGNORECASE)
_WHOLE_WORD = compiled_on_use(r"\b(?:all|full|whole|entire|every|complete)\b", re.IGNORECASE)
_ONE_FILE_RUN = compiled_on_use(rf"(?:{RUNNER})\s+(?:-[\w-]+(?:[ =][\w.-]+)?\s+)*[\w./-]*(?:test_\w+\.py|\w+_test\.(?:py|go|dart|[cm]?[jt]sx?)|_spec\.rb|"
                                rf"\.(?:test|spec)\.[cm]?[jt]sx?|Test\.(?:php|java|kt))(?:::\w+|:\d+)?(?=[\s`'\"]|$)"
                                # (not beside a directory: "pytest tests/test_cache.py tests/")
                                r"(?![ \t]+\w[\w./-]*/(?:[\s`'\"]|$))"
                                r"|\bthe (?:test|spec) file (?:for\b|passes\b|is green\b)", re.IGNORECASE)
_SUBDIR_RUN = compiled_on_use(rf"(?:{RUNNER})\s+(?:-[\w-]+(?:[ =][\w.-]+)?\s+)*(?:\./)?(?:tests?|specs?|src|__tests__)/[\w.-]+(?:/[\w.-]+)*/?"
                               r"(?=[\s`'\"]|$)(?![ \t]+[\w.][\w./-]*(?:[\s`'\"]|$))", re.IGNORECASE)
_PACKAGE_RUN = compiled_on_use(r"\bcargo (?:test|nextest run)\b[^`\n]*?\s(?:-p|--package)[\s=]+\w"
                                r"|\b(?:mvn|mvnw)\b[^`\n]*?\s(?:-pl|--projects)[\s=]+[\w:]"
                                r"|\bgo test(?:\s+-[\w.=-]+)*\s+\./(?!\.\.\.)\w"
                                r"|\bgradlew?(?:\s+-[\w.=-]+)*\s+(?::[\w-]+)+:\w*(?:test|check)\w*", re.IGNORECASE)
_GO_ALL = compiled_on_use(r"(?<![\w/.])\./\.\.\.(?![\w/])")  # go's every package, told beside it
_GO_EVERY_PACKAGE = compiled_on_use(r"\bgo test(?: -(?!short\b|run\b)[\w=.-]+)* \./\.\.\.(?![\w/])")
_GO_SHORT = compiled_on_use(r"(?<![\w-])-short\b")
_BUILD_PASSES = compiled_on_use(r"\W*(?:the )?builds? (?:now )?(?:succeeds|succeeded|works)\b",
                                re.IGNORECASE)
_A_CHECK_JOB = compiled_on_use(r"\b(?:build|lint|typecheck|type-check|docs|format)\s+(?:jobs?|steps?|checks?)\b",
                               re.IGNORECASE)
_TESTS_NOT_RUN = compiled_on_use(r"\btests?\s*:\s*not (?:yet )?run\b", re.IGNORECASE)
# what a claim names to be about more than the message's own checks: "CI is green", "the docs job"
_NAMES_CI_ITSELF = compiled_on_use(r"\b(?:ci|pipelines?|workflows?|github actions|jobs?|matrix)\b", re.IGNORECASE)
_LINT_TICK = compiled_on_use(rf"\b(?:lint|types|typecheck|fmt|format|vet|build|stylelint|{_LINTER_NAMES})\b",
                             re.IGNORECASE)
_NAMES_TESTS = compiled_on_use(rf"\b(?:(?<!touch the )(?<!touched the )(?<!touch any )tests?(?!\s+(?:card|account|user|data|environment|env|server|tenant|key|credentials|mode|instance|"
                               rf"payment|order|inputs?)s?\b)|testes|specs?|suites?|suíte|pruebas|testing|smoke|nightly|regression|"
                               rf"integration|unit|contract|acceptance|\d[\d,]* examples|"
                               rf"{RUNNER}|unittest|junit|surefire|test_\w+|\w+_test|\w+\.(?:test|spec)\.\w+)\b",
                               re.IGNORECASE)
_OTHER_CHECK = compiled_on_use(rf"(?m)^[ \t]*(?:{_LINTER_NAMES})\s*:|\b(?:cargo (?:build|check|clippy|fmt)(?: --workspace)?|(?:npm|yarn|pnpm|bun) (?:run )?"
                               r"(?:-r |--recursive )?(?:build|lint|typecheck|type-check)|\.?/?gradlew\w* assemble\w*|vite build|"
                               r"go (?:build|vet)|mvn (?:-\S+ )*(?:package|install|compile)|manually|by hand|"
                               r"ruff (?:check|format)|tsc(?: --noemit)?|eslint (?:reports|passes|is clean|came back clean)|eslint:\s*0 problems|"
                               rf"pyright|prettier|eslint --fix|screenshot|curl|(?<=`)(?:{_LINTER_NAMES})\b(?=[^`\n]*`)|"
                               r"on the call|health ?checks?|readiness|liveness|helm (?:upgrade|install)|docker image|image pushed|"
                               r"deployed|rollout|click(?:ed|ing) through|clicked|spun up|dev server|"
                               r"sample inputs?|ran the cli|(?:created|placed|submitted) an? (?:\w+ )?(?:order|account|user|invoice|ticket|payment)|"
                               r"logged in as|signed in as|navigated to|/healthz?|boots? cleanly|returns 200)\b", re.IGNORECASE)


# a claim about the test the work added or fixed, not the suite
_PART = compiled_on_use(r"^(?!.*\b(?:all|suite|everything|whole|full|entire|rest|every)\b).*"
                   r"\b(?:new|newly added|added|updated|failing|broken|regression|reproducing)\s+"
                   r"(?:[\w`()]+\s+)?(?:tests?|specs?|cases?|ones?)\b", re.IGNORECASE)


# what takes back a claim made above it
_RETRACTED = compiled_on_use(r"\b(?:scratch (?:that|the above|this)|ignore (?:that|the above|my (?:last|"
                        r"previous))|spoke too soon|take (?:that|it) back|"
                        r"(?:isn't|is not|aren't|are not|not) (?:green|passing) any ?more|"
                        r"no longer (?:green|passing)|"
                        r"my (?:earlier|last|previous) (?:message|summary|update) was wrong|"
                        r"(?:i'm|i am|we're|we are) not done|not (?:done|ready|finished) yet|"
                        r"(?:this|it) (?:isn't|is not) ready|no,? wait|wait,? no|actually,? no|"
                        r"(?:that's|that is|it's) (?:a|just a|only a) guess|no idea (?:how|whether|if)|"
                        r"(?:hasn't|has not|haven't|have not|wasn't|was not|isn't|is not|aren't|weren't) "
                        r"(?:actually )?(?:been )?(?:actually )?(?:exercised|covered)(?![^.\n]*\b(?:(?:i'll|i will|i can|will|can) add (?:a |the |some )?tests?|to add (?:that|it|them|those|one|a test|tests)|follow-?up)\b)"
                        # not of another path the bug never reached: "isn't exercised by this bug"
                        r"(?!\s+by (?:this|the) (?:bug|issue|report|repro|ticket))|"
                        r"comment(?:ed)? out the\s+(?:\S+\s+)?(?:step|stage|job)\b|"
                        r"(?:this|that) is (?:the )?(?:output|log) (?:the|a|our) (?:customer|user|reporter|client)|"
                        r"(?:doesn't|does not|didn't|did not) (?:cover|exercise) (?:it|that|the (?:new|changed)|"
                        r"my change|the change|the fix)|(?:doesn't|does not) tell (?:us|me) anything|"
                        r"(?:doesn't|does not|don't|do not|won't|will not|didn't) (?:compile|build)|"
                        r"fails to (?:compile|build)|"
                        r"says nothing about|tells (?:us |me )?nothing|means nothing|"
                        r"not (?:confident|sure|convinced)\b(?:(?!\bbut\b)[^.]){0,40}\b(?:fixed|passing|pass|green|works|flaky|about (?:this|it)|"
                        r"(?:even |actually |really )?(?:ran|run|running|tested|executed|picked up|pick up)|"
                        r"includes?|covers?|contains?)|"
                        r"\billustrative\b|not from a real run|"
                        r"(?:(?<=n)'t|not) count(?:ing)? (?:that|this|it|them) as (?:a )?(?:pass(?:ing)?|green)|"
                        r"(?:before|until) (?:i|we) (?:call|count|declare) (?:it|this)|"
                        # the same, in German, French, Spanish and Portuguese
                        r"en fait,? non|je me suis trompé|me equivoqué|en realidad,? no|"
                        r"na verdade,? não|eu me enganei|me enganei|ich habe mich geirrt|"
                        r"doch nicht|stimmt nicht|"
                        r"jk|j/k|just kidding|oh wait|ok,? wait|(?<=\.\.\.)wait\b|(?<![\w\s,])wait\s*[,\u2014\u2013-]+\s*(?:the|that|that's|this|it|no)\b|"
                        r"assuming (?:the )?(?:\w+ )?(?:tests|suite|rest|others|ones)\b|"
                        r"(?:log|output) (?:got|was|is) (?:cut off|truncated)|in the sense that|"
                        r"(?:was|is) (?:for|on|from) the (?:commit|push|revision|sha) before\b|"
                        r"(?:for|on|from) an? (?:older|earlier|previous|stale) (?:commit|push|revision|sha)\b|"
                        r"(?:hasn't|has not|haven't|have not) had (?:a |any )?(?:ci |test )?runs?\b|"
                        r"(?:didn't|did not|haven't|have not) (?:do|done|run) (?:a |the )?full (?:run|suite|test run)|"
                        r"fixing (?:that|it|them|those|this) now|before any tests? (?:starts?|runs?|ran|could run)|"
                        r"(?:edit|update)\s*:\s*(?:not quite|actually|wrong|nope|no)\b|(?<=\.\.\.)ok,? no\b|ok,? no,? (?:they|it|that|wait)\b|no,? (?:they|it) (?:don't|doesn't|didn't)\b|"
                        r"forgot to save|grain of salt|well,? i think so|ran out of time|well,? mostly|"
                        r"(?<!since the )(?<!since )last (?:green|passing|successful) (?:ci|run|build|pipeline)|"
                        r"you (?:may|might) want to run the (?:full|whole|entire) (?:suite|test suite)|"
                        r"(?:i'll|i will|will) (?:do|run|kick off) the (?:full|whole|entire) (?:run|suite|test suite)|"
                        r"(?:haven't|have not|didn't|did not) (?:pushed it or )?run anything|"
                        r"(?:didn't|did not|haven't|have not) (?:yet )?get to (?:running|run|test(?:ing)?)|"
                        r"expect (?:some |a few |more )?failures|"
                        r"(?:that's|that is|this is|that was) (?:the |a )?(?:run|output|log|result) from before|"
                        r"(?:haven't|have not|didn't|did not) (?:tried|tested|run) (?:it )?(?:on|in|with|against) the\b|"
                        r"no (?:ci )?run for this\b|(?:pipeline|ci|workflow)s? (?:is|are|was|were) disabled|"
                        r"(?:aren't|are not|isn't|is not|haven't been|hasn't been|not yet) merged into\b|"
                        r"no llegué a (?:tocar|correr|ejecutar)|não cheguei a (?:rodar|testar|tocar)|"
                        r"(?:then|after that|afterwards),\s+(?:[^.;]{0,40}?,\s*)?(?:i\s+)?(?:switched|changed|renamed|refactored|"
                        r"moved|edited|tweaked|rewrote|reworked)\b(?![^.;]*\b(?:re-?ran|and ran|ran (?:it|them|the)|tests?|suite)\b)|"
                        r"korrektur\s*:|correction\s*:|corrección\s*:|correção\s*:|doch fehl|corrijo\b|me confund[ií]|"
                        r"(?:actually|wait|oh),? hold on|(?:ci|the pipeline|the build|jenkins) (?:just )?flagged|"
                        r"pushed (?:one more|another|a (?:new|follow-up|further)) commits? (?:after|since)|"
                        r"(?:ci|it) hasn't (?:picked (?:it|that|this) up|run on (?:it|that|this))|"
                        r"that (?:run|build|pipeline|job|ci run) (?:was|ran) (?:on|from|for|against)\b(?!\s+(?:this|my|the (?:fix|latest|final|last|new|current)|head)\b)|"
                        r"(?:the ones|those|which) (?:i|we)\s{2,}'d\b|"
                        r"(?:i'd|i would|you (?:might|may) want to|worth|let me) double-?check(?:ing)?|"
                        r"(?:wasn't|was not|weren't|were not) (?:actually |even )?(?:picked up|collected) in (?:that|the|this) run\b|"
                        r"(?:didn't|did not) (?:bother (?:with|running)|run) the rest|(?:skipped|skipping) the rest\b|"
                        r"the rest\b[^.;\n]{0,60}?\bso (?:i )?(?:skipped|didn't run|did not run) (?:it|them)\b|"
                        r"(?:probably|likely|maybe|possibly|might be|may be|could be) (?:something )?flaky|"
                        r"(?:isn't|is not|wasn't|was not|aren't|are not) (?:really |actually |fully )?(?:verified|tested)|"
                        r"(?:haven't|have not|hasn't|didn't) had (?:a |the )?(?:chance|time) to (?:run|test|try)|"
                        r"(?:i|we) had to\s{2,}(?:them|it|those|these)\b|had to\s{2,}(?:the|test\s{2,})\b|"
                        r"(?:i|we|had to)\s+(?:commented out|removed|deleted|disabled|skipped)\s+(?:\S+\s+)?(?:because|since|as|for now|while|so)\b|"
                        r"(?:haven't|have not|didn't|did not) (?:actually )?(?:seen|watched) (?:a|the|any) run|"
                        r"queued for (?:tonight|later|tomorrow|the nightly)|since then (?:i've|i have|we've|we have)\b(?!\s+(?:re-?run|rerun|ran|run|tested)\b)|"
                        r"(?:may|might|could) have missed\b|(?:was|were) cut from\b|"
                        r"\b(?-i:[A-Z][a-z]+) ran (?:the full suite|the suite|the tests|it) on (?:his|her|their) (?:machine|laptop|box)|"
                        r"got cancell?ed|never finished|(?:were|was) cancell?ed|"
                        r"(?:noch )?nicht (?:erneut |wieder )?(?:ausgeführt|laufen lassen|getestet)|"
                        r"(?:it's|it is|that's|that is) (?:just|only) the build|(?:isn't|is not|aren't|are not) wired up|"
                        r"need to (?:revisit|come back to|fix) (?:(?:those|them|these|it|this) )?before\b|"
                        r"(?:leav(?:e|ing)|left) (?:it|them|those) commented out|once (?:i|we) comment(?:ed)? out|"
                        r"(?:i'll|i will|will) (?:kick (?:it|that|the rest) off|run (?:it|the rest|them) (?:after|later|tomorrow|tonight))|"
                        r"(?:hadn't|had not|didn't|did not) checked? out (?:my|the right) branch|re-?running (?:it |them )?on the right\b|"
                        r"left (?:them|those|it|these) out\b|"
                        r"(?:had to|i|we)\s+(?:mark(?:ed)?|skip(?:ped)?|disabled?|comment(?:ed)? out)\s+(?:them|those|these|the \w+ (?:tests?|specs?))\b|"
                        r"(?:running|doing|kicking off|starting) (?:the )?(?:\w+ )?(?:tests?|test target|suite|test suite|specs?) next|"
                        r"(?:tests? )?not (?:yet )?run\b(?! into)|well\W+everything (?:except|but)\b|"
                        r"everything (?:except|but) (?:the )?[\w-]+ (?:tests|specs|suite)\b|"
                        r"no results? (?:there|for (?:that|it|them))|"
                        r"(?:that's|that is|that was|this is) from (?:the |a |an |my )?(?:main|master|other|another|different|old|previous|wrong)\b|"
                        r"stops? (?:on|at) the first failure|stopped (?:on|at) the first failure|(?:green|passes|passing) up to\b|"
                        r"ne (?:les |l')?ai pas (?:relancés?|relancé)|"
                        r"^\W*(?:today|tomorrow|next|hoy|heute|hoje|oggi)\s*:\s*(?:run|finish|fix|re-?run|correr|rodar)\b[^\n]*\b(?:tests?|suite|specs?|e2e)\b|"
                        r"not (?:really |actually |fully |properly )?(?:verified|tested)|"
                        r"(?:on|in) (?:my other|another|a different|the other) (?:branch|repo|project|worktree|checkout)|"
                        r"en mi otra rama|na minha outra (?:branch|rama)|auf (?:meinem|einem) anderen branch|"
                        r"(?:the|that|this) run (?:is|was) (?:pre-\w+|on main|on master|on the base|from main|from before)|(?:ran|run|re-?ran)\s+(?:the\s+)?(?:full\s+|whole\s+|entire\s+)?(?:suite|tests?|specs?)\s+on\s+(?:main|master|develop|trunk)\b(?!\s+(?:after|with|once|(?:and|&) on (?:the|my|this))\b)|"
                        r"(?:sur|auf) la branche (?:de|d')|pas la mienne|" + _NOT_MINE + r"|"
                        r"(?:je )?n'ai pas (?:encore )?(?:relancé|lancé|exécuté|testé)|"
                        r"steht noch aus|stehen noch aus|\bnur (?:die )?[\w-]+ (?:laufen lassen|getestet)|"
                        r"(?:haven't|have not) (?:reproduced|run|tried) it on my (?:branch|machine)|"
                        r"(?:about |roughly |nearly |almost )?(?:a third|half|a quarter|two thirds|(?<!\d)\d{1,2}%) of the (?:suite|tests)|"
                        r"will update (?:this|the) (?:comment|thread|pr|issue)|"
                        r"(?:está|estão|esta|está) desativad[oa]s?|deshabilitad[oa]s?|désactivée?s?|deaktiviert|"
                        r"só (?:rodou|rodaram|rodei)|solo (?:corrió|corrieron|corrí)|corr[ií] solo\b|ejecut[ée] solo\b|rodei só\b|"
                        r"(?:habe|hab|haben) nur\b|(?:nur|zumindest) (?:die|den|das)\b[^.;\n]{0,60}\btests?\b|zumindest (?:die|den|das) in\b|j'ai (?:seulement|uniquement) (?:lancé|exécuté)|"
                        r"(?:\d+|alcuni|due|tre) (?:test )?(?:sono stati |erano )?saltati\b|"
                        r"(?:that|this) (?:was|is) (?:the |a |an )?(?:cached|old|stale|previous|earlier) (?:run|result|output|build)|"
                        # a part told after it: "that's `--project=chromium` only", "isn't the whole suite"
                        r"(?:that's|that is|that was|this is)\s+[^.;\n]{1,40}?\bonly(?=\s*(?:$|[-\u2013\u2014.,;:)(]))|"
                        r"(?:isn't|is not|wasn't|was not|not) (?:the|a) (?:whole|full|entire|complete) (?:suite|run|test suite|thing)|"
                        r"(?:weren't|were not|wasn't|was not|aren't|are not|isn't|is not) (?:part of|included in) (?:that|this|the) run|"
                        r"(?:isn't|is not|doesn't|does not|wasn't|was not|didn't|did not) (?:actually |really )?(?:testing|test|run|running) anything|"
                        # a skip the author put in: "I had to mark `test_x` with `@pytest.mark.skip`"
                        r"(?:i|we|i've|had to|have to)\s+(?:comment(?:ed)? out|x?skip(?:ped)?|disabled?)\s+(?:[,.;(\u2014-]|because|for now|while|since|so)|"
                        r"(?:i|we|i've|had to|have to)\s+(?:mark(?:ed)?|switch(?:ed)?|put|add(?:ed)?|slapped|stuck|decorated|"
                        r"changed)\s+(?:\S+\s+)?(?:with|to|as)\s+(?:\S+\s+)?(?:[,.;(\u2014-]|because|for now|while|since|so)|"
                        r"(?:i|we|i've)\s+(?:put|added|slapped|stuck)\s+(?:a\s+)?on\s+(?:them|it|those|while|because|for)\b|"
                        r"(?:i|we|i've)\s+(?:marked|skipped|disabled)\s+(?:it|them|that|this|those)\s{2,}(?:because|since|as|for now|while|so)\b|"
                        r"(?:are|were|is) (?:specs?|tests?|ones?) (?:i|we) (?:switched|changed|marked|turned|put)\b|"
                        r"forgot to remove|"
                        # other languages: "enfin, je crois", "no los corrí", "não rodei", "la deuxième fois"
                        r"enfin,? je (?:crois|pense)|(?:bueno|bom),? (?:creo|acho)|glaube ich|"
                        r"no (?:los |las |lo |la )?(?:corrí|ejecuté|probé|he corrido)|"
                        r"não (?:os |as |o |a )?(?:rodei|executei|testei|corri)|"
                        r"ne (?:les |l')?ai pas (?:lancés?|exécutés?|testés?)|"
                        r"(?:nicht|noch nicht) (?:laufen lassen|ausgeführt|getestet)|"
                        r"la deuxième fois|la segunda vez|na segunda vez|beim zweiten (?:mal|versuch)|redoing (?:it|the run|them)|mentira|brincadeira|(?:es|era) broma|c'est faux|quatsch|"
                        r"(?:edit|update)\s*:\s*nope|"
                        r"(?:that's|thats|that is|this is|that was|those are|these are) from before|as a baseline|"
                        r"(?:skipped|pending|ignored)(?: ones)? (?:are|were) (?:exactly )?the (?:ones|tests?|specs?) (?:we|that|i) (?:actually |really )?(?:care about|need|matter)|"
                        r"everything (?:i|we) ran\b|(?<!not just )(?<!not only )(?<!and not )the (?:bits|parts|pieces|files) (?:i|we) (?:touched|changed)\b|"
                        r"(?:specs?|tests?|ones) (?:i|we) stubbed(?: out)?\b|(?:specs?|tests?|ones) (?:i|we) (?:marked|skipped|disabled|xfailed|xfail'd)\b|"
                        r"\bif [^.;]{1,60}, that is\b|(?:juste )?avant (?:le|mon) dernier commit|before (?:the|my) (?:last|final|latest) (?:commit|push|edit)|"
                        r"(?:these|those|that|it) (?:are|is|were|was) (?:the |just )?cached results?|the green one (?:is|was)\b|"
                        r"(?:doesn't|does not|didn't|did not) cover (?:this|my|the) (?:branch|pr|mr|change)|"
                        r"that's the (?:module|package|file|code|part) my (?:change|fix) touches|(?:module|package|file) (?:my|this) change touches|"
                        r"falei cedo|hablé (?:demasiado )?(?:pronto|antes de tiempo)|j'ai parlé trop vite|zu früh gefreut|"
                        r"(?:foi|foram|fue|fueron) (?:pulad|omitid|saltad)[oa]s?|se (?:saltó|saltaron)|só o job|solo el job|"
                        r"before (?:its|their|the|any) tests (?:could|got to) run\b|stopped with (?:a )?compile error|"
                        r"(?:doesn't|does not|didn't|did not) reflect (?:these|the|my|this) changes?\b|\bnot this (?:workspace|repo|checkout)\b|"
                        r"^\W*(?:actually,?\s+)?correction(?=\s*:)|\b(?:was|were) (?:running|testing) (?:the |an )?(?:stale|old|outdated) (?:binary|build)\b|"
                        r"\bneeds? (?:a )?fix(?:ing)? before (?:merge|merging|we merge)\b|"
                        r"\bafter the (?:test )?run,?\s+(?:i\s+)?(?:applied|changed|made|pushed|added|edited|tweaked|renamed)\b|"
                        r"(?:i|we|i've)\s+(?:put|added|slapped|stuck)\s{2,}on(?=\s+(?:test\b|\s))|(?<!\b0 )(?<!\bgeen )\boverges?lagen\b|"
                        r"konnte ich (?:\w+ ){0,3}nicht (?:ausführen|starten|laufen lassen|testen)|\bnicht ausgeführt\b|\ba été annulée?\b|\bwurde abgebrochen\b|"
                        r"je n'ai pas pu (?:lancer|exécuter|faire tourner)|(?:didn't|did not|haven't|have not) (?:add|write)(?:ed)? (?:any )?tests? for (?:it|this|that)\b|"
                        r"zumindest laut|vor (?:meinem|dem) letzten commit|nicht mehr getestet|nothing (?:has|had) been run there\b|(?:ran|run|tested) (?:each|all|both) of them individually|laut \w+,? (?:der|die)\b|except (?:that )?the (?:\d+ )?(?:skips?|skipped|pending|xfails?)\b|"
                        r"(?:hab|habe|haben) (?:ich |wir )?(?:\w+ )?(?:ausgelassen|übersprungen|weggelassen)|(?<!\b0 )(?<!\bkeine )\b(?:ausgelassen|übersprungen)\b|"
                        r"(?:ik heb|we hebben|heb ik) alleen\b|j'ai (?:juste|seulement|uniquement) (?:lancé|exécuté|fait tourner)|"
                        r"(?:zelf )?niet (?:opnieuw |meer |nog )?(?:gecheckt|getest|gedraaid|uitgevoerd|laten draaien)|nog niet (?:laten )?(?:draaien|gedraaid|gedaan)|niet (?:kunnen |kon )(?:draaien|testen|uitvoeren)|(?:bom|bem|bueno|enfin|naja|well|ok),?\s+(?:quase|casi|presque|fast|almost|nearly)\s+(?:todos|todas|tous|toutes|alle|all)\b|continu(?:a|am) (?:a )?falh(?:ando|ar)\b|ainda não (?:rodaram|rodou|correram|foram executados)|todavía no (?:corrieron|se ejecutaron)|noch nicht gelaufen|pas encore (?:tourné|été lancés)|the skipped one is the (?:regression |new )?test for this (?:exact )?(?:bug|fix|change|issue)\b|(?:the )?failure must be\b|(?:those|they|these|it|that) still needs? (?:a )?(?:run|re-?run)\b|(?:hasn't|has not|haven't|have not) had a (?:pipeline |ci |test )?run\b|toch niet\b|doch nicht\b|finalement non\b|al final no\b|(?:ci|the pipeline|the tests?|the suite) on (?:main|master|trunk) (?:passed|is green|was green|went green)\b(?!\s+again\b|[^.\n]*\bafter (?:the |my )?merg)|(?:there's|there is) no (?:ci |pipeline )?run for (?:it|this|that|the branch|my branch)\b|(?:the )?commit before (?:my|the) (?:rebase|fix|change|last push)\b|(?:haven't|have not|didn't|did not) (?:yet )?push(?:ed)? the rebased\b|(?:è|sono) ancora in (?:attesa|corso|coda)|n'(?:ont|a) pas été (?:lancée?s?|exécutée?s?|joués?)|(?:schlägt|schlagen)\b[^.;\n]{0,60}\bfehl\b|(?:korrektur|correctie|correzione|correção|corrección)\s*:|(?:de|het) (?:run|build) van gisteren|op de vorige commit|(?:staat|staan) (?:nog )?in de wachtrij|moet nog door de pipeline|(?:hasn't|has not|haven't|have not|wasn't|was not) (?:been )?built yet\b|(?:der|den) (?:lauf|run|build) von gestern|vom vorherigen commit|noch in der warteschlange|(?:la|le) (?:run|build|pipeline) d'hier|(?:du|sur le) commit précédent|encore en file d'attente|(?:la|el) (?:ejecución|run|build|pipeline) de ayer|(?:del|en el) commit anterior|(?:todavía|aún) en (?:la )?cola|(?:o|a) (?:run|build|pipeline|execução) de ontem|(?:do|no) commit anterior|ainda na fila|(?:la|il) (?:run|build|pipeline) di ieri|(?:del|sul) commit precedente|ancora in coda|ainda (?:está|estão|esta) pendentes?|todavía (?:está|están) pendientes?|noch ausstehend|(?:est|sont) encore en attente|presque (?:tout|tous|toutes)\b|quase (?:tudo|todos|todas)\b|casi (?:todo|todos|todas)\b|[1-9]\d* en échec\b|no tests? (?:were|was|got) (?:executed|run)\b|falta(?:n|m)? (?:correr|ejecutar|lanzar|pasar|rodar|executar) (?:el resto|la suite|los tests|las pruebas|o resto|a suíte|os testes)|reste à (?:lancer|exécuter)|^\W*(?:edit|update|upd)\s*:[^\n]*?\b(?:was with|was only|[1-9]\d* (?:failures?|failing|failed)|still (?:fails?|failing|red))\b|(?<![\w-])(?:main|master|trunk)(?: branch)?(?:'s| is| was)\s+(?:\w+\s+)?green\b(?=[^\n]*\bneeds? (?:a )?rebase)|continúan? fallando|(?:that's|that is|this is|that was) from (?:the |a |an )?(?:run|build|ci run) before\b|(?:doesn't|does not|didn't|did not|don't think (?:it|that|this)) reflects? (?:the |these |my |this )?(?:current |latest |new )?(?:head|changes?|code|commit|branch)\b|i test li (?:lancio|eseguo|faccio girare)|non (?:li |le |l'|lo |la |gli )?(?:ho|abbiamo) (?:ancora )?(?:eseguit|lanciat|fatt[oi] girar|provat|testat)\w*|"
                        r"(?:lancio|lancerò|eseguo|eseguirò) (?:i test |la suite )?(?:domani|dopo|più tardi|stasera)|\balleen (?:de|het) \w+ (?:suite|tests?)\b|\bde volledige (?:\w+ )?nog niet\b|"
                        r"(?:a |the )?re-?run (?:turned up|showed|revealed|hit|caught)|call it flaky|"
                        r"(?:ainda|todavía|todavia|noch|encore) (?:quebra|falha|falla|fehl|échoue)\w*|sigue fallando|"
                        r"broke (?:\d+|two|three|four|five|six|several|a few|some|a couple of) "
                        r"(?:others|other (?:tests|specs|ones))|(?:i'm|i am|we're|we are) reverting|"
                        r"(?<!if )(?<!whether )(?:ci|the pipeline|the build|github actions|the matrix) disagrees|"
                        r"not (?:100%|a hundred percent|entirely|completely|totally|fully) (?:sure|certain|confident)"
                        r"(?!\s+(?:that\s+)?the\s+(?!tests?\b|suite\b|fix\b|build\b|ci\b)\w+)|"
                        r"(?:wouldn't|would not|don't|do not|can't|cannot) (?:fully |really |entirely |completely )?(?:trust|rely on) (?:it|that|this|"
                        r"the (?:result|run|pass|green))|"
                        r"(?:that's|that is|that was|which is|which was) (?:all|the only (?:thing|one|ones|tests?|"
                        r"suite|tier|part|set|level|layer|module|package|file)) (?:i|we) (?:ran|run|tested|executed|changed|touched))\b", re.IGNORECASE)
# a run of no tests, anywhere: "running 0 tests", "collected 0 items", "[no tests to run]"
_ZERO_TESTS = compiled_on_use(r"\b(?:running|ran|collected|executed) 0 (?:tests?|items)\b"
                         r"|\b0 selected\b|\bno tests ran\b|\b(?:didn't|did not) collect anything\b"
                         r"|\bcollected nothing\b|\b0 pass(?:ed)?,? 0 fail(?:ed|ures?)?\b"
                         r"|\bok \(0 tests\b|\bzero tests\b|\bno tests to run\b|\b0 passing\b|\btests run: 0,|"
                         r"\bnone (?:were|was|got) run\b|\bnone of them (?:actually |really |ever )?ran\b|\bno (?:connected devices|simulator|emulator)\b|#\s*tests 0\b|\bglob (?:didn't|did not) match anything\b|\btests:\s*0 total\b|\b0 of 0 total\b|\btest target is empty\b|\b0 (?:tests?|items) collected\b|\bno test files found\b|"
                         r"\b(?:doesn't|does not|don't|do not) have (?:a |any )?tests?(?: modules?| suites?| harness| target)?\b|"
                         r"\b(?:there's|there is) no test (?:harness|module|suite|target)\b|\bno test is available\b|"
                         r"\b(?:there aren't|there are no|there are not) (?:any )?automated tests\b|"
                         r"\bno test coverage for\b|\bnothing automated to run\b|\b(?:haven't|have not) written (?:any )?tests\b|"
                         # a collection is no run: "pytest --collect-only: all 412 tests collect fine"
                         r"--collect-only\b|--listTests\b|\bcollect fine\b|\b(?:rspec|rake spec|pytest|behave|cucumber|robot)\b[^\n`]*?\s--dry-run\b|"
                         # a run that cannot fail
                         r"continue-on-error:\s*true|allow_failure:\s*true|--passWithNoTests\b|"
                         r"\b(?:doesn't|does not|don't|do not) have any tests\b|\bhas no tests\b|\bthere are no tests\b|"
                         r"\bexecuted 0 out of \d+ tests?\b|\bno test (?:runner|script|suite|setup|harness)\b(?:\s+(?:is\s+)?(?:set up|configured|in (?:this|the) repo))?|"
                         r"-DskipTests\b|-Dmaven\.test\.skip=true\b|\bgradlew? (?:\S+ )*-x test\b|\b0 (?:examples|specs),|\b0 tests,"
                         r"|\bnothing (?:actually |really )?(?:ran|was run|got run|executed|was executed)\b"
                         r"|\b0 passed\b(?!, 0 total)(?![^\n]*\b[1-9]\d* (?:passed|failed))|\btests:\s+0 passed, 0 total\b"
                         r"|\bno tests? (?:were )?(?:collected|found|matched)\b", re.IGNORECASE)
# tests failing now, told after a claim: "now 3 tests in `sync.test.ts` fail"
_TESTS_FAIL = compiled_on_use(rf"\bthe run errors (?:out|at collection|during collection|on import)\b|"
                         rf"\b(?:tests?|specs?|cases?|suites?|{RUNNER}|{KINDS}\s+(?:jobs?|suites?|runs?)|"
                         rf"e2e|ci(?:\s+run)?|matrix)\b[^.;]{{0,40}}?\b(?:fail|fails|failed|started failing|"
                         r"(?:are|is|still) failing|broke|break)\b", re.IGNORECASE)
# a part of the suite named as its kind: "All the smoke tests passed"
_A_PART = compiled_on_use(r"\b(?:smoke|sanity)\s+$", re.IGNORECASE)
# what an admission must be about to take back a claim: the tests, CI, a run of them
_OF_THE_TESTS = compiled_on_use(rf"{TEST_CONTEXT.pattern}|\b(?:them|they|it|anything|everything|the rest|results?|runs?|runners?|"
                           rf"{KINDS}\s+(?:tests?|specs?|suites?|jobs?)|e2e|workspaces?|packages?|"
                           r"crates?|targets?|"
                           r"envs?|platforms?|of the (?:\d+|two|three|four|five|six|seven|eight|"
                           r"nine|ten))\b", re.IGNORECASE)


# a pasted run's own words for a failure
_OUTPUT_FAILED = compiled_on_use(r"(?-i:\bFAIL(?:ED|URE|S)?\b)(?!:?\s*0\b)|\b[1-9]\d* (?:failed|failing|errors?)\b"
                                 r"(?!\s+(?:tests?|specs?|ones?)\b)|\b(?:failed|failures|errors)\s*[:=]\s*[1-9]"
                                 r"|\bnot ok \d", re.IGNORECASE)
# what tells of the state since: "Fixed the fixture; now 48 pass"
_SINCE = compiled_on_use(r"\b(?:fix(?:ed|es)?|resolved|addressed|now|after|afterwards|then|re-?ran|rerun|"
                         r"re-?running|second|again)\b", re.IGNORECASE)
_GO_RAN = compiled_on_use(r"^\s*(?:ok|FAIL|---|===)\s", re.MULTILINE)


# a run of a selection of the suite, told by its own counts: "241 filtered out", "(166
# excluded)", "2 of 143 total", "14 passed, 342 skipped"
_SELECTED = compiled_on_use(r"\b[1-9][\d,]* (?:deselected|filtered out|excluded)\b|(?m-i:^\s*[\w.-]+: SKIP\b)"
                            r"|\b(?P<ran>\d+) (?:of|successful,) (?P<all>\d+) total\b"
                            r"|\bin watch mode\b", re.IGNORECASE)
# a filter in the command: "-k 'not slow'", "--onlyChanged", "-run TestInvoice" (a part, unless
# the whole suite is told as well: "... → 4 passed, and the full file passes too")
_FILTERED = compiled_on_use(r"\b(?:jest|vitest)\b[^`\n]*\s-[ot]\b|\b(?:npm|yarn|pnpm|bun) (?:run )?test -- (?!-)[\w./*-]|"
                            r"\bctest\b[^`\n]*\s-R\b|--match\b|--gtest_filter[\s=]|(?:^|[\s`])(?:-k|--grep|--testNamePattern|--spec|-run|--only-?changed|--changed|--testsuite|--group|"
                            r"--findRelatedTests|--filter|--tests|--exclude)[\s=]+[\"'`]?[\w*./:@-]|\bpnpm -F\s+\S|[\s`]-short\b"
                            r"|\s--(?:lf|last-failed|ff|failed-first|only-failures|onlyFailures)\b"
                            r"|[\s`](?:--project|--tag|--testPathPattern)[\s=]+[\"'`]?[\w*./:=~!-]"
                            r"|\bplaywright test[ \t]+(?!-)[\w./-]+(?=[\s`'\"]|$)|\s-Dtest=[\w#*.,-]|--onlyChanged\b|(?:^|[\s`])--watch(?=[\s`]|$)|(?:^|[\s`])--changed(?=[\s`]|$)|\bran all test suites matching\b", re.IGNORECASE)
_WHOLE_TOO = compiled_on_use(r"\b(?:full|whole|entire|complete) (?:suite|test suite|run|test run|file|thing|workspace|"
                             r"repo|repository|project|codebase|`)"
                             r"|\bthe rest\b|\ball (?:the )?tests\b(?! passed!)(?=[^.;\n]*\b(?:too|as well|also)\b)|\ball (?:two|three|four|five|six|\d+) suites\b",
                             re.IGNORECASE)
_PASSED_SKIPPED = re.compile(r"\b(\d+) passed\b[^\n]*?\b(\d+) skipped\b|\b(\d+) skipped\b[^\n]*?\b(\d+) passed\b",
                             re.IGNORECASE)


def _whole_told(text: str) -> bool:
    """TEXT tells of the whole suite beside a filtered run: "the full suite passes too", or
    go's every package unfiltered ("`go test -run X` 50/50; `go test -race ./...` ok")."""
    return _WHOLE_TOO.search(text) is not None \
        or (_GO_EVERY_PACKAGE.search(text) is not None and _GO_SHORT.search(text) is None)


def _a_selection(text: str, filters: bool = True) -> bool:
    """TEXT shows a run of part of the suite: its counts say most of it was left out, or (with
    FILTERS) its command filters the tests."""
    if filters and _FILTERED.search(text) and not _whole_told(text):
        return True
    for m in _SELECTED.finditer(text):
        if m["all"] is None or int(m["ran"]) < int(m["all"]):
            return True
    for m in _PASSED_SKIPPED.finditer(text):
        passed, skipped = (m[1], m[2]) if m[1] else (m[4], m[3])
        if int(skipped) > int(passed):
            return True
    return False


def _bad_run(block: str) -> bool:
    """BLOCK pastes a run of no tests, of a selection, or a run that failed, now."""
    now = _WAS.sub("", _EARLIER.sub("", block))
    if _ZERO_TESTS.search(now) or ("[no test files]" in now and not _GO_RAN.search(now)) \
            or _a_selection(now) or _FLAKY_NOW.search(now):
        return True
    return (block.lstrip().startswith(("```", "~~~", "$", "[", "=", "Failed!", "FAIL", "Tests"))
            or "\n" in block.strip()) and _OUTPUT_FAILED.search(now) is not None


def _beside_a_bad_run(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(start, end) of the prose that speaks of a run of no tests or of failures pasted next
    to it: the paragraph after it, or the lines right after its code block (unless they tell
    of a fix or a run since), and the paragraph that leads into it with a colon; not when what
    leads in tells it as before."""
    runs = [(m.start(), m.end()) for m in _FENCE.finditer(text)]
    found: list[tuple[int, int]] = []
    for i, (a, b) in enumerate(spans):
        lead = text[spans[i - 1][0]:spans[i - 1][1]] if i else ""
        if _EARLIER.search(lead) or _LEAD_IN_WHEN.search(lead.rstrip().rsplit("\n", 1)[-1]):
            continue
        if _bad_run(text[a:b]):
            # what leads into it with a colon, or one line just before it ("mvn verify
            # done, 0 failures" above a pasted BUILD FAILURE)
            if lead.rstrip().endswith(":") or (lead.strip() and "\n" not in lead.strip()):
                found.append(spans[i - 1])
            # (not a paragraph telling the whole suite's run: "The full suite also passes")
            if i + 1 < len(spans) and not _SINCE.search(text, *spans[i + 1]) \
                    and not (_a_selection(text[a:b]) and _WHOLE_TOO.search(text, *spans[i + 1])):
                found.append(spans[i + 1])
        # a code block with prose after it in the same paragraph
        for fa, fb in runs:
            if a <= fa < b and fb < b and _bad_run(text[fa:fb]) \
                    and not _SINCE.search(text, fb, b):
                found.append((fb, b))
    return found


# a test named as failing now: "`test_refund_partial` fails again"
_NAMED_FAILS = compiled_on_use(rf"(?:{_TEST_NAME.pattern})`?\s+(?:now\s+|still\s+)?(?:fails|is failing|"
                               r"started failing|broke|breaks)\b", re.IGNORECASE)


def _named_test_fails(sentence: str) -> bool:
    return _NAMED_FAILS.search(sentence) is not None and not _EARLIER.search(sentence) \
        and not _FAILURE_BEHIND.search(sentence)


def _line_end(text: str, at: int) -> int:
    """Where the line holding AT ends."""
    end = text.find("\n", at)
    return len(text) if end < 0 else end


def _fails_inline(sentence: str) -> bool:
    """SENTENCE (quotes and inline code as written) pastes a run that failed, now: "I reran
    and got `2 failed, 521 passed`"."""
    return "`" in sentence and not _EARLIER.search(sentence) \
        and _run_failed(_WAS.sub("", sentence)) and not _FAILURE_BEHIND.search(sentence)


_BY_HAND = compiled_on_use(r"\b(?:by hand|manually|click(?:ed)? through)\b", re.IGNORECASE)


def _by_hand(sentence: str) -> bool:
    """SENTENCE tells of a check by hand, and names no tests: what it did not check is no
    admission about them ("I haven't clicked through the search UI by hand")."""
    return _BY_HAND.search(sentence) is not None and _NAMES_TESTS.search(sentence) is None


# what puts a failure behind the work: fixed since, or the first of several tries
_FAILURE_BEHIND = compiled_on_use(r"\b(?:was|were|had been|used to|fix(?:ed|es)|resolved|addressed|"
                             r"at first|first (?:run|try|attempt|time)|1st|2nd)\b", re.IGNORECASE)


def _withdraws(sentence: str) -> bool:
    """SENTENCE takes back what the lines above it claim, now: the whole told as not passing
    or a refusal to call it so, an admission that the tests did not run, tests failing now, a
    retraction; not in a clause it places earlier ("CI was red before the fix"). A run of no
    tests is read by find_claims, over the whole text."""
    about_tests = _OF_THE_TESTS.search(sentence) is not None and not _by_hand(sentence)
    for clause in _clauses(sentence):
        if _EARLIER.search(clause):
            continue
        if _RETRACTED.search(clause) or _NOT_WHOLE.search(clause) or _flaky_now(clause) \
                or (about_tests and _UNVERIFIED.search(clause)) \
                or (_TESTS_FAIL.search(clause) and _fails_now(clause)):
            return True
    return False


def _output_claims(text: str, blocks: _Blocks, seen: set[int]) -> list[Claim]:
    """The first line of each block of a test run's output, or of a list of ticked checks,
    that shows the checks passing: read in code blocks too, and only where nothing in its
    block failed or is still open."""
    shown = _SOURCE_FENCE.sub(_blank, text)
    shown = _UNTICKED.sub(_blank, _QUOTE_LINE.sub(_blank, shown))
    shown = _INLINE_CODE.sub(_blank_unless_run, _PROSE_QUOTE.sub(_blank_unless_runs_words, shown))
    found: list[Claim] = []
    claimed: set[int] = set()
    fences = _lead_ins(text)
    starts = [f[0] for f in fences]
    at = 0
    raw = text.split("\n")
    previous = ""  # the last line with words on it before this one, as written
    for number, line in enumerate(shown.split("\n"), start=1):
        start, at = at, at + len(line) + 1
        if number > 1 and raw[number - 2].strip():
            previous = raw[number - 2]
        lead_in = raw[number - 1] + "\n" + (previous if previous.rstrip().endswith(":") else "")
        if number in seen or not line.strip() or line.rstrip().endswith("?") \
                or blocks.of(start) in claimed:
            continue
        # a ticked row counts where its block names the tests, CI or a runner
        rule = _claims_in(line, line, _OUTPUT_RULES, named=blocks.names_tests(start))
        if rule is None or blocks.open_or_failed(start) or _UNVERIFIED.search(line) \
                or _a_selection(line) \
                or blocks.failing.get(blocks.of(start)) or blocks.of(start) in blocks.unfixed \
                or any(_TAKEN_BACK.search(c) for c in _clauses(line)[1:]) \
                or _introduced_as_other(fences, starts, start, lead_in,
                                        bool(blocks.failing or blocks.unfixed)):
            if rule is not None and _LEAD_IN_WHEN.search(lead_in):
                claimed.add(blocks.of(start))  # the rest of a run introduced as before is it too
            continue
        found.append(Claim(rule, number, " ".join(line.split())[:300], start))
        claimed.add(blocks.of(start))
    return found


_TABLE_ROWS = compiled_on_use(r"^[ \t]*\|.*\|[ \t]*\n[ \t]*\|[ \t:|-]*-[ \t:|-]*\|[ \t]*\n(?:[ \t]*\|.*\|[ \t]*(?:\n|$))+",
                              re.MULTILINE)
_PASSED_COLUMN = compiled_on_use(r"\s*(?:passed|passing|pass|ok)\s*", re.IGNORECASE)
_FAILED_COLUMN = compiled_on_use(r"\s*(?:failed|failing|fail|failures|errors?)\s*", re.IGNORECASE)
_RULE_OF_RUNS = next(r for r in RULES if r.id == "CLM012")


def _table_claims(text: str, seen: set[int]) -> list[Claim]:
    """A table of runs with a passed and a failed column where every row passed some and
    failed none: "| unit | 1,412 | 0 |" under "| Suite | Passed | Failed |"."""
    found: list[Claim] = []
    for table in _TABLE_ROWS.finditer(text):
        lines = table.group(0).rstrip("\n").split("\n")
        cells = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
        header, rows = cells[0], cells[2:]
        passed = [i for i, c in enumerate(header) if _PASSED_COLUMN.fullmatch(c)]
        failed = [i for i, c in enumerate(header) if _FAILED_COLUMN.fullmatch(c)]
        if len(passed) != 1 or not failed or not rows:
            continue
        counts = [[row[i].replace(",", "") if i < len(row) else "" for i in (passed[0], *failed)]
                  for row in rows]
        if all(c[0].isdigit() and int(c[0]) > 0 and all(f in ("0", "-", "") for f in c[1:])
               for c in counts):
            line = text.count("\n", 0, table.start()) + 3
            if line not in seen:
                at = table.start() + sum(len(x) + 1 for x in lines[:2])
                found.append(Claim(_RULE_OF_RUNS, line, " ".join(lines[2].split())[:300], at))
    return found


def _introduced_as_other(fences: list[tuple[int, int, str, bool]], starts: list[int], at: int,
                         line: str, failing: bool) -> bool:
    """AT is in a code block whose lead-in says it is not this work's run, or a log being
    discussed in a message that tells of a failure (FAILING); out of a code block, LINE (the
    line AT starts, and the one before it if that ends with a colon) is its lead-in."""
    i = bisect.bisect_right(starts, at) - 1
    fenced = i >= 0 and fences[i][0] <= at < fences[i][1]
    if fenced:
        _start, _end, lead_in, leads_in = fences[i]
        return bool(_LEAD_IN.search(lead_in) or (leads_in and _LEAD_IN_WHEN.search(lead_in))
                    or (lead_in.rstrip().endswith(":") and _LEAD_IN_COLON.search(lead_in))
                    or (failing and _DISCUSSED.search(lead_in)))
    return failing and _DISCUSSED.search(line) is not None


def _lead_ins(text: str) -> list[tuple[int, int, str, bool]]:
    """(start, end, lead-in, leads in) of each code block of TEXT: the prose line before it,
    and whether that line leads into it ("Before my change:", or no blank line between)."""
    found = []
    for m in _FENCE.finditer(text):
        before = text[:m.start()].rstrip(" \t")
        line = re.split(r"(?<=[.!?])\s+", before.rstrip().rsplit("\n", 1)[-1])[-1]
        line = _INLINE_CODE.sub(_blank, line)  # "fixed it in `client.py`" names no client
        found.append((m.start(), m.end(), line,
                      line.rstrip().endswith(":") or not before.endswith("\n\n")))
    return found


# 'NO RECEIPT' named only to be declined: "I won't say NO RECEIPT", "NO RECEIPT is not needed"
_DECLINED_BEFORE = re.compile(
    r"(?:\b(?:won't|will not|wouldn't|would not|don't|do not|didn't|did not|not|never|no need "
    r"to|needn't|cannot|can't)\s+(?:need\s+to\s+|have\s+to\s+)?(?:say|write|use|claim|give|"
    r"report|declare|invoke|reach for|resort to)|\b(?:instead of|rather than|no need for|"
    r"without)(?:\s+(?:saying|writing|using|a|an))?)[\s*_\"'`]*$", re.IGNORECASE)
_DECLINED_AFTER = re.compile(
    r"^[\s*_\"'`]*(?:(?:is|does|would be)\s+not|isn't|doesn't|wouldn't be)\s+(?:apply|applicable|"
    r"needed|necessary|relevant|required|warranted|the case)\b|^[\s*_\"'`]*(?:is\s+)?n/a\b",
    re.IGNORECASE)


def says_no_receipt(text: str) -> bool:
    """The contract's honest exit: 'NO RECEIPT', in capitals, outside quotes and code, and not
    named only to be declined ("I won't say NO RECEIPT", "NO RECEIPT is not needed")."""
    read = unquoted(normalised(text))
    return any(not _DECLINED_BEFORE.search(read[:m.start()])
               and not _DECLINED_AFTER.match(read[m.end():])
               for m in re.finditer(r"\bNO RECEIPT\b", read))
