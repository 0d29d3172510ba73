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

A call type and its callee differing by exactly one name on a side is a rename (`_rename`): the
call type's finding is on the old name with a fix renaming its key, the callee gets one on the
new name with a fix renaming it back, and the caller's edge is told the new name. Which side was
meant is the user's intent, so these fixes are unsafe (a preferred fix must be safe). In bulk
(`check --fix --unsafe-fixes`) the call type follows the callee, the change most likely meant
(a contract is renamed where it is declared); the rename back is only ever chosen by hand
(`Fix.chosen_only`): applying both would swap the names and leave them apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from flowdrop_lsp.core.domain.misspelling import close_names, written_last
from flowdrop_lsp.core.domain.node_types import Located, NodeTypeDefinition
from flowdrop_lsp.core.domain.ports import (
    RESERVED_PORTS,
    Direction,
    PortKind,
    declared_ports,
    port_verdict,
)
from flowdrop_lsp.core.domain.site_facts import PortBinding, SiteEdge, WorkflowFacts
from flowdrop_lsp.core.domain.site_view import SiteContext, SiteWorkflow, workflow_key
from flowdrop_lsp.core.domain.wording import id_text
from flowdrop_lsp.core.findings import (
    Applicability,
    Finding,
    Fix,
    RelatedLocation,
    Severity,
    TextEdit,
)
from flowdrop_lsp.core.operations import TextOnly
from flowdrop_lsp.core.rules.base import Rule
from flowdrop_lsp.core.text.positions import Span

RULE = Rule(
    "FD-CONTRACT",
    "Workflow contract that does not hold",
    Severity.ERROR,
    "A workflow's input or output ports name a node or port it does not have, or a node type "
    "calling it does not match them name for name.",
    spec_ids=("R4.c", "R4.d", "DYN-6"),
)

MAX_LISTED = 8  # port names listed in a message


def _listed(names: list[str]) -> str:
    shown = ", ".join(f"'{id_text(n)}'" for n in names[:MAX_LISTED])
    more = f" and {len(names) - MAX_LISTED} more" if len(names) > MAX_LISTED else ""
    return (shown + more) if names else "none"


def _finding(
    message: str,
    span: Span,
    node: str | None = None,
    related: tuple[RelatedLocation, ...] = (),
    fixes: tuple[Fix, ...] = (),
    *,
    identity: tuple[str, ...],
) -> Finding:
    """`identity`: what the finding is about, as its message says it (the kind of mismatch and
    the names it is between): most of them have no node, and several may be in one file."""
    return Finding(
        RULE.code,
        RULE.default_severity,
        message,
        span,
        node=node,
        related=related,
        fixes=fixes,
        identity=identity,
    )


def check_site(ctx: SiteContext) -> Iterator[Finding]:
    if ctx.workflow is not None:
        yield from _bindings(ctx, ctx.workflow, "input_ports", ctx.workflow.input_ports)
        yield from _bindings(ctx, ctx.workflow, "output_ports", ctx.workflow.output_ports)
        yield from _required(ctx.workflow)
        for shape in ctx.workflow.contract_shape:
            yield _finding(shape.problem, shape.span, identity=("shape",))
        yield from _edges_into_calls(ctx, ctx.workflow)
        yield from _calls_passing_unknown_inputs(ctx, ctx.workflow)
        yield from _renamed_in_callee(ctx, ctx.workflow)
    if ctx.node_type is not None:
        yield from _call_type(ctx, ctx.node_type)


# ----- a workflow's own contract ---------------------------------------------------------------


def _bindings(
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
            yield _finding(
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
        yield _finding(
            f"{key} {named} is bound to {side} port '{id_text(binding.port.value)}' of "
            f"{node.display}, {why} (its type '{id_text(node.type_id.value)}' declares "
            f"{_listed(declared)})",
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


def _names(bindings: tuple[PortBinding, ...]) -> list[str]:
    return list(dict.fromkeys(b.name.value for b in bindings if b.name is not None))


def _required(workflow: WorkflowFacts) -> Iterator[Finding]:
    if not workflow.has_input_ports:
        return
    names = set(_names(workflow.input_ports))
    for required in workflow.required_parameters:
        if required.value not in names:
            yield _finding(
                f"parameter_schema.required names '{id_text(required.value)}', which is "
                f"not an input port of this workflow (its input_ports: "
                f"{_listed(_names(workflow.input_ports))})",
                required.span,
                identity=("required", required.value),
            )


# ----- calls ---------------------------------------------------------------------------------


def _callee(ctx: SiteContext, node_type: NodeTypeDefinition) -> SiteWorkflow | None:
    called = node_type.called_workflow
    return ctx.site.workflow(called) if called is not None else None


def _edges_into_calls(ctx: SiteContext, workflow: WorkflowFacts) -> Iterator[Finding]:
    nodes = {node.id: node for node in workflow.nodes if node.id is not None}
    for edge in workflow.edges:
        port = edge.target_port
        node = nodes.get(edge.target) if edge.target is not None else None
        reserved = port in RESERVED_PORTS[Direction.INPUT]
        if port is None or reserved or node is None or node.type_id is None:
            continue
        site_type = ctx.site.node_type(node.type_id.value)
        callee = _callee(ctx, site_type.definition) if site_type is not None else None
        if callee is None or not callee.facts.has_input_ports or site_type is None:
            continue
        names = _names(callee.facts.input_ports)
        if port in names:
            continue
        renamed = _rename(ctx, site_type.definition, callee, inputs=True)
        meant = [renamed[1]] if renamed is not None and renamed[0] == port else []
        meant = meant or close_names(port, names)
        hint = (
            "did you mean " + " or ".join(f"'{id_text(name)}'" for name in meant) + "?"
            if meant
            else f"its inputs: {_listed(names)}"
        )
        yield _finding(
            f"the called workflow '{id_text(callee.workflow_id or '?')}' takes no input "
            f"'{id_text(port)}' ({hint})",
            edge.anchor,
            node=node.id,
            identity=("edge into", edge.source or "", port),
            related=_contract_location(callee, inputs=True),
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


def _calls_passing_unknown_inputs(ctx: SiteContext, workflow: WorkflowFacts) -> Iterator[Finding]:
    """A call node whose type passes an input its callee does not take (the call type's own
    finding is in another file, which the author of this workflow may never open): on the node,
    once per name, unless an edge into that port is told already (`_edges_into_calls`)."""
    fed = {(edge.target, edge.target_port) for edge in workflow.edges}
    for node in workflow.nodes:
        if node.id is None or node.type_id is None:
            continue
        site_type = ctx.site.node_type(node.type_id.value)
        callee = _callee(ctx, site_type.definition) if site_type is not None else None
        if site_type is None or callee is None or not callee.facts.has_input_ports:
            continue
        extra, missing = _differences(ctx, site_type.definition, callee, inputs=True)
        for entry in extra:
            if (node.id, entry.value) in fed:
                continue
            hint = (
                f"renamed '{id_text(missing[0])}'?"
                if len(extra) == 1 and len(missing) == 1
                else f"its inputs: {_listed(_names(callee.facts.input_ports))}"
            )
            yield _finding(
                f"the type of {node.display} passes '{id_text(entry.value)}', which the called "
                f"workflow '{id_text(callee.workflow_id or '?')}' does not take ({hint})",
                node.anchor,
                node=node.id,
                identity=("passed", entry.value),
                related=(
                    RelatedLocation(entry.span, "the parameter in the call type", site_type.path),
                    *_contract_location(callee, inputs=True),
                ),
            )


def _retargeted(text: str, edge: SiteEdge, port: str, meant: list[str]) -> tuple[Fix, ...]:
    """Point the edge's `targetHandle` at each input the callee may mean (and the node has).
    Unsafe: a guess at which input the source's value was meant for."""
    if edge.target_handle is None or not edge.target_handle.endswith(port):
        return ()
    where = written_last(text, edge.anchor, port)
    if where is None:
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
        if PLAIN_NAME.match(name)
    )


# A port name written as is in any quoting, in a handle and as a YAML key alike.
PLAIN_NAME = re.compile(r"^[A-Za-z0-9_]+$")


def _rename(
    ctx: SiteContext, node_type: NodeTypeDefinition, callee: SiteWorkflow, inputs: bool
) -> tuple[str, str] | None:
    """(the call type's name, the callee's name) when they differ by one name each on a side:
    one of them was renamed. Which one was meant is a guess, so every fix of it is unsafe."""
    extra, missing = _differences(ctx, node_type, callee, inputs)
    if len(extra) == 1 and len(missing) == 1:
        return extra[0].value, missing[0]
    return None


def _differences(
    ctx: SiteContext, node_type: NodeTypeDefinition, callee: SiteWorkflow, inputs: bool
) -> tuple[list[Located], list[str]]:
    """On one side, the call type's names the callee lacks (the executor's own options and the
    reserved ports aside: they are the call type's, not the contract's; `tool` carries tools
    into the callee) and the callee's names the call type lacks."""
    names = _names(callee.facts.input_ports if inputs else callee.facts.output_ports)
    own = [spec.located for spec in (node_type.parameters if inputs else node_type.outputs)]
    options = _executor_options(ctx) if inputs else frozenset()
    reserved = RESERVED_PORTS[Direction.INPUT if inputs else Direction.OUTPUT]
    extra = [
        entry
        for entry in own
        if entry.value not in options and entry.value not in reserved and entry.value not in names
    ]
    have = {entry.value for entry in own}
    return extra, [name for name in names if name not in have]


def _contract_location(callee: SiteWorkflow, inputs: bool) -> tuple[RelatedLocation, ...]:
    bindings = callee.facts.input_ports if inputs else callee.facts.output_ports
    key = "input_ports" if inputs else "output_ports"
    if not bindings:
        return ()
    return (
        RelatedLocation(
            bindings[0].span,
            f"the {key} of workflow '{id_text(callee.workflow_id or '?')}'",
            callee.path,
        ),
    )


def _renamed_token(
    text: str, span: Span, old: str, new: str, title: str, *, chosen_only: bool = False
) -> Fix | None:
    """A fix writing `new` in place of the name `old` its token at `span` spells (plain or
    quoted: only the name's characters change, the quotes stay), unsafe; `chosen_only`: never
    applied in bulk."""
    where = written_last(text, span, old)
    if where is None or text[span.start : where.start] not in ("", "'", '"'):
        return None  # the token is more than the name (or an escaped spelling of it)
    if not PLAIN_NAME.match(new):
        return None
    return Fix(
        title,
        (TextEdit(where, new),),
        applicability=Applicability.UNSAFE,
        chosen_only=chosen_only,
        operations=(TextOnly("a name of a workflow's contract or of its call type"),),
    )


_SIDE_WORDS = {True: ("passes", "take", "inputs"), False: ("returns", "give", "outputs")}


def _call_type(ctx: SiteContext, node_type: NodeTypeDefinition) -> Iterator[Finding]:
    callee = _callee(ctx, node_type)
    if callee is None:
        return
    callee_id = id_text(callee.workflow_id or "?")
    for inputs in (True, False):
        declared = callee.facts.has_input_ports if inputs else callee.facts.has_output_ports
        if not declared:
            continue
        verb, callee_verb, side = _SIDE_WORDS[inputs]
        names = _names(callee.facts.input_ports if inputs else callee.facts.output_ports)
        related = _contract_location(callee, inputs)
        extra, missing = _differences(ctx, node_type, callee, inputs)
        renamed = len(extra) == 1 and len(missing) == 1
        for entry in extra:
            hint = f"renamed '{id_text(missing[0])}'? " if renamed else ""
            # Renaming the call type's key is a guess at what was meant (the callee may be the
            # one to rename back), and the workflows using the type still pass the old name.
            fix = (
                _renamed_token(
                    ctx.text,
                    entry.span,
                    entry.value,
                    missing[0],
                    f"Rename '{id_text(entry.value)}' to '{id_text(missing[0])}'",
                )
                if renamed
                else None
            )
            yield _finding(
                f"this call type {verb} '{id_text(entry.value)}', which workflow '{callee_id}' "
                f"does not {callee_verb} ({hint}its {side}: {_listed(names)})",
                entry.span,
                identity=("passed", side, entry.value),
                related=related,
                fixes=(fix,) if fix is not None else (),
            )
        if missing and not renamed:
            spans = node_type.spans
            key_span = spans.parameters_key if inputs else spans.outputs_key
            yield _finding(
                f"this call type does not {verb[:-2]} {_listed(missing)}, which workflow "
                f"'{callee_id}' {callee_verb}s as its {side}",
                key_span or _fallback(node_type),
                identity=("not passed", side),
                related=related,
            )


def _renamed_in_callee(ctx: SiteContext, workflow: WorkflowFacts) -> Iterator[Finding]:
    """In a called workflow, an input or output a call type knows by one other name (the pair
    `_rename` finds): reported on the entry's name, with the fix naming it back (unsafe: the
    rename may be the one meant, and the call type the one to follow)."""
    own_id = workflow_key(ctx.path, workflow)
    if own_id is None:
        return
    callee = ctx.site.workflow(own_id)
    if callee is None or callee.path != ctx.path:
        return
    told: set[bool] = set()  # the sides reported (several call types may call it alike)
    for path, node_type in ctx.site.calling_types(own_id):
        for inputs in (True, False):
            declared = workflow.has_input_ports if inputs else workflow.has_output_ports
            if not declared or inputs in told:
                continue
            pair = _rename(ctx, node_type, callee, inputs)
            if pair is None:
                continue
            old, new = pair
            verb, _callee_verb, side = _SIDE_WORDS[inputs]
            bindings = workflow.input_ports if inputs else workflow.output_ports
            for binding in bindings:
                if binding.name is None or binding.name.value != new:
                    continue
                told.add(inputs)
                fix = _renamed_token(
                    ctx.text,
                    binding.name.span,
                    new,
                    old,
                    f"Rename '{id_text(new)}' back to '{id_text(old)}'",
                    # The call type's rename (its finding's lone fix) is what `--fix
                    # --unsafe-fixes` follows: applying both would swap the names, still apart.
                    chosen_only=True,
                )
                yield _finding(
                    f"call type '{id_text(node_type.id)}' {verb} '{id_text(old)}', not "
                    f"'{id_text(new)}' (one of its {side} renamed?)",
                    binding.name.span,
                    identity=("renamed", side, new),
                    related=(
                        RelatedLocation(
                            (
                                node_type.spans.parameters_key
                                if inputs
                                else node_type.spans.outputs_key
                            )
                            or _fallback(node_type),
                            f"the {'parameters' if inputs else 'outputs'} of the call type",
                            path,
                        ),
                    ),
                    fixes=(fix,) if fix is not None else (),
                )
                break


# The options FlowDrop's workflow executor adds to a call node type besides the callee's
# inputs, in the spellings its releases write (1.0's `execution_mode`; the 0.6 / alpha
# releases' `executionMode`). A site's generic executor type (`workflow_executor`) adds its own
# parameters to these.
EXECUTOR_OPTIONS = frozenset(
    {
        "execution_mode",
        "executionMode",
        "poll_interval_ms",
        "pollIntervalMs",
        "timeout",
        "workflow_id",
        "workflowId",
        "input_data",
        "inputData",
    }
)
GENERIC_EXECUTOR = "workflow_executor"


def _executor_options(ctx: SiteContext) -> frozenset[str]:
    generic = ctx.site.node_type(GENERIC_EXECUTOR)
    if generic is None:
        return EXECUTOR_OPTIONS
    return EXECUTOR_OPTIONS | generic.definition.parameter_names


def _fallback(node_type: NodeTypeDefinition) -> Span:
    located: Located = node_type.located_plugin or node_type.located_id
    return located.span


EXPLANATION = RULE.explained(
    "A workflow called by another declares a contract: `input_ports` and `output_ports` bind "
    "names to ports of its nodes, and the node type that calls it (`executor_plugin: "
    "flowdrop_workflow_executor:flowdrop_workflow:<id>`) lists the same names as its "
    "`parameters` and `outputs`. A name bound to a node or port that does not exist, a required "
    "parameter that is no input port, a call type whose names differ from the callee's, or an "
    "edge into a port the callee does not declare: the value is dropped silently at run time.",
    failing="""\
id: run_colour
label: 'Run workflow: Colour'
parameters:
  question:
    required: true
outputs: {  }
executor_plugin: 'flowdrop_workflow_executor:flowdrop_workflow:colour'
""",
    passing="""\
id: run_colour
label: 'Run workflow: Colour'
parameters:
  ask:
    required: true
outputs: {  }
executor_plugin: 'flowdrop_workflow_executor:flowdrop_workflow:colour'
""",
    file_name="flowdrop_node_type.flowdrop_node_type.run_colour.yml",
    site_files=(
        (
            "flowdrop_workflow.flowdrop_workflow.colour.yml",
            """\
id: colour
label: Colour
nodes:
  -
    id: chat_input.1
    data:
      label: 'Chat Input'
      metadata:
        node_type_id: chat_input
edges: {  }
input_ports:
  -
    name: ask
    node_id: chat_input.1
    port: message
""",
        ),
    ),
)
