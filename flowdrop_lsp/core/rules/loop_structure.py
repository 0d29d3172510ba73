"""SG-18: loop structure the engine resolves other than as drawn, reported as static
diagnostics (the spec: "both this merge and a loopback edge that closes no cycle are reported
to the author as static diagnostics on the workflow").

A loop, per SG-16: a loopback edge (EDGE-4: a target handle ending exactly `-input-loop_back`)
runs from its tail S (its source) back to its head H (its target); its body is
`({H} ∪ descendants(H)) ∩ ({S} ∪ ancestors(S))` over the forward graph, the execution edges
CMP-5 keeps (`execution_cycle.execution_arc`: tool, loopback and agent-result edges aside).
The bodies of loopback edges sharing a head are unioned: a loop is keyed by its head.

Two findings, each on a loopback edge (its target handle, else its target):

- **closes no cycle**: the edge's tail is not downstream of its head, so its body is the head
  alone. An edge from a node to itself is R12's, and an end no node defines is R8's: neither is
  reported here.
- **tangled loops**: two loops (distinct heads) whose bodies share a node without one being a
  strict subset of the other, identical bodies included; the engine merges them into one loop
  over the union. One finding per such pair, on the first loopback edge (document order) of
  the loop that gives up its key (the smaller body; on a tie the head whose id sorts later,
  as SG-18's tie-break keeps the one that sorts first), the other loop's loopback related. A
  loop whose body is its head alone never tangles (its body is a strict subset of any other
  that holds its head). Pairs are what the author drew; merges a merge may cascade into are
  not modelled.

The loops depend on the edges alone: they are found again only when an execution edge came or
went (`execution_edge_version`, which a loopback edge bumps), and not at all in a workflow
without a loopback edge; the messages, which name the nodes, are made on every run."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from flowdrop_lsp.core.domain.graph import ToolGraph
from flowdrop_lsp.core.domain.model import Edge, doc_order
from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext, edge_identity, half_typed
from flowdrop_lsp.core.rules.execution_cycle import LOOPBACK_INPUT, execution_arc

RULE = Rule(
    "SG-18",
    "Loop structure",
    Severity.WARNING,
    "A loopback edge closes no cycle (its source is not downstream of its target), or two "
    "loops share nodes without one containing the other and are merged into one.",
    spec_ids=("SG-18",),
)

NAMED_IN_MESSAGE = 4  # shared nodes a tangle's message names


@dataclass(frozen=True, slots=True)
class NoCycle:
    edge: Edge  # the loopback edge
    head: str
    tail: str


@dataclass(frozen=True, slots=True)
class Tangle:
    edge: Edge  # the first loopback edge of the loop giving up its key
    other: Edge  # the first loopback edge of the loop keeping it
    shared: tuple[str, ...]  # the nodes both bodies hold, sorted


def is_loopback(edge: Edge) -> bool:
    """A loopback edge this rule looks at: EDGE-4's handle, both ends, not R12's self-edge."""
    source, target = edge.source, edge.target
    return (
        source is not None
        and target is not None
        and source != target
        and not edge.is_tool
        and (edge.target_handle or "").endswith(LOOPBACK_INPUT)
        and not half_typed(edge)
    )


def check(ctx: RuleContext) -> Iterator[Finding]:
    graph = ctx.graph
    kept = ctx.memo.get(RULE.code)
    if kept is None or kept[0] != graph.execution_edge_version:
        kept = (graph.execution_edge_version, _structure(graph))
        ctx.memo[RULE.code] = kept
    for item in kept[1]:
        if isinstance(item, NoCycle):
            if ctx.node(item.head) is not None and ctx.node(item.tail) is not None:
                yield _no_cycle(ctx, item)
        else:
            yield _tangle(ctx, item)


def _structure(graph: ToolGraph) -> list[NoCycle | Tangle]:
    """What the loops of the graph's current edges resolve to, in document order of the edge
    each is on."""
    loopbacks = sorted((e for e in graph.every_edge() if is_loopback(e)), key=doc_order)
    if not loopbacks:
        return []
    successors: dict[str, list[str]] = {}
    predecessors: dict[str, list[str]] = {}
    for arc in map(execution_arc, graph.every_edge()):
        if arc is not None:
            _edge, source, target = arc
            successors.setdefault(source, []).append(target)
            predecessors.setdefault(target, []).append(source)
    found: list[NoCycle | Tangle] = []
    downstream: dict[str, set[str]] = {}  # head → {head} ∪ its descendants
    bodies: dict[str, set[str]] = {}  # head → its loop's body (SG-16)
    first_edge: dict[str, Edge] = {}  # head → its first loopback edge
    for edge in loopbacks:
        head, tail = edge.target, edge.source
        assert head is not None and tail is not None
        first_edge.setdefault(head, edge)
        below = downstream.get(head)
        if below is None:
            below = downstream[head] = _reached(head, successors)
        body = bodies.setdefault(head, {head})
        if tail not in below:
            found.append(NoCycle(edge, head, tail))
            continue
        # The tail's ancestors within the head's downstream: the body this edge closes.
        body |= _reached(tail, predecessors, within=below)
    found += _tangles(bodies, first_edge)
    return sorted(found, key=_place)


def _place(item: NoCycle | Tangle) -> tuple[int, int]:
    """Document order of the edge it is on, then of the other loop's (a set gave the pairs)."""
    return (doc_order(item.edge), doc_order(item.other) if isinstance(item, Tangle) else -1)


def _reached(start: str, step: dict[str, list[str]], within: set[str] | None = None) -> set[str]:
    """`start` and every node reached from it through `step` (staying `within`, if given)."""
    seen = {start}
    stack = [start]
    while stack:
        for nxt in step.get(stack.pop(), ()):
            if nxt not in seen and (within is None or nxt in within):
                seen.add(nxt)
                stack.append(nxt)
    return seen


def _tangles(bodies: dict[str, set[str]], first_edge: dict[str, Edge]) -> Iterable[Tangle]:
    """One per pair of loops whose bodies overlap with neither a strict subset of the other;
    only loops that close a cycle (a body beyond the head) can."""
    loops = {head: body for head, body in bodies.items() if len(body) > 1}
    if _nested_or_apart(loops):  # the usual case, in one pass over the bodies
        return
    heads_of: dict[str, list[str]] = {}  # node → the heads whose body holds it
    for head, body in loops.items():
        for member in body:
            heads_of.setdefault(member, []).append(head)
    pairs: set[tuple[str, str]] = set()
    for heads in heads_of.values():
        for i, one in enumerate(heads):
            for other in heads[i + 1 :]:
                pairs.add((one, other) if one < other else (other, one))
    for one, other in pairs:
        a, b = bodies[one], bodies[other]
        if (a < b) or (b < a):  # nested: each keeps its own round
            continue
        # SG-18: the larger body keeps the key, the lexicographically first on a tie.
        keeper, yielder = sorted((one, other), key=lambda head: (-len(bodies[head]), head))
        yield Tangle(first_edge[yielder], first_edge[keeper], tuple(sorted(a & b)))


def _nested_or_apart(loops: dict[str, set[str]]) -> bool:
    """Whether every two of the loops are disjoint or one strictly inside the other, without
    comparing every pair (a thousand nested loops): largest first, each node owned by the
    smallest loop seen so far holding it; a loop is inside another exactly when all its
    nodes have one owner, a loop at least as large, and not the same nodes."""
    owner: dict[str, str] = {}
    for head in sorted(loops, key=lambda head: (-len(loops[head]), head)):
        body = loops[head]
        owners = {owner.get(member) for member in body}
        if len(owners) > 1:
            return False
        [outer] = owners
        if outer is not None and len(loops[outer]) == len(body):
            return False
        owner.update(dict.fromkeys(body, head))
    return True


def _no_cycle(ctx: RuleContext, item: NoCycle) -> Finding:
    head, tail = ctx.describe(item.head), ctx.describe(item.tail)
    related = []
    for node_id, role in ((item.head, "the loop's head"), (item.tail, "the loopback's source")):
        node = ctx.node(node_id)
        if node is not None:
            related.append(RelatedLocation(node.anchor, f"{role}: {ctx.describe(node_id)}"))
    return RULE.finding(
        item.edge.target_handle_span or item.edge.anchor,
        f"the loopback edge from {tail} to {head} closes no cycle: {tail} is not downstream "
        f"of {head} over the execution edges, so the loop it draws repeats {head} alone",
        node=item.head,
        related=tuple(related),
        edge=item.edge,
        identity=edge_identity(item.edge),
    )


def _tangle(ctx: RuleContext, item: Tangle) -> Finding:
    head, other_head = item.edge.target, item.other.target
    assert head is not None and other_head is not None
    names = [ctx.describe(member) for member in item.shared[:NAMED_IN_MESSAGE]]
    if len(item.shared) > NAMED_IN_MESSAGE:
        names.append(f"… {len(item.shared) - NAMED_IN_MESSAGE} more")
    related = [
        RelatedLocation(
            item.other.target_handle_span or item.other.anchor,
            f"the other loop's loopback edge, into {ctx.describe(other_head)}",
        )
    ]
    for node_id, role in ((head, "this loop's head"), (other_head, "the other loop's head")):
        node = ctx.node(node_id)
        if node is not None:
            related.append(RelatedLocation(node.anchor, f"{role}: {ctx.describe(node_id)}"))
    return RULE.finding(
        item.edge.target_handle_span or item.edge.anchor,
        f"the loops headed by {ctx.describe(head)} and {ctx.describe(other_head)} share "
        f"{', '.join(names)} without either containing the other: they are merged into one "
        "loop over both bodies, with one round counter",
        node=head,
        related=tuple(related),
        edge=item.edge,
        identity=edge_identity(item.edge),
    )


EXPLANATION = RULE.explained(
    "A loopback edge (a target handle ending `-input-loop_back`) runs from its source, the "
    "loop's tail, back to its target, the loop's head. The loop's body is the nodes downstream "
    "of the head and upstream of the tail over the execution edges (tool, loopback and "
    "agent-result edges aside); loopback edges into one head make one loop (spec SG-16). Two "
    "things are reported (spec SG-18): a loopback edge whose source is not downstream of its "
    "target closes no cycle, and its loop repeats the head alone; and two loops that share "
    "nodes without one containing the other (identical bodies included) cannot keep separate "
    "rounds, and the engine merges them into one loop over both bodies. Nested loops, one body "
    "strictly inside the other, keep their own rounds and are not reported. The finding is on "
    "the loopback edge's target handle.",
    failing="""\
{
  "nodes": [
    {"id": "a", "type": "http_request", "data": {"label": "Fetch"}},
    {"id": "b", "type": "html_to_markdown", "data": {"label": "To Markdown"}},
    {"id": "c", "type": "http_request", "data": {"label": "Retry"}}
  ],
  "edges": [
    {"id": "e1", "source": "a", "target": "b", "targetHandle": "b-input-html"},
    {"id": "e2", "source": "c", "target": "a", "targetHandle": "a-input-loop_back"}
  ]
}
""",
    passing="""\
{
  "nodes": [
    {"id": "a", "type": "http_request", "data": {"label": "Fetch"}},
    {"id": "b", "type": "html_to_markdown", "data": {"label": "To Markdown"}},
    {"id": "c", "type": "http_request", "data": {"label": "Retry"}}
  ],
  "edges": [
    {"id": "e1", "source": "a", "target": "b", "targetHandle": "b-input-html"},
    {"id": "e2", "source": "b", "target": "c", "targetHandle": "c-input-url"},
    {"id": "e3", "source": "c", "target": "a", "targetHandle": "a-input-loop_back"}
  ]
}
""",
)
