"""CI and test-runner configuration: escape hatches that let a red build look green.

One set of rules (SKP008) over four kinds of file, each lexed its own way: YAML, INI, TOML,
Makefiles (``#`` comments, strings kept: commands are often quoted), package.json, the JS
configs of jest, vitest and playwright, and conftest.py.
"""

from __future__ import annotations

import glob
import re
from collections.abc import Sequence

from hooks.skips.rules import LazyRegex
from hooks.skips.rules import Pack
from hooks.skips.rules import Rule

WORKFLOW = ".github/workflows/ci.yml"
_PYTEST_CONFIG = r"(^|/)(pytest|tox|setup)\.(ini|cfg)$|(^|/)pyproject\.toml$"


_DEFAULTS = {"files": "test_*.py", "functions": "test", "classes": "Test"}


def _default_dropped(lines: Sequence[str], _text: str, line: int, _col: int) -> bool:
    """A python_files/functions/classes line whose values leave out pytest's default (a
    pattern on the lines below, a TOML array, confirms nothing)."""
    m = re.search(r"python_(files|functions|classes)[\"']?\s*=(.*)", lines[line - 1])
    if not m:
        return False
    values = [v for v in re.split(r"[\s,\[\]\"']+", m.group(2).split("#", 1)[0]) if v]
    return bool(values) and _DEFAULTS[m.group(1)] not in values


def _testpaths_missing(lines: Sequence[str], _text: str, line: int, _col: int) -> bool:
    """Every path a ``testpaths`` line names is missing from the work tree (the hook runs at
    its root). A line that names none (a TOML array on the lines below) confirms nothing."""
    value = lines[line - 1].split("=", 1)[1] if "=" in lines[line - 1] else ""
    paths = [p for p in re.split(r"[\s,\[\]\"']+", value.split("#", 1)[0]) if p]
    return bool(paths) and not any(glob.glob(p) for p in paths)

_SWALLOWED = LazyRegex(r"\|\|\s*(?:true|:)(?=\s*(?:$|[;&|)#\"'\]]))")


def _hides_a_check(lines: Sequence[str], _text: str, line: int, _col: int) -> bool:
    """The command an ``|| true`` guards runs tests or checks: ``pytest || true`` hides a red
    build, ``mocha && (coveralls || true)`` and ``npm ls ||:`` do not."""
    from hooks.skips.packs import ci_steps

    return any(ci_steps.runs_checks(ci_steps.guarded_command(lines, line, m.start()))
               for m in _SWALLOWED.compiled.finditer(lines[line - 1]))


def _step_runs_checks(lines: Sequence[str], text: str, line: int, col: int) -> bool:
    from hooks.skips.packs import ci_steps

    return not ci_steps.action_input(lines, line) and \
        not ci_steps.step_may_fail_harmlessly(lines, line, text, col)


def _not_an_action_input(lines: Sequence[str], _text: str, line: int, _col: int) -> bool:
    """Not a key under a step's ``with:``: ``allow_failure: true`` passed to a third-party
    action is that action's parameter, not the pipeline's."""
    from hooks.skips.packs import ci_steps

    return not ci_steps.action_input(lines, line)


# set +e to read a command's status (PIPESTATUS, $?), the script then exiting with it or
# testing it: the status still decides
_STATUS_READ = LazyRegex(r"(\w+)=[\"']?\$(?:\?|\{PIPESTATUS\[\d+\]\}|\{?PIPESTATUS\b)")
_STATUS_EXIT = LazyRegex(r"\bexit\s+[\"']?\$\{?PIPESTATUS\b")


def _errexit_dropped(lines: Sequence[str], _text: str, line: int, _col: int) -> bool:
    """``set +e`` whose script does not read the status back and exit with (or test) it."""
    below = lines[line - 1:line + 20]
    if any(_STATUS_EXIT.search(t) for t in below):
        return False
    for text in below:
        m = _STATUS_READ.search(text)
        if m is None:
            continue
        used = re.compile(rf"(?:\bexit\s+|\[\[?\s*|\btest\s+|\(\(\s*)[\"']?\$?\{{?"
                          rf"{re.escape(m.group(1))}\b")
        if any(used.search(t) for t in below):
            return False
    return True


ALLOW_LIST_KEY = LazyRegex(r"^\s*allow_failures\s*:")


def allow_list_key_of(lines: Sequence[str], line: int) -> int | None:
    """The line of the allow-list key whose entry LINE is, or None."""
    from hooks.skips.packs import ci_steps

    key = ci_steps.list_key_line(lines, line)
    return key if key is not None and ALLOW_LIST_KEY.search(lines[key - 1]) else None


def _allow_list_entry(lines: Sequence[str], _text: str, line: int, _col: int) -> bool:
    return allow_list_key_of(lines, line) is not None


# Each runner's own way to leave tests out of a run: (runner, the words that must come before
# the option on the command (None: the option alone is the runner's), the option with what it
# deselects). A row per runner; the rule below is built from the table.
DESELECTIONS: tuple[tuple[str, str | None, str], ...] = (
    # libtest's --skip comes after `--` (cargo hack's own --skip drops a feature, no test)
    ("libtest (cargo test -- --skip)", r"(?<![\w-])cargo\s.*\s--(?:\s|$)",
     r"--skip[\s=]+\S+"),
    ("cargo nextest", r"\bnextest\b", r"(?:-E|--filter-expr|--filterset)[\s=]+[\"']?[^\"']*?"
     r"\bnot\s+\S+"),
    ("go test", r"(?<![\w-])go\s+test\b|\bgotestsum\b", r"-{1,2}skip[\s=]+\S+"),
    ("mocha, vitest", r"\b_?mocha\b|\bvitest\b", r"--exclude[\s=]+\S+"),
    ("rspec", r"\brspec\b|\bSPEC_OPTS\b", r"--tag[\s=]+[\"']?~\S+|--exclude-pattern[\s=]+\S+"),
    ("maven surefire", None, r"-Dtest=[\"']?[^\s\"']*!\S*|-DexcludedGroups=\S+"),
    ("pytest -m", r"\bpy\.?test\b|\baddopts\b|\bPYTEST_ADDOPTS\b|\btox\b|\bnox\b",
     r"-m\s*[=\s]\s*(?P<q>[\"'])[^\"']*?\bnot\s[^\"']*(?P=q)"),
    ("ctest", r"\bctest\b", r"(?:-E|--exclude-regex)[\s=]+\S+"),
    ("phpunit", r"\bphpunit\b", r"--exclude-group[\s=]+\S+"),
    ("node --test", r"\bnode\b", r"--test-skip-pattern[\s=]+\S+"),
    ("playwright", r"\bplaywright\b", r"--grep-invert[\s=]+\S+"),
    ("dotnet test", r"\bdotnet\s+test\b", r"--filter[\s=]+[\"']?[^\s\"']*!=\S*"),
)
_DESELECTION = "|".join(f"(?P<d{i}>{option})" for i, (_, _, option) in enumerate(DESELECTIONS))
_RUNNER_BEFORE = [LazyRegex(r) if r else None for _, r, _ in DESELECTIONS]
_DESELECTION_AT = LazyRegex(r"(?<![\w-])(?:" + _DESELECTION + ")")


def _runner_deselects(lines: Sequence[str], _text: str, line: int, _col: int) -> bool:
    """An option of the table above follows its own runner on the command (continuation
    lines included): ``--skip`` after ``cargo test``, not after ``git rebase``."""
    from hooks.skips.packs import ci_steps

    for m in _DESELECTION_AT.compiled.finditer(lines[line - 1]):
        row = next(int(k[1:]) for k, v in m.groupdict().items() if v is not None
                   and k.startswith("d") and k[1:].isdigit())
        runner = _RUNNER_BEFORE[row]
        if runner is None or runner.search(ci_steps.guarded_command(lines, line, m.start())):
            return True
    return False


# Maven's -DskipTests, Gradle's -x/--exclude-task test (or check, which runs the tests),
# -Dtest.skip; each but with the value false
_BUILD_SKIPS = (r"-DskipTests\b(?!\s*=\s*false)|-D(?:maven\.)?test\.skip\b(?!\s*=\s*false)"
                r"|(?<![\w-])(?:-x|--exclude-task)[\s=]+[\"']?(?::?[\w-]+:)*(?:test|check)\b")
_SKIP_FLAGS = LazyRegex(_BUILD_SKIPS)
_PUBLISHING = LazyRegex(r"(?<![\w:-])(?:deploy|publish\w*|release:perform)\b")


def _skip_not_after_tests(lines: Sequence[str], _text: str, line: int, _col: int) -> bool:
    """Not a deploy or publish step of a job whose earlier step already ran the tests."""
    from hooks.skips.packs import ci_steps

    return not (_PUBLISHING.search(lines[line - 1])
                and ci_steps.earlier_step_tests(lines, line, _SKIP_FLAGS.compiled))


# the entries of an allow-list are what it allows: a job added to an existing list
ALLOW_LIST_ENTRY = Rule(
    "SKP008", "a job added to the jobs allowed to fail",
    # the entry's first key is the construct: a version bumped in place (- rvm: 3.0 ->
    # - rvm: 3.1) adds no job to the list, a further '- rvm:' entry does
    r"^\s*-\s+\{?\s*[\w.-]+\s*:",
    "matrix:\n  allow_failures:\n    - rvm: ruby-head\n    - rvm: jruby\n",
    "matrix:\n  include:\n    - rvm: ruby-head\n    - rvm: jruby\n",
    sample=".travis.yml", files=r"(^|/)\.travis\.ya?ml$", confirm=_allow_list_entry)


RULES = (
    Rule("SKP008", "'|| true' hides the command's failure",
         # not after a clean-up command: 'rm -rf dist || true' hides no test failure
         r"^(?!\s*(?:-\s*)?(?:run:\s*)?[\"']?(?:sudo\s+)?(?:rm|rmdir|mkdir|kill|pkill|killall|"
         r"unlink|umount|docker\s+(?:rm|rmi|stop|kill)|git\s+branch\s+-[dD])\s).*?"
         r"(?P<at>\|\|\s*(?:true|:))(?=\s*(?:$|[;&|)#\"'\]]))",
         "jobs:\n  test:\n    steps:\n      - run: pytest -q || true\n",
         "jobs:\n  test:\n    steps:\n      - run: pytest -q && (coveralls || true)\n",
         sample=WORKFLOW, confirm=_hides_a_check),
    Rule("SKP008", "'set +e': later failures no longer stop the script",
         r"(?<![\w-])set\s+\+e\b",
         "test:\n\tset +e; pytest -q\n", "test:\n\tset -e; pytest -q\n", sample="Makefile",
         confirm=_errexit_dropped),
    Rule("SKP008", "the CI step or job may fail and the pipeline still passes",
         r"\ballow_failure\s*:\s*true\b|^\s*allow_failures\s*:",
         "matrix:\n  allow_failures:\n    - python: nightly\n",
         "matrix:\n  fast_finish: true\n", sample=".travis.yml", confirm=_not_an_action_input),
    # any value but a literal false: '${{ matrix.experimental }}' is the same escape hatch;
    # judged on the step it sits on (a failure notification or an upload hides no test)
    Rule("SKP008", "the CI step or job may fail and the pipeline still passes",
         # the key is the construct: a value rewritten in place ('true' -> an expression
         # that narrows it) adds no escape hatch
         r"\b(?:continue-on-error|continueOnError)\s*:"
         r"(?=\s*(?!(?:false|\$\{\{\s*false\s*\}\}|[\"']false[\"'])\s*(?:#|$))[^\s#])",
         "jobs:\n  test:\n    steps:\n      - run: pytest\n"
         "        continue-on-error: ${{ matrix.experimental }}\n",
         "jobs:\n  test:\n    steps:\n      - run: pytest\n      - if: failure()\n"
         "        uses: slackapi/slack-github-action@v1\n        continue-on-error: true\n",
         sample=WORKFLOW, confirm=_step_runs_checks),
    ALLOW_LIST_ENTRY,
    Rule("SKP008", "the CI step or job is switched off with 'if: false'",
         r"(?<![\w-])if\s*:\s*(?:false|\$\{\{\s*false\s*\}\})\s*$",
         "jobs:\n  test:\n    if: false\n    steps:\n      - run: pytest\n",
         "jobs:\n  test:\n    if: github.event_name == 'push'\n    steps:\n      - run: pytest\n",
         sample=WORKFLOW),
    Rule("SKP008", "tests deselected with -k 'not ...'",
         r"(?<![\w-])-k\s*[=\s]\s*[\"']?\s*not\s",
         "[pytest]\naddopts = -k 'not checkout'\n", "[pytest]\naddopts = -ra\n",
         sample="pytest.ini"),
    Rule("SKP008", "tests deselected by the runner's own exclusion option (cargo test -- --skip, "
         "go test -skip, mocha --exclude, rspec --tag ~, -Dtest=!, pytest -m 'not ...')",
         r"(?<![\w-])(?:" + _DESELECTION + ")",
         "jobs:\n  test:\n    steps:\n      - run: cargo test -- --skip ui\n",
         "jobs:\n  test:\n    steps:\n      - run: git rebase --skip && cargo test\n",
         sample=WORKFLOW, confirm=_runner_deselects),
    Rule("SKP008", "the pytest config runs only the tests -k selects",
         r"(?<![\w-])(?:-[qvxslr]*k(?=[\s=\"'\w])|--keyword\b)",  # -k X, -kX, -qk X
         "[pytest]\naddopts = -k 'checkout'\n", "[pytest]\naddopts = -ra\n",
         sample="pytest.ini", files=_PYTEST_CONFIG),
    Rule("SKP008", "testpaths names no path in the tree: pytest collects nothing there",
         r"^\s*[\"']?testpaths[\"']?\s*=", "[tool.pytest.ini_options]\ntestpaths = [\"nothing\"]\n",
         "[tool.pytest.ini_options]\nminversion = \"7.0\"\n", sample="pyproject.toml",
         files=_PYTEST_CONFIG, confirm=_testpaths_missing),
    Rule("SKP008", "pytest's collection pattern no longer includes its default (test_*.py, "
         "test*, Test*)",
         r"^\s*[\"']?python_(?:files|functions|classes)[\"']?\s*=",
         "[pytest]\npython_files = check_*.py\n",
         "[pytest]\npython_files = test_*.py *_checks.py\n", sample="pytest.ini",
         files=_PYTEST_CONFIG, confirm=_default_dropped),
    Rule("SKP008", "collected tests dropped in a collection hook",
         r"\bdef\s+pytest_ignore_collect\b"
         r"|\bitems\s*\.\s*(?:clear|remove|pop)\s*\(|\bdel\s+items\s*\["
         r"|\bitems\s*\[\s*:\s*\]\s*=\s*(?:\[\s*\]|\[.*\bif\b|\(.*\bif\b|filter\b)"
         r"|\.pytest_deselected\s*\(",
         "def pytest_collection_modifyitems(items):\n    items.clear()\n",
         "def pytest_collection_modifyitems(items):\n    items.sort(key=str)\n",
         sample="tests/conftest.py", files=r"(^|/)conftest\.py$"),
    Rule("SKP008", "tests deselected or ignored (--deselect, --ignore)",
         r"--deselect\b|--ignore(?:-glob)?(?:=|\s)",
         "[tool.pytest.ini_options]\naddopts = \"--ignore=tests/test_checkout.py\"\n",
         "[tool.pytest.ini_options]\naddopts = \"-ra --strict-markers\"\n",
         sample="pyproject.toml"),
    Rule("SKP008", "pytest told not to collect these files (collect_ignore)",
         r"\bcollect_ignore(?:_glob)?\s*(?:\+?=|\.(?:append|extend)\s*\()",
         "collect_ignore = ['test_checkout.py']\n", "pytest_plugins = ['fixtures']\n",
         sample="tests/conftest.py"),
    Rule("SKP008", "the test command passes when no test runs",
         r"--passWithNoTests\b|\bpassWithNoTests\s*:\s*true\b",
         '{\n  "scripts": {\n    "test": "jest --passWithNoTests"\n  }\n}\n',
         '{\n  "scripts": {\n    "test": "jest --ci"\n  }\n}\n', sample="package.json"),
    Rule("SKP008", "test paths ignored by the runner's config",
         r"\btestPathIgnorePatterns\b",
         "module.exports = {\n  testPathIgnorePatterns: ['/checkout/'],\n};\n",
         "module.exports = {\n  testEnvironment: 'node',\n};\n", sample="jest.config.js"),
    Rule("SKP008", "the build skips its tests (-DskipTests, -x test, --exclude-task test, "
         "-Dtest.skip)",
         _BUILD_SKIPS + r"|<skipTests>\s*true\s*<|<maven\.test\.skip>\s*true\s*<",
         "build:\n\tmvn -B package -DskipTests\n", "build:\n\tmvn -B package\n",
         sample="Makefile", confirm=_skip_not_after_tests),
    Rule("SKP008", "errors reported but never failing (--exit-zero, ignore_errors, ignore_outcome)",
         r"--exit-?zero\b|^\s*ignore_(?:errors|outcome)\s*=\s*(?:true|True)\b",
         "[testenv]\ncommands = pytest\nignore_outcome = true\n",
         "[testenv]\ncommands = pytest\n", sample="tox.ini"),
)


PACKS = (
    Pack("ci", family="conf", sample=WORKFLOW, rules=RULES),
    Pack("ci-json", family="json", sample="package.json", rules=RULES),
    Pack("ci-js", family="js", sample="jest.config.js", rules=RULES),
    Pack("ci-python", family="python", sample="tests/conftest.py",
         rules=RULES),
)
