"""R5: a workflow is bounded to 500 nodes (R5.a, `R5_TOO_MANY_NODES`) and 1000 edges (R5.b,
`R5_TOO_MANY_EDGES`); the store refuses a larger one at save, and a launch re-checks it.

One finding per bound, anchored on the node (edge) at the bound's position: the first one
past it, where to start cutting. The graph keeps the counts and the engine finds the element
at a position in constant time (`RuleContext.item_at`), so a 10,000-node document costs two
comparisons and two lookups on every keystroke, never a walk over its elements.

R5.c (every node carries a non-empty id) is not here: the workflow schema requires a node's `id`
as a non-empty string, so FD-SCHEMA already reports it, at the node."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Edge, Node, edge_locator
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.text.positions import Span

RULE = Rule(
    "R5",
    "Workflow too large",
    Severity.ERROR,
    "A workflow has more than 500 nodes or more than 1000 edges: the save (and the launch) is "
    "refused.",
)

MAX_NODES = 500
MAX_EDGES = 1000
TOO_MANY_NODES = "R5_TOO_MANY_NODES"
TOO_MANY_EDGES = "R5_TOO_MANY_EDGES"


def check(ctx: RuleContext) -> Iterator[Finding]:
    graph = ctx.graph
    if graph.node_count > MAX_NODES:
        node = ctx.item_at("nodes", MAX_NODES)
        where = ctx.arrays.get("nodes")
        if isinstance(node, Node):
            span, locator = node.id_span or node.anchor, f"node.{node.id}"
        elif where:
            span, locator = Span(where[0], min(where[0] + 1, where[1])), None
        else:
            span, locator = None, None
        if span is not None:
            yield Finding(
                RULE.code,
                RULE.default_severity,
                f"the workflow has {graph.node_count:,} nodes, more than the {MAX_NODES} a "
                f"workflow may have; node {MAX_NODES + 1} is here",
                span,
                node=node.id if isinstance(node, Node) else None,
                locator_code=TOO_MANY_NODES,
                locator=locator,
            )
    if graph.edge_count > MAX_EDGES:
        edge = ctx.item_at("edges", MAX_EDGES)
        where = ctx.arrays.get("edges")
        if isinstance(edge, Edge):
            span, locator = edge.anchor, edge_locator(edge)
        elif where:
            span, locator = Span(where[0], min(where[0] + 1, where[1])), None
        else:
            span, locator = None, None
        if span is not None:
            yield Finding(
                RULE.code,
                RULE.default_severity,
                f"the workflow has {graph.edge_count:,} edges, more than the {MAX_EDGES} a "
                f"workflow may have; edge {MAX_EDGES + 1} is here",
                span,
                node=edge.target if isinstance(edge, Edge) else None,
                locator_code=TOO_MANY_EDGES,
                locator=locator,
            )


def _nodes_only(count: int) -> str:
    """A workflow of `count` notes and no edges, eight nodes a line (the failing example must
    exceed the bound, and its page stays readable)."""
    nodes = [f'{{"id": "n{i}", "type": "note"}}' for i in range(1, count + 1)]
    lines = [", ".join(nodes[i : i + 8]) for i in range(0, count, 8)]
    body = ",\n".join(f"    {line}" for line in lines)
    return f'{{\n  "nodes": [\n{body}\n  ],\n  "edges": []\n}}\n'


EXPLANATION = RULE.explained(
    "The store refuses a workflow of more than 500 nodes (R5_TOO_MANY_NODES, spec R5.a) or "
    "more than 1000 edges (R5_TOO_MANY_EDGES, R5.b), and a launch re-checks it. The finding "
    "is on the first node (edge) past the bound. (R5.c, a node without an id, is FD-SCHEMA's.) "
    "The failing example has 501 nodes.",
    failing=_nodes_only(MAX_NODES + 1),
    passing=_nodes_only(3),
)
