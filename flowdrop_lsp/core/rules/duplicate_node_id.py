"""R2: node ids are unique. A later definition is reported, pointing at the first one."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext, node_locator

RULE = Rule(
    "R2",
    "Duplicate node id",
    Severity.ERROR,
    "Two nodes share an id; edges cannot tell them apart (the first definition is used).",
    spec_ids=("R2",),
)
LOCATOR_CODE = "R2_NODE_DUPLICATE_ID"  # the spec's name for it


def check(ctx: RuleContext) -> Iterator[Finding]:
    for node_id in ctx.graph.duplicate_ids:
        first, *later = ctx.graph.definitions[node_id]
        if first.id_span is None:
            continue
        for node in later:
            if node.id_span is None:
                continue
            yield RULE.finding(
                node.id_span,
                f"duplicate node id '{node_id}': already defined by the node at {first.display}",
                node=node_id,
                related=(RelatedLocation(first.id_span, f"'{node_id}' first defined here"),),
                locator_code=LOCATOR_CODE,
                locator=node_locator(node_id),
            )


EXPLANATION = RULE.explained(
    "Edges name nodes by id: with two nodes of one id, an edge cannot say which it means, and "
    "the first definition is the one used. The second node is reported, pointing at the first.",
    failing="""\
{
  "nodes": [
    {"id": "tool_a", "type": "http_request", "data": {"label": "Search"}},
    {"id": "tool_a", "type": "http_request", "data": {"label": "Fetch"}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "tool_a", "type": "http_request", "data": {"label": "Search"}},
    {"id": "tool_b", "type": "http_request", "data": {"label": "Fetch"}}
  ],
  "edges": []
}
""",
)
