"""CFG-4: an edge into a parameter its node type does not make connectable delivers nothing.

A parameter takes its value from a wire only when it is connectable (and exposed, R7's): the
derived input schema holds exactly the `connectable` parameters (SCH-3), and a parameter that is
not one falls through to the node's configuration, then to its default (CFG-4, CFG-5). An edge
whose target handle names such a parameter is accepted by FlowDrop but carries nothing into it
(DATA-1: delivery is to a named input port). A gate flag unsaid is closed (CFG-1): only an
exact `connectable: true` opens the port. A warning: the workflow runs, the wire is dead.

Judged: the target end of an edge whose handle parses, whose node exists and whose type the
site defines, naming a parameter the type declares. Not judged: the reserved names
(`trigger`, `loop_back`, `tool`: the engine's control ports, the last CMP-10's), ports the type
does not declare (FD-UNKNOWN-PORT's and R7.d's), and every source end. Kept per edge
(`scoped_findings`), like R7 and FD-UNKNOWN-PORT. On the real site no edge ends on one.

Fix: remove the edge (unsafe: it changes the graph the editor shows).
"""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Edge
from flowdrop_lsp.core.domain.ports import (
    DYNAMIC_PARAMETERS,
    RESERVED_PORTS,
    Direction,
    PortKind,
    classify_port,
    resolved_ends,
)
from flowdrop_lsp.core.domain.wording import id_text, short_text
from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.core.rules.base import (
    Rule,
    RuleContext,
    edge_identity,
    edge_removal_fixes,
)
from flowdrop_lsp.core.rules.scoped import Scoped

RULE = Rule(
    "CFG-4",
    "Edge into a parameter that is not connectable",
    Severity.WARNING,
    "An edge ends on a parameter its node type does not mark `connectable: true`: the "
    "parameter takes no value from a wire, so nothing is delivered on it.",
    spec_ids=("CFG-4",),
)


def check_edge_connectable(ctx: RuleContext, edge: Edge) -> Iterator[Finding]:
    catalog = ctx.settings.node_type_catalog
    if catalog is None:
        return
    for end, node, definition in resolved_ends(edge, ctx.graph.nodes_by_id.get, catalog):
        port = end.port
        if end.direction is not Direction.INPUT or port is None:
            continue
        if port in RESERVED_PORTS[Direction.INPUT] or definition.legacy_format:
            continue  # (a pre-1.0 type says nothing of connectability: its ports are in code)
        if port in DYNAMIC_PARAMETERS.values():
            continue  # an edge into `dynamicInputs`/`dynamicOutputs` is DYN-7's, said once
        if classify_port(node, definition, Direction.INPUT, port) is not PortKind.DECLARED:
            continue
        parameter = definition.parameter(port)
        if parameter is None or parameter.connectable is True:
            continue
        said = "connectable: false" if parameter.connectable is False else "no connectable flag"
        yield RULE.finding(
            edge.spans.target_handle_span or edge.anchor,
            f"edge into '{id_text(str(end.node_id))}' ends on parameter '{short_text(port)}', "
            f"which its node type '{id_text(definition.id)}' does not make connectable "
            f"({said}): nothing is delivered on it; the node takes the value from its config",
            node=end.node_id,
            related=(RelatedLocation(node.anchor, f"{node.display} is defined here"),),
            fixes=edge_removal_fixes(edge),
            extra=(("port", port), ("direction", Direction.INPUT.value)),
            edge=edge,
            identity=edge_identity(edge),
        )


SCOPED = Scoped(RULE.code, edge_check=check_edge_connectable, node_types=True)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXAMPLE_HTTP_REQUEST = """\
id: http_request
parameters:
  url:
    connectable: true
  timeout:
    configurable: true
    connectable: false
outputs:
  json:
    exposed: true
"""


EXPLANATION = RULE.explained(
    "A parameter takes its value from a wire only when its node type marks it `connectable: "
    "true`; otherwise it is configuration, read from the node's `config` (then its default). "
    "An edge into such a parameter is saved and run, but delivers nothing: usually a wire drawn "
    "to the wrong port. Only with the site's node types; here `http_request` declares the "
    "connectable input `url` and the configuration-only `timeout`.",
    failing="""\
{
  "nodes": [
    {"id": "http_request.1", "type": "http_request", "data": {"label": "Fetch"}},
    {"id": "http_request.2", "type": "http_request", "data": {"label": "Follow"}}
  ],
  "edges": [
    {"id": "e1", "source": "http_request.1", "target": "http_request.2",
      "sourceHandle": "http_request.1-output-json",
      "targetHandle": "http_request.2-input-timeout"}
  ]
}
""",
    passing="""\
{
  "nodes": [
    {"id": "http_request.1", "type": "http_request", "data": {"label": "Fetch"}},
    {"id": "http_request.2", "type": "http_request", "data": {"label": "Follow"}}
  ],
  "edges": [
    {"id": "e1", "source": "http_request.1", "target": "http_request.2",
      "sourceHandle": "http_request.1-output-json",
      "targetHandle": "http_request.2-input-url"}
  ]
}
""",
    site_node_types=(EXAMPLE_HTTP_REQUEST,),
)
