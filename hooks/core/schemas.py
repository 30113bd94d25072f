"""Load the JSON Schemas in ``schemas/`` and validate against them, with readable errors.

jsonschema costs more to import than the rest of a hook together, so it is imported only when
something is validated, and a validation that passed is remembered by the digest of the schema
and the document: the same bytes against the same schema always give the same answer.
"""

from __future__ import annotations

import functools
import json
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

RECEIPT = "receipt.schema.json"
RECEIPT_V2 = "receipt-v2.schema.json"  # what receipt run writes; v1 files are still read
LEDGER_ENTRY = "ledger-entry.schema.json"
CONFIG = "config.schema.json"

_MAX_ERRORS = 20


@functools.cache
def schema_bytes(name: str) -> bytes:
    """The schema file as shipped in the installed package (never this checkout's copy)."""
    from importlib import resources

    return resources.files("hooks.schema_files").joinpath(name).read_bytes()


def schema_identity(name: str) -> bytes:
    """Stands for the schema's bytes in the memo key without loading importlib.resources.

    The installed file's path, size and mtime change whenever its content can; when the
    package is not on a plain file system (a zip), fall back to the bytes themselves.
    """
    import hooks.schema_files as package

    location = getattr(package, "__file__", None)
    if location:
        try:
            info = os.stat(os.path.join(os.path.dirname(location), name))
            return f"{location}:{name}:{info.st_size}:{info.st_mtime_ns}".encode()
        except OSError:
            pass
    return schema_bytes(name)


@functools.cache
def _validator(name: str) -> Any:
    import jsonschema

    schema = json.loads(schema_bytes(name))
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def _clip(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def pointer(path: Any) -> str:
    """JSON pointer (RFC 6901) of a path of keys and indexes; '' is the document itself."""
    parts = [str(p).replace("~", "~0").replace("/", "~1") for p in path]
    return "/" + "/".join(parts) if parts else "(document)"


def _message(error: Any) -> str:
    """jsonschema's message, except a failed pattern says what was expected, not the regex."""
    if error.validator == "pattern" and isinstance(error.schema, dict) \
            and error.schema.get("description"):
        return _clip(f"{error.instance!r}: expected {error.schema['description'].rstrip('.')}",
                     limit=200)
    return _clip(error.message)


def validate(name: str, instance: object) -> list[str]:
    """Schema errors as ``<json pointer>: <message>`` lines, sorted; empty when valid."""
    try:
        errors = sorted(_validator(name).iter_errors(instance), key=lambda e: list(e.path))
    except RecursionError:
        return ["(document): nested too deeply to validate"]
    return [f"{pointer(e.absolute_path)}: {_message(e)}" for e in errors[:_MAX_ERRORS]]


def located_errors(name: str, instance: object) -> list[tuple[list[str | int], str]]:
    """Schema errors as (path of keys, message), for documents whose lines are found by key.

    An unknown key is reported at its own path ("unknown key"), not at the object holding it.
    """
    found: list[tuple[list[str | int], str]] = []
    try:
        errors = list(_validator(name).iter_errors(instance))
    except RecursionError:
        return [([], "nested too deeply to validate")]
    for e in errors:
        path = list(e.absolute_path)
        if e.validator == "additionalProperties" and isinstance(e.instance, dict):
            known = e.schema.get("properties", {}) if isinstance(e.schema, dict) else {}
            found += [([*path, key], "unknown key") for key in e.instance if key not in known]
        elif "propertyNames" in e.schema_path:
            found.append((path, f"{e.instance!r} is not a valid key here"))
        else:
            found.append((path, _message(e)))
    # an unknown key first: a misspelt key explains the "required" error beside it
    return sorted(found, key=lambda f: (f[1] != "unknown key", [str(p) for p in f[0]])
                  )[:_MAX_ERRORS]


@functools.cache
def _def_validator(name: str, definition: str) -> Any:
    """A validator for one of the schema's $defs, with the rest of $defs in reach."""
    import jsonschema

    schema = json.loads(schema_bytes(name))
    for keyword in ("oneOf", "anyOf", "allOf", "title", "description"):
        schema.pop(keyword, None)
    schema["$ref"] = f"#/$defs/{definition}"
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


def validate_def(name: str, definition: str, instance: object) -> list[str]:
    """Errors of INSTANCE against ``$defs/DEFINITION`` of schema NAME.

    For a oneOf whose branches exclude each other (each requires a key the others forbid), an
    instance is valid under the oneOf exactly when it is valid under the branch it means to be;
    checking that branch alone is twice as fast and names the field that is wrong, where the
    oneOf would only say "not valid under any of the given schemas".
    """
    try:
        errors = sorted(_def_validator(name, definition).iter_errors(instance),
                        key=lambda e: list(e.path))
    except RecursionError:
        return ["(document): nested too deeply to validate"]
    return [f"{pointer(e.absolute_path)}: {_message(e)}" for e in errors[:_MAX_ERRORS]]


def validate_remembered(name: str, raw: bytes, instance: object, memo_dir: str | None) -> list[str]:
    """``validate``, skipped when these exact bytes already passed against this exact schema."""
    if memo_dir is None:
        return validate(name, instance)
    digest = digest_for(name, raw)
    stamp = os.path.join(memo_dir, digest)
    if os.path.isfile(stamp):
        return []
    errors = validate(name, instance)
    if not errors:
        remember_valid(memo_dir, digest)
    return errors


def remember_valid(memo_dir: str, digest: str) -> None:
    try:
        os.makedirs(memo_dir, exist_ok=True)
        with open(os.path.join(memo_dir, digest), "wb"):
            pass
    except OSError:
        pass  # a read-only git dir only costs the next run a validation


def digest_for(name: str, raw: bytes) -> str:
    """Memo key: this schema (as installed) and these exact document bytes."""
    from hooks.core import digests

    return digests.sha256(schema_identity(name) + b"\0" + raw).hexdigest()
