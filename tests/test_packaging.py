"""The package as pre-commit and users get it: a valid manifest, schemas inside the wheel."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import SOURCE_ROOT
from conftest import run

MANIFEST_HOOKS = {"check-receipt", "no-inserted-skips", "require-ledger-hypothesis"}


def test_manifest_is_valid_and_names_every_hook() -> None:
    result = run(["pre-commit", "validate-manifest", ".pre-commit-hooks.yaml"], SOURCE_ROOT)
    assert result.code == 0, result.both
    ids = {line.split(":", 1)[1].strip() for line in
           (SOURCE_ROOT / ".pre-commit-hooks.yaml").read_text().splitlines()
           if line.startswith("- id:")}
    assert ids == MANIFEST_HOOKS


def test_schemas_load_from_the_installed_package_not_this_checkout(tmp_path: Path) -> None:
    # run from an unrelated directory: the hooks must find schemas inside the wheel
    script = ("from hooks.core import schemas; from hooks import __file__ as f; "
              "print(f); print(len(schemas.schema_bytes(schemas.RECEIPT)))")
    result = run(["python", "-c", script], tmp_path)
    assert result.code == 0, result.err
    _location, size = result.out.split()
    assert int(size) == len((SOURCE_ROOT / "schemas/receipt.schema.json").read_bytes())
    for name in ("receipt.schema.json", "receipt-v2.schema.json", "ledger-entry.schema.json"):
        schema = json.loads((SOURCE_ROOT / "schemas" / name).read_text())
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema["$id"].endswith(name)


def test_every_console_script_answers_help(tmp_path: Path) -> None:
    for script in ("receipt", *sorted(MANIFEST_HOOKS)):
        result = run([script, "--help"], tmp_path)
        assert result.code == 0, script
        assert result.out.startswith(f"usage: {script}")
