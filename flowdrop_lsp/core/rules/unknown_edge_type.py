"""EDGE-5: a declared `data.edgeType` must be a recognised value; an unrecognised one is refused
at save, and until then the edge is classified by its target handle. (Checked per edge, when
the edge is read.)"""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.model import Edge
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import Rule, edge_identity

RULE = Rule(
    "EDGE-5",
    "Unrecognised edge type",
    Severity.ERROR,
    "A declared `data.edgeType` is not a recognised value; the target handle decides instead.",
    spec_ids=("EDGE-5",),
)


def check_edge(edge: Edge, settings: Settings) -> Iterator[Finding]:
    if (
        edge.declared_type
        and edge.declared_type not in settings.edge_types
        and edge.declared_type_span
    ):
        known = ", ".join(sorted(settings.edge_types))
        verdict = "a tool edge" if edge.is_tool else "not a tool edge"
        yield RULE.finding(
            edge.declared_type_span,
            f"edgeType '{edge.declared_type}' is not recognised (known: {known}); "
            f"FlowDrop refuses it at save; by its target handle this edge is {verdict}",
            node=edge.target,
            identity=edge_identity(edge),
        )


EXPLANATION = RULE.explained(
    "FlowDrop refuses to save a workflow whose edge declares an edge type it does not know "
    "(`tool_availability`, `data`, `trigger`, `loopback`, `agent_result`). Until then the "
    "edge is classified by its target handle (`-input-tool`: a tool edge).",
    failing="""\
{
  "nodes": [
    {"id": "tool_a", "type": "http_request", "data": {"label": "Search"}},
    {"id": "agent_1", "type": "agent", "data": {"label": "Research Agent"}}
  ],
  "edges": [
    {"id": "e1", "source": "tool_a", "target": "agent_1", "data": {"edgeType": "tools"}}
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
