"""FD-NODE-TYPE-LEGACY: a node-type definition in the pre-1.0 format.

Before FlowDrop 1.0 a node type said `version`, listed its `inputs` and `outputs`, and kept its
settings' defaults in a `config:` block (with their JSON Schema in `config_schema`); 1.0 reads
`parameters:` — each parameter's gate flags (`configurable`, `connectable`, `required`) and its
`default` — and `outputs:` as a mapping by name (docs/domain.md §6, "Other releases"; the
flowdrop_node_type module's README of that time shows the old config schema). A definition with
no `parameters` that holds `version` or a `config:` block is that format: FlowDrop 1.0 finds no
parameters in it, so its settings are not configurable in the editor and no default applies;
the launch checks read its `config:` keys as configurable parameters with their defaults
(`NodeTypeDefinition.legacy_format`), which is what the migration should write.

Reported once, on the key that marks the format (`config`, else `version`), saying what to
write. No fix: the conversion decides for each setting whether it is connectable or required,
which the old format never said.
"""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.node_types import is_legacy_format
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import NodeTypeContext, Rule
from flowdrop_lsp.core.syntax.tree import JObject
from flowdrop_lsp.core.text.positions import Span

RULE = Rule(
    "FD-NODE-TYPE-LEGACY",
    "Node type in the pre-1.0 format",
    Severity.WARNING,
    "A node-type definition uses the pre-1.0 format (`version`, a `config:` block of defaults, "
    "no `parameters`): FlowDrop 1.0 reads no parameters from it.",
)


def check_node_type(ctx: NodeTypeContext) -> Iterator[Finding]:
    top = ctx.top
    if top is None or not is_legacy_format(top):
        return
    marker = top.member("config") or top.member("version")
    assert marker is not None
    config = top.get("config")
    settings = [m.key.value for m in config.members] if isinstance(config, JObject) else []
    example = settings[0] if settings else "<name>"
    yield RULE.finding(
        Span(marker.key.start, marker.key.end),
        "a node type in the pre-1.0 format: FlowDrop 1.0 reads its settings from "
        f"'parameters' — write each key of 'config' as 'parameters.{example}' with "
        "'configurable: true', 'connectable', 'required' and its 'default'; its 'outputs' as "
        "a mapping by name ('<name>: { exposed: true }'); then drop 'version', 'inputs', "
        "'config' and 'config_schema'",
    )


EXPLANATION = RULE.explained(
    "Before FlowDrop 1.0 a node type said `version`, listed its `inputs` and `outputs`, and kept "
    "its settings' defaults in a `config:` block; 1.0 reads `parameters:`, each parameter's gate "
    "flags and `default`, and `outputs:` as a mapping by name. A definition still in the old "
    "format has no parameters for FlowDrop 1.0: its settings cannot be configured in the editor "
    "and no default applies. The migration is the author's (whether a setting is connectable "
    "or required was never said), so there is no fix.",
    failing="""\
id: http_get
label: 'HTTP GET'
version: 0.9.0
config:
  url: ''
  timeout: 30
executor_plugin: 'flowdrop_node_processor:http_get'
""",
    passing="""\
id: http_get
label: 'HTTP GET'
parameters:
  url:
    configurable: true
    connectable: true
    required: true
    default: ''
  timeout:
    configurable: true
    connectable: false
    required: false
    default: 30
outputs:
  body:
    exposed: true
executor_plugin: 'flowdrop_node_processor:http_get'
""",
    file_name="flowdrop_node_type.flowdrop_node_type.http_get.yml",
)
