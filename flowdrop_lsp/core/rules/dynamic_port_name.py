"""DYN-3: a dynamic port's name begins with an ASCII letter and goes on with ASCII letters,
digits or underscores, is no reserved name, and is unique across the node's dynamic inputs and
outputs together (spec rules/DYN-3.yml: a definition breaking any of these is refused).

A definition without a name (absent, null, blank) breaks the pattern and is reported here too
(DYN-2 asks for a name as well; one finding says it). A name of the wrong type (a number) is
skipped: the schema's to report. The reserved names are the spec glossary's (`trigger`, `error`,
`tool`, `input`, `output`, `engine`; anything `__`-prefixed already fails the pattern) and
DYN-1's two reserved parameters (`dynamicInputs`, `dynamicOutputs`), kept as data
(`RESERVED_NAMES`). A repeated name is reported on each later definition, pointing at the
first. No fix: renaming a port would leave the edges wired to it behind.

Kept per node (`scoped_findings`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.findings import Finding, RelatedLocation, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.rules.dynamic_port_label import (
    Definition,
    blank,
    definitions,
    identity,
    locator,
    value_span,
)
from flowdrop_lsp.core.rules.scoped import Scoped
from flowdrop_lsp.core.text.positions import Span

RULE = Rule(
    "DYN-3",
    "Dynamic port name invalid or repeated",
    Severity.ERROR,
    "A dynamic port's name is missing, is not an ASCII letter followed by ASCII letters, digits "
    "or underscores, is reserved, or is used by another dynamic port of the node: the "
    "definition is refused.",
    spec_ids=("DYN-3",),
)
NAME_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
# The spec glossary's reserved port and parameter names, and DYN-1's two reserved parameters.
RESERVED_NAMES = frozenset(
    {"trigger", "error", "tool", "input", "output", "engine", "dynamicInputs", "dynamicOutputs"}
)


def name_problem(name: str) -> str | None:
    """Why a (non-blank) name is refused, or None."""
    if not NAME_PATTERN.fullmatch(name):
        return (
            "is not an ASCII letter followed by ASCII letters, digits or underscores"
            if not name.startswith("__")
            else "is reserved (a `__` prefix)"
        )
    if name in RESERVED_NAMES:
        return "is a reserved name"
    return None


def valid_name(definition: Definition) -> str | None:
    """The definition's name when DYN-3 accepts it on its own (pattern, reserved)."""
    name = definition.name
    return name if name and name_problem(name) is None else None


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    # Spans are located only for a finding: locating one re-reads the node's element (a
    # site's valid definitions would pay it for every name).
    first: dict[str, Definition] = {}
    for definition in definitions(node):
        raw = definition.value.get("name")
        if not blank(raw) and not isinstance(raw, str):
            continue  # a wrong type: the schema's
        where = f"{definition.describe()} of {node.display}"
        if not isinstance(raw, str) or blank(raw):
            yield _finding(
                node,
                definition,
                _span(node, definition, raw),
                f"{where} has no name: the definition is refused",
            )
            continue
        problem = name_problem(raw)
        if problem is not None:
            yield _finding(
                node,
                definition,
                _span(node, definition, raw),
                f"the name of {where} {problem}: the definition is refused",
            )
            continue
        other = first.get(raw)
        if other is None:
            first[raw] = definition
            continue
        yield _finding(
            node,
            definition,
            _span(node, definition, raw),
            f"{where} repeats the name of {other.describe()}: dynamic port names are unique "
            "across a node's inputs and outputs, the definition is refused",
            related=(
                RelatedLocation(
                    _name_span(node, other) or node.anchor, f"'{short_text(raw)}' first used here"
                ),
            ),
        )


def _name_span(node: Node, definition: Definition) -> Span | None:
    return value_span(node, (*definition.path, "name"))


def _span(node: Node, definition: Definition, raw: object) -> Span:
    """Where a finding on the definition goes: its name, else the definition, else the node."""
    name_span = _name_span(node, definition) if raw is not None else None
    return name_span or value_span(node, definition.path) or node.anchor


def _finding(
    node: Node,
    definition: Definition,
    span: Span,
    message: str,
    related: tuple[RelatedLocation, ...] = (),
) -> Finding:
    return RULE.finding(
        span,
        message,
        node=node.id,
        related=related,
        locator=locator(node, definition),
        identity=identity(definition),
    )


SCOPED = Scoped(RULE.code, node_check=check_node)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXPLANATION = RULE.explained(
    "The store refuses a dynamic port definition whose name is not an ASCII letter followed by "
    "ASCII letters, digits or underscores (`pörtchen`, `2nd`, `my-port` are refused), is a "
    "reserved name (`trigger`, `error`, `tool`, `input`, `output`, `engine`, `dynamicInputs`, `dynamicOutputs`), or is the name "
    "of another dynamic port of the node, an input and an output included (spec DYN-3). A "
    "definition without a name is refused too. No fix: edges name the port.",
    failing="""\
{
  "nodes": [
    {"id": "map", "type": "data_mapper", "data": {"label": "Map", "config": {
      "dynamicInputs": [{"name": "city", "label": "City", "dataType": "string"}],
      "dynamicOutputs": [{"name": "city", "label": "City", "dataType": "string"}]}}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "map", "type": "data_mapper", "data": {"label": "Map", "config": {
      "dynamicInputs": [{"name": "city", "label": "City", "dataType": "string"}],
      "dynamicOutputs": [{"name": "city_url", "label": "City URL", "dataType": "string"}]}}}
  ],
  "edges": []
}
""",
)
