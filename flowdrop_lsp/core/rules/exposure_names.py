"""R4 (a, b, e): the names a workflow exposes to its callers (Drupal's `input_ports` and
`output_ports`, the spec's `schema.input` / `schema.output` exposure entries).

Each name must match `^[a-z0-9_-]+$` (R4.a, `R4_NAME_FORMAT`: absent and empty included), be
unique within its side (R4.b, `R4_NAME_DUPLICATE`, on each repeat) and not be a name the runtime
injects itself (R4.e, `R4_NAME_RESERVED`), each at `schema.{side}.{index}`; and the entry must
carry a `node_id` and a `port` (MAN-2: all three fields are required; without them the entry
binds nothing, and was skipped silently until issue 26 — the spec names no code for it). R4.c
and R4.d (an entry naming a node or port the workflow lacks) are FD-CONTRACT's. A cross-file rule only in
form: it reads what the site pass reads of the file (core/domain/site_facts.py), so it runs
wherever a workflow's contract is read — Drupal config, which is where contracts live."""

from __future__ import annotations

import re
from collections.abc import Iterator

from flowdrop_lsp.core.domain.site_facts import PortBinding
from flowdrop_lsp.core.domain.site_view import SiteContext
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.core.rules.base import Rule
from flowdrop_lsp.core.text.positions import Span

RULE = Rule(
    "R4",
    "Exposed port name not allowed",
    Severity.ERROR,
    "A name in a workflow's input_ports or output_ports is missing, outside `[a-z0-9_-]`, "
    "repeated on its side, or reserved by the runtime: FlowDrop refuses the workflow.",
    spec_ids=("R4.a", "R4.b", "R4.e", "MAN-2"),
)

NAME_ALPHABET = re.compile(r"[a-z0-9_-]+")
# R4.e: the parameters the runtime injects into a workflow's manifest; the spec names this one.
RESERVED_NAMES = frozenset({"__interrupt_id__"})


def check_site(ctx: SiteContext) -> Iterator[Finding]:
    workflow = ctx.workflow
    if workflow is None:
        return
    yield from _side("input", workflow.input_ports)
    yield from _side("output", workflow.output_ports)


def _side(side: str, bindings: tuple[PortBinding, ...]) -> Iterator[Finding]:
    key = f"{side}_ports"
    first_of: dict[str, PortBinding] = {}
    for binding in bindings:
        locator = f"schema.{side}.{binding.index}"
        name = binding.name.value if binding.name is not None else ""
        anchor = binding.name.span if binding.name is not None else binding.span
        shown = f"'{short_text(name)}'"
        if not NAME_ALPHABET.fullmatch(name):
            yield _finding(
                f"{key} name {shown} is not made of a-z, 0-9, '_' and '-' only"
                if name
                else f"{key} entry {binding.index + 1} has no name (or not a string)",
                anchor,
                "R4_NAME_FORMAT",
                locator,
                identity=(name,),
            )
        if name in RESERVED_NAMES:
            yield _finding(
                f"{key} name {shown} is reserved: the runtime injects a parameter of that name",
                anchor,
                "R4_NAME_RESERVED",
                locator,
                identity=(name,),
            )
        missing = [
            field
            for field, value in (("node_id", binding.node_id), ("port", binding.port))
            if value is None or not value.value
        ]
        if missing:
            yield _finding(
                f"{key} entry {binding.index + 1} ({shown}) has no "
                + " and no ".join(f"'{field}'" for field in missing)
                + ": it binds no port, and FlowDrop refuses the workflow",
                anchor,
                None,
                locator,
                identity=(name,),
            )
        first = first_of.setdefault(name, binding) if name else binding
        if first is not binding:
            yield _finding(
                f"{key} name {shown} is already exposed by entry {first.index + 1} of {key}",
                anchor,
                "R4_NAME_DUPLICATE",
                locator,
                identity=(name,),
                related=(
                    RelatedLocation(first.name.span if first.name else first.span, "first here"),
                ),
            )


def _finding(
    message: str,
    span: Span,
    locator_code: str | None,
    locator: str,
    *,
    identity: tuple[str, ...],
    related: tuple[RelatedLocation, ...] = (),
) -> Finding:
    return RULE.finding(
        span,
        message,
        related=related,
        locator_code=locator_code,
        locator=locator,
        identity=identity,
    )


_SITE = (
    (
        "flowdrop_node_type.flowdrop_node_type.chat_input.yml",
        "id: chat_input\nlabel: 'Chat Input'\nparameters:\n  message:\n    connectable: true\n",
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
      metadata:
        node_type_id: chat_input
edges: {{  }}
input_ports:
  -
    name: {first}
    node_id: chat_input.1
    port: message
  -
    name: {second}
    node_id: chat_input.1
    port: message
"""

EXPLANATION = RULE.explained(
    "A workflow exposes ports to its callers by name (`input_ports`, `output_ports`: the "
    "spec's exposure entries). A caller passes values by those names, so FlowDrop refuses a "
    "name that is missing or outside `a-z 0-9 _ -` (`R4_NAME_FORMAT`), repeated on its side "
    "(`R4_NAME_DUPLICATE`) or one the runtime injects itself, such as `__interrupt_id__` "
    "(`R4_NAME_RESERVED`), each at `schema.{side}.{index}`. An entry naming a node or port the "
    "workflow lacks is FD-CONTRACT's.",
    failing=_WORKFLOW.format(first="Ask", second="ask"),
    passing=_WORKFLOW.format(first="ask", second="ask_again"),
    file_name="flowdrop_workflow.flowdrop_workflow.colour.yml",
    site_files=_SITE,
)
