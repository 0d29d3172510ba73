"""CMP-9: tool names are unique per consumer, across its flattened set of leaf tools.

One finding on the label of EACH colliding leaf, however many consumers it collides at (they
are all named in the finding); never one on a toolbox (a passthrough's own name plays no part).

Fixes never break a workflow that routes on a tool name (a gateway branch whose value is the
name): the FEWEST tools are renamed. The plan goes through all colliding leaves in document
order (leaves that cannot be renamed first: `data` not an object, or a YAML label an alias
repeats, which a rename would change in the other places too): a leaf keeps its
name unless a leaf already keeping it shares that name at a consumer it reaches; otherwise it
gets a new numbered label that avoids every name visible at every consumer it reaches and every
name planned before it. So applying every finding's preferred fix (fix-all) leaves no collision
anywhere, and exactly one tool per group keeps the old name. A kept label's preferred fix
renames the others in its group(s); a renamed label's preferred fix is its own planned rename
(the same edit, so fix-all applies it once). Strings elsewhere in the workflow equal to a name
being changed are pointed out, and each fix's title says how many there are.

Messages name at most a few of the other tools and consumers, and related locations are capped,
so that N same-named tools cost O(N) text per finding, not a quadratic pile of it. A finding's
`consumers` list is capped too, and so are the entries' `colliding_with` lists, each and all
together (the message counts the consumers; the other tools are counted at the consumers listed). A consumer where more than
MAX_COLLIDING_PAIRS pairs of tools collide (a generated workflow: thousands of same-named tools)
gets ONE summary finding instead of one per tool there: per-tool findings would each list
thousands of others at thousands of consumers (cubic output), and a rename plan for them would
be of no use to anyone. Leaves colliding elsewhere too still get their per-tool findings there.
Past MAX_CROWDED_SUMMARIES crowded consumers, one finding counts the rest, as other rules' caps do.

Finding collisions never flattens every consumer when many nodes share names: the graph's bit
sets (core.domain.reach.ReachMasks) count each consumer's tools per name, and only a consumer that is not
crowded has its colliding tools listed (tests/core/rules/test_cmp9_counts.py: equal to flattening).

The package: the rule's identity (rule.py) and bounds (bounds.py); finding collisions
(detect.py); the rename plan and the references a rename breaks (plan.py); the findings' words
(messages.py); here, `check`, which puts them together.
"""

from __future__ import annotations

from collections.abc import Iterator

import flowdrop_lsp.core.rules.cmp9.bounds as bounds
from flowdrop_lsp.core.domain.model import doc_order
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.rules.base import RuleContext, first_with_summary
from flowdrop_lsp.core.rules.cmp9.detect import Collision, colliding_pairs, collisions_at
from flowdrop_lsp.core.rules.cmp9.messages import FindingBuilder, crowded_summary
from flowdrop_lsp.core.rules.cmp9.plan import References, RenamePlan, plan_renames
from flowdrop_lsp.core.rules.cmp9.rule import EXPLANATION, RULE

# The rule's public names (the registry reads RULE, EXPLANATION, check and check_consumer).
__all__ = [
    "EXPLANATION",
    "RULE",
    "Collision",
    "RenamePlan",
    "check",
    "check_consumer",
    "colliding_pairs",
    "collisions_at",
    "crowded_summary",
    "plan_renames",
]


def _consumer_key(ctx: RuleContext, consumer: str) -> tuple[int, int, str]:
    """Consumers in document order; those `nodes` does not define after them, by id."""
    node = ctx.node(consumer)
    return (0, doc_order(node), consumer) if node is not None else (1, 0, consumer)


def check(ctx: RuleContext) -> Iterator[Finding]:
    # The collisions per consumer are cached (RuleContext.refresh recomputes the consumers an
    # edit affects); the findings are rebuilt from them each time: their messages name labels
    # of other nodes, the renames are planned over all collisions together, and references
    # may be anywhere in the document. All of it only when there is a collision at all.
    by_leaf: dict[str, list[Collision]] = {}
    crowded: list[str] = []
    results = ctx.results_of(RULE.code)
    # Consumers in document order, so that each leaf's collisions come in the order its
    # finding lists them (sorted once here, not once per leaf).
    for consumer in sorted(results, key=lambda c: _consumer_key(ctx, c)):
        per_consumer = results[consumer]
        if colliding_pairs(per_consumer) > bounds.MAX_COLLIDING_PAIRS:
            crowded.append(consumer)
            continue
        for collision in per_consumer:
            for leaf in collision.leaves:
                by_leaf.setdefault(leaf, []).append(collision)
    yield from first_with_summary(
        crowded,
        lambda consumer: crowded_summary(ctx, consumer, results[consumer]),
        bounds.MAX_CROWDED_SUMMARIES,
    )
    if not by_leaf:
        ctx.memo.pop(RULE.code, None)  # nothing to keep alive
        ctx.graph.node_changes.clear()
        return
    plan = plan_renames(ctx, by_leaf)
    nodes = ctx.graph.nodes_by_id
    wanted = frozenset(
        {nodes[leaf].tool_name for leaf in by_leaf} | {nodes[leaf].name_source for leaf in by_leaf}
    )
    order = {leaf: doc_order(nodes[leaf]) for leaf in by_leaf}
    builder = FindingBuilder(ctx, plan, References(ctx, wanted), order)
    for leaf, collisions in by_leaf.items():
        yield builder.build(leaf, collisions)


# The registry's name for the per-consumer part (core/rules/registry.py).
check_consumer = collisions_at
