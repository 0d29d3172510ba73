"""CMP-10: tools may only be wired into a node whose type accepts tools.

Only a type KNOWN not to accept tools is an error; unknown, site-specific types are common and
never guessed at."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Edge
from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext

RULE = Rule(
    "CMP-10",
    "Tools wired into a node that does not accept tools",
    Severity.ERROR,
    "Tool edges end at a node whose type is known not to accept tools.",
    spec_ids=("CMP-10", "DATA-12"),
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    yield from ctx.results_of(RULE.code).values()


def check_consumer(ctx: RuleContext, consumer: str) -> Finding | None:
    settings = ctx.settings
    node = ctx.node(consumer)
    if node is None or node.type_id is None:
        return None
    if (
        node.type_id not in settings.non_accepting_types
        or node.type_id in settings.tool_accepting_types
    ):
        return None
    edges: list[Edge] = ctx.graph.incoming.get(consumer, [])
    sources = ", ".join(ctx.describe(e.source) for e in edges if e.source is not None)
    return RULE.finding(
        node.anchor,
        f"{node.display} is of type '{node.type_id}', which does not accept tools, but "
        f"{len(edges)} tool edge{'s are' if len(edges) != 1 else ' is'} wired into it (from {sources})",
        node=consumer,
        related=tuple(
            RelatedLocation(e.target_span or e.anchor, f"tool edge from '{e.source}'")
            for e in edges
        ),
    )


EXPLANATION = RULE.explained(
    "A tool edge offers tools to its target; a node that does not accept tools (a calculator, "
    "an HTTP request) silently ignores them. Only types known not to accept tools are "
    "reported: an unknown, site-specific type is never an error.",
    failing="""\
{
  "nodes": [
    {"id": "search", "type": "http_request", "data": {"label": "Search"}},
    {"id": "calc", "type": "calculator", "data": {"label": "Calculator"}}
  ],
  "edges": [
    {"id": "e1", "source": "search", "target": "calc", "data": {"edgeType": "tool_availability"}}
  ]
}
""",
    passing="""\
{
  "nodes": [
    {"id": "search", "type": "http_request", "data": {"label": "Search"}},
    {"id": "agent_1", "type": "agent", "data": {"label": "Research Agent"}}
  ],
  "edges": [
    {"id": "e1", "source": "search", "target": "agent_1", "data": {"edgeType": "tool_availability"}}
  ]
}
""",
)
