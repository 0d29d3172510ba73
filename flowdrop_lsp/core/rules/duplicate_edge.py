"""R13: no two edges with the same source, target and handles."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Edge, doc_order
from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.core.rules.base import (
    FINDINGS_PER_GROUP,
    Rule,
    RuleContext,
    edge_identity,
    first_with_summary,
)

RULE = Rule(
    "R13",
    "Duplicate edge",
    Severity.ERROR,
    "Two edges have the same source, target and handles.",
    spec_ids=("R13",),
)
LOCATOR_CODE = "R13_EDGE_PARALLEL_DUPLICATE"  # the spec's name for it


def check(ctx: RuleContext) -> Iterator[Finding]:
    later: list[tuple[Edge, Edge]] = []  # (a duplicate, the first edge it repeats)
    total = 0
    for key in ctx.graph.duplicate_edge_keys:
        same = ctx.graph.edges_by_key[key]  # in document order
        total += len(same) - 1
        # Only the first ones of each key can be among the first reported overall: a million
        # duplicates are counted, not sorted (each position costs a lookup).
        later.extend((edge, same[0]) for edge in same[1 : FINDINGS_PER_GROUP + 2])
    later.sort(key=lambda pair: doc_order(pair[0]))
    yield from first_with_summary(later, _duplicate_finding, total=total)


def _duplicate_finding(pair: tuple[Edge, Edge]) -> Finding:
    edge, first = pair
    return RULE.finding(
        edge.anchor,
        f"duplicate edge from '{edge.source}' to '{edge.target}' (same handles as an earlier edge)",
        node=edge.target,
        related=(RelatedLocation(first.anchor, "the same edge, first here"),),
        locator_code=LOCATOR_CODE,
        edge=edge,
        identity=edge_identity(edge),
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
    {"id": "e1", "source": "a", "target": "b"},
    {"id": "e2", "source": "a", "target": "b"}
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
    {"id": "e1", "source": "a", "target": "b", "sourceHandle": "a-output-body"},
    {"id": "e2", "source": "a", "target": "b", "sourceHandle": "a-output-headers"}
  ]
}
""",
)
