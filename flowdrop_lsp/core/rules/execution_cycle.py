"""CMP-5: only tool, loopback and agent-result edges may close a cycle; any other cycle refuses
compilation (the graph left once those are set aside must be acyclic: loop extent is defined
by reachability over it).

Which edges are set aside:

- a **tool** edge (`Edge.is_tool`, EDGE-5: its declared `tool_availability`, else a target
  handle ending `-input-tool`);
- a **loopback** edge (EDGE-4: a target handle ending exactly `-input-loop_back`; one ending
  `-input-loopback` is an ordinary edge);
- an **agent-result** edge: our reading of the spec's term is an edge whose declared
  `data.edgeType` is `agent_result`, the name EDGE-5's vocabulary gives that kind (no handle
  marks one).

An edge from a node to itself is R12's and is left out here (one finding for one slip). One
finding per strongly connected group of the remaining graph (Tarjan's algorithm, iteratively:
ten thousand nodes in a ring must not exhaust the stack), on the group's first edge in document
order (its target), naming a cycle through that edge, the cycle's other edges related.

The groups depend on the edges alone: they are found again only when an execution edge came or went
(`execution_edge_version`), not on a keystroke in a label; the messages, which name the nodes,
are made on every run."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from flowdrop_lsp.core.domain.graph import ToolGraph
from flowdrop_lsp.core.domain.model import Edge, doc_order
from flowdrop_lsp.core.domain.reach import strongly_connected
from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext, edge_identity, half_typed

RULE = Rule(
    "CMP-5",
    "Execution cycle",
    Severity.ERROR,
    "Edges other than tool, loopback and agent-result edges form a cycle: compilation refuses "
    "the workflow.",
    spec_ids=("CMP-5",),
)

LOOPBACK_INPUT = "-input-loop_back"
AGENT_RESULT = "agent_result"
NAMED_IN_MESSAGE = 6  # nodes of a cycle a message names; a longer one is cut in the middle
RELATED_EDGES = 20  # edges of a cycle shown as related locations


# An execution edge with its ends (never None: an edge missing one is left out).
Arc = tuple[Edge, str, str]


def execution_arc(edge: Edge) -> Arc | None:
    """`edge` as cycle detection counts it, or None when it is set aside (see the module's
    docstring) or lacks an end."""
    source, target = edge.source, edge.target
    if (
        source is None
        or target is None
        or source == target
        or edge.is_tool
        or (edge.target_handle or "").endswith(LOOPBACK_INPUT)
        or edge.declared_type == AGENT_RESULT
        or half_typed(edge)  # its handle may be the next thing typed
    ):
        return None
    return edge, source, target


def check(ctx: RuleContext) -> Iterator[Finding]:
    graph = ctx.graph
    kept = ctx.memo.get(RULE.code)
    if kept is None or kept[0] != graph.execution_edge_version:
        kept = (graph.execution_edge_version, _cycles(graph))
        ctx.memo[RULE.code] = kept
    for cycle in kept[1]:
        yield _finding(ctx, cycle)


def _cycles(graph: ToolGraph) -> list[tuple[Arc, ...]]:
    """One cycle per strongly connected group of execution edges, as its arcs in cycle order
    starting with the group's first edge in document order; the groups in document order."""
    arcs = sorted(
        (arc for arc in map(execution_arc, graph.every_edge()) if arc is not None),
        key=lambda arc: doc_order(arc[0]),
    )
    successors: dict[str, list[str]] = {}
    for _edge, source, target in arcs:
        successors.setdefault(source, []).append(target)
        successors.setdefault(target, [])
    group_of: dict[str, int] = {}
    for number, group in enumerate(strongly_connected(list(successors), successors.__getitem__)):
        if len(group) > 1:  # a single node is no cycle: self-edges were left out
            group_of.update((member, number) for member in group)
    inside: dict[int, list[Arc]] = {}  # group → its arcs, in document order
    for arc in arcs:
        group_number = group_of.get(arc[1])
        if group_number is not None and group_of.get(arc[2]) == group_number:
            inside.setdefault(group_number, []).append(arc)
    return sorted(
        (_cycle_through(group_arcs) for group_arcs in inside.values()),
        key=lambda cycle: doc_order(cycle[0][0]),
    )


def _cycle_through(group_arcs: list[Arc]) -> tuple[Arc, ...]:
    """A shortest cycle through the group's first edge: that edge, then a shortest path (by
    breadth) back from its target to its source inside the group (one exists: the group is
    strongly connected)."""
    first = group_arcs[0]
    out: dict[str, list[Arc]] = {}
    for arc in group_arcs:
        out.setdefault(arc[1], []).append(arc)
    _edge, goal, start = first
    came_by: dict[str, Arc] = {}
    queue: deque[str] = deque([start])
    seen = {start}
    while queue and goal not in came_by:
        for arc in out.get(queue.popleft(), ()):
            if arc[2] not in seen:
                seen.add(arc[2])
                came_by[arc[2]] = arc
                queue.append(arc[2])
    path: list[Arc] = []
    hop = goal
    while hop != start:
        arc = came_by[hop]
        path.append(arc)
        hop = arc[1]
    return (first, *reversed(path))


def _finding(ctx: RuleContext, cycle: tuple[Arc, ...]) -> Finding:
    first = cycle[0][0]
    names = [ctx.describe(source) for _edge, source, _target in cycle]
    if len(names) > NAMED_IN_MESSAGE:
        head = NAMED_IN_MESSAGE - 2
        names = [*names[:head], f"… {len(names) - head - 1} more …", names[-1]]
    loop = " → ".join([*names, names[0]])
    return RULE.finding(
        first.anchor,
        f"execution cycle: {loop}; only tool, loopback and agent-result edges may close a "
        "cycle, and compilation refuses this one",
        node=first.target,
        related=tuple(
            RelatedLocation(edge.anchor, f"in the cycle: to {ctx.describe(target)}")
            for edge, _source, target in cycle[1 : RELATED_EDGES + 1]
        ),
        edge=first,
        identity=edge_identity(first),
    )


EXPLANATION = RULE.explained(
    "Compilation sets aside tool edges, loopback edges (a target handle ending "
    "`-input-loop_back`) and agent-result edges (`data.edgeType` `agent_result`) and refuses "
    "any cycle the other edges form (spec CMP-5): the remaining graph must be acyclic, since "
    "which nodes a loop repeats is defined by reachability over it. A loop goes back through "
    "a loopback edge. The finding is on the cycle's first edge and names the nodes around it; "
    "an edge from a node to itself is R12's.",
    failing="""\
{
  "nodes": [
    {"id": "a", "type": "http_request", "data": {"label": "Fetch"}},
    {"id": "b", "type": "html_to_markdown", "data": {"label": "To Markdown"}}
  ],
  "edges": [
    {"id": "e1", "source": "a", "target": "b", "targetHandle": "b-input-html"},
    {"id": "e2", "source": "b", "target": "a", "targetHandle": "a-input-url"}
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
    {"id": "e1", "source": "a", "target": "b", "targetHandle": "b-input-html"},
    {"id": "e2", "source": "b", "target": "a", "targetHandle": "a-input-loop_back"}
  ]
}
""",
)
