"""A key the allowed-signers file lists, but with options that forbid this signature (another
namespace, an expired validity window), is told apart from an edited receipt and from a key the
file does not list: each says what is wrong."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import Repo
from test_signing import keypair
from test_signing import signing_repo

PY = sys.executable


def restricted_signers(where: Path, key: Path, options: str) -> Path:
    path = where / "allowed_signers"
    path.write_text(f"ci@example.invalid {options} {(where / (key.name + '.pub')).read_text()}")
    return path


@pytest.mark.parametrize("options", ['namespaces="git"', 'valid-before="20200101"'])
def test_listed_key_whose_options_forbid_it_is_off_policy_not_tampering(
        repo: Repo, tmp_path: Path, options: str) -> None:
    ci = keypair(tmp_path, "ci")
    signing_repo(repo, ci)
    assert repo.receipt("run", "--sign", "--", PY, "t.py").code == 0
    signers = restricted_signers(tmp_path, ci, options)
    result = repo.run("check-receipt", "--allowed-signers", str(signers))
    assert result.code == 6, result.both
    assert (f"is signed by a key that {signers} lists but does not allow to sign receipts now"
            in result.out)
    assert "changed after it was signed" not in result.out


def test_an_edited_receipt_signed_by_an_unlisted_key_reads_as_edited(repo: Repo,
                                                                   tmp_path: Path) -> None:
    ci, other = keypair(tmp_path, "ci"), keypair(tmp_path, "other")
    signing_repo(repo, other)
    assert repo.receipt("run", "--sign", "--", PY, "t.py").code == 0
    receipt = repo.path / "artifacts" / "test-receipt.json"
    data = json.loads(receipt.read_text())
    data["duration_s"] = data["duration_s"] + 1
    receipt.write_text(json.dumps(data))
    signers = restricted_signers(tmp_path, ci, "")
    result = repo.run("check-receipt", "--allowed-signers", str(signers))
    assert result.code == 5, result.both
    assert "was changed after it was signed" in result.out
