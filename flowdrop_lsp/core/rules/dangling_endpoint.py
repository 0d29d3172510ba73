"""R8.a/b: an edge's source and target must be nodes of the workflow.

An error, as FlowDrop refuses such a workflow at save (`R8_EDGE_SOURCE_MISSING`,
`R8_EDGE_TARGET_MISSING`). (It was a warning until issue 26 because the spec's own CMP-9
examples wire tools to agents they do not define: those examples are fragments that judge
CMP-9 alone; a stored workflow with such an edge is refused.)"""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext, edge_locator

RULE = Rule(
    "R8",
    "Undefined edge endpoint",
    Severity.ERROR,
    "An edge's source or target is not the id of any node in `nodes`.",
    spec_ids=("R8.a", "R8.b"),
)
# The spec's names for it, by the end that names no node.
LOCATOR_CODES = {"source": "R8_EDGE_SOURCE_MISSING", "target": "R8_EDGE_TARGET_MISSING"}


def check(ctx: RuleContext) -> Iterator[Finding]:
    for node_id in ctx.graph.undefined_refs:
        for edge in ctx.graph.edges_by_endpoint.get(node_id, ()):
            kind = "tool edge" if edge.is_tool else "edge"
            for end, span in (("source", edge.source_span), ("target", edge.target_span)):
                if getattr(edge, end) == node_id and span is not None:
                    yield Finding(
                        RULE.code,
                        RULE.default_severity,
                        f"{kind} {end} '{node_id}' is not defined in nodes",
                        span,
                        node=node_id,
                        locator_code=LOCATOR_CODES[end],
                        locator=edge_locator(edge),
                    )


EXPLANATION = RULE.explained(
    "An edge whose source or target is no node's id connects nothing, and FlowDrop refuses "
    "to save the workflow (spec R8.a/R8.b: R8_EDGE_SOURCE_MISSING, R8_EDGE_TARGET_MISSING).",
    failing="""\
{
  "nodes": [
    {"id": "tool_a", "type": "http_request", "data": {"label": "Search"}}
  ],
  "edges": [
    {"id": "e1", "source": "tool_a", "target": "agent_1", "data": {"edgeType": "tool_availability"}}
  ]
}
""",
    passing="""\
{
  "nodes": [
    {"id": "tool_a", "type": "http_request", "data": {"label": "Search"}},
    {"id": "agent_1", "type": "agent", "data": {"label": "Research Agent"}}
  ],
  "edges": [
    {"id": "e1", "source": "tool_a", "target": "agent_1", "data": {"edgeType": "tool_availability"}}
  ]
}
""",
)
