"""An advisory: a leaf tool's name that LLM function-calling APIs would reject
(longer than 64 characters, or not starting with a letter or `_`)."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.names import llm_name_problem
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import Rule, RuleContext

RULE = Rule(
    "FD-LLM-NAME",
    "Tool name rejected by LLM APIs",
    Severity.WARNING,
    "A tool's name is longer than 64 characters or does not start with a letter or `_`.",
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    graph = ctx.graph
    for node_id in graph.bad_name_ids:
        if node_id not in graph.outgoing or graph.is_passthrough(node_id):
            continue  # only leaf tools are offered to agents by name
        node = graph.nodes_by_id[node_id]
        problem = llm_name_problem(node.tool_name)
        if problem:
            yield RULE.finding(
                node.anchor,
                f'tool name "{short_text(node.tool_name)}" of {node.display} {problem}',
                node=node_id,
                extra=(("tool_name", node.tool_name),),
            )


EXPLANATION = RULE.explained(
    "Function-calling APIs accept tool names matching `^[a-zA-Z0-9_-]{1,64}$`, and some only "
    "with a leading letter or `_`: an agent offered `2fa_check` (from the label `2FA Check`) "
    "or a 70-character name fails at the model's API, not in the editor.",
    failing="""\
{
  "nodes": [
    {"id": "tool_a", "type": "http_request", "data": {"label": "2FA Check"}},
    {"id": "agent_1", "type": "agent", "data": {"label": "Login Agent"}}
  ],
  "edges": [
    {"id": "e1", "source": "tool_a", "target": "agent_1", "data": {"edgeType": "tool_availability"}}
  ]
}
""",
    passing="""\
{
  "nodes": [
    {"id": "tool_a", "type": "http_request", "data": {"label": "Check 2FA"}},
    {"id": "agent_1", "type": "agent", "data": {"label": "Login Agent"}}
  ],
  "edges": [
    {"id": "e1", "source": "tool_a", "target": "agent_1", "data": {"edgeType": "tool_availability"}}
  ]
}
""",
)
