"""Signed receipts (v2) with real ssh-keygen keys: signed and accepted; unsigned, edited or
foreign-signed refused, each with its own message; v1 still checks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import PASSING_TEST
from conftest import Repo
from conftest import check_receipt

from hooks.core import schemas
from hooks.core.errors import USAGE_ERROR

PY = sys.executable
RECEIPT = "artifacts/test-receipt.json"


def keypair(where: Path, name: str) -> Path:
    key = where / name
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(key)],
                   check=True)
    return key


def allowed(where: Path, *entries: tuple[str, Path]) -> Path:
    path = where / "allowed_signers"
    path.write_text("".join(f"{who} {(key.parent / (key.name + '.pub')).read_text()}"
                            for who, key in entries))
    return path


def signing_repo(repo: Repo, key: Path) -> None:
    repo.git("config", "gpg.format", "ssh")
    repo.git("config", "user.signingkey", str(key))
    repo.write("t.py", PASSING_TEST)
    repo.commit("tests")


def test_a_signed_receipt_is_v2_and_accepted_by_its_signer(repo: Repo, tmp_path: Path) -> None:
    ci = keypair(tmp_path, "ci")
    signers = allowed(tmp_path, ("ci@example.invalid", ci))
    signing_repo(repo, ci)
    ran = repo.receipt("run", "--sign", "--", PY, "t.py")
    assert ran.code == 0, ran.both
    data = json.loads((repo.path / RECEIPT).read_text())
    assert data["schema"] == "receipt-hooks/receipt/v2"
    assert data["signature"]["namespace"] == "receipt-hooks"
    assert data["signature"]["signature"].startswith("-----BEGIN SSH SIGNATURE-----")
    assert schemas.validate(schemas.RECEIPT_V2, data) == []
    result = check_receipt(repo.path, "--allowed-signers", str(signers),
                      "--require-signer", "^ci@")
    assert result.code == 0, result.both
    verified = repo.receipt("verify", "--policy-from", "HEAD",
                        "--allowed-signers", str(signers))
    assert verified.code == 0, verified.both  # the note carries the signature too


def test_unsigned_receipt_refused_when_signatures_are_required(repo: Repo,
                                                               tmp_path: Path) -> None:
    ci = keypair(tmp_path, "ci")
    signers = allowed(tmp_path, ("ci@example.invalid", ci))
    signing_repo(repo, ci)
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    assert "signature" not in json.loads((repo.path / RECEIPT).read_text())
    assert check_receipt(repo.path).code == 0  # unsigned receipts check without a signer policy
    result = check_receipt(repo.path, "--allowed-signers", str(signers))
    assert result.code == 6
    assert "the receipt is not signed (artifacts/test-receipt.json) and signatures are " \
           "required" in result.out


def test_foreign_signer_refused(repo: Repo, tmp_path: Path) -> None:
    ci, agent = keypair(tmp_path, "ci"), keypair(tmp_path, "agent")
    signers = allowed(tmp_path, ("ci@example.invalid", ci))
    signing_repo(repo, agent)
    assert repo.receipt("run", "--sign", "--", PY, "t.py").code == 0
    result = check_receipt(repo.path, "--allowed-signers", str(signers))
    assert result.code == 6
    assert f"is signed by a key that {signers} does not list" in result.out


def test_signer_outside_the_required_pattern_refused(repo: Repo, tmp_path: Path) -> None:
    ci, dev = keypair(tmp_path, "ci"), keypair(tmp_path, "dev")
    signers = allowed(tmp_path, ("ci@example.invalid", ci), ("dev@example.invalid", dev))
    signing_repo(repo, dev)
    assert repo.receipt("run", "--sign", "--", PY, "t.py").code == 0
    assert check_receipt(repo.path, "--allowed-signers", str(signers)).code == 0
    result = check_receipt(repo.path, "--allowed-signers", str(signers),
                      "--require-signer", "^ci@")
    assert result.code == 6
    assert "signed by 'dev@example.invalid', which does not match --require-signer '^ci@'" \
        in result.out


def test_a_signed_receipt_edited_afterwards_is_refused(repo: Repo, tmp_path: Path) -> None:
    ci = keypair(tmp_path, "ci")
    signers = allowed(tmp_path, ("ci@example.invalid", ci))
    signing_repo(repo, ci)
    assert repo.receipt("run", "--sign", "--", PY, "t.py").code == 0
    repo.git("update-ref", "-d", "refs/notes/receipts")
    path = repo.path / RECEIPT
    data = json.loads(path.read_text())
    data["hostname"] = "ci-runner"  # not in the log: only the signature can tell
    path.write_text(json.dumps(data))
    result = check_receipt(repo.path, "--allowed-signers", str(signers))
    assert result.code == 5
    assert "the receipt's signature does not verify (artifacts/test-receipt.json): it was " \
           "changed after it was signed" in result.out


def test_default_allowed_signers_from_git_and_sign_in_the_config(repo: Repo,
                                                                 tmp_path: Path) -> None:
    ci = keypair(tmp_path, "ci")
    signers = allowed(tmp_path, ("ci@example.invalid", ci))
    signing_repo(repo, ci)
    repo.write(".receipt-hooks.toml", "sign = true\nrequire-tests = true\n")
    repo.commit("config")
    assert repo.receipt("run", "--", PY, "t.py").code == 0
    assert "signature" in json.loads((repo.path / RECEIPT).read_text())
    missing = check_receipt(repo.path, "--allowed-signers")
    assert missing.code == USAGE_ERROR
    assert "no allowed-signers file: pass --allowed-signers FILE or set git's " \
           "gpg.ssh.allowedSignersFile" in missing.err
    repo.git("config", "gpg.ssh.allowedSignersFile", str(signers))
    assert check_receipt(repo.path, "--allowed-signers").code == 0
    assert check_receipt(repo.path, "--require-signer", "^ci@").code == 0


def test_signing_without_a_key_writes_an_unsigned_receipt_and_says_why(repo: Repo) -> None:
    repo.write("t.py", PASSING_TEST)
    repo.commit("tests")
    result = repo.receipt("run", "--sign", "--", PY, "t.py")
    assert result.code == 0
    assert "git's gpg.format is not ssh" in result.err
    assert "the receipt is written unsigned" in result.err
    assert "signature" not in json.loads((repo.path / RECEIPT).read_text())
