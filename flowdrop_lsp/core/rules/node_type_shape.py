"""FD-NODE-TYPE-SHAPE: a node-type definition file that is not the shape of one.

A node type is a Drupal config entity (`flowdrop_node_type.flowdrop_node_type.<id>.yml`): a
mapping whose `id` names it (the config name's last segment: FD-CONFIG-NAME) and whose `label`
the editor's palette shows. Its `parameters` and `outputs` are mappings by name (what the
launch checks compare a node's `config` and edges with, core/domain/node_types.py). A file
that is a list or a string, a definition without a string `id` or `label`, or `parameters` /
`outputs` written as anything but a mapping is read by FlowDrop as a type with no parameters
or no ports (PHP iterating a string or null reads nothing) or refused at import; until now
such a file was skipped silently unless a workflow used it (a warning on stderr at best).

An empty list (`[]`) is taken for an empty mapping: PHP's arrays do not tell them apart, and
Drupal's dumper writes both as `{  }`. A definition in the pre-1.0 format (`version`, a
`config:` block, `inputs`/`outputs` lists) is FD-NODE-TYPE-LEGACY's, not reported here. No fix:
what the type should say is the author's to write.
"""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.node_types import is_legacy_format
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import NodeTypeContext, Rule, written_kind
from flowdrop_lsp.core.syntax.tree import JArray, JObject, JString
from flowdrop_lsp.core.text.positions import Span

RULE = Rule(
    "FD-NODE-TYPE-SHAPE",
    "Node-type definition of the wrong shape",
    Severity.ERROR,
    "A node-type definition file is not a mapping, lacks a string `id` or `label`, or holds "
    "`parameters` or `outputs` that are not mappings: FlowDrop cannot read the type it means.",
)
REQUIRED = ("id", "label")
SECTIONS = ("parameters", "outputs")


def check_node_type(ctx: NodeTypeContext) -> Iterator[Finding]:
    top = ctx.top
    if top is None:
        root = ctx.root
        span = Span(root.start, root.end) if root is not None else Span(0, 0)
        yield RULE.finding(
            span,
            f"not a node-type definition: the file holds {written_kind(root)}, not a mapping "
            "of 'id', 'label', 'parameters', …",
        )
        return
    for key in REQUIRED:
        member = top.member(key)
        if member is None:
            first = top.members[0].key if top.members else None
            span = Span(first.start, first.end) if first is not None else Span(top.start, top.end)
            yield RULE.finding(
                span,
                f"the definition has no '{key}': a node type is named by its id and shown by "
                "its label",
            )
        elif not isinstance(member.value, JString) or not member.value.value.strip():
            value = member.value
            shown = "an empty string" if isinstance(value, JString) else written_kind(value)
            span = Span(value.start, value.end) if value is not None else _key_span(member.key)
            yield RULE.finding(
                span, f"'{key}' is {shown}: a node type's {key} is a non-empty string"
            )
    if is_legacy_format(top):
        return
    for key in SECTIONS:
        member = top.member(key)
        if member is None:
            continue
        value = member.value
        if isinstance(value, JObject) or isinstance(value, JArray) and not value.items:
            continue
        span = Span(value.start, value.end) if value is not None else _key_span(member.key)
        entries = "parameter" if key == "parameters" else "output"
        yield RULE.finding(
            span,
            f"'{key}' is {written_kind(value)}, not a mapping of {entries} names to their "
            f"settings: FlowDrop reads no {entries} from it",
        )


def _key_span(key: JString) -> Span:
    return Span(key.start, key.end)


EXPLANATION = RULE.explained(
    "FlowDrop keeps a node type as a config entity: a mapping whose `id` names it and whose "
    "`label` the editor shows, with its `parameters` and `outputs` as mappings by name. A "
    "definition of another shape is a type with no parameters or no ports (PHP reads nothing "
    "from a string or a list of names), or a file Drupal refuses to import; nothing said so "
    "unless a workflow used the type. An empty list is taken for an empty mapping (PHP does "
    "not tell them apart).",
    failing="""\
id: summarize
label: Summarize
parameters:
  - text
  - max_words
outputs: {  }
executor_plugin: 'flowdrop_node_processor:summarize'
""",
    passing="""\
id: summarize
label: Summarize
parameters:
  text:
    configurable: false
    connectable: true
    required: true
outputs: {  }
executor_plugin: 'flowdrop_node_processor:summarize'
""",
    file_name="flowdrop_node_type.flowdrop_node_type.summarize.yml",
)
