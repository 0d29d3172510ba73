"""DYN-2: every dynamic port definition carries a `name`, a `label` and a `dataType` (spec
rules/DYN-2.yml) — here: a definition in a node's `config.dynamicInputs`/`dynamicOutputs`
without a label.

What the spec's text leaves to others: a definition without a name cannot pass DYN-3's name
pattern, which refuses it (DYN-3 reports it, once); a missing `dataType` is not refused, it
defaults to `mixed`, and a `dataType` outside the lanes an editor offers is not refused either,
nothing downstream checks it (the narrative says both), so neither is reported. A label that
is absent, null or blank is reported, a warning: the spec does not say the store refuses it, the
port shows unnamed. A value of the wrong type (a definition list that is no list, an item that
is no object, a label that is no string) is skipped: DYN-1's reading turns unusable definitions
into none, and a wrong type is the schema's to report.

Fix: the label set to the port's name (safe, preferred: nothing the author wrote is lost).

This module also holds the reading of the definitions the dynamic port rules share
(`definitions`). Kept per node (`scoped_findings`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.ports import DYNAMIC_PARAMETERS, Direction
from flowdrop_lsp.core.domain.remedies import change_at, fix_from
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.findings import Finding, Fix, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext
from flowdrop_lsp.core.rules.scoped import Scoped
from flowdrop_lsp.core.text.positions import Span

RULE = Rule(
    "DYN-2",
    "Dynamic port without a label",
    Severity.WARNING,
    "A dynamic port definition in a node's `config.dynamicInputs` or `config.dynamicOutputs` "
    "has no `label`: every definition carries a name, a label and a data type.",
    spec_ids=("DYN-2",),
)
CONFIG_PATH = ("data", "config")


@dataclass(frozen=True)
class Definition:
    """One dynamic port definition of a node: its side, the config key holding it, its index
    in that list and its plain value (an object)."""

    direction: Direction
    key: str
    index: int
    value: dict[str, Any]

    @property
    def path(self) -> tuple[str | int, ...]:
        """The definition's path below the node's element."""
        return (*CONFIG_PATH, self.key, self.index)

    @property
    def name(self) -> str | None:
        name = self.value.get("name")
        return name if isinstance(name, str) else None

    def describe(self) -> str:
        """How messages name it: `dynamic input 'q'`, else by its position."""
        side = f"dynamic {self.direction.value}"
        name = self.name
        return f"{side} '{short_text(name)}'" if name else f"{side} #{self.index + 1}"


# Each side and its parameter, in `Direction`'s order (a tuple: asked for every node).
_SIDES = tuple((direction, DYNAMIC_PARAMETERS[direction]) for direction in Direction)


def definitions(node: Node) -> Iterator[Definition]:
    """The node's dynamic port definitions, inputs then outputs, each in list order. A list that
    is no list (Drupal dumps an empty one as `{  }`) holds none; an item that is no object is
    skipped (DYN-1: unusable definitions read as none)."""
    config = node.config
    if not isinstance(config, dict):
        return
    for direction, key in _SIDES:
        items = config.get(key)
        if not isinstance(items, list):
            continue
        for index, item in enumerate(items):
            if isinstance(item, dict):
                yield Definition(direction, key, index, item)


def blank(value: Any) -> bool:
    """A member the definition does not carry: absent (None), or a blank string."""
    return value is None or (isinstance(value, str) and not value.strip())


def value_span(node: Node, path: tuple[str | int, ...]) -> Span | None:
    located = node.editor.locate(path) if node.editor is not None else None
    return located.value if located is not None else None


def locator(node: Node, definition: Definition) -> str:
    return f"node.{node.id}.config.{definition.key}"


def identity(definition: Definition) -> tuple[str, ...]:
    """What tells a finding on the definition from one on another under the same key: its
    side and name (`Finding.identity`; its index moves)."""
    return (definition.direction.value, definition.name or "")


def check_node(ctx: RuleContext, node: Node) -> Iterator[Finding]:
    for definition in definitions(node):
        label = definition.value.get("label")
        if not blank(label):
            continue
        name = definition.name
        present = "label" in definition.value
        label_span = value_span(node, (*definition.path, "label")) if present else None
        name_span = value_span(node, (*definition.path, "name"))
        span = label_span or name_span or value_span(node, definition.path) or node.anchor
        yield RULE.finding(
            span,
            f"{definition.describe()} of {node.display} has no label: a dynamic port "
            "definition carries a name, a label and a data type",
            node=node.id,
            fixes=_label_fix(node, definition, name, label_span) if name else (),
            locator=locator(node, definition),
            identity=identity(definition),
        )


def _label_fix(
    node: Node, definition: Definition, name: str, label_span: Span | None
) -> tuple[Fix, ...]:
    """The definition's `label` set to its name: a blank one's value written in place, an
    absent one added as the format writes a member (`label_span`: where a blank one is)."""
    if label_span is None and "label" in definition.value:
        return ()  # a label the text does not show where it is: not written twice
    operation = change_at(node, definition.path, {"label": name})
    fix = (
        fix_from(f"Label it '{short_text(name)}'", [(node, operation)], preferred=True)
        if operation is not None
        else None
    )
    return () if fix is None else (fix,)


SCOPED = Scoped(RULE.code, node_check=check_node)


def check(ctx: RuleContext) -> list[Finding]:
    return SCOPED.findings(ctx)


EXPLANATION = RULE.explained(
    "A node of a type that opts in to dynamic ports lists its own extra ports in "
    "`config.dynamicInputs` and `config.dynamicOutputs`; each definition carries a `name` "
    "(DYN-3 judges it), a `label` and a `dataType` (spec DYN-2). Without a label the port shows "
    "unnamed in the editor. (A missing `dataType` is not reported: it defaults to `mixed`.) "
    "The fix labels the port with its name.",
    failing="""\
{
  "nodes": [
    {"id": "map", "type": "data_mapper", "data": {"label": "Map",
      "config": {"dynamicInputs": [{"name": "city", "dataType": "string"}]}}}
  ],
  "edges": []
}
""",
    passing="""\
{
  "nodes": [
    {"id": "map", "type": "data_mapper", "data": {"label": "Map",
      "config": {"dynamicInputs": [{"name": "city", "label": "City", "dataType": "string"}]}}}
  ],
  "edges": []
}
""",
)
