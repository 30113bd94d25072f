"""The package as pre-commit and users get it: a valid manifest, schemas inside the wheel."""

from __future__ import annotations

import json
import os
from pathlib import Path

from conftest import MANIFEST_HOOKS
from conftest import SOURCE_ROOT
from conftest import run


def test_manifest_is_valid_and_names_every_hook() -> None:
    result = run(["pre-commit", "validate-manifest", ".pre-commit-hooks.yaml"], SOURCE_ROOT)
    assert result.code == 0, result.both
    ids = {line.split(":", 1)[1].strip() for line in
           (SOURCE_ROOT / ".pre-commit-hooks.yaml").read_text().splitlines()
           if line.startswith("- id:")}
    assert ids == set(MANIFEST_HOOKS)


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


def test_pre_commit_installs_the_built_package_with_its_schemas(
        hook_repo: tuple[str, str], tmp_path: Path) -> None:
    # The hooks' environment pre-commit built for this run is a plain (non-editable) pip
    # install of a wheel built from the committed source: what users get. Its schemas must
    # come from inside it, whatever directory the hook runs in.
    home = Path(os.environ["PRE_COMMIT_HOME"])
    installed = list(home.glob("repo*/py_env-*/lib/python*/site-packages/hooks/__init__.py"))
    assert len(installed) == 1, installed
    site = installed[0].parents[1]
    records = list(site.glob("receipt_hooks-*.dist-info/RECORD"))
    assert len(records) == 1
    assert "hooks/schema_files/receipt.schema.json" in records[0].read_text()
    assert not list(site.glob("__editable__*receipt_hooks*"))
    # every package of the source is in what users install (an editable install hides a
    # package left out of setup.cfg; this does not)
    packages = sorted(str(p.parent.relative_to(SOURCE_ROOT))
                      for p in (SOURCE_ROOT / "hooks").rglob("__init__.py"))
    missing = [name for name in packages if not (site / name / "__init__.py").is_file()]
    assert missing == [], missing
    python = site.parents[2] / "bin" / "python"
    script = ("import hooks; from hooks.core import schemas; print(hooks.__file__); "
              "print(schemas.schema_bytes(schemas.RECEIPT).decode())")
    result = run([str(python), "-I", "-c", script], tmp_path)
    assert result.code == 0, result.err
    location, schema = result.out.split("\n", 1)
    assert location == str(site / "hooks" / "__init__.py")
    assert schema == (SOURCE_ROOT / "schemas" / "receipt.schema.json").read_text() + "\n"
