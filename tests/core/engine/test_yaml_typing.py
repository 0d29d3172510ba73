"""Typing in Drupal YAML keeps the other squiggles: a label, a key, a whole node item typed
character by character into a real workflow (and into one with emoji and CJK labels). At every
keystroke the engine's incremental findings equal a from-scratch read of that text, the
unrelated CMP-9 findings are there, and the re-read stays local (no whole re-read while a line
is broken)."""

from __future__ import annotations

import pytest

from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.drupal import audit_agent_with_collision, tool, workflow
from tests.support.engine import comparable

COLLIDING = {
    "aincient_flows_aincient_capability_list_pages.1",
    "aincient_flows_aincient_capability_read_meta_tags.1",
}


def type_into(text: str, at: int, typed: str, colliding: set[str]) -> None:
    """Type `typed` at `at`, one character per edit, checking every state."""
    document = WorkflowDocument(text, syntax="yaml")
    document.findings()
    for index, char in enumerate(typed):
        document.apply_edit(at + index, at + index, char)
        state = document.text
        got = comparable(document)
        assert got == comparable(WorkflowDocument(state, syntax="yaml")), repr(typed[: index + 1])
        nodes = {f.node for f in document.findings() if f.code == "CMP-9"}
        assert colliding <= nodes, (typed[: index + 1], document.findings())
        assert not document.stats.full_reread, repr(typed[: index + 1])
    assert document.incremental_failures == []


def colliding_nodes(text: str) -> set[str]:
    document = WorkflowDocument(text, syntax="yaml")
    return {f.node for f in document.findings() if f.code == "CMP-9" and f.node}


REAL = audit_agent_with_collision()
REAL_COLLIDING = colliding_nodes(REAL)
NEW_NODE = tool("http_request.9", "'Fetch 数据 🤖'").replace("  -\n", "\n  -\n", 1).rstrip("\n")


def test_the_real_workflow_has_the_planted_collision() -> None:
    assert len(REAL_COLLIDING) == 2


@pytest.mark.parametrize(
    ("anchor", "typed"),
    [
        ("      label: 'Chat Input'", "x 'Chat input 2 数据 🤖'"),  # a label, its quotes included
        ("      label: 'Boolean Gateway'", "\n      description: 'Decides' "),  # a new key
        (
            "        node_type_id: boolean_gateway\n    measured:\n      width: 280\n      height: 381",
            NEW_NODE,
        ),
        (
            # At the start of the next item's `-` line: that `-` is pushed off the items'
            # column (`   -`, `    -`…) and back at each line typed.
            "        node_type_id: boolean_gateway\n    measured:\n      width: 280\n      height: 381\n",
            NEW_NODE.lstrip("\n") + "\n",
        ),
    ],
    ids=["label", "key", "node item", "node item before a marker"],
)
def test_typing_in_the_real_workflow_keeps_the_collision(anchor: str, typed: str) -> None:
    at = REAL.index(anchor) + len(anchor)
    type_into(REAL, at, typed, REAL_COLLIDING)


EMOJI = workflow("'Web Search 🤖'", "'web-search 🤖'", "'数据 ラベル'")


@pytest.mark.parametrize(
    ("anchor", "typed"),
    [
        ("      label: '数据 ラベル", " 新しい 🤖'"),
        ("      label: '数据 ラベル'", "\n      描述: '数据 🤖'"),
        ("        node_type_id: http_request", NEW_NODE),
        (
            "label: '数据 ラベル'\n      metadata:\n        node_type_id: http_request",
            NEW_NODE,
        ),
    ],
    ids=["label", "key", "node item", "node item at the end"],
)
def test_typing_among_emoji_and_cjk_labels_keeps_the_collision(anchor: str, typed: str) -> None:
    at = EMOJI.index(anchor) + len(anchor)
    type_into(EMOJI, at, typed, colliding_nodes(EMOJI))
