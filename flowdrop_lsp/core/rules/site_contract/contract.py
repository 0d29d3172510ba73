"""A call node type compared with the workflow it calls: the callee, the names of each side of
its contract, what differs (the executor's own options and the reserved ports aside), a rename
(one name each way), and the fix writing a renamed name in place."""

from __future__ import annotations

from flowdrop_lsp.core.domain.node_types import Located, NodeTypeDefinition
from flowdrop_lsp.core.domain.ports import RESERVED_PORTS, Direction
from flowdrop_lsp.core.domain.site_facts import PortBinding
from flowdrop_lsp.core.domain.site_view import SiteContext, SiteWorkflow
from flowdrop_lsp.core.domain.wording import id_text
from flowdrop_lsp.core.findings import Applicability, Fix, RelatedLocation, TextEdit
from flowdrop_lsp.core.operations import TextOnly
from flowdrop_lsp.core.syntax.name_tokens import name_rewrite
from flowdrop_lsp.core.text.positions import Span


def contract_names(bindings: tuple[PortBinding, ...]) -> list[str]:
    return list(dict.fromkeys(b.name.value for b in bindings if b.name is not None))


def callee_of(ctx: SiteContext, node_type: NodeTypeDefinition) -> SiteWorkflow | None:
    called = node_type.called_workflow
    return ctx.site.workflow(called) if called is not None else None


def rename_pair(
    ctx: SiteContext, node_type: NodeTypeDefinition, callee: SiteWorkflow, inputs: bool
) -> tuple[str, str] | None:
    """(the call type's name, the callee's name) when they differ by one name each on a side:
    one of them was renamed. Which one was meant is a guess, so every fix of it is unsafe."""
    extra, missing = differences(ctx, node_type, callee, inputs)
    if len(extra) == 1 and len(missing) == 1:
        return extra[0].value, missing[0]
    return None


def differences(
    ctx: SiteContext, node_type: NodeTypeDefinition, callee: SiteWorkflow, inputs: bool
) -> tuple[list[Located], list[str]]:
    """On one side, the call type's names the callee lacks (the executor's own options and the
    reserved ports aside: they are the call type's, not the contract's; `tool` carries tools
    into the callee) and the callee's names the call type lacks."""
    names = contract_names(callee.facts.input_ports if inputs else callee.facts.output_ports)
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


def contract_location(callee: SiteWorkflow, inputs: bool) -> tuple[RelatedLocation, ...]:
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


def renamed_token(
    text: str, span: Span, old: str, new: str, title: str, *, chosen_only: bool = False
) -> Fix | None:
    """A fix writing `new` in place of the name `old` its token at `span` spells (plain or
    quoted: only the name's characters change, the quotes stay), unsafe; `chosen_only`: never
    applied in bulk."""
    # None: the token is more than the name, an escaped spelling of it, or `new` is no plain name.
    where = name_rewrite(text, span, old, new, whole=True)
    if where is None:
        return None
    return Fix(
        title,
        (TextEdit(where, new),),
        applicability=Applicability.UNSAFE,
        chosen_only=chosen_only,
        operations=(TextOnly("a name of a workflow's contract or of its call type"),),
    )


SIDE_WORDS = {True: ("passes", "take", "inputs"), False: ("returns", "give", "outputs")}


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


def fallback_span(node_type: NodeTypeDefinition) -> Span:
    located: Located = node_type.located_plugin or node_type.located_id
    return located.span
