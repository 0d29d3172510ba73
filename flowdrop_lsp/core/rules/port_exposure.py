"""R7: an edge may not end on a port its node hides (R7.a: a hidden input; R7.b: a hidden output).

A port's exposure on a node is one chain (R7.c, EXPO-2, CFG-2): the node's own
`config.ports.{inputs|outputs}[].exposed` where it sets one, else the node type's default, else
exposed (core/domain/ports.py `exposure`). FlowDrop refuses a workflow with an edge on a hidden
port, at `edge.{index}`, with `R7_EDGE_TARGET_NOT_EXPOSED` or `R7_EDGE_SOURCE_NOT_EXPOSED`.

Judged: the ports the node type declares, and the ports the node records itself (its stored
metadata, its `config.ports` ids: ports its type's processor has, which our copy of the type may
not show), whose exposure only the node's own `config.ports` can hide — `port_verdict`
(core/domain/ports.py) decides which, for every rule alike. A branch, dynamic or unknown port is
out of scope (R7.d; FD-UNKNOWN-PORT speaks of the last). The reserved `trigger`, `loop_back` and `error` ports
are declared (injected, SCH-11/12/14/32) and judged: hidden by default but for `trigger`
(SCH-16) unless the type's `reserved_port_exposure` or the node's `config.ports` shows them; on
the real site every loop-back target shows `loop_back` in its `config.ports`, and the one wired
`error` output is shown by both its type and its node. An output its type marks `exposed: false`
stays hidden whatever the node says (EXPO-13). Each end is judged on its own (R7.e/f): an
end whose handle does not parse, whose node is absent or whose type the site does not define is
skipped, and the other end still checked. Without the site's node types nothing is declared,
so nothing is judged. Kept per edge (`scoped_findings`), like FD-UNKNOWN-PORT.

Fix: remove the edge (unsafe: it changes what flows). Exposing the port instead is the author's
call, one toggle in the editor.
"""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Edge, Node
from flowdrop_lsp.core.domain.node_types import NodeTypeDefinition
from flowdrop_lsp.core.domain.ports import (
    Direction,
    EdgeEnd,
    Exposure,
    ExposureSource,
    exposure,
    port_verdict,
    resolved_ends,
)
from flowdrop_lsp.core.domain.wording import id_text, short_text
from flowdrop_lsp.core.findings import (
    Finding,
    RelatedLocation,
    Severity,
)
from flowdrop_lsp.core.rules.base import (
    Rule,
    RuleContext,
    edge_identity,
    edge_removal_fixes,
)
from flowdrop_lsp.core.rules.scoped import Scoped

RULE = Rule(
    "R7",
    "Edge on a hidden port",
    Severity.ERROR,
    "An edge ends on a port its node type declares but the node does not expose (its "
    "`config.ports` override, else the type's default): FlowDrop refuses the workflow.",
    spec_ids=("R7.a", "R7.b", "SCH-32", "EXPO-13"),
)

LOCATOR_CODES = {
    Direction.INPUT: "R7_EDGE_TARGET_NOT_EXPOSED",  # R7.a
    Direction.OUTPUT: "R7_EDGE_SOURCE_NOT_EXPOSED",  # R7.b
}


def _why_hidden(seen: Exposure) -> str:
    if seen.source is ExposureSource.OVERRIDE:
        return "the node's config.ports sets exposed: false"
    if seen.source is ExposureSource.STRIPPED:
        return "its node type marks it exposed: false, which no node can override"
    if seen.source is ExposureSource.RESERVED:
        return "a reserved port, hidden by default, and the node does not expose it"
    return "its node type hides it by default and the node does not expose it"


def _end_finding(end: EdgeEnd, node: Node, seen: Exposure) -> Finding:
    edge, port, direction = end.edge, end.port, end.direction
    assert port is not None
    spans = edge.spans
    handle_span = (
        spans.source_handle_span if direction is Direction.OUTPUT else spans.target_handle_span
    )
    way = "from" if direction is Direction.OUTPUT else "into"
    message = (
        f"edge {way} '{id_text(str(end.node_id))}' uses {direction.value} port "
        f"'{short_text(port)}', which is not exposed on that node ({_why_hidden(seen)}); "
        "FlowDrop refuses the workflow"
    )
    related: list[RelatedLocation] = []
    located = (
        node.editor.locate(seen.override_path)
        if node.editor is not None and seen.override_path is not None
        else None
    )
    if located is not None and seen.overruled:
        said = "the node shows it here, but its node type's exposed: false decides (EXPO-13)"
        related.append(RelatedLocation(located.value, said))
    elif located is not None:
        related.append(RelatedLocation(located.value, f"'{short_text(port)}' is hidden here"))
    else:
        related.append(RelatedLocation(node.anchor, f"{node.display} is defined here"))
    fixes = edge_removal_fixes(edge)
    return RULE.finding(
        handle_span or edge.anchor,
        message,
        node=end.node_id,
        related=tuple(related),
        fixes=fixes,
        extra=(("port", port), ("direction", direction.value)),
        locator_code=LOCATOR_CODES[direction],
        edge=edge,
        identity=(*edge_identity(edge), direction.value),
    )


def _hidden(node: Node, definition: NodeTypeDefinition, end: EdgeEnd) -> Exposure | None:
    """The exposure of a port the node hides; None for anything R7 does not judge."""
    assert end.port is not None
    if not port_verdict(node, definition, end.direction, end.port).exposure_judged:
        return None  # R7.d: branch, dynamic and unknown ports are out of scope
    seen = exposure(node, definition, end.direction, end.port)
    return None if seen.exposed else seen


def check_edge_exposure(ctx: RuleContext, edge: Edge) -> Iterator[Finding]:
    catalog = ctx.settings.node_type_catalog
    if catalog is None:
        return
    for end, node, definition in resolved_ends(edge, ctx.graph.nodes_by_id.get, catalog):
        seen = _hidden(node, definition, end)
        if seen is not None:
            yield _end_finding(end, node, seen)


SCOPED = Scoped(RULE.code, edge_check=check_edge_exposure, node_types=True)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


# The examples' node types: what their ports are.
EXAMPLE_HTTP_REQUEST = """\
id: http_request
parameters:
  url:
    connectable: true
outputs:
  json:
    exposed: true
"""
EXAMPLE_LOGGER = """\
id: logger
parameters:
  message:
    connectable: true
"""


EXPLANATION = RULE.explained(
    "A node type declares its ports and whether each is shown by default; a node may show or "
    "hide each one in its `config.ports` (`inputs`/`outputs`, entries `{id, exposed}`). An "
    "edge on a port the node does not expose is refused when FlowDrop validates the workflow "
    "(`R7_EDGE_TARGET_NOT_EXPOSED` or `R7_EDGE_SOURCE_NOT_EXPOSED` at `edge.{index}`). A "
    "gateway's branches and dynamic ports have no exposure, and are not judged. Here "
    "`http_request` declares the input `url` and the output `json`, and `logger` the "
    "input `message`.",
    failing="""\
{
  "nodes": [
    {"id": "http_request.1", "type": "http_request", "data": {"label": "Fetch",
      "config": {"ports": {"outputs": [{"id": "json", "exposed": false}]}}}},
    {"id": "logger.1", "type": "logger", "data": {"label": "Log"}}
  ],
  "edges": [
    {"id": "e1", "source": "http_request.1", "target": "logger.1",
      "sourceHandle": "http_request.1-output-json",
      "targetHandle": "logger.1-input-message"}
  ]
}
""",
    passing="""\
{
  "nodes": [
    {"id": "http_request.1", "type": "http_request", "data": {"label": "Fetch",
      "config": {"ports": {"outputs": [{"id": "json", "exposed": true}]}}}},
    {"id": "logger.1", "type": "logger", "data": {"label": "Log"}}
  ],
  "edges": [
    {"id": "e1", "source": "http_request.1", "target": "logger.1",
      "sourceHandle": "http_request.1-output-json",
      "targetHandle": "logger.1-input-message"}
  ]
}
""",
    site_node_types=(EXAMPLE_HTTP_REQUEST, EXAMPLE_LOGGER),
)
