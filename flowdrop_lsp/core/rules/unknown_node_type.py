"""FD-UNKNOWN-NODE-TYPE: a node whose type the site's node-type registry does not define.

Only when a registry was found (`settings.known_node_types is not None`): without one, unknown
and site-specific types are normal and never reported. With one, an undefined type is a
misspelling, a definition not exported with the site's config, or a module not installed."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import short_text
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext, node_locator

RULE = Rule(
    "FD-UNKNOWN-NODE-TYPE",
    "Node type not defined by the site",
    Severity.WARNING,
    "A node's type is not among the node types the site's definitions declare.",
)
LOCATOR_CODE = "R9_NODE_TYPE_UNKNOWN"  # the spec's name for it


def check(ctx: RuleContext) -> Iterator[Finding]:
    known = ctx.settings.known_node_types
    if known is None:
        return
    for node_id, nodes in ctx.graph.definitions.items():
        for node in nodes:
            if node.type_id is None or node.type_id in known:
                continue
            anchor = node.type_span or node.id_span or node.anchor
            yield Finding(
                RULE.code,
                RULE.default_severity,
                f"node type '{short_text(node.type_id)}' of {node.display} is not defined by the "
                f"site's node types ({ctx.settings.node_types_origin})",
                anchor,
                node=node_id,
                locator_code=LOCATOR_CODE,
                locator=node_locator(node_id),
            )


EXPLANATION = RULE.explained(
    "A Drupal site defines its node types as config beside its workflows "
    "(`flowdrop_node_type.flowdrop_node_type.<id>.yml`); a workflow node of a type the site "
    "does not define (often a typo) cannot run there. Only when the site's definitions were "
    "found: without them site-specific types are normal and never reported.",
    failing="""\
{
  "nodes": [
    {"id": "a", "type": "http_reqest", "data": {"label": "Fetch"}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "a", "type": "http_request", "data": {"label": "Fetch"}}
  ],
  "edges": []
}
""",
    site_node_types=("http_request",),
)
