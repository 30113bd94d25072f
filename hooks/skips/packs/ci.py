"""CI and test-runner configuration: escape hatches that let a red build look green.

One set of rules (SKP008) over four kinds of file, each lexed its own way: YAML, INI, TOML,
Makefiles (``#`` comments, strings kept: commands are often quoted), package.json, the JS
configs of jest, vitest and playwright, and conftest.py.
"""

from __future__ import annotations

from hooks.skips.rules import Pack
from hooks.skips.rules import Rule

WORKFLOW = ".github/workflows/ci.yml"

RULES = (
    Rule("SKP008", "'|| true' hides the command's failure",
         # not after a clean-up command: 'rm -rf dist || true' hides no test failure
         r"^(?!\s*(?:-\s*)?(?:run:\s*)?[\"']?(?:sudo\s+)?(?:rm|rmdir|mkdir|kill|pkill|killall|"
         r"unlink|umount|docker\s+(?:rm|rmi|stop|kill)|git\s+branch\s+-[dD])\s).*?"
         r"(?P<at>\|\|\s*(?:true|:))(?=\s*(?:$|[;&|)#\"'\]]))",
         "jobs:\n  test:\n    steps:\n      - run: pytest -q || true\n",
         "jobs:\n  test:\n    steps:\n      - run: pytest -q\n", sample=WORKFLOW),
    Rule("SKP008", "'set +e': later failures no longer stop the script",
         r"(?<![\w-])set\s+\+e\b",
         "test:\n\tset +e; pytest -q\n", "test:\n\tset -e; pytest -q\n", sample="Makefile"),
    Rule("SKP008", "the CI step or job may fail and the pipeline still passes",
         r"\bcontinue-on-error\s*:\s*true\b|\ballow_failure\s*:\s*true\b"
         r"|\bcontinueOnError\s*:\s*true\b|^\s*allow_failures\s*:",
         "jobs:\n  test:\n    continue-on-error: true\n    steps:\n      - run: pytest\n",
         "jobs:\n  test:\n    timeout-minutes: 10\n    steps:\n      - run: pytest\n",
         sample=WORKFLOW),
    Rule("SKP008", "the CI step or job is switched off with 'if: false'",
         r"(?<![\w-])if\s*:\s*(?:false|\$\{\{\s*false\s*\}\})\s*$",
         "jobs:\n  test:\n    if: false\n    steps:\n      - run: pytest\n",
         "jobs:\n  test:\n    if: github.event_name == 'push'\n    steps:\n      - run: pytest\n",
         sample=WORKFLOW),
    Rule("SKP008", "tests deselected with -k 'not ...'",
         r"(?<![\w-])-k\s*[=\s]\s*[\"']?\s*not\s",
         "[pytest]\naddopts = -k 'not checkout'\n", "[pytest]\naddopts = -ra\n",
         sample="pytest.ini"),
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
    Rule("SKP008", "the build skips its tests (-DskipTests, -x test)",
         r"-DskipTests\b(?!\s*=\s*false)|-Dmaven\.test\.skip\b(?!\s*=\s*false)"
         r"|(?<![\w-])-x\s+test\b|<skipTests>\s*true\s*<|<maven\.test\.skip>\s*true\s*<",
         "build:\n\tmvn -B package -DskipTests\n", "build:\n\tmvn -B package\n",
         sample="Makefile"),
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
