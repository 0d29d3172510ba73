"""Reachability as bit sets (Python ints), for when many nodes share tool names: which of them
reach a consumer, and which consumers a node reaches, propagated once per graph state through
the toolboxes (`ToolGraph.reach_masks`), so that a chain of thousands of toolboxes, each wired to
its own agent, costs a few big-integer ORs per toolbox instead of one flattening per agent. And
the one iterative Tarjan (`strongly_connected`) that this and the toolbox-cycle check share.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flowdrop_lsp.core.domain.model import doc_order

if TYPE_CHECKING:
    from flowdrop_lsp.core.domain.graph import ToolGraph


def set_bits(mask: int) -> Iterator[int]:
    """The indexes of the bits set in `mask`, lowest first (C-speed scan of its binary text)."""
    digits = format(mask, "b")[::-1]
    at = digits.find("1")
    while at >= 0:
        yield at
        at = digits.find("1", at + 1)


def lowest_bits(mask: int, count: int) -> list[int]:
    """The indexes of the lowest `count` bits set in `mask`."""
    found: list[int] = []
    while mask and len(found) < count:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


@dataclass(frozen=True, slots=True)
class NameGroup:
    """The non-toolbox nodes sharing one tool name, as a run of consecutive bits (in document
    order: bit `start + i` is `members[i]`)."""

    name: str
    members: tuple[str, ...]
    start: int
    mask: int


class ReachMasks:
    """Reachability as bit sets, for one state of the graph (`ToolGraph.reach_masks`).

    Backwards: each node sharing a tool name with another (toolboxes aside) has a bit, grouped
    by name and in document order within a name; `leaves_reaching(consumer)` is the set of them
    in the consumer's flattened set. Forwards: each consumer has a bit, and
    `consumers_reached(node)` is the set of consumers the node's tools reach (what
    `consumers_of_leaf` answers one node at a time). Toolbox masks are computed lazily and
    once: strongly connected groups of toolboxes (cycles) share one mask, found by an
    iterative Tarjan whose finished groups stay finished across queries."""

    def __init__(self, graph: ToolGraph) -> None:
        # The graph's indexes, not the graph: the graph caches this object, and a reference
        # back would be a cycle that outlives a closed document (tests/core/engine/test_release.py).
        self.passthroughs = graph.passthroughs
        self.incoming = graph.incoming
        self.outgoing = graph.outgoing
        self.ids_by_name = graph.ids_by_name
        groups: list[NameGroup] = []
        self.members: list[str] = []  # bit → node id
        self.group_of_bit: list[int] = []  # bit → index in `groups`
        self.bit_of: dict[str, int] = {}
        for name in sorted(graph.shared_names):
            members = sorted(
                (m for m in graph.ids_by_name[name] if m not in graph.passthroughs),
                key=lambda m: doc_order(graph.nodes_by_id[m]),
            )
            if len(members) < 2:  # the others are toolboxes: never in a flattened set
                continue
            start = len(self.members)
            for offset, member in enumerate(members):
                self.bit_of[member] = start + offset
            self.members += members
            self.group_of_bit += [len(groups)] * len(members)
            groups.append(
                NameGroup(name, tuple(members), start, ((1 << len(members)) - 1) << start)
            )
        self.groups = groups
        self._backward: dict[str, int] = {}  # toolbox → shared-name leaves reaching it
        self._forward: dict[str, int] = {}  # toolbox → consumers it reaches
        self._consumer_bit: dict[str, int] | None = None

    # ----- backwards: which shared-name leaves reach a consumer -----------------------------
    def _leaf_bits_into(self, target: str) -> tuple[int, list[str]]:
        """The bits of the non-toolbox sources of `target`'s tool edges, and the toolboxes
        among its sources."""
        mask = 0
        boxes: list[str] = []
        passthroughs, bit_of = self.passthroughs, self.bit_of
        for edge in self.incoming.get(target, ()):
            source = edge.source
            assert source is not None
            if source in passthroughs:
                boxes.append(source)
            else:
                bit = bit_of.get(source)
                if bit is not None:
                    mask |= 1 << bit
        return mask, boxes

    def leaves_reaching(self, consumer: str) -> int:
        """The shared-name leaves in `consumer`'s flattened set, as bits."""
        mask, boxes = self._leaf_bits_into(consumer)
        for box in boxes:
            mask |= _closure(box, self._backward, self._leaf_bits_into)
        return mask

    # ----- forwards: which consumers a node reaches ------------------------------------------
    def consumer_bit(self) -> dict[str, int]:
        if self._consumer_bit is None:
            consumers = (t for t in self.incoming if t not in self.passthroughs)  # as .consumers
            self._consumer_bit = {c: i for i, c in enumerate(consumers)}
        return self._consumer_bit

    def _consumer_bits_from(self, source: str) -> tuple[int, list[str]]:
        mask = 0
        boxes: list[str] = []
        passthroughs, consumer_bit = self.passthroughs, self.consumer_bit()
        for edge in self.outgoing.get(source, ()):
            target = edge.target
            assert target is not None
            if target in passthroughs:
                boxes.append(target)
            else:
                mask |= 1 << consumer_bit[target]
        return mask, boxes

    def consumers_reached(self, node_id: str) -> int:
        """The consumers `node_id`'s tools reach through any number of toolboxes, as bits
        (itself included when it reaches itself, as in `ToolGraph.consumers_of_leaf`)."""
        mask, boxes = self._consumer_bits_from(node_id)
        for box in boxes:
            mask |= _closure(box, self._forward, self._consumer_bits_from)
        return mask


def _closure(root: str, done: dict[str, int], step: Callable[[str], tuple[int, list[str]]]) -> int:
    """The union of the bits `step` gives for every toolbox reachable from `root` through the
    toolboxes `step` lists (root included), memoised in `done` for every toolbox it finishes.

    A strongly connected group of toolboxes reaches the same set, so each group is given its
    members' own bits ORed with the groups it leads to, which `strongly_connected` always
    yields first."""
    if root in done:
        return done[root]
    own: dict[str, int] = {}
    leads_to: dict[str, list[str]] = {}

    def successors(box: str) -> list[str]:
        own[box], leads_to[box] = step(box)
        return leads_to[box]

    for group in strongly_connected((root,), successors, done):
        members = set(group)
        mask = 0
        for member in group:
            mask |= own[member]
            for child in leads_to[member]:
                if child not in members:
                    mask |= done[child]
        for member in group:
            done[member] = mask
    return done[root]


def strongly_connected(
    roots: Iterable[str],
    successors: Callable[[str], Iterable[str]],
    finished: Container[str] = frozenset(),
) -> Iterator[list[str]]:
    """The strongly connected groups of the nodes reachable from `roots` (Tarjan's algorithm,
    iteratively: a hostile chain of toolboxes must not exhaust the stack), each yielded after
    every group it leads to. Nodes in `finished` are neither entered nor yielded."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()

    def enter(node: str) -> tuple[str, Iterator[str]]:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        return node, iter(successors(node))

    for root in roots:
        if root in index or root in finished:
            continue
        work = [enter(root)]
        while work:
            node, children = work[-1]
            for child in children:
                if child in finished:
                    continue
                if child not in index:
                    work.append(enter(child))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:  # `node` heads a group: all it leads to is done
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    yield group
