"""The rules: one module each, each with a stable code, a default severity and a check.

`DOCUMENT_RULES` are found while reading the text (syntax, structure); `GRAPH_RULES` run on the
workflow model and its tool graph. `ALL_RULES` is what the README and SARIF output document.
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
)
from flowdrop_lsp.core.rules.base import GraphCheck, Rule, RuleContext

DOCUMENT_RULES: tuple[Rule, ...] = document.RULES

GRAPH_RULES: tuple[tuple[Rule, GraphCheck], ...] = (
    (cmp9_tool_name_collision.RULE, cmp9_tool_name_collision.check),
    (cmp10_tools_into_non_acceptor.RULE, cmp10_tools_into_non_acceptor.check),
    (duplicate_node_id.RULE, duplicate_node_id.check),
    (dangling_endpoint.RULE, dangling_endpoint.check),
    (unknown_edge_type.RULE, unknown_edge_type.check),
    (toolbox_cycle.RULE, toolbox_cycle.check),
    (llm_tool_name.RULE, llm_tool_name.check),
    (self_edge.RULE, self_edge.check),
    (duplicate_edge.RULE, duplicate_edge.check),
)

ALL_RULES: tuple[Rule, ...] = DOCUMENT_RULES + tuple(rule for rule, _ in GRAPH_RULES)
RULES_BY_CODE: dict[str, Rule] = {rule.code: rule for rule in ALL_RULES}

__all__ = ["ALL_RULES", "DOCUMENT_RULES", "GRAPH_RULES", "RULES_BY_CODE", "Rule", "RuleContext"]
