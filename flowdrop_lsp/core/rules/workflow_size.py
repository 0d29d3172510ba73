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
    spec_ids=("R5.a", "R5.b"),
)

MAX_NODES = 500
MAX_EDGES = 1000
TOO_MANY_NODES = "R5_TOO_MANY_NODES"
TOO_MANY_EDGES = "R5_TOO_MANY_EDGES"


def check(ctx: RuleContext) -> Iterator[Finding]:
    graph = ctx.graph
    for array, count, bound, locator_code in (
        ("nodes", graph.node_count, MAX_NODES, TOO_MANY_NODES),
        ("edges", graph.edge_count, MAX_EDGES, TOO_MANY_EDGES),
    ):
        if count > bound:
            finding = _past_bound(ctx, array, count, bound, locator_code)
            if finding is not None:
                yield finding


def _past_bound(
    ctx: RuleContext, array: str, count: int, bound: int, locator_code: str
) -> Finding | None:
    """The finding on the element right past the bound (else on the array's first character)."""
    item = ctx.item_at(array, bound)
    where = ctx.arrays.get(array)
    node: str | None = None
    locator: str | None = None
    if isinstance(item, Node):
        span, node, locator = item.id_span or item.anchor, item.id, f"node.{item.id}"
    elif isinstance(item, Edge):
        span, node, locator = item.anchor, item.target, edge_locator(item)
    elif where:
        span = Span(where[0], min(where[0] + 1, where[1]))
    else:
        return None
    kind = array[:-1]
    return RULE.finding(
        span,
        f"the workflow has {count:,} {array}, more than the {bound} a workflow may have; "
        f"{kind} {bound + 1} is here",
        node=node,
        locator_code=locator_code,
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
