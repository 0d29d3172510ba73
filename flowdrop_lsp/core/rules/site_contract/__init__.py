"""FD-CONTRACT: a workflow's contract that does not hold, in itself or with its callers.

A workflow declares what a caller passes in and gets back: `input_ports` / `output_ports`
entries binding a contract name to a port of one of its nodes, and `parameter_schema.required`.
A call node type (`executor_plugin: …:flowdrop_workflow:<id>`) mirrors that contract in its
`parameters` (inputs) and `outputs`, name for name. Reported:

- an entry naming a node the workflow does not have (on its `node_id`), or a port that node
  does not have (on its `port`; judged only when the node's type is defined by the site,
  R4.d's skip). R4.d: the port must be the node's — its type's `parameters` keys (inputs) or
  `outputs` keys (outputs), a reserved port, which the type's schema declares (SCH-11…14,
  SCH-32; the real site's `reason` workflow exposes `tool` and `loop_back`), or a port the node
  records itself (its stored metadata, a `config.ports` id): on a 1.0-alpha site a type's
  `outputs:` is not its whole port list (its processor declares ports in code), and
  FD-UNKNOWN-PORT takes such a port as the node's, so this rule does too — one verdict per port,
  `port_verdict` (core/domain/ports.py). A dynamic port (DYN-6) or a gateway's branch is the
  node's but not addressable, and is refused as such;
- a `parameter_schema.required` name that is no input port (when `input_ports` is declared);
- a call node type whose `parameters` / `outputs` differ from the callee's `input_ports` /
  `output_ports` names: each extra name on its key, each missing one on `parameters:` /
  `outputs:` (only when the callee exists and declares that side). The executor's own options
  on a call type (`execution_mode`, `executionMode`, `timeout`…: `EXECUTOR_OPTIONS`, and the
  site's generic `workflow_executor` type's parameters) and the reserved ports (`tool` carries
  tools into the callee) are no callee inputs, and are not judged: the FlowDrop author's demo
  site's call types carry `executionMode`, which was reported as an error;
- an edge into a call node's input port the callee does not declare (on its `targetHandle`;
  the reserved ports are the engine's, not the contract's, and are not judged), told the input
  it may mean, with a fix retargeting the handle onto it when the call node's type declares it
  (unsafe; while the type still passes the old name, the edge is right if the callee is renamed
  back, and `--unsafe-fixes` applies a finding's lone fix);
- a call node (on its label) whose type passes an input the callee does not take, unless an
  edge into that port is told already: the caller's author sees it without opening the type;
- a side of the contract not written as a list of mappings, or an entry without a `name` or
  `node_id` (FlowDrop reads them as nothing): on the value or the entry.

A call type and its callee differing by exactly one name on a side is a rename
(`rename_pair`): the call type's finding is on the old name with a fix renaming its key, the
callee gets one on the new name with a fix renaming it back, and the caller's edge is told the
new name. Which side was meant is the user's intent, so these fixes are unsafe (a preferred fix
must be safe). In bulk (`check --fix --unsafe-fixes`) the call type follows the callee, the
change most likely meant (a contract is renamed where it is declared); the rename back is only
ever chosen by hand (`Fix.chosen_only`): applying both would swap the names and leave them
apart. Names are rewritten in place, the token's quoting kept (core/syntax/name_tokens.py).

The package: the rule and its findings' shape (rule.py); a workflow's own contract
(own_contract.py); a call type compared with its callee (contract.py); the checks in a calling
workflow (callers.py), in a call type (call_type.py) and in a called workflow (callee.py); here,
`check_site`, which runs them.
"""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.site_view import SiteContext
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.rules.site_contract.call_type import call_type
from flowdrop_lsp.core.rules.site_contract.callee import renamed_in_callee
from flowdrop_lsp.core.rules.site_contract.callers import (
    calls_passing_unknown_inputs,
    edges_into_calls,
)
from flowdrop_lsp.core.rules.site_contract.own_contract import port_bindings, required_names
from flowdrop_lsp.core.rules.site_contract.rule import EXPLANATION, RULE, finding

# The rule's public names (the registry reads RULE, EXPLANATION and check_site).
__all__ = ["EXPLANATION", "RULE", "check_site"]


def check_site(ctx: SiteContext) -> Iterator[Finding]:
    if ctx.workflow is not None:
        yield from port_bindings(ctx, ctx.workflow, "input_ports", ctx.workflow.input_ports)
        yield from port_bindings(ctx, ctx.workflow, "output_ports", ctx.workflow.output_ports)
        yield from required_names(ctx.workflow)
        for shape in ctx.workflow.contract_shape:
            yield finding(shape.problem, shape.span, identity=("shape",))
        yield from edges_into_calls(ctx, ctx.workflow)
        yield from calls_passing_unknown_inputs(ctx, ctx.workflow)
        yield from renamed_in_callee(ctx, ctx.workflow)
    if ctx.node_type is not None:
        yield from call_type(ctx, ctx.node_type)
