"""CMP-9's fixes: which colliding leaves keep their names and the new labels of the others (the
fewest renamed, so that fix-all leaves no collision and routing on a name keeps working), and
the strings elsewhere in the workflow that refer to a name being changed."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from flowdrop_lsp.core.domain.model import DataString, Node, doc_order
from flowdrop_lsp.core.domain.names import sanitize_tool_name
from flowdrop_lsp.core.domain.reach import ReachMasks
from flowdrop_lsp.core.domain.renames import LabelNumbers, readable_base, rename_blocker
from flowdrop_lsp.core.rules.base import RuleContext
from flowdrop_lsp.core.rules.cmp9.rule import RULE


@dataclass
class RenamePlan:
    """Which colliding leaves keep their names and the new labels of the others."""

    reach: ReachMasks  # the graph's reachability bit sets (consumers reached, per node)
    renames: dict[str, str] = field(default_factory=dict)  # leaf → its planned new label
    blocked: dict[str, str] = field(default_factory=dict)  # leaf → why it cannot be renamed
    planned: set[str] = field(default_factory=set)  # the tool names of the planned labels
    numbers: LabelNumbers = field(default_factory=LabelNumbers)
    around: dict[str, int] = field(default_factory=dict)  # leaf → consumers_around, cached
    # (label base, consumers as bits) → taken number → the next number to look at: the runs of
    # numbers `label_instead` skips, shared by the leaves around the same consumers.
    skips: dict[tuple[str, int], dict[int, int]] = field(default_factory=dict)

    def consumers_around(self, leaf: str) -> int:
        """The consumers `leaf` reaches (as in `ToolGraph.consumers_reached_from`: not itself),
        as bits."""
        found = self.around.get(leaf)
        if found is None:
            found = self.reach.consumers_reached(leaf)
            own = self.reach.consumer_bit().get(leaf)
            if own is not None:
                found &= ~(1 << own)
            self.around[leaf] = found
        return found

    def visible_around(self, leaf: str, name: str) -> bool:
        """Whether another leaf named `name` is in the flattened set of a consumer that `leaf`
        reaches: asked for the few names a rename tries, instead of collecting every name
        around a leaf (thousands, in a long chain of toolboxes, for each renamed leaf)."""
        around = self.consumers_around(leaf)
        if not around:
            return False
        reach = self.reach
        return any(
            other != leaf
            and other not in reach.passthroughs
            and reach.consumers_reached(other) & around
            for other in reach.ids_by_name.get(name, ())
        )

    def visible_to(self, around: int, name: str) -> bool:
        """Whether a leaf named `name` is in the flattened set of one of the consumers `around`
        (`visible_around`, without leaving out the leaf asking)."""
        reach = self.reach
        return bool(around) and any(
            other not in reach.passthroughs and reach.consumers_reached(other) & around
            for other in reach.ids_by_name.get(name, ())
        )

    def label_instead(self, node: Node, leaf: str, replaced: set[str]) -> str:
        """The label `leaf` (`node`) would take renamed instead of the others, whose planned
        tool names `replaced` it frees: the first number from its own on (as `LabelNumbers.label`
        without reserving) whose name no other leaf around it has and the plan gives no one
        else. The same answer as trying the numbers one by one (a test compares them), found
        in linear time over all the leaves: in a chain of toolboxes every kept leaf's "rename
        instead" walked past the thousands of numbers the plan and its neighbours took (5,000
        leaves: 6 M tries, 20 s of `check --fix`). The numbers taken for every leaf around the
        same consumers (planned, or anyone's name there) are skipped in runs, remembered per
        base; what only this leaf sees free (a name it frees, its own name) is tried apart."""
        base, number = readable_base(node)
        around = self.consumers_around(leaf)
        skips = self.skips.setdefault((base, around), {})
        planned = self.planned
        at, passed = number, []
        while True:
            ahead = skips.get(at)
            if ahead is not None:
                passed.append(at)
                at = ahead
                continue
            name = sanitize_tool_name(f"{base} {at}")
            if name in planned or self.visible_to(around, name):
                passed.append(at)
                at += 1
                continue
            break
        for taken in passed:
            skips[taken] = at
        # Below `at`, free for this leaf alone: a name it frees, or its own.
        free_here = [
            n
            for n in _numbers_named(base, (*replaced, node.tool_name))
            if number <= n < at and not self._taken_instead(leaf, f"{base} {n}", replaced)
        ]
        return f"{base} {min(free_here, default=at)}"

    def _taken_instead(self, leaf: str, label: str, replaced: set[str]) -> bool:
        name = sanitize_tool_name(label)
        return (name in self.planned and name not in replaced) or self.visible_around(leaf, name)

    def is_taken_for(self, leaf: str) -> Callable[[str], bool]:
        planned = self.planned
        return lambda name: name in planned or self.visible_around(leaf, name)


def _numbers_named(base: str, names: Iterable[str]) -> list[int]:
    """The numbers n for which `base n` is one of the tool `names`."""
    found = []
    for name in names:
        digits = name.rpartition("_")[2]
        if digits.isdigit() and sanitize_tool_name(f"{base} {int(digits)}") == name:
            found.append(int(digits))
    return found


def plan_renames(ctx: RuleContext, leaves: Iterable[str]) -> RenamePlan:
    """The rename plan for every colliding leaf (see the module docstring)."""
    plan = RenamePlan(ctx.graph.reach_masks())
    nodes = ctx.graph.nodes_by_id
    for leaf in leaves:
        blocker = rename_blocker(nodes[leaf], ctx.repeated)
        if blocker is not None:
            plan.blocked[leaf] = blocker
    order = sorted(leaves, key=lambda leaf: (leaf not in plan.blocked, doc_order(nodes[leaf])))
    claimed: dict[str, int] = {}  # tool name → the consumers where a leaf keeps it, as bits
    for leaf in order:
        node = nodes[leaf]
        consumers = plan.consumers_around(leaf)
        clash = bool(consumers & claimed.get(node.tool_name, 0))
        if clash and leaf not in plan.blocked:
            label = plan.numbers.label(node, plan.is_taken_for(leaf))
            plan.planned.add(sanitize_tool_name(label))
            plan.renames[leaf] = label
        else:  # keeps its name (a blocked leaf keeps it even when it clashes: it must)
            claimed[node.tool_name] = claimed.get(node.tool_name, 0) | consumers
    return plan


class References:
    """Strings in nodes' `data` equal to a name a fix would change: a tool name, or a label
    (nodes' own labels and the type metadata aside: they are names, not references)."""

    def __init__(self, ctx: RuleContext, wanted: frozenset[str]) -> None:
        # Node id → (node, its strings equal to a wanted name), for nodes holding any. Kept
        # between runs while the names looked for stay the same, and brought up to date from
        # the graph's log of added and removed nodes (a node is immutable: an edit makes a new
        # one), so that an edit looks at the nodes it touched, not at all of them.
        graph = ctx.graph
        memo = ctx.memo.get(RULE.code)
        if memo is None or memo[0] != wanted:
            holding: dict[int, tuple[Node, tuple[DataString, ...]]] = {}
            for nodes in graph.definitions.values():
                for node in nodes:
                    self._look_at(node, wanted, holding)
        else:
            holding = memo[1]
            for added, node in graph.node_changes:
                if added:
                    self._look_at(node, wanted, holding)
                elif holding.get(id(node), (None,))[0] is node:
                    del holding[id(node)]
        graph.node_changes.clear()
        ctx.memo[RULE.code] = (wanted, holding)
        use_title = ctx.settings.use_instance_title
        self.by_value: dict[str, list[tuple[int, DataString]]] = {}
        for node, strings in holding.values():
            for string in strings:
                first = string.path[0] if string.path else None
                if first in (None, "label", "metadata") or (
                    use_title and string.path == ("config", "instanceTitle")
                ):
                    continue
                where = doc_order(node) - node.span.start + string.span.start
                self.by_value.setdefault(string.value, []).append((where, string))

    @staticmethod
    def _look_at(
        node: Node,
        wanted: frozenset[str],
        holding: dict[int, tuple[Node, tuple[DataString, ...]]],
    ) -> None:
        strings = node.strings_equal_to(wanted)
        if strings:
            holding[id(node)] = (node, strings)

    def to(self, nodes: Iterable[Node]) -> list[DataString]:
        """References, in document order, broken by renaming `nodes`: to their tool names and
        to their name sources."""
        found: dict[int, DataString] = {}
        for node in nodes:
            for value in (node.tool_name, node.name_source):
                for where, string in self.by_value.get(value, ()):
                    found[where] = string
        return [found[where] for where in sorted(found)]
