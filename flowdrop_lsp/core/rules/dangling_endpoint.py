"""R8.a/b: an edge's source and target must be nodes of the workflow.

An error, as FlowDrop refuses such a workflow at save (`R8_EDGE_SOURCE_MISSING`,
`R8_EDGE_TARGET_MISSING`). (It was a warning until issue 26 because the spec's own CMP-9
examples wire tools to agents they do not define: those examples are fragments that judge
CMP-9 alone; a stored workflow with such an edge is refused.)

Fixes. When the edge's own handle on that side still names a node that exists (the port's
`{nodeId}-input-…` of `targetHandle: chat_output.1-input-message` while `target` says the
missing `chat_output.2`: core/domain/ports.py reads the handle), "Point the edge at
'chat_output.1'" sets the end to it: unsafe, a guess (the handle may be the stale half), so
chosen, never applied by `--fix`. Else, or besides, removing the edge (unsafe: it loses what the
author drew)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from flowdrop_lsp.core.domain.model import Edge
from flowdrop_lsp.core.domain.ports import Direction, handle_port
from flowdrop_lsp.core.domain.remedies import edge_ref, fix_from
from flowdrop_lsp.core.domain.wording import id_text
from flowdrop_lsp.core.findings import Applicability, Finding, Fix, Severity, later
from flowdrop_lsp.core.operations import Update
from flowdrop_lsp.core.rules.base import (
    Rule,
    RuleContext,
    edge_identity,
    edge_removal_fixes,
)

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
                    yield RULE.finding(
                        span,
                        f"{kind} {end} '{node_id}' is not defined in nodes",
                        node=node_id,
                        locator_code=LOCATOR_CODES[end],
                        edge=edge,
                        identity=edge_identity(edge),
                        # Made for the findings kept only.
                        later_fixes=later(
                            partial(_fixes, edge, end, ctx.graph.nodes_by_id.__contains__)
                        ),
                    )


# The side of its node each end of an edge is on.
SIDES = {"source": Direction.OUTPUT, "target": Direction.INPUT}


def handle_node(
    handle: str | None, direction: Direction, exists: Callable[[str], bool]
) -> str | None:
    """The existing node a handle names (`{nodeId}-{direction}-{port}`, EDGE-1): the first node
    id that the handle starts with, followed by the direction's marker and a port that
    `handle_port` reads for it; None when the handle names no node that exists."""
    if not handle:
        return None
    marker = direction.marker
    at = handle.find(marker)
    while at > 0:
        candidate = handle[:at]
        if exists(candidate) and handle_port(handle, candidate, direction) is not None:
            return candidate
        at = handle.find(marker, at + 1)
    return None


def _fixes(edge: Edge, end: str, exists: Callable[[str], bool]) -> tuple[Fix, ...]:
    direction = SIDES[end]
    handle = edge.source_handle if end == "source" else edge.target_handle
    named = handle_node(handle, direction, exists)
    fixes: list[Fix] = []
    if named is not None:
        point = fix_from(
            f"Point the edge at '{id_text(named)}'",
            [(edge, Update.of(edge_ref(edge), "edge", {end: named}))],
            applicability=Applicability.UNSAFE,
        )
        if point is not None:
            fixes.append(point)
    fixes.extend(edge_removal_fixes(edge))
    return tuple(fixes)


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
