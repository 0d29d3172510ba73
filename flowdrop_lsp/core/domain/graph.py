"""The tool graph: which nodes are leaf tools, toolboxes (passthroughs) and consumers, and the
flattened set of leaf tools each consumer sees (docs/domain.md §3).

The graph is kept up to date node by node and edge by edge (`add_node`, `remove_edge`, …), so
the incremental engine changes only what an edit touched; a from-scratch analysis simply adds
everything. Besides tool adjacency it keeps the indexes the graph rules read (duplicate ids,
undefined endpoints, duplicate edges, bad tool names), so that no rule scans the document.

Flattening walks backwards from one consumer through passthroughs with a visited set, so each
toolbox is expanded once per consumer however many routes lead to it: a 40-layer diamond
lattice or a chain of thousands of toolboxes costs time linear in what the consumer can reach,
never the number of paths, and cycles among toolboxes terminate.

When many nodes share tool names, `reach_masks()` answers "which of them reach this consumer"
and "which consumers does this node reach" as bit sets (core.domain.reach).
"""

from __future__ import annotations

from bisect import insort
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.model import Edge, Node, doc_order
from flowdrop_lsp.core.domain.names import llm_name_problem
from flowdrop_lsp.core.domain.reach import ReachMasks, strongly_connected

EdgeKey = tuple[str, str, "str | None", "str | None"]


@dataclass(frozen=True, slots=True)
class FlatToolSet:
    """The leaf tools one consumer sees. For each leaf: the tool edge out of it on the first
    (shortest) route found, and `box_parent` to rebuild that route through the toolboxes."""

    consumer: str
    leaves: dict[str, Edge]  # leaf id → its tool edge on the route; insertion order = discovery
    box_parent: dict[
        str, str
    ]  # toolbox id → where it forwards on the route (a box or the consumer)

    # toolbox → (length of the route from it to the consumer, the route's last toolbox); filled
    # on the first `outline`, so that a message about a route thousands of toolboxes long does
    # not walk it.
    _ends: dict[str, tuple[int, str]] = field(default_factory=dict, compare=False, repr=False)

    def route(self, leaf: str) -> tuple[str, ...]:
        """The toolboxes a leaf passes through, from the leaf's side to the consumer's side."""
        boxes: list[str] = []
        parent, consumer = self.box_parent, self.consumer
        hop = self.leaves[leaf].target
        while hop is not None and hop != consumer and hop in parent:
            boxes.append(hop)
            hop = parent[hop]
        return tuple(boxes)

    def outline(self, leaf: str, head: int) -> RouteOutline:
        """The leaf's route in brief: its first `head` toolboxes, its length and its last one,
        without walking all of it (the lengths are found once per set, in `_route_ends`)."""
        parent, ends = self.box_parent, self._route_ends()
        first = self.leaves[leaf].target
        length, last = ends.get(first, (0, "")) if first is not None else (0, "")
        boxes: list[str] = []
        hop = first
        for _ in range(min(head, length)):
            assert hop is not None
            boxes.append(hop)
            hop = parent[hop]
        return RouteOutline(tuple(boxes), length, last or None)

    def _route_ends(self) -> dict[str, tuple[int, str]]:
        """Each toolbox's route length to the consumer and the route's last toolbox, in one pass:
        `box_parent` was filled breadth first, so a toolbox's parent always comes before it."""
        ends = self._ends
        if not ends and self.box_parent:
            consumer = self.consumer
            for box, toward in self.box_parent.items():
                if toward == consumer or toward not in ends:
                    ends[box] = (1, box)
                else:
                    length, last = ends[toward]
                    ends[box] = (length + 1, last)
        return ends


class RouteOutline(NamedTuple):
    """A route through toolboxes in brief: its first few toolboxes, how many there are in all
    and the last one (next to the consumer; None for a tool wired directly). A named tuple, not
    a frozen dataclass: CMP-9 makes tens of thousands of them for one long chain, and a frozen
    dataclass costs several times more to construct."""

    head: tuple[str, ...]
    length: int
    last: str | None

    @classmethod
    def of(cls, route: tuple[str, ...]) -> RouteOutline:
        return cls(route, len(route), route[-1] if route else None)


class _Ordered(list):
    """A list of nodes or edges kept in document order."""

    def add(self, item: Node | Edge) -> None:
        insort(self, item, key=doc_order) if self and doc_order(self[-1]) > doc_order(
            item
        ) else self.append(item)

    def discard(self, item: Node | Edge) -> None:
        for index, present in enumerate(self):
            if present is item:
                del self[index]
                return


class ToolGraph:
    """Roles and adjacency of the tool edges of one workflow, plus the rules' indexes."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.definitions: dict[str, _Ordered] = {}  # node id → its nodes, first definition first
        self.nodes_by_id: dict[str, Node] = {}  # node id → its first definition
        self.passthroughs: set[str] = set()
        self.incoming: dict[str, _Ordered] = {}  # tool edges by target
        self.outgoing: dict[str, _Ordered] = {}  # tool edges by source
        self.edges_by_endpoint: dict[str, _Ordered] = {}  # every edge, by source and by target id
        self.undefined_refs: set[str] = set()  # ids edges use that no node defines
        self.edges_by_key: dict[EdgeKey, _Ordered] = {}
        self.duplicate_edge_keys: set[EdgeKey] = set()
        self.self_edges = _Ordered()  # edges from a node to itself (R12)
        self.duplicate_ids: set[str] = set()
        self.bad_name_ids: set[str] = set()  # first definitions whose tool name LLM APIs reject
        self.routers: set[str] = (
            set()
        )  # first definitions with routing facts (gateways, extractors)
        self.cycles_dirty = True
        self._cycles: list[list[str]] = []
        # Nodes added (True) and removed (False) since a rule last took them (CMP-9 keeps an
        # index of strings in nodes' data up to date from it).
        self.node_changes: list[tuple[bool, Node]] = []
        # Tool names of the first definitions: a consumer can only have a collision among names
        # that two nodes share, so CMP-9 looks at those few nodes instead of flattening every
        # consumer (a chain of thousands of toolboxes, each wired to its own agent, would cost
        # the square of its length).
        self.ids_by_name: dict[str, set[str]] = {}
        self.name_of: dict[str, str] = {}
        self.shared_names: set[str] = set()
        # Launch checks: how many nodes and edges (R5), edges by id (R3), and each subscriber's
        # log of the nodes and edges added and removed since it last looked (`changes`).
        self.node_count = 0
        self.edge_count = 0
        self.edges_by_id: dict[str, _Ordered] = {}
        self.duplicate_edge_ids: set[str] = set()
        self.edges_without_id = _Ordered()
        self.edges_without_ends = _Ordered()  # edges no endpoint index holds
        # Bumped when an edge that is not a tool edge comes or goes: what a cycle of execution
        # edges (CMP-5) is made of; a label edit or a tool wire added leaves it alone.
        self.execution_edge_version = 0
        self._change_logs: dict[str, list[tuple[bool, Node | Edge]]] = {}
        # Every node (with an id) and every edge as of `version`, built once for the rules of a
        # whole read, which all ask at once (`everything`, `every_edge`).
        self._everything: tuple[int, list[Node], list[Edge]] = (-1, [], [])
        self.version = 0  # bumped by every change: what caches of reachability key on
        # How a node or edge joins the lists it belongs in: at its place (`_Ordered.add`), or,
        # while `add_in_order` adds a whole read's, at their end.
        self._put: Callable[[_Ordered, Node | Edge], None] = _Ordered.add
        self._consumers_of_leaf: dict[str, set[str]] = {}
        self._cached_version = -1
        self._reach_masks: ReachMasks | None = None
        self._reach_version = -1

    # ----- maintenance ----------------------------------------------------------------------
    def _first_changed(self, node_id: str) -> None:
        """Recompute what depends on which node is the first definition of `node_id`."""
        nodes = self.definitions.get(node_id)
        first = nodes[0] if nodes else None
        was_box = node_id in self.passthroughs
        self._index_name(node_id, first.tool_name if first is not None else None)
        if first is None:
            self.nodes_by_id.pop(node_id, None)
            self.passthroughs.discard(node_id)
            self.bad_name_ids.discard(node_id)
            self.routers.discard(node_id)
            if node_id in self.edges_by_endpoint:
                self.undefined_refs.add(node_id)
        else:
            self.nodes_by_id[node_id] = first
            if first.type_id is not None and first.type_id in self.settings.passthrough_types:
                self.passthroughs.add(node_id)
            else:
                self.passthroughs.discard(node_id)
            if first.routing is not None:
                self.routers.add(node_id)
            else:
                self.routers.discard(node_id)
            if llm_name_problem(first.tool_name):
                self.bad_name_ids.add(node_id)
            else:
                self.bad_name_ids.discard(node_id)
            self.undefined_refs.discard(node_id)
        if nodes is not None and len(nodes) > 1:
            self.duplicate_ids.add(node_id)
        else:
            self.duplicate_ids.discard(node_id)
        if was_box or node_id in self.passthroughs:
            self.cycles_dirty = True  # a toolbox appeared, vanished, or was renamed

    def _index_name(self, node_id: str, name: str | None) -> None:
        self.version += 1
        old = self.name_of.pop(node_id, None)
        if old is not None:
            same = self.ids_by_name[old]
            same.discard(node_id)
            if len(same) < 2:
                self.shared_names.discard(old)
            if not same:
                del self.ids_by_name[old]
        if name is not None:
            self.name_of[node_id] = name
            same = self.ids_by_name.setdefault(name, set())
            same.add(node_id)
            if len(same) > 1:
                self.shared_names.add(name)

    def add(self, model: Node | Edge | None) -> None:
        """Add a node or an edge (an element read as neither is ignored)."""
        if isinstance(model, Node):
            self.node_count += 1
            self.add_node(model)
        elif isinstance(model, Edge):
            self.edge_count += 1
            self.add_edge(model)
        else:
            return
        if self._everything[0] >= 0:
            self._everything = (-1, [], [])  # what the whole read's rules shared: stale now
        for log in self._change_logs.values():
            log.append((True, model))

    def add_in_order(self, models: Iterable[Node | Edge | None]) -> None:
        """`add` each of `models`, which come in document order within each kind (a whole
        read's: every node, then every edge): each list takes them at its end, as `add` would,
        without asking each element where it is now (eight times per edge)."""
        self._put = list.append
        try:
            for model in models:
                self.add(model)
        finally:
            self._put = _Ordered.add

    def remove(self, model: Node | Edge | None) -> None:
        if isinstance(model, Node):
            self.node_count -= 1
            self.remove_node(model)
        elif isinstance(model, Edge):
            self.edge_count -= 1
            self.remove_edge(model)
        else:
            return
        if self._everything[0] >= 0:
            self._everything = (-1, [], [])
        for log in self._change_logs.values():
            log.append((False, model))

    def subscribed(self, subscriber: str) -> bool:
        """Whether `subscriber` asked for `changes` before (its next answer is a change log,
        not every node and edge)."""
        return subscriber in self._change_logs

    def changes(self, subscriber: str) -> list[tuple[bool, Node | Edge]]:
        """The nodes and edges added (True) and removed (False) since `subscriber` last asked,
        in order; on its first question, every node and edge there is, as added. What a rule
        that keeps findings per node or edge (a launch check) updates them from."""
        log = self._change_logs.get(subscriber)
        if log is None:
            nodes, edges = self.everything(subscriber)
            return [(True, node) for node in nodes] + [(True, edge) for edge in edges]
        self._change_logs[subscriber] = []
        return log

    def everything(self, subscriber: str) -> tuple[list[Node], list[Edge]]:
        """`changes`' first answer to `subscriber` (from now on it gets a change log), kinds
        apart: every node with an id, then every edge, in `changes`' order. The rules of a whole
        read all ask at once: the lists are made once for all of them (not to be mutated)."""
        self._change_logs[subscriber] = []
        return self.every()

    def every(self) -> tuple[list[Node], list[Edge]]:
        """Every node with an id, then every edge, in `changes`' order (lists shared until the
        graph changes: not to be mutated)."""
        version, nodes, edges = self._everything
        if version != self.version:
            nodes = [node for same_id in self.definitions.values() for node in same_id]
            seen: dict[int, Edge] = {}
            for same_end in self.edges_by_endpoint.values():
                for edge in same_end:
                    seen[id(edge)] = edge
            seen.update((id(edge), edge) for edge in self.edges_without_ends)
            edges = list(seen.values())
            self._everything = (self.version, nodes, edges)
        return nodes, edges

    def every_edge(self) -> list[Edge]:
        """Every edge (each once), in no particular order (a list shared until the graph
        changes: not to be mutated)."""
        return self.every()[1]

    def add_node(self, node: Node) -> None:
        if node.id is None:
            return
        self._put(self.definitions.setdefault(node.id, _Ordered()), node)
        self.node_changes.append((True, node))
        self._first_changed(node.id)

    def remove_node(self, node: Node) -> None:
        if node.id is None or node.id not in self.definitions:
            return
        nodes = self.definitions[node.id]
        nodes.discard(node)
        self.node_changes.append((False, node))
        if not nodes:
            del self.definitions[node.id]
        self._first_changed(node.id)

    @staticmethod
    def _key(edge: Edge) -> EdgeKey | None:
        if edge.source is None or edge.target is None:
            return None
        return (edge.source, edge.target, edge.source_handle, edge.target_handle)

    def add_edge(self, edge: Edge) -> None:
        put = self._put
        self.version += 1
        if not edge.is_tool:
            self.execution_edge_version += 1
        if edge.id:  # an empty id is none (R3: missing)
            same_id = self.edges_by_id.setdefault(edge.id, _Ordered())
            put(same_id, edge)
            if len(same_id) > 1:
                self.duplicate_edge_ids.add(edge.id)
        elif edge.quirks is not None and edge.quirks.id_missing:
            put(self.edges_without_id, edge)
        if edge.source is None and edge.target is None:
            put(self.edges_without_ends, edge)
        for end in (edge.source, edge.target):
            if end is not None:
                put(self.edges_by_endpoint.setdefault(end, _Ordered()), edge)
                if end not in self.nodes_by_id:
                    self.undefined_refs.add(end)
        if edge.source is not None and edge.source == edge.target:
            put(self.self_edges, edge)
        key = self._key(edge)
        if key is None:
            return
        same = self.edges_by_key.setdefault(key, _Ordered())
        put(same, edge)
        if len(same) > 1:
            self.duplicate_edge_keys.add(key)
        if edge.is_tool:
            assert edge.source is not None and edge.target is not None
            put(self.incoming.setdefault(edge.target, _Ordered()), edge)
            put(self.outgoing.setdefault(edge.source, _Ordered()), edge)
            self.cycles_dirty = True

    def remove_edge(self, edge: Edge) -> None:
        self.version += 1
        if not edge.is_tool:
            self.execution_edge_version += 1
        if edge.id and edge.id in self.edges_by_id:
            same_id = self.edges_by_id[edge.id]
            same_id.discard(edge)
            if len(same_id) < 2:
                self.duplicate_edge_ids.discard(edge.id)
            if not same_id:
                del self.edges_by_id[edge.id]
        elif edge.quirks is not None and edge.quirks.id_missing:
            self.edges_without_id.discard(edge)
        if edge.source is None and edge.target is None:
            self.edges_without_ends.discard(edge)
        for end in (edge.source, edge.target):
            if end is not None and end in self.edges_by_endpoint:
                edges = self.edges_by_endpoint[end]
                edges.discard(edge)
                if not edges:
                    del self.edges_by_endpoint[end]
                    self.undefined_refs.discard(end)
        if edge.source is not None and edge.source == edge.target:
            self.self_edges.discard(edge)
        key = self._key(edge)
        if key is None:
            return
        same = self.edges_by_key.get(key)
        if same is not None:
            same.discard(edge)
            if len(same) < 2:
                self.duplicate_edge_keys.discard(key)
            if not same:
                del self.edges_by_key[key]
        if edge.is_tool:
            for index, end in ((self.incoming, edge.target), (self.outgoing, edge.source)):
                assert end is not None
                tool_edges = index.get(end)
                if tool_edges is not None:
                    tool_edges.discard(edge)
                    if not tool_edges:
                        del index[end]
            self.cycles_dirty = True

    # ----- queries ------------------------------------------------------------------------------
    @property
    def consumers(self) -> tuple[str, ...]:
        """Targets of tool edges that are not toolboxes (defined in `nodes` or not)."""
        return tuple(target for target in self.incoming if target not in self.passthroughs)

    def is_consumer(self, node_id: str) -> bool:
        return node_id in self.incoming and node_id not in self.passthroughs

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

    def reach_masks(self) -> ReachMasks:
        """Reachability as bit sets for the graph as it is now (rebuilt after any change)."""
        if self._reach_masks is None or self._reach_version != self.version:
            self._reach_masks = ReachMasks(self)
            self._reach_version = self.version
        return self._reach_masks

    def consumers_of_leaf(self, leaf: str) -> set[str]:
        """The consumers whose flattened set holds `leaf` (a non-toolbox): the targets its tool
        edges reach forwards through toolboxes, itself included if it is wired into itself.
        Cached until the graph changes."""
        if self._cached_version != self.version:
            self._consumers_of_leaf.clear()
            self._cached_version = self.version
        found = self._consumers_of_leaf.get(leaf)
        if found is not None:
            return found
        found = set()
        seen_boxes: set[str] = set()
        queue: deque[str] = deque([leaf])
        while queue:
            current = queue.popleft()
            for edge in self.outgoing.get(current, ()):
                target = edge.target
                assert target is not None
                if target not in self.passthroughs:
                    found.add(target)
                elif target not in seen_boxes:
                    seen_boxes.add(target)
                    queue.append(target)
        self._consumers_of_leaf[leaf] = found
        return found

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

    def consumers_affected_by(self, node_id: str) -> set[str]:
        """Consumers whose findings may depend on `node_id`: itself if it is a consumer, and
        every consumer its tools reach."""
        affected = set(self.consumers_reached_from(node_id))
        if self.is_consumer(node_id):
            affected.add(node_id)
        return affected

    def toolbox_cycles(self) -> list[list[str]]:
        """Strongly connected groups of toolboxes that forward tools to each other (including a
        toolbox wired into itself), each in document order. Cached until the toolboxes or the
        tool edges change."""
        if self.cycles_dirty:
            self._cycles = self._find_toolbox_cycles()
            self.cycles_dirty = False
        return self._cycles

    def _find_toolbox_cycles(self) -> list[list[str]]:
        successors: dict[str, list[str]] = {
            box: [e.target for e in self.outgoing.get(box, ()) if e.target in self.passthroughs]
            for box in self.passthroughs
        }
        cycles = [
            component
            for component in strongly_connected(sorted(self.passthroughs), successors.__getitem__)
            if len(component) > 1 or component[0] in successors[component[0]]
        ]
        for component in cycles:
            component.sort(key=lambda box: doc_order(self.nodes_by_id[box]))
        cycles.sort(key=lambda component: doc_order(self.nodes_by_id[component[0]]))
        return cycles
