"""FD-UNKNOWN-NODE-TYPE: a node whose type the site's node-type registry does not define.

Only when a registry was found (`settings.known_node_types is not None`): without one, unknown
and site-specific types are normal and never reported. With one, an undefined type is a
misspelling, a definition not exported with the site's config, or a module not installed.

Spec R9 (rules/R9.yml): FlowDrop refuses such a node with `R9_NODE_TYPE_UNKNOWN`; the locator
is the node. Fixes: replace the type with one of the closest types the site defines (several
when several are close) — unsafe, never preferred: it changes what the node runs. A node may
name its type in several places (`type`, and a Drupal node `data.metadata.node_type_id` and
`data.metadata.id`): each of those naming the unknown type is replaced, so that the node stays
consistent. Besides, for FlowDrop's editor only (`Finding.choices`): "Replace the node type",
a choice among every type the site defines, closest first."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache, partial
from typing import Any

from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.node_type_resolution import EDITOR_RENDER_TYPE
from flowdrop_lsp.core.domain.node_types import NodeTypeCatalog
from flowdrop_lsp.core.domain.remedies import change_at, fix_from, node_ref
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.findings import Applicability, Finding, Fix, Severity, later
from flowdrop_lsp.core.operations import PICKED, Choice, Operation, Update
from flowdrop_lsp.core.rules.base import Rule, RuleContext, half_typed, node_locator
from flowdrop_lsp.core.text.suggestions import alike_names, likeness

RULE = Rule(
    "FD-UNKNOWN-NODE-TYPE",
    "Node type not defined by the site",
    Severity.ERROR,
    "A node's type is not among the node types the site's definitions declare.",
    spec_ids=("R9",),
)
LOCATOR_CODE = "R9_NODE_TYPE_UNKNOWN"  # the spec's name for it


def check(ctx: RuleContext) -> Iterator[Finding]:
    known = ctx.settings.known_node_types
    if known is None:
        return
    catalog = ctx.settings.node_type_catalog
    # What each node reported offers, kept while the node is the same object (an edit of its
    # text reads a new one): the check runs on every analysis, and its remedies read the node's
    # text (their spans are anchored to the node, so they move with it).
    kept: dict[int, tuple[Node, tuple[Fix, ...], later]] = ctx.memo.get(RULE.code, {})
    made: dict[int, tuple[Node, tuple[Fix, ...], later]] = {}
    for node_id, nodes in ctx.graph.definitions.items():
        for node in nodes:
            if node.type_id is None or node.type_id in known:
                continue
            anchor = node.type_span or node.id_span or node.anchor
            entry = kept.get(id(node))
            if entry is None or entry[0] is not node:
                entry = (
                    node,
                    _type_choice(node, node.type_id, catalog),
                    # Made for the findings kept only (a generated workflow may have thousands).
                    later(partial(_replacements, node, node.type_id, catalog)),
                )
            made[id(node)] = entry
            yield RULE.finding(
                anchor,
                f"node type '{short_text(node.type_id)}' of {node.display} is not defined by the "
                f"site's node types ({ctx.settings.node_types_origin})",
                later_fixes=entry[2],
                node=node_id,
                locator_code=LOCATOR_CODE,
                locator=node_locator(node_id),
                choices=entry[1],
            )
    ctx.memo[RULE.code] = made


# How close (difflib ratio) a defined type must be to be offered: the types of one site share
# prefixes (`aincient_flows_aincient_capability_…`), so a loose cutoff would offer nonsense.
CLOSE = 0.6
MAX_CHOICES = 3
# Where a node names its type below `data.metadata` (a Drupal export, the editor's metadata),
# besides `type` (docs/domain.md §4).
METADATA_TYPE_KEYS = ("node_type_id", "id")
CHOICE_TITLE = "Replace the node type"
CHOICE_PARAM = "node_type_id"


@lru_cache(maxsize=256)
def closest_types(type_id: str, catalog: NodeTypeCatalog) -> tuple[str, ...]:
    """The defined types closest to `type_id`, closest first (a node type id per catalog is
    asked again on every analysis: cached on the frozen catalog)."""
    return tuple(alike_names(type_id, catalog.ids, limit=MAX_CHOICES, cutoff=CLOSE))


@lru_cache(maxsize=256)
def ranked_types(type_id: str, catalog: NodeTypeCatalog) -> tuple[tuple[str, str], ...]:
    """Every defined type as a choice (id, label: `id — label` when the type has a label),
    closest to `type_id` first (difflib's ratio; ties by id)."""
    scored = sorted(
        catalog.ids,
        key=lambda candidate: (
            -likeness(type_id, candidate),
            candidate,
        ),
    )
    options: list[tuple[str, str]] = []
    for candidate in scored:
        definition = catalog.get(candidate)
        label = definition.label if definition is not None else None
        options.append((candidate, f"{candidate} — {label}" if label else candidate))
    return tuple(options)


def _type_changes(node: Node, type_id: str, new: str) -> list[tuple[Node, Operation]]:
    """The operations writing `new` in every place of the node that names `type_id`: `type`
    (unless it is the editor's render type) and `data.metadata.node_type_id` / `.id`."""
    value: Any = node.editor.value() if node.editor is not None else None
    if not isinstance(value, dict):
        return []
    changes: list[tuple[Node, Operation]] = []
    if value.get("type") == type_id and type_id != EDITOR_RENDER_TYPE:
        changes.append((node, Update.of(node_ref(node), "node", {"type": new})))
    data = value.get("data")
    metadata = data.get("metadata") if isinstance(data, dict) else None
    if isinstance(metadata, dict):
        keys = [key for key in METADATA_TYPE_KEYS if metadata.get(key) == type_id]
        if keys:
            change = change_at(node, ("data", "metadata"), {key: new for key in keys})
            if change is None:
                return []
            changes.append((node, change))
    return changes


def _replacements(node: Node, type_id: str, catalog: NodeTypeCatalog | None) -> tuple[Fix, ...]:
    choices = closest_types(type_id, catalog) if catalog is not None else ()
    fixes: list[Fix] = []
    for choice in choices:
        changes = _type_changes(node, type_id, choice)
        fix = (
            fix_from(
                f"Replace with '{short_text(choice)}'",
                changes,
                applicability=Applicability.UNSAFE,
            )
            if changes
            else None
        )
        if fix is not None:
            fixes.append(fix)
    return tuple(fixes)


def _type_choice(node: Node, type_id: str, catalog: NodeTypeCatalog | None) -> tuple[Fix, ...]:
    """ "Replace the node type", a choice among every type the site defines (FlowDrop's editor
    only): unsafe, it changes what the node runs. The pick goes wherever the node names its
    type (`with_picked`: inside `data.metadata` too)."""
    if catalog is None or not catalog.ids or half_typed(node):
        return ()
    operations = tuple(op for _node, op in _type_changes(node, type_id, PICKED))
    if not operations:
        return ()
    return (
        Fix(
            CHOICE_TITLE,
            (),
            applicability=Applicability.UNSAFE,
            operations=operations,
            choice=Choice(CHOICE_PARAM, ranked_types(type_id, catalog)),
        ),
    )


EXPLANATION = RULE.explained(
    "A Drupal site defines its node types as config beside its workflows "
    "(`flowdrop_node_type.flowdrop_node_type.<id>.yml`); a workflow node of a type the site "
    "does not define (often a typo) cannot run there. Only when the site's definitions were "
    "found: without them site-specific types are normal and never reported.",
    failing="""\
{
  "nodes": [
    {"id": "a", "type": "http_reqest", "data": {"label": "Fetch"}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "a", "type": "http_request", "data": {"label": "Fetch"}}
  ],
  "edges": []
}
""",
    site_node_types=("http_request",),
)
