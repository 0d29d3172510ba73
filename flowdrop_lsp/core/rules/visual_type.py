"""SCH-20: a node's `config.nodeType` is a visual type its node type offers.

A node's visual type is its node type's: where the type supports more than one, the config
schema gains a reserved `nodeType` property whose `enum` is exactly the supported types (its
default the type's own visual type), and the editor offers only those (SCH-20). The editor
reads `config.nodeType` on every node, though, and falls back to the type's own visual type for
a value the type does not offer; a real 1.0-alpha site writes it on types supporting a single
visual type too. So the types offered are the type's `supported_visual_types` and its own
`visual_type` (`NodeTypeDefinition.offered_visual_types`), however many: a node whose
`config.nodeType` is a string outside them asks for a rendering (and, for `tool`, a mode) its
type does not offer. A warning: what the runtime does with the stray value is not the spec's to
say; the editor cannot show it. This rule alone judges the key's value: R6.c never calls
`nodeType` an unknown key (it is one of the editor's own, `EDITOR_CONFIG_KEYS`).

Judged: a node whose type the site defines with a `supported_visual_types` or a `visual_type`,
and whose `config.nodeType` is a string. Anything else (no key, a non-string, a type that says
neither) is not judged. Per node (`scoped_findings`). On the real site all 65 nodes that set it
name a supported type.
"""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.wording import id_text, short_text
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.rules.scoped import Scoped

RULE = Rule(
    "SCH-20",
    "Visual type the node type does not support",
    Severity.WARNING,
    "A node's `config.nodeType` is not among its node type's `supported_visual_types`: the "
    "editor offers only those.",
    spec_ids=("SCH-20",),
)

SETTING = "nodeType"
PATH = ("data", "config", SETTING)


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    catalog = ctx.settings.node_type_catalog
    definition = catalog.get(node.type_id) if catalog is not None else None
    config = node.config
    if definition is None or not isinstance(config, dict):
        return
    chosen = config.get(SETTING)
    supported = definition.offered_visual_types
    if not isinstance(chosen, str) or not supported or chosen in supported:
        return
    located = node.editor.locate(PATH) if node.editor is not None else None
    listed = ", ".join(f"'{short_text(kind)}'" for kind in supported)
    yield RULE.finding(
        located.value if located is not None else node.anchor,
        f"config.nodeType '{short_text(chosen)}' of {node.display} is not a visual type of "
        f"node type '{id_text(definition.id)}' (it supports {listed})",
        node=node.id,
        key=SETTING,
    )


SCOPED = Scoped(RULE.code, node_check=check_node, node_types=True)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXAMPLE_HTTP_REQUEST = """\
id: http_request
parameters:
  url:
    connectable: true
supported_visual_types:
  - default
  - simple
"""


EXPLANATION = RULE.explained(
    "A node type lists the visual types its nodes may take (`supported_visual_types`); where "
    "there is a choice the editor writes the node's pick into `config.nodeType`, offering only "
    "those. A value outside the list is one the type does not support, usually left from a "
    "copy between types. Only with the site's node types; here `http_request` supports "
    "`default` and `simple`.",
    failing="""\
{
  "nodes": [
    {"id": "http_request.1", "type": "http_request", "data": {"label": "Fetch",
      "config": {"nodeType": "gateway"}}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "http_request.1", "type": "http_request", "data": {"label": "Fetch",
      "config": {"nodeType": "simple"}}}
  ],
  "edges": []
}
""",
    site_node_types=(EXAMPLE_HTTP_REQUEST,),
)
