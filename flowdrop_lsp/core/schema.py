"""The shipped JSON Schema of workflow documents, and its errors mapped to source spans.

The same schema file is offered to editors' own JSON support; here `jsonschema` checks it and
each error is anchored on the offending value (or, for a missing member, the object's brace).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator

from flowdrop_lsp.core.jsonsyntax import JArray, JObject, JsonValue
from flowdrop_lsp.core.text import Span

SCHEMA_RESOURCE = "workflow.schema.json"


@lru_cache(maxsize=1)
def workflow_schema() -> dict[str, Any]:
    text = resources.files("flowdrop_lsp.schemas").joinpath(SCHEMA_RESOURCE).read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    return Draft202012Validator(workflow_schema())


def schema_path() -> str:
    return str(resources.files("flowdrop_lsp.schemas").joinpath(SCHEMA_RESOURCE))


def _locate(root: JsonValue, path: Sequence[Any]) -> JsonValue:
    """The deepest value of the tree along `path` (a jsonschema absolute_path)."""
    current = root
    for step in path:
        if isinstance(current, JObject) and isinstance(step, str):
            child = current.get(step)
        elif isinstance(current, JArray) and isinstance(step, int) and 0 <= step < len(current.items):
            child = current.items[step]
        else:
            child = None
        if child is None:
            break
        current = child
    return current


def _path_text(path: Sequence[Any]) -> str:
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else str(step))
    return text or "document"


def schema_problems(root: JsonValue, instance: Any) -> Iterator[tuple[str, Span]]:
    """(message, span) for every schema error of `instance`, the Python value of `root`."""
    for error in sorted(_validator().iter_errors(instance), key=lambda e: list(map(str, e.absolute_path))):
        path = list(error.absolute_path)
        target = _locate(root, path)
        if error.validator == "required" or target is root and path:
            span = Span(target.start, target.start + 1)
        else:
            span = Span(target.start, target.end)
        message = error.message
        if len(message) > 200:
            message = message[:197] + "…"
        yield f"{_path_text(path)}: {message}", span
