"""What every rule module shares: the rule record and the context a rule checks."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.graph import FlatToolSet, ToolGraph
from flowdrop_lsp.core.model import Node, Workflow
from flowdrop_lsp.core.settings import Settings


@dataclass(frozen=True)
class Rule:
    """A stable code, a default severity, a one-line summary and the README anchor of its doc."""

    code: str
    title: str
    default_severity: Severity
    summary: str

    @property
    def anchor(self) -> str:
        return "rule-" + self.code.lower()


@dataclass
class RuleContext:
    """Everything a graph rule may look at. Flattened tool sets are computed once, on demand."""

    workflow: Workflow
    graph: ToolGraph
    settings: Settings
    _flat: dict[str, FlatToolSet] = field(default_factory=dict)

    def flat(self, consumer: str) -> FlatToolSet:
        found = self._flat.get(consumer)
        if found is None:
            found = self._flat[consumer] = self.graph.flatten_tools(consumer)
        return found

    def node(self, node_id: str | None) -> Node | None:
        return self.graph.nodes_by_id.get(node_id) if node_id is not None else None

    def describe(self, node_id: str) -> str:
        """A node as messages name it; an id that no node defines says so."""
        node = self.node(node_id)
        return node.display if node is not None else f"{node_id} (not defined in nodes)"


GraphCheck = Callable[[RuleContext], Iterable[Finding]]
