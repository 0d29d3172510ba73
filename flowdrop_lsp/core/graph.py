"""The tool graph: which nodes are leaf tools, toolboxes (passthroughs) and consumers, and the
flattened set of leaf tools each consumer sees (docs/domain.md §3).

Flattening walks backwards from one consumer through passthroughs with a visited set, so each
toolbox is expanded once per consumer however many routes lead to it: a 40-layer diamond
lattice or a chain of thousands of toolboxes costs time linear in what the consumer can reach,
never the number of paths, and cycles among toolboxes terminate.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from flowdrop_lsp.core.model import Edge, Node, Workflow
from flowdrop_lsp.core.settings import Settings


@dataclass(frozen=True, slots=True)
class FlatToolSet:
    """The leaf tools one consumer sees. For each leaf: the tool edge out of it on the first
    (shortest) route found, and `box_parent` to rebuild that route through the toolboxes."""

    consumer: str
    leaves: dict[str, Edge]  # leaf id → its tool edge on the route; insertion order = discovery
    box_parent: dict[str, str]  # toolbox id → where it forwards on the route (a box or the consumer)

    def route(self, leaf: str) -> tuple[str, ...]:
        """The toolboxes a leaf passes through, from the leaf's side to the consumer's side."""
        boxes: list[str] = []
        hop = self.leaves[leaf].target
        while hop is not None and hop != self.consumer and hop in self.box_parent:
            boxes.append(hop)
            hop = self.box_parent[hop]
        return tuple(boxes)


class ToolGraph:
    """Roles and adjacency of the tool edges of one workflow."""

    def __init__(self, workflow: Workflow, settings: Settings) -> None:
        self.nodes_by_id: dict[str, Node] = {}
        for node in workflow.nodes:
            if node.id is not None and node.id not in self.nodes_by_id:
                self.nodes_by_id[node.id] = node  # the first definition wins; R2 reports the rest
        self.passthroughs = frozenset(
            node_id
            for node_id, node in self.nodes_by_id.items()
            if node.type_id is not None and node.type_id in settings.passthrough_types
        )
        self.incoming: dict[str, list[Edge]] = {}
        self.outgoing: dict[str, list[Edge]] = {}
        for edge in workflow.edges:
            if edge.is_tool and edge.source is not None and edge.target is not None:
                self.incoming.setdefault(edge.target, []).append(edge)
                self.outgoing.setdefault(edge.source, []).append(edge)
        self.consumers: tuple[str, ...] = tuple(
            target for target in self.incoming if target not in self.passthroughs
        )

    def is_passthrough(self, node_id: str) -> bool:
        return node_id in self.passthroughs

    def flatten_tools(self, consumer: str) -> FlatToolSet:
        """Every leaf tool reachable backwards from `consumer` through any number of toolboxes."""
        leaves: dict[str, Edge] = {}
        box_parent: dict[str, str] = {}
        queue: deque[str] = deque([consumer])
        incoming = self.incoming
        passthroughs = self.passthroughs
        while queue:
            current = queue.popleft()
            for edge in incoming.get(current, ()):
                source = edge.source
                assert source is not None
                if source in passthroughs:
                    if source not in box_parent and source != consumer:
                        box_parent[source] = current
                        queue.append(source)
                elif source not in leaves:
                    leaves[source] = edge
        return FlatToolSet(consumer, leaves, box_parent)

    def consumers_reached_from(self, node_id: str) -> list[str]:
        """The consumers a node's tools reach, forwards through any number of toolboxes."""
        reached: list[str] = []
        seen = {node_id}
        queue: deque[str] = deque([node_id])
        while queue:
            current = queue.popleft()
            for edge in self.outgoing.get(current, ()):
                target = edge.target
                assert target is not None
                if target in seen:
                    continue
                seen.add(target)
                if target in self.passthroughs:
                    queue.append(target)
                else:
                    reached.append(target)
        return reached

    def toolbox_cycles(self) -> list[list[str]]:
        """Strongly connected groups of toolboxes that forward tools to each other (including a
        toolbox wired into itself), each in the order the boxes were met. Iterative Tarjan."""
        successors: dict[str, list[str]] = {
            box: [e.target for e in self.outgoing.get(box, ()) if e.target in self.passthroughs]  # type: ignore[misc]
            for box in self.passthroughs
        }
        index_of: dict[str, int] = {}
        low: dict[str, int] = {}
        on_stack: set[str] = set()
        stack: list[str] = []
        cycles: list[list[str]] = []
        counter = 0
        for root in sorted(self.passthroughs):
            if root in index_of:
                continue
            work: list[tuple[str, Iterable[str]]] = [(root, iter(successors[root]))]
            index_of[root] = low[root] = counter
            counter += 1
            stack.append(root)
            on_stack.add(root)
            while work:
                node, children = work[-1]
                advanced = False
                for child in children:
                    if child not in index_of:
                        index_of[child] = low[child] = counter
                        counter += 1
                        stack.append(child)
                        on_stack.add(child)
                        work.append((child, iter(successors[child])))
                        advanced = True
                        break
                    if child in on_stack:
                        low[node] = min(low[node], index_of[child])
                if advanced:
                    continue
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index_of[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in successors[node]:
                        cycles.append(component)
        order = {node_id: node.index for node_id, node in self.nodes_by_id.items()}
        for component in cycles:
            component.sort(key=lambda box: order.get(box, 0))
        cycles.sort(key=lambda component: order.get(component[0], 0))
        return cycles
