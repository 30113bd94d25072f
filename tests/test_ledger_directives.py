"""Comments the toolchain reads are code to the ledger hook: a Python coding cookie or
shebang, Go build constraints and directives, the cgo preamble, JSX pragmas. Changing one
needs a hypothesis; an ordinary comment beside them still does not. Real git, staged changes."""

from __future__ import annotations

import pytest
from conftest import Repo
from conftest import in_process

from hooks import require_ledger_hypothesis

LEDGER = "assumption-ledger.jsonl"
PY_APP = b"# -*- coding: utf-8 -*-\n# the greeting\nGREETING = '\xc3\xa9t\xc3\xa9'\n"
GO_TAGGED = b"//go:build linux\n// +build linux\n\npackage pay\n\n// Fee is fixed.\nconst Fee = 1\n"
CGO = (b"package pay\n\n// Fee comes from C.\n\n// #include <stdint.h>\n// #define FEE 1\n"
       b"import \"C\"\n\nconst Fee = C.FEE\n")
CGO_BLOCK = b"package pay\n\n/*\n#define FEE 1\n*/\nimport \"C\"\n\nconst Fee = C.FEE\n"
JSX = b"/** @jsx h */\nimport { h } from 'preact';\nexport const A = () => <p />;\n"


def _hook(repo: Repo, path: str, before: bytes, after: bytes) -> tuple[int, str]:
    repo.write(path, before)
    repo.commit("init")
    repo.write(path, after)
    repo.git("add", "-A")
    result = in_process(require_ledger_hypothesis.main, [], repo.path)
    return result.code, result.out


@pytest.mark.parametrize(("path", "before", "after"), [
    ("src/app.py", PY_APP, PY_APP.replace(b"utf-8", b"latin-1")),
    ("src/app.py", b"#!/usr/bin/env python3\nprint(1)\n", b"#!/usr/bin/env python2\nprint(1)\n"),
    ("src/pay.go", GO_TAGGED, GO_TAGGED.replace(b"//go:build linux", b"//go:build windows")),
    ("src/pay.go", GO_TAGGED, GO_TAGGED.replace(b"// +build linux", b"// +build ignore")),
    ("src/pay.go", CGO, CGO.replace(b"FEE 1", b"FEE 2")),
    ("src/pay.go", CGO_BLOCK, CGO_BLOCK.replace(b"FEE 1", b"FEE 2")),
    ("src/pay.go", CGO, CGO.replace(b"// #define FEE 1\nimport", b"// #define FEE 1\n\nimport")),
    ("src/pay.go", b"package pay\n\n//go:embed fee.txt\nvar fee string\n",
     b"package pay\n\n//go:embed rate.txt\nvar fee string\n"),
    ("src/app.jsx", JSX, JSX.replace(b"@jsx h", b"@jsx createElement")),
])
def test_a_comment_the_toolchain_reads_needs_a_hypothesis(repo: Repo, path: str, before: bytes,
                                                          after: bytes) -> None:
    code, out = _hook(repo, path, before, after)
    assert code == 1, out
    assert out.startswith(f"{path} changed but {LEDGER} gains no hypothesis in this change")


@pytest.mark.parametrize(("path", "before", "after"), [
    ("src/app.py", PY_APP, PY_APP.replace(b"# -*- coding: utf-8 -*-", b"# coding: utf-8")),
    ("src/app.py", PY_APP, PY_APP.replace(b"# the greeting", b"# the greeting, in French")),
    ("src/pay.go", GO_TAGGED, GO_TAGGED.replace(b"Fee is fixed.", b"Fee is fixed by law.")),
    ("src/pay.go", CGO, CGO.replace(b"Fee comes from C.", b"Fee comes from the C header.")),
])
def test_an_ordinary_comment_beside_them_still_needs_none(repo: Repo, path: str, before: bytes,
                                                          after: bytes) -> None:
    assert _hook(repo, path, before, after) == (0, "")
