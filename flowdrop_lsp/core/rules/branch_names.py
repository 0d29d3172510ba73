"""BR-3: an active-branch list's names are trimmed and lower-cased before BR-1 compares a port's
name with them (spec rules/BR-3.yml, BR-1; BR-2 matches a branch port without regard to case)
— here: two branches of one gateway whose names are the same once trimmed and lower-cased.

Such names are one branch to the runtime: when either is active, the edges leaving both ports
are followed, though the editor draws two ports. Accepted, and wrong silently: a warning. A
gateway's branches are its `config.branches` entries (BR-4: an entry whose name is not a
non-empty string is discarded, and so skipped here); a node whose type the site defines without
a `branches` parameter has no branches (core/domain/ports.py). Two entries of the very same name
collide too. Reported on each later entry, pointing at the first; no fix (edges name the
ports). Kept per node (`scoped_findings`)."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.ports import BRANCHES_PARAMETER
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.rules.scoped import Scoped
from flowdrop_lsp.core.text.positions import Span

RULE = Rule(
    "BR-3",
    "Gateway branches that are one branch",
    Severity.WARNING,
    "Two branches of a gateway have names that are the same once trimmed and lower-cased, as "
    "the runtime compares them: when either is active, the edges of both are followed.",
    spec_ids=("BR-3",),
)
PATH = ("data", "config", BRANCHES_PARAMETER)


def branch_key(name: str) -> str:
    """A branch name as BR-1 compares it."""
    return name.strip().lower()


def has_branches(ctx: RuleContext, node: Node) -> bool:
    """Whether the node's `config.branches` are branches: always, unless the site defines its
    type without that parameter."""
    catalog = ctx.settings.node_type_catalog
    definition = catalog.get(node.type_id) if catalog is not None else None
    return definition is None or definition.parameter(BRANCHES_PARAMETER) is not None


def branch_names(node: Node) -> list[tuple[int, str]]:
    """The node's branch entries with a usable name (BR-4), as (index, name)."""
    config = node.config
    items = config.get(BRANCHES_PARAMETER) if isinstance(config, dict) else None
    if not isinstance(items, list):
        return []
    return [
        (index, item["name"])
        for index, item in enumerate(items)
        if isinstance(item, dict) and isinstance(item.get("name"), str) and item["name"]
    ]


def _name_span(node: Node, index: int) -> Span:
    located = node.editor.locate((*PATH, index, "name")) if node.editor is not None else None
    return located.value if located is not None else node.anchor


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    names = branch_names(node)
    if len(names) < 2 or not has_branches(ctx, node):
        return
    first: dict[str, tuple[int, str]] = {}
    for index, name in names:
        key = branch_key(name)
        earlier = first.setdefault(key, (index, name))
        if earlier[0] == index:
            continue
        other_index, other = earlier
        same = "has the same name as" if other == name else "is the same branch as"
        yield RULE.finding(
            _name_span(node, index),
            f"branch '{short_text(name)}' of {node.display} {same} '{short_text(other)}' once "
            "trimmed and lower-cased, as the runtime compares branch names: when either is "
            "active, the edges of both are followed",
            node=node.id,
            related=(
                RelatedLocation(_name_span(node, other_index), f"'{short_text(other)}' is here"),
            ),
            key=BRANCHES_PARAMETER,
            identity=(name,),
        )


SCOPED = Scoped(RULE.code, node_check=check_node)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXPLANATION = RULE.explained(
    "A gateway reports the branches it keeps alive by name, and the runtime compares those "
    "names with its ports' after trimming surrounding whitespace and lower-casing (spec BR-3, "
    "BR-1). Two branches named `Yes` and `yes ` are two ports in the editor but one branch at "
    "run time: whichever is active, the edges leaving both are followed. Rename one of them.",
    failing="""\
{
  "nodes": [
    {"id": "route", "type": "switch_gateway", "data": {"label": "Route", "config": {
      "branches": [{"name": "Pages", "value": "pages"}, {"name": "pages ", "value": "list"}]}}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "route", "type": "switch_gateway", "data": {"label": "Route", "config": {
      "branches": [{"name": "Pages", "value": "pages"}, {"name": "List", "value": "list"}]}}}
  ],
  "edges": []
}
""",
)
