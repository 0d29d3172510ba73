"""R10: a workflow may not expose a port its node hides (`R10_EXPOSURE_HIDDEN_PORT`).

An exposure entry (Drupal's `input_ports` / `output_ports`: name, node_id, port) makes a node's
port a port of the whole workflow; a port the node does not expose is refused. Exposure follows
R7.c, as core/domain/ports.py reads it for every rule: an output its type marks `exposed: false`
is hidden whatever the node says (EXPO-13), else the node's own `config.ports` override (the
first entry for the port; an exact `false` hides, EXPO-2), else the node type's default
(`exposed_by_default`, a reserved port's `reserved_port_exposure`, else SCH-16's), else
exposed. The node and its type may say opposite things, so the message says which side hid the
port and why that side decides. Which ports are judged is `port_verdict`'s, as for R7: a branch,
a dynamic port (R7.d) and a port the node does not have are out of scope, and so are entries
naming a node or type that does not resolve (FD-CONTRACT and FD-UNKNOWN-NODE-TYPE say so)."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.ports import (
    RESERVED_EXPOSURE,
    Direction,
    Exposure,
    ExposureSource,
    PortKind,
    exposure,
    port_verdict,
)
from flowdrop_lsp.core.domain.site_facts import PortBinding, SiteNode, WorkflowFacts
from flowdrop_lsp.core.domain.site_view import SiteContext
from flowdrop_lsp.core.domain.wording import id_text
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import Rule

RULE = Rule(
    "R10",
    "Exposed port hidden on its node",
    Severity.ERROR,
    "A workflow's input_ports or output_ports entry names a port its node does not expose: "
    "FlowDrop refuses the workflow.",
    spec_ids=("R10",),
)

LOCATOR_CODE = "R10_EXPOSURE_HIDDEN_PORT"


def check_site(ctx: SiteContext) -> Iterator[Finding]:
    workflow = ctx.workflow
    if workflow is None:
        return
    nodes = {node.id: node for node in workflow.nodes if node.id is not None}
    for side, bindings in (("input", workflow.input_ports), ("output", workflow.output_ports)):
        for binding in bindings:
            finding = _judged(ctx, workflow, nodes, side, binding)
            if finding is not None:
                yield finding


def _judged(
    ctx: SiteContext,
    workflow: WorkflowFacts,
    nodes: dict[str, SiteNode],
    side: str,
    binding: PortBinding,
) -> Finding | None:
    if binding.node_id is None or binding.port is None:
        return None
    node = nodes.get(binding.node_id.value)
    if node is None or node.type_id is None:
        return None
    site_type = ctx.site.node_type(node.type_id.value)
    if site_type is None:
        return None
    port = binding.port.value
    definition = site_type.definition
    direction = Direction(side)
    verdict = port_verdict(node.ports, definition, direction, port)
    if not verdict.exposure_judged:
        return None  # a branch, a dynamic or an unknown port: out of scope (R7.d)
    judged = exposure(node.ports, definition, direction, port)
    if judged.exposed:
        return None
    return RULE.finding(
        binding.port.span,
        f"{side}_ports exposes {side} port '{id_text(port)}' of {node.display}, which is hidden "
        f"on that node: {_who_decides(judged, verdict.kind, direction, port, node.type_id.value)}",
        node=node.id,
        locator_code=LOCATOR_CODE,
        locator=f"schema.{side}.{binding.index}",
        identity=(port,),
    )


def _who_decides(
    judged: Exposure, kind: PortKind, direction: Direction, port: str, type_id: str
) -> str:
    """Which side hid the port, and why its word is the one that counts (EXPO-2, EXPO-13):
    the node and its type may say opposite things, and the message stands beside the node's."""
    source, type_id = judged.source, id_text(type_id)
    if source is ExposureSource.STRIPPED and judged.overruled:
        return (
            "the node's config.ports shows it (exposed: true), but node type "
            f"'{type_id}' hides it outright (exposed: false), and the type's setting decides: "
            "no node can restore such an output (EXPO-13)"
        )
    if source is ExposureSource.STRIPPED:
        return (
            f"node type '{type_id}' hides it outright (exposed: false), which no node can "
            "override (EXPO-13)"
        )
    if source is ExposureSource.OVERRIDE:
        return (
            "the node's config.ports sets exposed: false, and the node's own setting decides "
            "over its type's default (EXPO-2)"
        )
    if source is ExposureSource.RESERVED:
        return (
            "a reserved port, hidden by default (SCH-16), and neither node type "
            f"'{type_id}' nor the node's config.ports shows it"
        )
    reserved = RESERVED_EXPOSURE.get((direction, port)) if kind is PortKind.RESERVED else None
    said = (
        f"reserved_port_exposure: {reserved[0]}: false"
        if reserved is not None
        else "exposed_by_default: false"
    )
    return (
        f"node type '{type_id}' hides it by default ({said}) and the node's config.ports does "
        "not show it, so the type's default decides (EXPO-2)"
    )


_SITE = (
    (
        "flowdrop_node_type.flowdrop_node_type.chat_input.yml",
        "id: chat_input\nlabel: 'Chat Input'\nparameters:\n  message:\n    connectable: true\n"
        "  history:\n    connectable: true\n    exposed_by_default: false\n",
    ),
)
_WORKFLOW = """\
dependencies:
  config:
    - flowdrop_node_type.flowdrop_node_type.chat_input
id: colour
label: Colour
nodes:
  -
    id: chat_input.1
    data:
      label: 'Chat Input'
      config:
        ports:
          inputs:
            -
              id: history
              exposed: {exposed}
      metadata:
        node_type_id: chat_input
edges: {{  }}
input_ports:
  -
    name: history
    node_id: chat_input.1
    port: history
"""

EXPLANATION = RULE.explained(
    "A workflow's `input_ports` and `output_ports` make ports of its nodes ports of the whole "
    "workflow, which callers use by name. FlowDrop refuses an entry naming a port its node does "
    "not expose (`R10_EXPOSURE_HIDDEN_PORT` at `schema.{side}.{index}`): hidden by the node's "
    "own `config.ports`, or by its type's default (`exposed_by_default: false`) that the node "
    "does not override. Here the type hides `history` by default.",
    failing=_WORKFLOW.format(exposed="false"),
    passing=_WORKFLOW.format(exposed="true"),
    file_name="flowdrop_workflow.flowdrop_workflow.colour.yml",
    site_files=_SITE,
)
