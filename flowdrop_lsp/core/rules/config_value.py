"""R6.d–h: a config value that its parameter's JSON Schema refuses (spec rules/R6.d.yml …
R6.h.yml: one check with several arms, one code `R6_CONFIG_INVALID` at
`node.{id}.config.{key}`, at most one error per key).

The arms, in the spec's fixed order, stopping at the first violation: the declared `type` (a
type name we do not recognise, or none, imposes nothing — R6.d), `enum` (exact, no coercion —
R6.e), `minimum` / `maximum` (on numbers only — R6.f), `minLength` / `maxLength` (on strings, in
code points — R6.g), `pattern` (on strings; a pattern that does not compile is the node type's
defect, never the author's: the value passes — R6.h). A null value means unset and is never
judged (R6.i).

Where the schema comes from: a node's stored metadata, `data.metadata.configSchema` — the
editor's copy of its node type's derived config schema, which FlowDrop's editor writes into
every node of a JSON export (STORE-14). Drupal config YAML keeps no such copy, and a node type's
YAML exports only the parameters' gate flags and defaults, so in YAML this check has nothing
to read: a site could supply the schemas by exporting its workflows as JSON (the editor's
export), or a later release of ours could read the processors' schemas from a schema dump.
The runtime judges with the live node type's schema (SCH-29: stored metadata is a cache, CMP-2
re-enriches it); a stale copy may differ — the finding says which schema it used. No verdict
for a node whose type the site's registry does not define (R6.j: R9 reports it).

Patterns: the spec does not name the regex dialect (PHP's PCRE in FlowDrop). A pattern Python
cannot compile is not judged (as R6.h would accept a broken one); a value is reported only
when the pattern finds no match read either way Python can (Unicode and ASCII classes), so that
a difference of dialect never makes a false error."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.rules.scoped import Scoped

RULE = Rule(
    "R6.d",
    "Config value its schema refuses",
    Severity.ERROR,
    "A config value does not match its parameter's JSON Schema (type, enum, bounds, length, "
    "pattern): FlowDrop refuses to save or launch the workflow.",
    spec_ids=("R6.d", "R6.e", "R6.f", "R6.g", "R6.h"),
)
LOCATOR_CODE = "R6_CONFIG_INVALID"
CONFIG_PATH = ("data", "config")
# The JSON Schema type names, each with what a value of it is once JSON is decoded.
_TYPES: dict[str, Any] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    # PHP decodes `{}` and `[]` alike (an empty array): an empty one is taken for either.
    "object": lambda v: isinstance(v, dict) or v == [],
    "array": lambda v: isinstance(v, list) or v == {},
    "null": lambda v: v is None,
}
# JSON Schema's seven type words (spec SCH-34: a property's `type` is one of them).
TYPE_NAMES = frozenset(_TYPES)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _same(a: Any, b: Any) -> bool:
    """Equal with no coercion (R6.e): `1` is not `"1"`, `true` not `1`, `1` not `1.0`."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _type_ok(value: Any, declared: Any) -> bool:
    names = declared if isinstance(declared, list) else [declared]
    known = [name for name in names if isinstance(name, str) and name in _TYPES]
    if not known:
        return True  # no type, or one we do not recognise: no constraint (R6.d)
    return any(_TYPES[name](value) for name in known)


def _pattern_refuses(pattern: str, value: str) -> bool:
    try:
        unicode, ascii_ = re.compile(pattern), re.compile(pattern, re.ASCII)
    except (re.error, RecursionError, OverflowError):
        return False  # a broken pattern is never charged to the author (R6.h)
    return unicode.search(value) is None and ascii_.search(value) is None


def violation(value: Any, schema: dict[str, Any]) -> str | None:
    """What the first arm that refuses `value` says, or None (R6.d … R6.h, in their order)."""
    if value is None:
        return None  # R6.i: null means unset
    if "type" in schema and not _type_ok(value, schema["type"]):
        return f"is not of type {schema['type']!r}"
    enum = schema.get("enum")
    if isinstance(enum, list) and not any(_same(value, option) for option in enum):
        shown = ", ".join(short_text(repr(option), 20) for option in enum[:6])
        return f"is not one of {shown}" + (", …" if len(enum) > 6 else "")
    minimum, maximum = schema.get("minimum"), schema.get("maximum")
    if _is_number(value) and _is_number(minimum) and value < minimum:
        return f"is less than the minimum {minimum}"
    if _is_number(value) and _is_number(maximum) and value > maximum:
        return f"is more than the maximum {maximum}"
    if isinstance(value, str):
        shortest, longest = schema.get("minLength"), schema.get("maxLength")
        if isinstance(shortest, int) and len(value) < shortest:
            return f"is shorter than {shortest} characters"
        if isinstance(longest, int) and len(value) > longest:
            return f"is longer than {longest} characters"
        pattern = schema.get("pattern")
        if isinstance(pattern, str) and _pattern_refuses(pattern, value):
            return f"does not match the pattern {short_text(pattern, 40)!r}"
    return None


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    schema, config = node.config_schema, node.config
    if schema is None or node.id is None or not isinstance(config, dict):
        return
    catalog = ctx.settings.node_type_catalog
    if catalog is not None and node.type_id is not None and catalog.get(node.type_id) is None:
        return  # R6.j: no node type, no schema verdict
    properties = schema["properties"]
    for key, value in config.items():
        spec = properties.get(key)
        why = violation(value, spec) if isinstance(spec, dict) else None
        if why is None:
            continue
        located = node.editor.locate((*CONFIG_PATH, key)) if node.editor else None
        anchor = located.value if located is not None and located.value else node.anchor
        yield RULE.finding(
            anchor,
            f"config '{short_text(key)}' of {node.display}: {short_text(repr(value), 40)} {why} "
            "(the node's stored config schema): FlowDrop refuses to save the workflow",
            node=node.id,
            locator_code=LOCATOR_CODE,
            key=key,
        )


SCOPED = Scoped(RULE.code, node_check=check_node)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXPLANATION = RULE.explained(
    "FlowDrop validates each config value against its parameter's JSON Schema when a workflow "
    "is saved and launched, and refuses the first violation of each key (`R6_CONFIG_INVALID` "
    "at `node.{id}.config.{key}`): the declared type, then `enum` (exact), `minimum`/`maximum` "
    "(numbers), `minLength`/`maxLength` (strings, in characters), `pattern`. Null means unset "
    "and passes; a pattern that does not compile never blocks the author. The schema is the "
    "one FlowDrop's editor stores in each node of a JSON export (`data.metadata.configSchema`); "
    "Drupal config YAML keeps none, so YAML workflows are not judged by this rule.",
    failing="""\
{
  "nodes": [
    {"id": "fetch", "type": "http_request", "data": {"label": "Fetch",
      "config": {"method": "FETCH", "timeout": 0},
      "metadata": {"configSchema": {"properties": {
        "method": {"type": "string", "enum": ["GET", "POST"]},
        "timeout": {"type": "integer", "minimum": 1}}}}}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "fetch", "type": "http_request", "data": {"label": "Fetch",
      "config": {"method": "GET", "timeout": null},
      "metadata": {"configSchema": {"properties": {
        "method": {"type": "string", "enum": ["GET", "POST"]},
        "timeout": {"type": "integer", "minimum": 1}}}}}}
  ],
  "edges": []
}
""",
)
