"""FD-CONTRACT's identity and its findings' shape: the rule, each finding made alike (its
`identity` what it is about), the names a message lists, the rule's page example."""

from __future__ import annotations

from flowdrop_lsp.core.domain.wording import id_text
from flowdrop_lsp.core.findings import Finding, Fix, RelatedLocation, Severity
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


def listed(names: list[str]) -> str:
    shown = ", ".join(f"'{id_text(n)}'" for n in names[:MAX_LISTED])
    more = f" and {len(names) - MAX_LISTED} more" if len(names) > MAX_LISTED else ""
    return (shown + more) if names else "none"


def finding(
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
    return RULE.finding(span, message, node=node, related=related, fixes=fixes, identity=identity)


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
