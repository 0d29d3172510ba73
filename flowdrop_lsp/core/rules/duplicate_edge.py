"""R13: no two edges with the same source, target and handles."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.core.graph import doc_order
from flowdrop_lsp.core.model import Edge
from flowdrop_lsp.core.rules.base import Rule, RuleContext, first_with_summary

RULE = Rule(
    "R13", "Duplicate edge", Severity.WARNING, "Two edges have the same source, target and handles."
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    later: list[tuple[Edge, Edge]] = []  # (a duplicate, the first edge it repeats)
    for key in ctx.graph.duplicate_edge_keys:
        first, *others = ctx.graph.edges_by_key[key]
        later.extend((edge, first) for edge in others)
    later.sort(key=lambda pair: doc_order(pair[0]))
    yield from first_with_summary(later, _duplicate_finding)


def _duplicate_finding(pair: tuple[Edge, Edge]) -> Finding:
    edge, first = pair
    return Finding(
        RULE.code,
        RULE.default_severity,
        f"duplicate edge from '{edge.source}' to '{edge.target}' (same handles as an earlier edge)",
        edge.anchor,
        node=edge.target,
        related=(RelatedLocation(first.anchor, "the same edge, first here"),),
    )


EXPLANATION = RULE.explained(
    "Two edges with the same source, target and handles carry the same thing twice; the "
    "second is reported, pointing at the first.",
    failing="""\
{
  "nodes": [
    {"id": "a", "type": "http_request", "data": {"label": "Fetch"}},
    {"id": "b", "type": "html_to_markdown", "data": {"label": "To Markdown"}}
  ],
  "edges": [
    {"source": "a", "target": "b"},
    {"source": "a", "target": "b"}
  ]
}
""",
    passing="""\
{
  "nodes": [
    {"id": "a", "type": "http_request", "data": {"label": "Fetch"}},
    {"id": "b", "type": "html_to_markdown", "data": {"label": "To Markdown"}}
  ],
  "edges": [
    {"source": "a", "target": "b", "sourceHandle": "a-output-body"},
    {"source": "a", "target": "b", "sourceHandle": "a-output-headers"}
  ]
}
""",
)
