"""Git attributes do not blind the skip guard: a path marked ``-diff`` or ``binary`` (in a
committed .gitattributes, in .git/info/attributes, in core.attributesFile, or through a diff
driver declared binary) still shows its added lines, at commit and at pre-push; a file whose
content is binary stays unread."""

from __future__ import annotations

import pytest
from conftest import Repo
from conftest import in_process

from hooks import no_inserted_skips

BEFORE = "import pytest\n\n\ndef test_pay():\n    assert pay() == 1\n"
SKIPPED = "import pytest\n\n\n@pytest.mark.skip\ndef test_pay():\n    assert pay() == 1\n"


def hook(repo: Repo, *args: str) -> tuple[int, str]:
    result = in_process(no_inserted_skips.main, args, repo.path)
    return result.code, result.out + result.err


def mark_committed(repo: Repo, attribute: str) -> None:
    repo.commit("attributes", **{".gitattributes": f"*.py {attribute}\n"})


def mark_in_info(repo: Repo, attribute: str) -> None:
    info = repo.path / ".git" / "info"
    info.mkdir(exist_ok=True)
    (info / "attributes").write_text(f"tests/*.py {attribute}\n")


def mark_in_config(repo: Repo, attribute: str) -> None:
    attributes = repo.path.parent / "attributes"
    attributes.write_text(f"test_*.py {attribute}\n")
    repo.git("config", "core.attributesFile", str(attributes))


def mark_by_driver(repo: Repo, attribute: str) -> None:
    repo.git("config", "diff.opaque.binary", "true")
    repo.commit("attributes", **{".gitattributes": f"*.py {attribute}\n"})


SOURCES = {"committed": mark_committed, "info": mark_in_info, "config": mark_in_config,
           "driver": mark_by_driver}


CASES = [(source, attribute) for source in ("committed", "info", "config")
         for attribute in ("-diff", "binary")] + [("driver", "diff=opaque")]


@pytest.mark.parametrize(("source", "attribute"), CASES)
def test_a_skip_in_a_file_marked_binary_is_refused_at_commit_and_at_push(
        repo: Repo, source: str, attribute: str) -> None:
    repo.commit("base", **{"tests/test_pay.py": BEFORE})
    SOURCES[source](repo, attribute)
    repo.write("tests/test_pay.py", SKIPPED)
    repo.git("add", "-A")
    assert "Binary files" in repo.git("diff", "--cached")  # git itself hides the change
    code, out = hook(repo)
    assert code == 1, out
    assert "tests/test_pay.py:4:2: SKP001" in out
    base = repo.git("rev-parse", "HEAD")
    head = repo.commit("skip it")
    code, out = hook(repo, "--from-ref", base, "--to-ref", head)
    assert code == 1, out
    assert "tests/test_pay.py:4:2: SKP001" in out


def test_binary_content_stays_unread_whatever_its_name(repo: Repo) -> None:
    repo.commit("base", **{"tests/test_pay.py": BEFORE})
    blob = b"\x89PNG\r\n\x1a\n\x00\x00@pytest.mark.skip\n\x00it.only(\n"
    repo.write("tests/test_blob.py", blob)
    repo.write("tests/test_pay.py", SKIPPED)
    repo.git("add", "-A")
    code, out = hook(repo)
    assert code == 1, out
    assert "tests/test_pay.py:4:2: SKP001" in out
    assert "test_blob" not in out


def test_an_attributes_file_in_a_subdirectory_does_not_hide_a_skip(repo: Repo) -> None:
    repo.commit("base", **{"tests/test_pay.py": BEFORE,
                           "tests/.gitattributes": "test_pay.py -diff\n"})
    repo.write("tests/test_pay.py", SKIPPED)
    repo.git("add", "-A")
    code, out = hook(repo)
    assert code == 1, out
    assert "tests/test_pay.py:4:2: SKP001" in out
