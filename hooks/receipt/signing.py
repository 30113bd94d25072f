"""SSH signatures on receipts: made with the key git signs commits with, checked against a git
allowed-signers file.

What is signed is the receipt without its ``signature`` field, as JSON with sorted keys and
no spaces, under the namespace ``receipt-hooks`` (a signature made for a commit or a file
cannot be replayed as a receipt's). The signature is a field of ``receipt-hooks/receipt/v2``.

The typical policy: CI signs with its key, the protected branch's check passes
``--allowed-signers ci_signers --require-signer '^ci@'``, and an agent without the key cannot
make a receipt that passes, nor edit a signed one.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import tempfile
from typing import Any

from hooks.core import git
from hooks.core.errors import UserError
from hooks.core.exits import INVALID
from hooks.core.exits import OFF_POLICY
from hooks.core.output import Finding
from hooks.receipt.store.layout import SCHEMA_ID

NAMESPACE = "receipt-hooks"


def signed_bytes(receipt: dict[str, Any]) -> bytes:
    body = {k: v for k, v in receipt.items() if k != "signature"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8", "surrogateescape")


def _ssh_keygen(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(("ssh-keygen", *args), input=stdin, capture_output=True,
                              check=False)
    except FileNotFoundError as e:
        raise UserError("ssh-keygen is not installed: signing and checking signatures need "
                        "OpenSSH 8.2 or later") from e


def _config(key: str, root: str) -> str:
    try:
        return git.text("config", "--get", key, cwd=root)
    except git.GitError:
        return ""


def signing_key(root: str) -> str:
    """The key file git signs with (``user.signingkey``, ``gpg.format=ssh``)."""
    if _config("gpg.format", root) != "ssh":
        raise UserError("receipt run --sign: git's gpg.format is not ssh: receipts are signed "
                        "with SSH keys ('git config gpg.format ssh')")
    key = _config("user.signingkey", root)
    if not key:
        raise UserError("receipt run --sign: git has no user.signingkey: 'git config "
                        "user.signingkey ~/.ssh/id_ed25519'")
    if key.startswith("key::"):
        raise UserError("receipt run --sign: user.signingkey is a literal key (key::...); "
                        "point it at the key's file instead")
    return os.path.expanduser(key)


def public_key(key_file: str) -> str:
    for candidate in (key_file if key_file.endswith(".pub") else key_file + ".pub",):
        if os.path.isfile(candidate):
            with open(candidate, encoding="utf-8") as f:
                return " ".join(f.read().split()[:2])
    proc = _ssh_keygen("-y", "-f", key_file)
    if proc.returncode != 0:
        raise UserError(f"receipt run --sign: cannot read the public half of {key_file}")
    return " ".join(proc.stdout.decode().split()[:2])


def sign(receipt: dict[str, Any], root: str) -> dict[str, Any]:
    """RECEIPT with an SSH signature by git's signing key (a v2 field)."""
    key_file = signing_key(root)
    signed = {**receipt, "schema": SCHEMA_ID}
    signed.pop("signature", None)
    proc = _ssh_keygen("-Y", "sign", "-q", "-f", key_file, "-n", NAMESPACE,
                       stdin=signed_bytes(signed))
    if proc.returncode != 0:
        why = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise UserError(f"receipt run --sign: ssh-keygen could not sign with {key_file}"
                        f"{': ' + why[-1] if why else ''}")
    signed["signature"] = {"format": "ssh", "namespace": NAMESPACE,
                           "public_key": public_key(key_file),
                           "signature": proc.stdout.decode("ascii")}
    return signed


def allowed_signers_file(given: str | None, root: str, must_exist: bool = True) -> str:
    """--allowed-signers FILE, or git's gpg.ssh.allowedSignersFile when FILE is omitted."""
    path = given or _config("gpg.ssh.allowedSignersFile", root)
    if not path:
        raise UserError("no allowed-signers file: pass --allowed-signers FILE or set git's "
                        "gpg.ssh.allowedSignersFile")
    path = os.path.expanduser(path)
    if must_exist:
        must_be_a_file(path)
    return path


def must_be_a_file(path: str) -> None:
    if not os.path.isfile(path):
        what = "is not a file" if os.path.exists(path) else "does not exist"
        raise UserError(f"allowed-signers file {path} {what}")


def trusted(signers: Signers, root: str, policy_commit: str | None,
            judged: list[str]) -> Signers:
    """SIGNERS with its file read from POLICY_COMMIT when the file sits in the work tree at
    ROOT and that commit tracks it: the work tree may be a judged commit's checkout (CI), and
    a judged commit could list its own key there. A file in the work tree that only JUDGED
    commits track is refused; one no commit tracks (written by CI) is read as it is."""
    given = os.path.abspath(signers.allowed)
    top = os.path.realpath(root)
    # the path as named (its directories resolved, as git's root is), else where a link leads
    inside = [p for p in (os.path.join(os.path.realpath(os.path.dirname(given)),
                                       os.path.basename(given)), os.path.realpath(given))
              if p.startswith(top + os.sep)]
    if not inside:
        must_be_a_file(signers.allowed)
        return signers
    here = inside[0]
    rel = os.path.relpath(here, top).replace(os.sep, "/")
    committed = git.blobs([f"{policy_commit}:{rel}"])[f"{policy_commit}:{rel}"] \
        if policy_commit else None
    if committed is None:
        kinds = git.object_kinds([f"{c}:{rel}" for c in judged], cwd=root)
        adding = [c for c in judged if f"{c}:{rel}" in kinds]
        if adding:
            policy = f"the policy commit {git.short(policy_commit)}" if policy_commit \
                else "no policy commit"
            raise UserError(f"--allowed-signers {rel}: the judged commit "
                            f"{git.short(adding[0])} tracks it and {policy} does not, so a "
                            f"pushed commit could list its own key: commit the signers file "
                            f"to the branch the policy comes from, or keep it outside the "
                            f"repository")
        must_be_a_file(signers.allowed)
        return signers
    with tempfile.NamedTemporaryFile("wb", suffix=".allowed_signers", delete=False) as f:
        f.write(committed)
    return Signers(f.name, signers.require,
                   shown=f"{rel} (as committed in {git.short(policy_commit)})", copy=True)


class Signers:
    """Whether a receipt is signed by a key the allowed-signers file lists for a principal
    matching --require-signer."""

    def __init__(self, allowed: str, require: re.Pattern[str] | None,
                 shown: str | None = None, copy: bool = False) -> None:
        self.allowed = allowed
        self.require = require
        self.shown = shown or allowed  # the file as messages name it (ALLOWED may be a copy)
        self.copy = copy  # ALLOWED is a temporary copy, removed by close()
        self.verdicts: dict[bytes, tuple[list[str], str]] = {}

    def close(self) -> None:
        if self.copy:
            with contextlib.suppress(OSError):
                os.unlink(self.allowed)

    def findings(self, commit: str, data: dict[str, Any], shown: str) -> list[Finding]:
        label = git.short(commit)
        signature = data.get("signature")
        if not isinstance(signature, dict) or not isinstance(signature.get("signature"), str):
            return [Finding(f"{label}: the receipt is not signed ({shown}) and signatures are "
                            f"required (--allowed-signers {self.shown}): run 'receipt run "
                            f"--sign' with a key listed there", OFF_POLICY, "unsigned",
                            commit=commit)]
        body = signed_bytes(data)
        key = body + b"\0" + signature["signature"].encode()
        if key not in self.verdicts:
            self.verdicts[key] = self._verify(body, signature["signature"])
        principals, problem = self.verdicts[key]
        if problem == "unknown":
            return [Finding(f"{label}: the receipt is signed by a key that {self.shown} does "
                            f"not list ({signature.get('public_key', '?')[:60]}...; {shown})",
                            OFF_POLICY, "unknown-signer", commit=commit)]
        if problem == "restricted":
            return [Finding(f"{label}: the receipt is signed by a key that {self.shown} lists "
                            f"but does not allow to sign receipts now (its namespaces=, "
                            f"valid-after= or valid-before= options; namespace '{NAMESPACE}'; "
                            f"{shown})", OFF_POLICY, "restricted-signer", commit=commit)]
        if problem == "bad":
            return [Finding(f"{label}: the receipt's signature does not verify ({shown}): it "
                            f"was changed after it was signed", INVALID, "bad-signature",
                            commit=commit)]
        # a line may list several principals (ci@x,release@x): any of them may be the one
        if self.require and not any(self.require.search(p) for p in principals):
            return [Finding(f"{label}: the receipt is signed by '{', '.join(principals)}', "
                            f"which does not match --require-signer "
                            f"'{self.require.pattern}' ({shown})",
                            OFF_POLICY, "signer", commit=commit)]
        return []

    def _verify(self, body: bytes, armored: str) -> tuple[list[str], str]:
        """(every principal the signature verifies for, '') when valid; else ([], why): 'bad'
        (the signature is not over these bytes), 'unknown' (no listed key made it),
        'restricted' (a listed key made it, but its options in the file do not allow this
        namespace or this time)."""
        with tempfile.NamedTemporaryFile("w", suffix=".sig", delete=False) as f:
            f.write(armored)
        try:
            found = _ssh_keygen("-Y", "find-principals", "-s", f.name, "-f", self.allowed)
            verified = []
            for principal in dict.fromkeys(found.stdout.decode("utf-8", "replace").split()):
                proc = _ssh_keygen("-Y", "verify", "-f", self.allowed, "-I", principal, "-n",
                                   NAMESPACE, "-s", f.name, stdin=body)
                if proc.returncode == 0:
                    verified.append(principal)
            if verified:
                return verified, ""
            # Failure paths only: is the signature itself sound over these bytes?
            sound = _ssh_keygen("-Y", "check-novalidate", "-n", NAMESPACE, "-s", f.name,
                                stdin=body).returncode == 0
            if not sound:
                return [], "bad"
            return [], "restricted" if self._lists(armored) else "unknown"
        finally:
            os.unlink(f.name)

    def _lists(self, armored: str) -> bool:
        """Whether the allowed-signers file names the key that made ARMORED at all (whatever its
        options). The key is read from the signature itself, not from the receipt's fields."""
        blob = _signature_key(armored)
        if not blob:
            return False
        try:
            with open(self.allowed, encoding="utf-8", errors="replace") as f:
                return any(blob in line.split() for line in f
                           if not line.lstrip().startswith("#"))
        except OSError:
            return False


def _signature_key(armored: str) -> str:
    """The public key inside an SSH signature, base64 as allowed-signers files write it: the
    signature is the magic ``SSHSIG``, a version (4 bytes), then the key as a length-prefixed
    string."""
    import base64
    import binascii

    lines = [line.strip() for line in armored.strip().splitlines()]
    try:
        raw = base64.b64decode("".join(line for line in lines if not line.startswith("-----")))
    except (binascii.Error, ValueError):
        return ""
    if raw[:6] != b"SSHSIG" or len(raw) < 14:
        return ""
    size = int.from_bytes(raw[10:14], "big")
    key = raw[14:14 + size]
    return base64.b64encode(key).decode() if len(key) == size else ""
