"""Messages name a node by its label and its id: a label may be cut, an id never (when two
labels are equal the id is the only way to tell the nodes apart, and to grep for them)."""

from __future__ import annotations

from flowdrop_lsp.core.analysis import analyze
from tests.support.builders import node, tool_edge, workflow

# Longer than any cut a message makes (40 and 60 characters), with emoji and CJK.
LONG = "aincient_flows_aincient_capability_read_🤖_ツール_content_entity_revisions"
IDS = [f"{LONG}.1", f"{LONG}.2", f"{LONG}.3"]
LABEL = "Read " + "x" * 80  # a label this long may be cut


def _texts(text: str) -> list[str]:
    found = analyze(text).findings
    return [f.message for f in found] + [fix.title for f in found for fix in f.fixes]


def test_cmp9_messages_and_fix_titles_name_ids_whole() -> None:
    text = workflow(
        [*(node(i, label=LABEL) for i in IDS), node("agent", "agent", "Agent")],
        [tool_edge(i, "agent") for i in IDS],
    )
    texts = _texts(text)
    assert texts
    for node_id in IDS:
        assert any(f"({node_id})" in t for t in texts), node_id
    for t in texts:
        assert "…)" not in t, t  # an id in parentheses, cut


def test_other_rules_name_ids_whole() -> None:
    text = workflow(
        [node(IDS[0], label=LABEL), node("agent", "agent", "Agent")],
        [tool_edge(IDS[0], "agent")],
    )
    (message,) = [f.message for f in analyze(text).findings if f.code == "FD-LLM-NAME"]
    assert f"({IDS[0]})" in message
