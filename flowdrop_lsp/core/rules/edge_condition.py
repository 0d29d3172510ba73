"""EDGE-8: a condition on an edge is a removed feature. A stored `data.condition` round-trips
unchanged and gates nothing: the edge always routes. A non-empty string condition is warned
about (the runtime warns each time the source's outgoing edges are resolved); an absent or empty
one is silent.

The fix removes the condition; it is unsafe (never preferred, not applied by `--fix`): the
condition may be someone's note of an intent the workflow should express another way (a
gateway), which removing it forgets.

Kept per edge (`scoped_findings`): a keystroke re-checks only the edges it reaches."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Edge
from flowdrop_lsp.core.domain.remedies import change_at, fix_from
from flowdrop_lsp.core.domain.wording import id_text, short_text
from flowdrop_lsp.core.findings import Applicability, Finding, Severity
from flowdrop_lsp.core.rules.base import (
    Rule,
    RuleContext,
    edge_identity,
    half_typed,
)
from flowdrop_lsp.core.rules.scoped import Scoped

RULE = Rule(
    "EDGE-8",
    "Edge condition ignored",
    Severity.WARNING,
    "An edge carries a `data.condition`, a removed feature: it gates nothing, the edge always "
    "routes.",
    spec_ids=("EDGE-8", "SG-9"),
)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


def _condition(ctx: RuleContext, edge: Edge) -> Iterator[Finding]:
    condition = edge.quirks.condition if edge.quirks is not None else None
    if condition is None or half_typed(edge):
        return
    located = edge.editor.locate(("data", "condition")) if edge.editor is not None else None
    change = change_at(edge, ("data",), unset=("condition",))
    removal = (
        fix_from(
            "Remove the condition",
            [(edge, change)],
            applicability=Applicability.UNSAFE,
            destructive="the edge's condition is deleted",
        )
        if change is not None
        else None
    )
    fixes = (removal,) if removal is not None else ()
    yield RULE.finding(
        located.value if located is not None else edge.anchor,
        f'the condition "{short_text(condition)}" on the edge from '
        f"'{id_text(edge.source or '?')}' to '{id_text(edge.target or '?')}' is ignored: edge "
        "conditions were removed, the edge always routes (branch with a gateway node instead)",
        node=edge.target,
        fixes=fixes,
        edge=edge,
        identity=edge_identity(edge),
    )


SCOPED = Scoped(RULE.code, edge_check=_condition)


EXPLANATION = RULE.explained(
    "Conditions on edges were removed from FlowDrop: a stored `data.condition` is kept and "
    "round-trips, but it gates nothing, so the edge always routes (spec EDGE-8), which is not "
    "what whoever wrote it meant. Branch with a gateway node instead. An empty condition is "
    "silent. The fix removes the condition; it is unsafe, since it forgets what the condition "
    "said.",
    failing="""\
{
  "nodes": [
    {"id": "a", "type": "http_request", "data": {"label": "Fetch"}},
    {"id": "b", "type": "html_to_markdown", "data": {"label": "To Markdown"}}
  ],
  "edges": [
    {"id": "e1", "source": "a", "target": "b", "data": {"condition": "status == 200"}}
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
    {"id": "e1", "source": "a", "target": "b", "data": {}}
  ]
}
""",
)
