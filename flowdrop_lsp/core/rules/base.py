"""What every rule module shares: the rule record and the context a rule checks."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.graph import FlatToolSet, ToolGraph
from flowdrop_lsp.core.model import Edge, Node
from flowdrop_lsp.core.settings import Settings


@dataclass(frozen=True)
class Explanation:
    """What `flowdrop-lsp rule CODE` prints and the shipped rule page says: why the rule exists,
    and two workflow documents, one the rule reports and one it does not (tests run both through
    the checker, so an example cannot drift from what the rule does).

    The examples are JSON workflow documents; `site_node_types` are the node types the examples' site defines (for a rule that only
    speaks with a node-type registry)."""

    code: str
    why: str
    failing: str
    passing: str
    site_node_types: tuple[str, ...] = ()


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

    def explained(
        self,
        why: str,
        *,
        failing: str,
        passing: str,
        site_node_types: tuple[str, ...] = (),
    ) -> Explanation:
        """This rule's explanation (a rule module's `EXPLANATION`; written this way so that a
        module needs no import of its own for it)."""
        return Explanation(self.code, why, failing, passing, site_node_types)


ConsumerCheck = Callable[["RuleContext", str], Any]


@dataclass
class RuleContext:
    """Everything a graph rule may look at, and the results of the per-consumer rules (the
    expensive part: flattening). `refresh(consumers)` recomputes exactly those consumers; the
    incremental engine names the ones an edit affects, a from-scratch analysis all of them."""

    graph: ToolGraph
    settings: Settings
    consumer_rules: tuple[tuple[str, ConsumerCheck], ...] = ()
    results: dict[str, dict[str, Any]] = field(default_factory=dict)  # rule → consumer → result
    recomputed: set[str] = field(default_factory=set)  # consumers recomputed since last cleared
    # What a graph rule keeps between runs, by rule code (it must key it on immutable inputs:
    # a from-scratch analysis starts without it and must give the same findings).
    memo: dict[str, Any] = field(default_factory=dict)
    _flat: dict[str, FlatToolSet] = field(default_factory=dict)

    def flat(self, consumer: str) -> FlatToolSet:
        found = self._flat.get(consumer)
        if found is None:
            found = self._flat[consumer] = self.graph.flatten_tools(consumer)
        return found

    def refresh(self, consumers: Iterable[str]) -> None:
        consumers = list(consumers)
        for consumer in consumers:
            self._flat.pop(consumer, None)
            for per_rule in self.results.values():
                per_rule.pop(consumer, None)
        for consumer in consumers:
            if not self.graph.is_consumer(consumer):
                continue
            self.recomputed.add(consumer)
            for code, compute in self.consumer_rules:
                result = compute(self, consumer)
                if result:
                    self.results.setdefault(code, {})[consumer] = result

    def refresh_all(self) -> None:
        self._flat.clear()
        self.results.clear()
        self.refresh(self.graph.consumers)

    def node(self, node_id: str | None) -> Node | None:
        return self.graph.nodes_by_id.get(node_id) if node_id is not None else None

    def describe(self, node_id: str) -> str:
        """A node as messages name it; an id that no node defines says so."""
        node = self.node(node_id)
        return node.display if node is not None else f"{node_id} (not defined in nodes)"

    def results_of(self, code: str) -> dict[str, Any]:
        """consumer → non-empty result of the per-consumer rule `code`."""
        return self.results.get(code, {})


GraphCheck = Callable[[RuleContext], Iterable[Finding]]
EdgeCheck = Callable[[Edge, Settings], Iterable[Finding]]
