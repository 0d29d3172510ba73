"""The shipped JSON Schema of workflow documents, and its errors mapped to source spans.

The same schema file is offered to editors' own JSON support; here `jsonschema` checks it and
each error is anchored on the offending value (or, for a missing member, the object's brace).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator

from flowdrop_lsp.core.syntax.tree import (
    JArray,
    JObject,
    JsonValue,
    OpaqueValue,
    child_at,
    to_python,
)

SCHEMA_RESOURCE = "workflow.schema.json"


@lru_cache(maxsize=1)
def workflow_schema() -> dict[str, Any]:
    text = (
        resources.files("flowdrop_lsp.schemas")
        .joinpath(SCHEMA_RESOURCE)
        .read_text(encoding="utf-8")
    )
    return json.loads(text)


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    return Draft202012Validator(workflow_schema())


@lru_cache(maxsize=1)
def _fast_is_valid() -> Callable[[Any], bool] | None:
    """jsonschema-rs answers "valid?" ≈200× faster; the errors themselves always come from
    `jsonschema`, so both paths report exactly the same findings."""
    try:
        import jsonschema_rs
    except ImportError:  # pragma: no cover - an optional speed-up
        return None
    return jsonschema_rs.Draft202012Validator(workflow_schema()).is_valid


def _locate(root: JsonValue, path: Sequence[Any], text: str) -> JsonValue:
    """The deepest value of the tree along `path` (a jsonschema absolute_path); a value read
    whole by a fast path (OpaqueValue) is re-read with inner spans on the way."""
    current = root
    for step in path:
        if isinstance(current, OpaqueValue):
            current = current.expanded(text) or current
        child = child_at(current, step)
        if child is None:
            break
        current = child
    return current


def _path_text(path: Sequence[Any]) -> str:
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else str(step))
    return text or "document"


@lru_cache(maxsize=2)
def _item_validators(kind: str) -> tuple[Draft202012Validator, Callable[[Any], bool] | None]:
    """Validators of one element of `nodes` or `edges` (the workflow schema's item schema)."""
    schema = workflow_schema()
    item = {"$schema": schema["$schema"], "$ref": f"#/$defs/{kind}", "$defs": schema["$defs"]}
    try:
        import jsonschema_rs

        fast = jsonschema_rs.Draft202012Validator(item).is_valid
    except ImportError:  # pragma: no cover
        fast = None
    return Draft202012Validator(item), fast


@lru_cache(maxsize=2)
def _array_validator(kind: str) -> Callable[[Any], bool] | None:
    """jsonschema-rs's "valid?" for a whole array of `kind` ("node", "edge") items."""
    try:
        import jsonschema_rs
    except ImportError:  # pragma: no cover - an optional speed-up
        return None
    schema = workflow_schema()
    array = {
        "$schema": schema["$schema"],
        "type": "array",
        "items": {"$ref": f"#/$defs/{kind}"},
        "$defs": schema["$defs"],
    }
    return jsonschema_rs.Draft202012Validator(array).is_valid


_BLOCK = 256  # items validated in one call; a block that fails is validated item by item


def items_that_may_be_invalid(kind: str, values: list[Any]) -> range | set[int]:
    """The indices of `values` that may not be valid `kind` items: those of the blocks of
    _BLOCK items that fail as a whole (one jsonschema-rs call each, so that a document with
    one schema error costs one block's per-element validation, not every element's)."""
    check = _array_validator(kind)
    if check is None:  # pragma: no cover - without jsonschema-rs every element is validated
        return range(len(values))
    suspects: set[int] = set()
    for at in range(0, len(values), _BLOCK):
        block = values[at : at + _BLOCK]
        try:
            valid = bool(check(block))
        except ValueError:  # e.g. a lone surrogate from a \ud83d escape: item by item
            valid = False
        if not valid:
            suspects.update(range(at, at + len(block)))
    return suspects


Problem = tuple[list[Any], str, int, int]  # path, message, start, end (in the text's coordinates)
# How the document's format spells a value in a message (the reader's `spell`: JSON's `null`,
# `"x"`, `{…}`; never Python's `None`, `'x'`, `{'id': …}`).
Spell = Callable[[Any], str]
_NO_PATH: list[Any] = []  # shared, never mutated: the path of a problem with the item itself


def schema_message(error: Any, spell: Spell) -> str:
    """jsonschema's message, with the values in it spelled as the document's format spells
    them (jsonschema writes Python's repr). The schema's validators: type, required,
    minLength; anything else keeps jsonschema's words."""
    validator, instance = error.validator, error.instance
    if validator == "type":
        types = error.validator_value
        names = ", ".join(f"'{name}'" for name in ([types] if isinstance(types, str) else types))
        return f"{spell(instance)} is not of type {names}"
    if validator == "required" and isinstance(instance, dict):
        for name in error.validator_value:
            if name not in instance and error.message.startswith(repr(name)):
                return f"{spell(name)} is a required property"
    if validator == "minLength":
        if error.validator_value == 1:
            return f"{spell(instance)} should be non-empty"
        return f"{spell(instance)} is too short"
    return str(error.message)


def _problems(
    validator: Draft202012Validator,
    fast: Callable[[Any], bool] | None,
    root: JsonValue,
    instance: Any,
    text: str,
    spell: Spell,
) -> list[Problem]:
    if fast is not None:
        try:
            if fast(instance):
                return []
        except ValueError:  # e.g. a lone surrogate from a \ud83d escape: jsonschema copes
            pass
    problems = []
    for error in sorted(
        validator.iter_errors(instance), key=lambda e: list(map(str, e.absolute_path))
    ):
        path = list(error.absolute_path)
        target = _locate(root, path, text)
        if error.validator == "required" or target is root and path:
            start, end = target.start, target.start + 1
        else:
            start, end = target.start, target.end
        message = schema_message(error, spell)
        if len(message) > 200:
            message = message[:197] + "…"
        problems.append((path, message, start, end))
    return problems


def element_problems(
    kind: str, value: JsonValue, text: str, spell: Spell, instance: Any = None
) -> list[Problem]:
    """Schema problems of one element of `nodes` (kind "node") or `edges` ("edge"), values
    spelled by `spell`; `instance` is `to_python(value)` when the caller made it already."""
    validator, fast = _item_validators(kind)
    if instance is None:
        instance = to_python(value)
    if not isinstance(instance, dict):
        # Every item schema is an object schema: a number or string where an object belongs has
        # exactly this one error, so a million of them need no million jsonschema calls. (The
        # message is jsonschema's own; tests/core/rules/test_caps.py compares the two.)
        return [(_NO_PATH, f"{spell(instance)} is not of type 'object'", value.start, value.end)]
    return _problems(validator, fast, value, instance, text, spell)


def root_problems(root: JObject, text: str, spell: Spell) -> list[Problem]:
    """Schema problems of the document outside the elements of `nodes` and `edges`. A member
    whose value is missing (a syntax error says so) is left out: it is no `null`."""
    instance = {
        member.key.value: []
        if member.key.value in ("nodes", "edges") and isinstance(member.value, JArray)
        else to_python(member.value)
        for member in root.members
        if member.value is not None
    }
    return _problems(_validator(), _fast_is_valid(), root, instance, text, spell)


def path_text(path: Sequence[Any]) -> str:
    return _path_text(path)
