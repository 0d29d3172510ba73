"""DYN-5: a declared parameter wins a name collision with a dynamic port (spec rules/DYN-5.yml):
a dynamic input named like a parameter of the node's type is ignored, and what arrives for it
over the dynamic channel is discarded.

Accepted and silently ignored: a warning. Only with the site's node types, on a type that opts
in to dynamic inputs (DYN-1; without the opt-in the node has no dynamic ports at all, DYN-7).
The spec speaks of parameters, the inputs' namespace: dynamic outputs are not compared with
them. A name DYN-3 refuses (reserved, malformed) is DYN-3's alone. No fix: renaming the port
would leave its edges behind.

Kept per node (`scoped_with_node_types`)."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.ports import DYNAMIC_PARAMETERS, Direction
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.rules.dynamic_port_label import (
    definitions,
    identity,
    locator,
    value_span,
)
from flowdrop_lsp.core.rules.dynamic_port_name import valid_name
from flowdrop_lsp.core.rules.scoped import Scoped

RULE = Rule(
    "DYN-5",
    "Dynamic input shadowed by a parameter",
    Severity.WARNING,
    "A dynamic input has the name of a parameter the node type declares: the declared "
    "parameter wins, the dynamic input is ignored.",
    spec_ids=("DYN-5",),
)


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    catalog = ctx.settings.node_type_catalog
    definition = catalog.get(node.type_id) if catalog is not None else None
    if definition is None or definition.parameter(DYNAMIC_PARAMETERS[Direction.INPUT]) is None:
        return
    declared = definition.parameter_names
    for port in definitions(node):
        name = valid_name(port)
        if port.direction is not Direction.INPUT or name is None or name not in declared:
            continue
        yield RULE.finding(
            value_span(node, (*port.path, "name")) or node.anchor,
            f"{port.describe()} of {node.display} has the name of a parameter of node type "
            f"'{short_text(definition.id)}': the parameter wins, the dynamic input is ignored "
            "and what arrives for it is discarded",
            node=node.id,
            locator=locator(node, port),
            identity=identity(port),
        )


SCOPED = Scoped(RULE.code, node_check=check_node, node_types=True)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXAMPLE_NODE_TYPE = """\
id: data_mapper
parameters:
  dynamicInputs:
    configurable: true
    connectable: false
    required: false
    default: {  }
  engine:
    configurable: true
    connectable: false
    required: false
    default: expression_language
  context:
    configurable: false
    connectable: true
    required: false
"""

EXPLANATION = RULE.explained(
    "Where a dynamic input has the name of a parameter its node type declares, the declared "
    "parameter wins: its own wiring and default are what the node receives, and a value "
    "arriving for the dynamic input is discarded (spec DYN-5). The workflow is accepted, and "
    "the port silently does nothing. Only for nodes of a type the site defines.",
    failing="""\
{
  "nodes": [
    {"id": "map", "type": "data_mapper", "data": {"label": "Map", "config": {
      "dynamicInputs": [{"name": "context", "label": "Context", "dataType": "mixed"}]}}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "map", "type": "data_mapper", "data": {"label": "Map", "config": {
      "dynamicInputs": [{"name": "page", "label": "Page", "dataType": "mixed"}]}}}
  ],
  "edges": []
}
""",
    site_node_types=(EXAMPLE_NODE_TYPE,),
)
