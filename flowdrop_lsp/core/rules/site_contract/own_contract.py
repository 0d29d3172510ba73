"""A workflow's own contract: each `input_ports` / `output_ports` entry bound to a node and a
port it has (R4.c, R4.d, DYN-6), and `parameter_schema.required` naming input ports."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.ports import Direction, PortKind, declared_ports, port_verdict
from flowdrop_lsp.core.domain.site_facts import PortBinding, WorkflowFacts
from flowdrop_lsp.core.domain.site_view import SiteContext
from flowdrop_lsp.core.domain.wording import id_text
from flowdrop_lsp.core.findings import Finding, RelatedLocation
from flowdrop_lsp.core.rules.site_contract.contract import contract_names
from flowdrop_lsp.core.rules.site_contract.rule import finding, listed


def port_bindings(
    ctx: SiteContext, workflow: WorkflowFacts, key: str, bindings: tuple[PortBinding, ...]
) -> Iterator[Finding]:
    nodes = {node.id: node for node in workflow.nodes if node.id is not None}
    inputs = key == "input_ports"
    for binding in bindings:
        named = f"'{id_text(binding.name.value)}'" if binding.name is not None else "entry"
        if binding.node_id is None:
            continue
        node = nodes.get(binding.node_id.value)
        if node is None:
            yield finding(
                f"{key} {named} is bound to node '{id_text(binding.node_id.value)}', which "
                "this workflow does not have",
                binding.node_id.span,
                identity=(key, binding.name.value if binding.name is not None else "", "node"),
            )
            continue
        if binding.port is None or node.type_id is None:
            continue
        site_type = ctx.site.node_type(node.type_id.value)
        if site_type is None:
            continue
        definition = site_type.definition
        direction = Direction.INPUT if inputs else Direction.OUTPUT
        verdict = port_verdict(node.ports, definition, direction, binding.port.value)
        if verdict.bindable:
            continue  # (IN_CODE: a pre-1.0 type's ports are in code, R4.d cannot be decided)
        side = direction.value
        declared = list(declared_ports(definition, direction))
        why = _WHY_NOT_BINDABLE.get(verdict.kind, "which has no such port")
        yield finding(
            f"{key} {named} is bound to {side} port '{id_text(binding.port.value)}' of "
            f"{node.display}, {why} (its type '{id_text(node.type_id.value)}' declares "
            f"{listed(declared)})",
            binding.port.span,
            node=node.id,
            related=(
                RelatedLocation(
                    (definition.spans.parameters_key if inputs else definition.spans.outputs_key)
                    or definition.located_id.span,
                    f"the {side} ports of node type '{id_text(node.type_id.value)}'",
                    site_type.path,
                ),
            ),
            identity=(
                key,
                binding.name.value if binding.name is not None else "",
                binding.port.value,
            ),
        )


# R4.d, DYN-6: a port the node has that a workflow may still not expose (`PortVerdict.bindable`).
_WHY_NOT_BINDABLE = {
    PortKind.DYNAMIC: "a dynamic port of the node, which a workflow cannot expose",
    PortKind.BRANCH: "a branch of the gateway, which a workflow cannot expose",
}


def required_names(workflow: WorkflowFacts) -> Iterator[Finding]:
    if not workflow.has_input_ports:
        return
    names = set(contract_names(workflow.input_ports))
    for required in workflow.required_parameters:
        if required.value not in names:
            yield finding(
                f"parameter_schema.required names '{id_text(required.value)}', which is "
                f"not an input port of this workflow (its input_ports: "
                f"{listed(contract_names(workflow.input_ports))})",
                required.span,
                identity=("required", required.value),
            )
