"""FD-NODE-TYPE-ENTRY: a `parameters` or `outputs` entry that is not a mapping, or whose flag
is not a boolean.

Each entry of a 1.0 definition's `parameters` is a mapping of its gate flags (`configurable`,
`connectable`, `required`: spec CFG-1, where an unrecorded flag means false), its default
exposure (`exposed_by_default`, CFG-2) and its `default` (CFG-3); each entry of `outputs` says
whether the port is `exposed`. An entry written as a bare value (`message: true`, a string) is
read as a parameter with every flag unsaid: not configurable, not connectable — a setting the
editor never offers and no wire can fill. A flag that is not a boolean (`required: 'yes'`,
`connectable: 'false'`) is not what it looks like: Drupal casts config to its schema's boolean
on save, and the string `'false'` is true (EXPO-5 makes the same point of the processors'
`x-exposed-by-default`: only an exact `false` counts). Until now both were accepted silently.

Reported on the entry's value (or the flag's). No fix: whether `'yes'` meant true is the
author's to say, and an entry's flags were never written.
"""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.node_types import OUTPUT_FLAGS, PARAMETER_FLAGS, is_legacy_format
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import NodeTypeContext, Rule, written_kind
from flowdrop_lsp.core.syntax.tree import JLiteral, JObject
from flowdrop_lsp.core.text.positions import Span

RULE = Rule(
    "FD-NODE-TYPE-ENTRY",
    "Node-type parameter or output that is not a mapping of flags",
    Severity.ERROR,
    "A node type's `parameters` or `outputs` entry is not a mapping, or one of its flags "
    "(`configurable`, `connectable`, `required`, `exposed`…) is not a boolean.",
)
_SECTIONS = (("parameters", "parameter", PARAMETER_FLAGS), ("outputs", "output", OUTPUT_FLAGS))


def check_node_type(ctx: NodeTypeContext) -> Iterator[Finding]:
    top = ctx.top
    if top is None or is_legacy_format(top):
        return
    for section, kind, flags in _SECTIONS:
        entries = top.get(section)
        if not isinstance(entries, JObject):
            continue  # FD-NODE-TYPE-SHAPE's
        for member in entries.members:
            entry, name = member.value, member.key.value
            if not isinstance(entry, JObject):
                span = (
                    Span(entry.start, entry.end)
                    if entry is not None
                    else Span(member.key.start, member.key.end)
                )
                yield RULE.finding(
                    span,
                    f"{kind} '{name}' is {written_kind(entry)}, not a mapping of its flags: "
                    f"FlowDrop reads every flag of it as unsaid ("
                    + (
                        "not configurable, not connectable"
                        if kind == "parameter"
                        else "exposure by default"
                    )
                    + ")",
                )
                continue
            for flag in flags:
                value = entry.get(flag)
                if value is None or isinstance(value, JLiteral) and value.value is not None:
                    continue
                yield RULE.finding(
                    Span(value.start, value.end),
                    f"'{flag}' of {kind} '{name}' is {written_kind(value)}, not a boolean: "
                    "Drupal casts it on import (the string 'false' is true)",
                )


EXPLANATION = RULE.explained(
    "Each entry of a node type's `parameters` is a mapping of its gate flags (`configurable`, "
    "`connectable`, `required`), its `exposed_by_default` and its `default`; each entry of "
    "`outputs` says whether the port is `exposed`. An entry written as a bare value is a "
    "parameter with every flag unsaid — not configurable, not connectable: a setting nobody "
    "can give. A flag that is not a boolean is cast by Drupal on import, and the string "
    "`'false'` is true.",
    failing="""\
id: translate
label: Translate
parameters:
  text: true
  language:
    configurable: true
    connectable: 'false'
    required: false
    default: en
outputs:
  translation:
    exposed: true
executor_plugin: 'flowdrop_node_processor:translate'
""",
    passing="""\
id: translate
label: Translate
parameters:
  text:
    configurable: false
    connectable: true
    required: true
  language:
    configurable: true
    connectable: false
    required: false
    default: en
outputs:
  translation:
    exposed: true
executor_plugin: 'flowdrop_node_processor:translate'
""",
    file_name="flowdrop_node_type.flowdrop_node_type.translate.yml",
)
