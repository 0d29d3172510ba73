"""DYN-7: the parameters holding a node's dynamic port definitions (`dynamicInputs`,
`dynamicOutputs`) are configuration, never a wireable input port (spec rules/DYN-7.yml) — here:
an edge whose target handle names one of them.

Nothing flows on such an edge: a warning (the spec does not say the save refuses it). Decided
from the handle alone (EDGE-1), with or without the site's node types; when the site defines the
target's type and the type does not declare the parameter at all, the port is unknown and
FD-UNKNOWN-PORT says so instead. (DYN-7's other half, definitions stored on a type that does not
opt in, is R6.c's: a config key the type does not declare.)

Fix: remove the edge (unsafe: it removes what the author drew). Kept per edge
(`scoped_findings`)."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Edge
from flowdrop_lsp.core.domain.ports import DYNAMIC_PARAMETERS, edge_ends, may_name
from flowdrop_lsp.core.domain.wording import id_text
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import (
    Rule,
    RuleContext,
    edge_identity,
    edge_removal_fixes,
)
from flowdrop_lsp.core.rules.scoped import Scoped

RULE = Rule(
    "DYN-7",
    "Edge into a dynamic port definition parameter",
    Severity.WARNING,
    "An edge's target handle names `dynamicInputs` or `dynamicOutputs`, the configuration "
    "holding a node's dynamic port definitions: it is never a wireable input, nothing flows.",
    spec_ids=("DYN-7",),
)
PARAMETERS = frozenset(DYNAMIC_PARAMETERS.values())
_PARAMETER_NAMES = tuple(sorted(PARAMETERS))


def _into_parameter(ctx: RuleContext, edge: Edge) -> Iterator[Finding]:
    if not may_name(edge.target_handle, _PARAMETER_NAMES):
        return  # nearly every edge: into no dynamic port definition parameter
    _source, target = edge_ends(edge)
    if target.port not in PARAMETERS or target.node_id is None:
        return
    catalog = ctx.settings.node_type_catalog
    node = ctx.node(target.node_id)
    definition = catalog.get(node.type_id) if catalog is not None and node is not None else None
    if definition is not None and definition.parameter(target.port) is None:
        return  # an unknown port: FD-UNKNOWN-PORT's
    yield RULE.finding(
        edge.target_handle_span or edge.anchor,
        f"the edge from '{id_text(edge.source or '?')}' goes into '{target.port}' of "
        f"{ctx.describe(target.node_id)}: it holds the node's dynamic port definitions, which "
        "are configuration and never a wireable input; nothing flows on this edge",
        node=target.node_id,
        fixes=edge_removal_fixes(edge),
        edge=edge,
        identity=edge_identity(edge),
    )


SCOPED = Scoped(RULE.code, edge_check=_into_parameter)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXPLANATION = RULE.explained(
    "A node of a type that opts in to dynamic ports keeps their definitions in its config "
    "parameters `dynamicInputs` and `dynamicOutputs`; those are configuration, never a "
    "wireable input port (spec DYN-7), so an edge into one carries nothing. Wire into one of "
    "the dynamic ports themselves (the handle names the port: `map-input-city`). The fix "
    "removes the edge; it is unsafe.",
    failing="""\
{
  "nodes": [
    {"id": "ask", "type": "chat_input", "data": {"label": "Ask"}},
    {"id": "map", "type": "data_mapper", "data": {"label": "Map", "config": {
      "dynamicInputs": [{"name": "city", "label": "City", "dataType": "string"}]}}}
  ],
  "edges": [
    {"id": "e1", "source": "ask", "target": "map", "sourceHandle": "ask-output-message",
     "targetHandle": "map-input-dynamicInputs"}
  ]
}
""",
    passing="""\
{
  "nodes": [
    {"id": "ask", "type": "chat_input", "data": {"label": "Ask"}},
    {"id": "map", "type": "data_mapper", "data": {"label": "Map", "config": {
      "dynamicInputs": [{"name": "city", "label": "City", "dataType": "string"}]}}}
  ],
  "edges": [
    {"id": "e1", "source": "ask", "target": "map", "sourceHandle": "ask-output-message",
     "targetHandle": "map-input-city"}
  ]
}
""",
)
