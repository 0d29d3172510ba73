"""The rules: one module each, each with a stable code, a default severity and a check.

`DOCUMENT_RULES` are found while reading the text (syntax, structure); `EDGE_RULES` check one
edge when it is read; `GRAPH_RULES` run on the tool graph and its indexes after every change
(the per-consumer ones cache their results per consumer). `ALL_RULES` is what the README and
SARIF output document.
"""

from __future__ import annotations

from flowdrop_lsp.core.rules import (
    cmp9_tool_name_collision,
    cmp10_tools_into_non_acceptor,
    dangling_endpoint,
    document,
    duplicate_edge,
    duplicate_node_id,
    llm_tool_name,
    self_edge,
    toolbox_cycle,
    unknown_edge_type,
    unknown_node_type,
)
from flowdrop_lsp.core.rules.base import ConsumerCheck, EdgeCheck, GraphCheck, Rule, RuleContext

DOCUMENT_RULES: tuple[Rule, ...] = document.RULES

GRAPH_RULES: tuple[tuple[Rule, GraphCheck], ...] = (
    (cmp9_tool_name_collision.RULE, cmp9_tool_name_collision.check),
    (cmp10_tools_into_non_acceptor.RULE, cmp10_tools_into_non_acceptor.check),
    (duplicate_node_id.RULE, duplicate_node_id.check),
    (dangling_endpoint.RULE, dangling_endpoint.check),
    (toolbox_cycle.RULE, toolbox_cycle.check),
    (llm_tool_name.RULE, llm_tool_name.check),
    (duplicate_edge.RULE, duplicate_edge.check),
    (unknown_node_type.RULE, unknown_node_type.check),
)

# The per-consumer part of CMP-9 and CMP-10, cached per consumer by RuleContext.refresh.
CONSUMER_RULES: tuple[tuple[str, ConsumerCheck], ...] = (
    (cmp9_tool_name_collision.RULE.code, cmp9_tool_name_collision.collisions_at),
    (cmp10_tools_into_non_acceptor.RULE.code, cmp10_tools_into_non_acceptor.check_consumer),
)

EDGE_RULES: tuple[tuple[Rule, EdgeCheck], ...] = (
    (unknown_edge_type.RULE, unknown_edge_type.check_edge),
    (self_edge.RULE, self_edge.check_edge),
)

# The documented order (README, SARIF rule table).
ALL_RULES: tuple[Rule, ...] = (
    *DOCUMENT_RULES,
    cmp9_tool_name_collision.RULE,
    cmp10_tools_into_non_acceptor.RULE,
    duplicate_node_id.RULE,
    dangling_endpoint.RULE,
    unknown_edge_type.RULE,
    toolbox_cycle.RULE,
    llm_tool_name.RULE,
    self_edge.RULE,
    duplicate_edge.RULE,
    unknown_node_type.RULE,
)
RULES_BY_CODE: dict[str, Rule] = {rule.code: rule for rule in ALL_RULES}

__all__ = [
    "ALL_RULES",
    "CONSUMER_RULES",
    "DOCUMENT_RULES",
    "EDGE_RULES",
    "GRAPH_RULES",
    "RULES_BY_CODE",
    "Rule",
    "RuleContext",
]
