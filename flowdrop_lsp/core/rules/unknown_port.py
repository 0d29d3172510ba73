"""FD-UNKNOWN-PORT: an edge end whose handle names a port its node does not have.

A node has the ports its type declares, the reserved ones, a gateway's branches and its own
dynamic ports (core/domain/ports.py). A port is unknown only when nothing FlowDrop reads names it:
neither those nor the node's own records of its ports, the ones its stored metadata lists
(`data.metadata.inputs` / `outputs`, the editor's cache of the type it knew) and the ids of its
`config.ports`. On a 1.0-alpha site a type's `outputs:` is not its whole port list (its
processor declares ports in code), so a port the node records is a port it has: every rule
takes it as existing, as `port_verdict` (core/domain/ports.py) decides once — FD-CONTRACT lets a
workflow expose it, R7 and R10 judge its exposure by the node's own `config.ports`. A handle
naming none of them is a wire nothing flows on —
on the real site, the leftovers of renaming a data mapper's dynamic ports. Port names compare
exactly (EDGE-1) but a gateway's branches, which match without regard to case (BR-2). The spec leaves such
a port out of exposure checking (R7.d) and says nothing more of it, so this is our own warning.

Only with the site's node types (`settings.node_type_catalog`), and only for an end whose node
exists, whose type the site defines and whose handle parses (EDGE-1): anything less and the
node's ports are not known. Kept per edge (`scoped_findings`): a keystroke in a handle re-checks
that edge, one in a node (its dynamic ports, its branches) the node's edges.

Fixes, both unsafe (they change what flows) and never preferred: connect to the closest existing
port(s) of that side, or remove the edge.
"""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Edge, Node
from flowdrop_lsp.core.domain.node_types import NodeTypeDefinition
from flowdrop_lsp.core.domain.ports import (
    RESERVED_PORTS,
    Direction,
    EdgeEnd,
    data_ports,
    port_verdict,
    resolved_ends,
)
from flowdrop_lsp.core.domain.remedies import edge_ref, fix_from
from flowdrop_lsp.core.domain.wording import id_text, short_text
from flowdrop_lsp.core.findings import Applicability, Finding, Fix, RelatedLocation, Severity
from flowdrop_lsp.core.operations import Update
from flowdrop_lsp.core.rules.base import (
    Rule,
    RuleContext,
    edge_identity,
    edge_removal_fixes,
)
from flowdrop_lsp.core.rules.scoped import Scoped
from flowdrop_lsp.core.text.suggestions import likeness

RULE = Rule(
    "FD-UNKNOWN-PORT",
    "Edge on a port the node does not have",
    Severity.WARNING,
    "An edge's handle names a port its node neither declares nor defines (no declared, "
    "reserved, branch or dynamic port of that name, none its stored metadata or config.ports "
    "lists): no data flows on it.",
)

# How close (difflib ratio, case folded) a port must be to be offered as the fix: renamed ports
# usually keep their stem (`url` → `url_full`), so the bar is lower than for tool names; every
# port within NEAR_BEST of the best one is offered, up to MAX_SUGGESTED.
CLOSE = 0.5
NEAR_BEST = 0.1
MAX_SUGGESTED = 3
MAX_LISTED = 8  # ports a message lists


def closest_ports(port: str, candidates: tuple[str, ...]) -> tuple[str, ...]:
    """The candidates close enough to `port` to be what it meant, closest first."""
    wanted = port.casefold()
    scored = [
        (likeness(wanted, candidate.casefold()), candidate)
        for candidate in dict.fromkeys(candidates)
    ]
    scored = [(ratio, candidate) for ratio, candidate in scored if ratio >= CLOSE]
    if not scored:
        return ()
    best = max(ratio for ratio, _candidate in scored)
    ranked = sorted(scored, key=lambda pair: (-pair[0], pair[1]))
    return tuple(c for ratio, c in ranked if ratio >= best - NEAR_BEST)[:MAX_SUGGESTED]


def _listed(ports: tuple[str, ...], direction: Direction) -> str:
    if not ports:
        return f"it has no {direction.value} ports"
    shown = ", ".join(short_text(port) for port in ports[:MAX_LISTED])
    more = f" and {len(ports) - MAX_LISTED} more" if len(ports) > MAX_LISTED else ""
    return f"its {direction.plural}: {shown}{more}"


def _end_finding(end: EdgeEnd, node: Node, definition: NodeTypeDefinition) -> Finding:
    edge, port, direction = end.edge, end.port, end.direction
    assert port is not None and end.handle is not None
    spans = edge.spans
    handle_span = (
        spans.source_handle_span if direction is Direction.OUTPUT else spans.target_handle_span
    )
    span = handle_span or edge.anchor
    ports = data_ports(node, definition, direction)
    way = "from" if direction is Direction.OUTPUT else "into"
    message = (
        f"edge {way} '{id_text(str(end.node_id))}' names {direction.value} port "
        f"'{short_text(port)}', which the node does not have ({_listed(ports, direction)}); "
        "no data flows on it"
    )
    fixes: list[Fix] = []
    if handle_span is not None:
        stem = end.handle[: len(end.handle) - len(port)]  # the port is the handle's tail
        key = "sourceHandle" if direction is Direction.OUTPUT else "targetHandle"
        for candidate in closest_ports(port, (*ports, *RESERVED_PORTS[direction])):
            retarget = fix_from(
                f"Connect to '{short_text(candidate)}'",
                [(edge, Update.of(edge_ref(edge), "edge", {key: stem + candidate}))],
                applicability=Applicability.UNSAFE,
            )
            if retarget is not None:
                fixes.append(retarget)
    fixes.extend(edge_removal_fixes(edge))
    return RULE.finding(
        span,
        message,
        node=end.node_id,
        related=(RelatedLocation(node.anchor, f"{node.display} is defined here"),),
        fixes=tuple(fixes),
        extra=(("port", port), ("direction", direction.value)),
        edge=edge,
        identity=(*edge_identity(edge), direction.value),
    )


def check_edge_ports(ctx: RuleContext, edge: Edge) -> Iterator[Finding]:
    catalog = ctx.settings.node_type_catalog
    if catalog is None:
        return
    for end, node, definition in resolved_ends(edge, ctx.graph.nodes_by_id.get, catalog):
        assert end.port is not None  # resolved ends name a port
        if not port_verdict(node, definition, end.direction, end.port).exists:
            yield _end_finding(end, node, definition)


SCOPED = Scoped(RULE.code, edge_check=check_edge_ports, node_types=True)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


# The examples' node types: what their ports are.
EXAMPLE_DATA_MAPPER = """\
id: data_mapper
parameters:
  dynamicInputs:
    configurable: true
    connectable: false
    default: {  }
  dynamicOutputs:
    configurable: true
    connectable: false
    default: {  }
"""
EXAMPLE_HTTP_REQUEST = """\
id: http_request
parameters:
  url:
    connectable: true
outputs:
  json:
    exposed: true
"""


EXPLANATION = RULE.explained(
    "A node has the ports its node type declares (`parameters` are its inputs, `outputs` its "
    "outputs), the reserved ones (`trigger`, `loop_back`, `tool`, `error`), a gateway's "
    "branches and the dynamic ports it declares itself (`config.dynamicInputs`, "
    "`config.dynamicOutputs`); a port the node's own stored metadata (`data.metadata.inputs`, "
    "`outputs`) or `config.ports` lists is not reported either. An edge whose handle names none "
    "of them carries nothing: "
    "usually a port renamed after the edge was drawn. Only with the site's node types; here "
    "`data_mapper` declares the parameters `dynamicInputs` and `dynamicOutputs` and "
    "`http_request` the input `url` and the output `json`.",
    failing="""\
{
  "nodes": [
    {"id": "data_mapper.1", "type": "data_mapper", "data": {"label": "Build URL",
      "config": {"dynamicOutputs": [{"name": "url_full", "label": "URL"}]}}},
    {"id": "http_request.1", "type": "http_request", "data": {"label": "Fetch"}}
  ],
  "edges": [
    {"id": "e1", "source": "data_mapper.1", "target": "http_request.1",
      "sourceHandle": "data_mapper.1-output-url",
      "targetHandle": "http_request.1-input-url"}
  ]
}
""",
    passing="""\
{
  "nodes": [
    {"id": "data_mapper.1", "type": "data_mapper", "data": {"label": "Build URL",
      "config": {"dynamicOutputs": [{"name": "url_full", "label": "URL"}]}}},
    {"id": "http_request.1", "type": "http_request", "data": {"label": "Fetch"}}
  ],
  "edges": [
    {"id": "e1", "source": "data_mapper.1", "target": "http_request.1",
      "sourceHandle": "data_mapper.1-output-url_full",
      "targetHandle": "http_request.1-input-url"}
  ]
}
""",
    site_node_types=(EXAMPLE_DATA_MAPPER, EXAMPLE_HTTP_REQUEST),
)
