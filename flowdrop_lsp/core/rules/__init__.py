"""The rules: one module each, each with a stable code, a default severity and a check.

`RULE_MODULES` is the registry; `DOCUMENT_RULES` (syntax, structure: found while reading),
`GRAPH_RULES`, `CONSUMER_RULES`, `EDGE_RULES` and `ALL_RULES` are derived from it.
"""

from __future__ import annotations

from types import ModuleType

from flowdrop_lsp.core.rules import (
    cmp9_tool_name_collision,
    cmp10_tools_into_non_acceptor,
    dangling_endpoint,
    document,
    duplicate_edge,
    duplicate_node_id,
    llm_tool_name,
    self_edge,
    tool_route,
    toolbox_cycle,
    unknown_edge_type,
    unknown_node_type,
)
from flowdrop_lsp.core.rules.base import ConsumerCheck, EdgeCheck, GraphCheck, Rule, RuleContext

# The one registry, in the documented order (README, SARIF rule table). A rule is a module
# with `RULE` (or `RULES`) and any of: `check(ctx)` — run on the tool graph after every change;
# `check_consumer(ctx, consumer)` — a per-consumer result, cached and recomputed only for the
# consumers an edit reaches (its `check` turns the cached results into findings);
# `check_edge(edge, settings)` — run on each edge when it is read. Adding a rule: one module,
# one line here.
RULE_MODULES: tuple[ModuleType, ...] = (
    document,
    cmp9_tool_name_collision,
    cmp10_tools_into_non_acceptor,
    duplicate_node_id,
    dangling_endpoint,
    unknown_edge_type,
    toolbox_cycle,
    llm_tool_name,
    self_edge,
    duplicate_edge,
    unknown_node_type,
    tool_route,
)


def _rules_of(module: ModuleType) -> tuple[Rule, ...]:
    return tuple(getattr(module, "RULES", None) or (module.RULE,))


DOCUMENT_RULES: tuple[Rule, ...] = document.RULES
ALL_RULES: tuple[Rule, ...] = tuple(rule for m in RULE_MODULES for rule in _rules_of(m))
RULES_BY_CODE: dict[str, Rule] = {rule.code: rule for rule in ALL_RULES}
GRAPH_RULES: tuple[tuple[Rule, GraphCheck], ...] = tuple(
    (m.RULE, m.check) for m in RULE_MODULES if hasattr(m, "check")
)
CONSUMER_RULES: tuple[tuple[str, ConsumerCheck], ...] = tuple(
    (m.RULE.code, m.check_consumer) for m in RULE_MODULES if hasattr(m, "check_consumer")
)
EDGE_RULES: tuple[tuple[Rule, EdgeCheck], ...] = tuple(
    (m.RULE, m.check_edge) for m in RULE_MODULES if hasattr(m, "check_edge")
)


def rule_url(code: str, docs_url: str) -> str | None:
    """Where a rule is documented: its README section under `docs_url`."""
    rule = RULES_BY_CODE.get(code)
    return f"{docs_url}#{rule.anchor}" if rule else None


__all__ = [
    "ALL_RULES",
    "RULE_MODULES",
    "rule_url",
    "CONSUMER_RULES",
    "DOCUMENT_RULES",
    "EDGE_RULES",
    "GRAPH_RULES",
    "RULES_BY_CODE",
    "Rule",
    "RuleContext",
]
