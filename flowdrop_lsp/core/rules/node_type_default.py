"""FD-NODE-TYPE-DEFAULT: a node type's parameter `default` that the parameter's own schema
refuses, or a schema `type` that is no JSON Schema type.

A parameter's effective default is the node type's recorded default, else the processor's
schema default (spec CFG-3); every node placed without the setting runs with it. A default the
schema refuses (a string for an `integer`, a value outside its `enum`, below its `minimum`…) is
a launch failure waiting in every workflow that leaves the setting alone (R6.d judges a node's
config value so; this judges the default the type hands out). Judged with the same arms as
R6.d (`config_value.violation`: type, enum, bounds, length, pattern; a null default means none,
CFG-3).

Where the schema comes from: a FlowDrop 1.0 definition exported by Drupal keeps only the gate
flags and the default of each parameter (the real site's 90 definitions: tests/corpus/
atelier-cms); the JSON Schema lives with the processor, in PHP, which no file shows. So this
judges what a definition itself states: a parameter entry's inline `schema` (`type`, `enum`, …),
else the pre-1.0 `config_schema.properties.<name>` (the flowdrop_node_type module's old config
schema), with the parameter's `default` (or a pre-1.0 `config:` value). A definition stating no
schema gets no verdict.

A schema's `type` must be one of JSON Schema's seven type words, or a list of them (SCH-34: a
port lane such as `text` written there derives the wrong port and nothing says so). No fix:
which of the default and the schema is wrong is the author's to say.
"""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.node_types import is_legacy_format
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import NodeTypeContext, Rule
from flowdrop_lsp.core.rules.config_value import TYPE_NAMES, violation
from flowdrop_lsp.core.syntax.tree import JArray, JObject, JsonValue, JString, to_python
from flowdrop_lsp.core.text.positions import Span

RULE = Rule(
    "FD-NODE-TYPE-DEFAULT",
    "Node-type default its schema refuses",
    Severity.ERROR,
    "A node type's parameter `default` does not match the schema the definition gives it "
    "(type, enum, bounds), or a schema's `type` is no JSON Schema type.",
)


def _schemas(top: JObject) -> Iterator[tuple[str, JObject, JsonValue | None]]:
    """Each parameter with a schema the definition states: (name, schema, default value)."""
    old = top.get("config_schema")
    properties = old.get("properties") if isinstance(old, JObject) else None
    shared = properties if isinstance(properties, JObject) else None
    if is_legacy_format(top):
        config = top.get("config")
        for member in config.members if isinstance(config, JObject) else ():
            schema = shared.get(member.key.value) if shared is not None else None
            if isinstance(schema, JObject):
                yield member.key.value, schema, member.value
        return
    parameters = top.get("parameters")
    for member in parameters.members if isinstance(parameters, JObject) else ():
        entry = member.value
        if not isinstance(entry, JObject):
            continue  # FD-NODE-TYPE-ENTRY's
        schema = entry.get("schema")
        if not isinstance(schema, JObject) and shared is not None:
            schema = shared.get(member.key.value)
        if isinstance(schema, JObject):
            yield member.key.value, schema, entry.get("default")


def check_node_type(ctx: NodeTypeContext) -> Iterator[Finding]:
    top = ctx.top
    if top is None:
        return
    for name, schema, default in _schemas(top):
        declared = schema.get("type")
        words = declared.items if isinstance(declared, JArray) else [declared]
        wrong = next(
            (w for w in words if w is not None and not _type_word(w)),
            None,
        )
        if wrong is not None:
            yield RULE.finding(
                Span(wrong.start, wrong.end),
                f"the schema of parameter '{name}' has type "
                f"{short_text(repr(to_python(wrong)), 30)}, not one of JSON Schema's types "
                f"({', '.join(sorted(TYPE_NAMES))}): a port lane is no type",
            )
            continue
        if default is None:
            continue
        refused = violation(to_python(default), to_python(schema))
        if refused is not None:
            yield RULE.finding(
                Span(default.start, default.end),
                f"the default of parameter '{name}', "
                f"{short_text(ctx.text[default.start : default.end], 30)}, {refused}: every "
                "node leaving the setting unset runs with it and fails its launch check",
            )


def _type_word(value: JsonValue) -> bool:
    return isinstance(value, JString) and value.value in TYPE_NAMES


EXPLANATION = RULE.explained(
    "A parameter's effective default is its node type's `default` (spec CFG-3): every node "
    "that leaves the setting unset runs with it. A default its schema refuses — a string for "
    "an `integer`, a value outside the `enum` — fails the launch check of every such node. A "
    "Drupal export keeps the schema with the processor, in PHP; this judges what a definition "
    "states itself (a parameter's inline `schema`, or the pre-1.0 `config_schema`), with "
    "R6.d's arms. A schema `type` must be a JSON Schema type word, never a port lane (SCH-34).",
    failing="""\
id: retry
label: Retry
parameters:
  attempts:
    configurable: true
    connectable: false
    required: false
    default: three
    schema:
      type: integer
      minimum: 1
outputs: {  }
executor_plugin: 'flowdrop_node_processor:retry'
""",
    passing="""\
id: retry
label: Retry
parameters:
  attempts:
    configurable: true
    connectable: false
    required: false
    default: 3
    schema:
      type: integer
      minimum: 1
outputs: {  }
executor_plugin: 'flowdrop_node_processor:retry'
""",
    file_name="flowdrop_node_type.flowdrop_node_type.retry.yml",
)
