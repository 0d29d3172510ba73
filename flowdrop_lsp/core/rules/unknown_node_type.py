"""FD-UNKNOWN-NODE-TYPE: a node whose type the site's node-type registry does not define.

Only when a registry was found (`settings.known_node_types is not None`): without one, unknown
and site-specific types are normal and never reported. With one, an undefined type is a
misspelling, a definition not exported with the site's config, or a module not installed.

Spec R9 (rules/R9.yml): FlowDrop refuses such a node with `R9_NODE_TYPE_UNKNOWN`; the locator
is the node. Fixes: replace the type with one of the closest types the site defines (several
when several are close) — unsafe, never preferred: it changes what the node runs. A Drupal
node may name its type twice (`data.metadata.node_type_id` and `data.metadata.id`): each of
those naming the unknown type is replaced, so that the node stays consistent."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from functools import lru_cache, partial

from flowdrop_lsp.core.domain.model import Node, short_text
from flowdrop_lsp.core.domain.node_types import NodeTypeCatalog
from flowdrop_lsp.core.findings import Applicability, Finding, Fix, Severity, TextEdit, later
from flowdrop_lsp.core.rules.base import Rule, RuleContext, node_locator
from flowdrop_lsp.core.text.literals import json_string
from flowdrop_lsp.core.text.positions import Span

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
    for node_id, nodes in ctx.graph.definitions.items():
        for node in nodes:
            if node.type_id is None or node.type_id in known:
                continue
            anchor = node.type_span or node.id_span or node.anchor
            yield Finding(
                RULE.code,
                RULE.default_severity,
                f"node type '{short_text(node.type_id)}' of {node.display} is not defined by the "
                f"site's node types ({ctx.settings.node_types_origin})",
                anchor,
                # Made for the findings kept only (a generated workflow may have thousands).
                later_fixes=later(
                    partial(_replacements, node, node.type_id, ctx.settings.node_type_catalog)
                ),
                node=node_id,
                locator_code=LOCATOR_CODE,
                locator=node_locator(node_id),
            )


# How close (difflib ratio) a defined type must be to be offered: the types of one site share
# prefixes (`aincient_flows_aincient_capability_…`), so a loose cutoff would offer nonsense.
CLOSE = 0.6
MAX_CHOICES = 3
# Where else in a node a Drupal export names its type (below `data`), besides the token the
# type was resolved from (docs/domain.md §4).
TYPE_NAMING_PATHS = frozenset({("metadata", "node_type_id"), ("metadata", "id")})


@lru_cache(maxsize=256)
def closest_types(type_id: str, catalog: NodeTypeCatalog) -> tuple[str, ...]:
    """The defined types closest to `type_id`, closest first (a node type id per catalog is
    asked again on every analysis: cached on the frozen catalog)."""
    return tuple(difflib.get_close_matches(type_id, catalog.ids, n=MAX_CHOICES, cutoff=CLOSE))


def _replacements(node: Node, type_id: str, catalog: NodeTypeCatalog | None) -> tuple[Fix, ...]:
    choices = closest_types(type_id, catalog) if catalog is not None else ()
    if not choices or node.type_span is None:
        return ()
    spans = {node.type_span.resolve(): node.type_span}
    if node.string_finder is not None:
        # The finder itself, not `strings_equal_to`: its hint leaves `data.metadata` out.
        for found in node.string_finder(frozenset({type_id})):
            if found.path in TYPE_NAMING_PATHS:
                spans.setdefault(found.span.resolve(), found.span)
    tokens: list[Span] = [spans[key] for key in sorted(spans, key=lambda s: s.start)]
    return tuple(
        Fix(
            f"Replace with '{short_text(choice)}'",
            tuple(TextEdit(span, json_string(choice)) for span in tokens),
            applicability=Applicability.UNSAFE,
        )
        for choice in choices
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
