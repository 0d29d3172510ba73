"""CMP-9's identity: its code, title and severity, and its explanation (`flowdrop-lsp rule`,
the rule page). What it checks and how: the package's docstring (core.rules.cmp9)."""

from __future__ import annotations

from flowdrop_lsp.core.findings import Severity
from flowdrop_lsp.core.rules.base import Rule

RULE = Rule(
    "CMP-9",
    "Tool name collision",
    Severity.ERROR,
    "Two leaf tools reaching one consumer, directly or through any number of toolboxes, "
    "resolve to the same tool name; the runtime would silently call only one of them.",
    spec_ids=("CMP-9",),
    # It bounds its own findings (consumers and colliding names per finding, a summary past
    # many colliding pairs), each about a different tool name: none is cut.
    capped=False,
    fixes_rename_tools=True,
)


EXPLANATION = RULE.explained(
    "An AI agent calls its tools by name, and the runtime takes the first tool with that name: "
    "a second tool of the same name is never called, and nothing says so. Names are compared "
    "as the runtime sends them (lowercase, non-alphanumerics as `_`: `Web Search` and "
    "`web-search` are both `web_search`), over every tool that reaches the agent directly or "
    "through any number of toolboxes. Fix: rename all but the first tool (`--fix` numbers "
    "them: `web-search 2`), keeping the name anything routes on.",
    failing="""\
{
  "nodes": [
    {"id": "tool_a", "type": "http_request", "data": {"label": "Web Search"}},
    {"id": "tool_b", "type": "http_request", "data": {"label": "web-search"}},
    {"id": "box_1", "type": "toolbox", "data": {"label": "Search tools"}},
    {"id": "agent_1", "type": "agent", "data": {"label": "Research Agent"}}
  ],
  "edges": [
    {"id": "e1", "source": "tool_a", "target": "box_1", "data": {"edgeType": "tool_availability"}},
    {"id": "e2", "source": "tool_b", "target": "box_1", "data": {"edgeType": "tool_availability"}},
    {"id": "e3", "source": "box_1", "target": "agent_1", "data": {"edgeType": "tool_availability"}}
  ]
}
""",
    passing="""\
{
  "nodes": [
    {"id": "tool_a", "type": "http_request", "data": {"label": "Web Search"}},
    {"id": "tool_b", "type": "http_request", "data": {"label": "News Search"}},
    {"id": "box_1", "type": "toolbox", "data": {"label": "Search tools"}},
    {"id": "agent_1", "type": "agent", "data": {"label": "Research Agent"}}
  ],
  "edges": [
    {"id": "e1", "source": "tool_a", "target": "box_1", "data": {"edgeType": "tool_availability"}},
    {"id": "e2", "source": "tool_b", "target": "box_1", "data": {"edgeType": "tool_availability"}},
    {"id": "e3", "source": "box_1", "target": "agent_1", "data": {"edgeType": "tool_availability"}}
  ]
}
""",
)
