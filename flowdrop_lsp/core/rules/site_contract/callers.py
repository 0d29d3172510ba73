"""In a calling workflow: an edge into a call node's input the callee does not take (with the
fix retargeting its handle), and a call node whose type passes an input the callee does not."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.ports import RESERVED_PORTS, Direction
from flowdrop_lsp.core.domain.site_facts import SiteEdge, WorkflowFacts
from flowdrop_lsp.core.domain.site_view import SiteContext
from flowdrop_lsp.core.domain.wording import id_text
from flowdrop_lsp.core.findings import Applicability, Finding, Fix, RelatedLocation, TextEdit
from flowdrop_lsp.core.operations import TextOnly
from flowdrop_lsp.core.rules.site_contract.contract import (
    callee_of,
    contract_location,
    contract_names,
    differences,
    rename_pair,
)
from flowdrop_lsp.core.rules.site_contract.rule import finding, listed
from flowdrop_lsp.core.syntax.name_tokens import name_rewrite
from flowdrop_lsp.core.text.suggestions import close_names, did_you_mean, quoted


def edges_into_calls(ctx: SiteContext, workflow: WorkflowFacts) -> Iterator[Finding]:
    nodes = {node.id: node for node in workflow.nodes if node.id is not None}
    for edge in workflow.edges:
        port = edge.target_port
        node = nodes.get(edge.target) if edge.target is not None else None
        reserved = port in RESERVED_PORTS[Direction.INPUT]
        if port is None or reserved or node is None or node.type_id is None:
            continue
        site_type = ctx.site.node_type(node.type_id.value)
        callee = callee_of(ctx, site_type.definition) if site_type is not None else None
        if callee is None or not callee.facts.has_input_ports or site_type is None:
            continue
        names = contract_names(callee.facts.input_ports)
        if port in names:
            continue
        renamed = rename_pair(ctx, site_type.definition, callee, inputs=True)
        meant = [renamed[1]] if renamed is not None and renamed[0] == port else []
        meant = meant or close_names(port, names)
        hint = (
            did_you_mean(quoted(id_text(name) for name in meant))
            if meant
            else f"its inputs: {listed(names)}"
        )
        yield finding(
            f"the called workflow '{id_text(callee.workflow_id or '?')}' takes no input "
            f"'{id_text(port)}' ({hint})",
            edge.anchor,
            node=node.id,
            identity=("edge into", edge.source or "", port),
            related=contract_location(callee, inputs=True),
            # Only onto a port the call node has: while its type still passes the old name (a
            # rename not followed yet), the edge is right if the callee is renamed back, and
            # moving it now would lead it into no port of the node.
            fixes=_retargeted(
                ctx.text,
                edge,
                port,
                [name for name in meant if name in site_type.definition.parameter_names],
            ),
        )


def calls_passing_unknown_inputs(ctx: SiteContext, workflow: WorkflowFacts) -> Iterator[Finding]:
    """A call node whose type passes an input its callee does not take (the call type's own
    finding is in another file, which the author of this workflow may never open): on the node,
    once per name, unless an edge into that port is told already (`edges_into_calls`)."""
    fed = {(edge.target, edge.target_port) for edge in workflow.edges}
    for node in workflow.nodes:
        if node.id is None or node.type_id is None:
            continue
        site_type = ctx.site.node_type(node.type_id.value)
        callee = callee_of(ctx, site_type.definition) if site_type is not None else None
        if site_type is None or callee is None or not callee.facts.has_input_ports:
            continue
        extra, missing = differences(ctx, site_type.definition, callee, inputs=True)
        for entry in extra:
            if (node.id, entry.value) in fed:
                continue
            hint = (
                f"renamed '{id_text(missing[0])}'?"
                if len(extra) == 1 and len(missing) == 1
                else f"its inputs: {listed(contract_names(callee.facts.input_ports))}"
            )
            yield finding(
                f"the type of {node.display} passes '{id_text(entry.value)}', which the called "
                f"workflow '{id_text(callee.workflow_id or '?')}' does not take ({hint})",
                node.anchor,
                node=node.id,
                identity=("passed", entry.value),
                related=(
                    RelatedLocation(entry.span, "the parameter in the call type", site_type.path),
                    *contract_location(callee, inputs=True),
                ),
            )


def _retargeted(text: str, edge: SiteEdge, port: str, meant: list[str]) -> tuple[Fix, ...]:
    """Point the edge's `targetHandle` at each input the callee may mean (and the node has).
    Unsafe: a guess at which input the source's value was meant for."""
    if edge.target_handle is None or not edge.target_handle.endswith(port):
        return ()
    return tuple(
        Fix(
            f"Connect the edge to input '{id_text(name)}'",
            (TextEdit(where, name),),
            applicability=Applicability.UNSAFE,
            # Written where the site's facts read the handle (they keep no element editor).
            operations=(TextOnly("an edge's targetHandle, as the site's facts read it"),),
        )
        for name in meant
        # None: the port is not written so (an escaped spelling), or `name` is no plain name.
        if (where := name_rewrite(text, edge.anchor, port, name)) is not None
    )
