"""Finding CMP-9's collisions at one consumer: the groups of leaves with one tool name in its
flattened set, from the graph's bit sets when many nodes share names (never flattening every
consumer), and how many colliding pairs they make (past a bound, the consumer is crowded)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

import flowdrop_lsp.core.rules.cmp9.bounds as bounds
from flowdrop_lsp.core.domain.model import doc_order
from flowdrop_lsp.core.domain.reach import NameGroup, lowest_bits, set_bits
from flowdrop_lsp.core.rules.base import RuleContext


@dataclass(frozen=True)
class Collision:
    consumer: str
    tool_name: str
    # In document order: all of them, or for a crowded consumer (more than MAX_COLLIDING_PAIRS
    # pairs, which gets one summary finding) only the first KEPT_OF_CROWDED.
    leaves: tuple[str, ...]
    size: int  # how many leaves of this name the consumer sees

    @cached_property
    def members(self) -> frozenset[str]:
        return frozenset(self.leaves)


def collision(consumer: str, tool_name: str, leaves: tuple[str, ...]) -> Collision:
    return Collision(consumer, tool_name, leaves, len(leaves))


def collisions_at(ctx: RuleContext, consumer: str) -> list[Collision]:
    """The groups of leaves with one tool name in `consumer`'s flattened set."""
    graph = ctx.graph
    shared = graph.shared_names
    if not shared:
        return []  # no two nodes share a tool name: no collision anywhere
    by_name: dict[str, list[str]] = {}
    candidates = sum(len(graph.ids_by_name[name]) for name in shared)
    if candidates <= bounds.MAX_CANDIDATES_FOR_REACH:
        for name in shared:
            for leaf in graph.ids_by_name[name]:
                if not graph.is_passthrough(leaf) and consumer in graph.consumers_of_leaf(leaf):
                    by_name.setdefault(name, []).append(leaf)
    elif candidates * (len(graph.passthroughs) + 1) <= bounds.MAX_MASK_BITS:
        return _collisions_by_masks(ctx, consumer)
    else:
        for leaf in ctx.flat(consumer).leaves:
            node = ctx.node(leaf)
            if node is not None:  # an undefined leaf has no name to compare (R8 reports it)
                by_name.setdefault(node.tool_name, []).append(leaf)
    collisions = []
    for name, leaves in by_name.items():
        if len(leaves) > 1:
            leaves.sort(key=lambda leaf: doc_order(graph.nodes_by_id[leaf]))
            collisions.append(collision(consumer, name, tuple(leaves)))
    collisions.sort(key=lambda c: doc_order(graph.nodes_by_id[c.leaves[0]]))
    return collisions


def _collisions_by_masks(ctx: RuleContext, consumer: str) -> list[Collision]:
    """`collisions_at` from the bits of the shared-name leaves reaching `consumer`: counted per
    name without listing them, then listed whole only where the consumer is not crowded."""
    graph = ctx.graph
    reach = graph.reach_masks()
    mask = reach.leaves_reaching(consumer)
    if not mask:
        return []
    groups = reach.groups
    counted: list[tuple[NameGroup, int, int]] = []  # (group, count, its bits in `mask`)
    if mask.bit_count() <= len(groups):  # few leaves: look at each
        bits_by_group: dict[int, int] = {}
        for bit in set_bits(mask):
            group = reach.group_of_bit[bit]
            bits_by_group[group] = bits_by_group.get(group, 0) | 1 << bit
        for index, bits in bits_by_group.items():
            counted.append((groups[index], bits.bit_count(), bits))
    else:  # many leaves: count each name's at once
        for name_group in groups:
            bits = mask & name_group.mask
            counted.append((name_group, bits.bit_count(), bits))
    counted = [c for c in counted if c[1] > 1]
    crowded = sum(n * (n - 1) // 2 for _, n, _ in counted) > bounds.MAX_COLLIDING_PAIRS
    collisions = []
    for name_group, count, bits in counted:
        listed = lowest_bits(bits, bounds.KEPT_OF_CROWDED) if crowded else set_bits(bits)
        leaves = tuple(reach.members[bit] for bit in listed)
        collisions.append(Collision(consumer, name_group.name, leaves, count))
    collisions.sort(key=lambda c: doc_order(graph.nodes_by_id[c.leaves[0]]))
    return collisions


def colliding_pairs(collisions: Iterable[Collision]) -> int:
    return sum(c.size * (c.size - 1) // 2 for c in collisions)
