"""docs/domain.md §4 (a node's type) and §1 (the type id names a node without a label)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from flowdrop_lsp.core.analysis import analyze
from tests.support.builders import at, cmp9_by_node, handle_edge, node, tool_edge, workflow


def _type_of(raw_node: dict[str, Any]) -> str | None:
    text = json.dumps({"nodes": [raw_node], "edges": []})
    return analyze(text).workflow.nodes[0].type_id


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ({"id": "n", "type": "http_request"}, "http_request"),
        (
            {"id": "n", "type": "universalNode", "data": {"metadata": {"id": "calculator"}}},
            "calculator",
        ),
        ({"id": "n", "type": "universalNode"}, None),
        ({"id": "n", "type": "toolbox", "data": {"metadata": {"node_type_id": "agent"}}}, "agent"),
        ({"id": "n", "type": "toolbox", "data": {"metadata": {"id": "agent"}}}, "toolbox"),
        (
            {
                "id": "n",
                "type": "universalNode",
                "data": {"metadata": {"node_type_id": "http_request", "id": "x"}},
            },
            "http_request",
        ),
        # Drupal: no top-level type at all.
        (
            {"id": "http_request.1", "data": {"metadata": {"node_type_id": "http_request"}}},
            "http_request",
        ),
        # Empty or non-string candidates are skipped.
        (
            {"id": "n", "type": "", "data": {"metadata": {"node_type_id": "", "id": "calculator"}}},
            "calculator",
        ),
        (
            {
                "id": "n",
                "type": 5,
                "data": {"metadata": {"node_type_id": None, "id": "calculator"}},
            },
            "calculator",
        ),
        ({"id": "n", "type": "agent", "data": {"metadata": "not an object"}}, "agent"),
        ({"id": "n", "data": "not an object"}, None),
        ({"id": "n"}, None),
    ],
)
def test_type_resolution_order(raw: dict[str, Any], expected: str | None) -> None:
    assert _type_of(raw) == expected


def test_drupal_shaped_toolbox_and_consumer_are_recognised() -> None:
    def drupal(node_id: str, type_id: str, label: str) -> dict[str, Any]:
        return {
            "id": node_id,
            "position": {"x": 0, "y": 0},
            "data": {"label": label, "metadata": {"node_type_id": type_id}},
        }

    text = workflow(
        [
            drupal("http_request.1", "http_request", "Fetch"),
            drupal("http_request.2", "http_request", "fetch"),
            drupal(
                "flowdrop_node_processor_toolbox.1", "flowdrop_node_processor_toolbox", "Tool Box"
            ),
            drupal("aincient_reason.1", "aincient_reason", "Reason"),
        ],
        [
            handle_edge("http_request.1", "flowdrop_node_processor_toolbox.1"),
            handle_edge("http_request.2", "flowdrop_node_processor_toolbox.1"),
            handle_edge("flowdrop_node_processor_toolbox.1", "aincient_reason.1"),
        ],
    )
    found = cmp9_by_node(text)
    assert set(found) == {"http_request.1", "http_request.2"}
    assert all(
        [c["route"] for c in dict(f.extra)["consumers"]] == [("flowdrop_node_processor_toolbox.1",)]
        for fs in found.values()
        for f in fs
    )


def test_editor_render_type_is_never_a_toolbox_or_name() -> None:
    """`type: universalNode` without metadata: no known type; two such unlabelled nodes have no
    type id either, so both are `unnamed_tool` and collide."""
    text = workflow(
        [node("x.1", "universalNode"), node("x.2", "universalNode"), node("agent", "agent")],
        [tool_edge("x.1", "agent"), tool_edge("x.2", "agent")],
    )
    found = cmp9_by_node(text)
    assert set(found) == {"x.1", "x.2"}
    assert dict(found["x.1"][0].extra)["tool_name"] == "unnamed_tool"


@pytest.mark.parametrize(
    "unlabelled",
    [
        {"id": "tool_one", "type": "http_request"},
        {"id": "tool_one", "type": "http_request", "data": {}},
        {"id": "tool_one", "type": "http_request", "data": {"label": ""}},
        {"id": "tool_one", "type": "http_request", "data": {"label": None}},
        {"id": "tool_one", "type": "http_request", "data": {"label": 42}},
        {
            "id": "tool_one",
            "type": "universalNode",
            "data": {"metadata": {"node_type_id": "http_request"}},
        },
    ],
)
def test_missing_or_empty_label_falls_back_to_the_type_id_not_the_node_id(
    unlabelled: dict[str, Any],
) -> None:
    text = workflow(
        [unlabelled, node("labelled", label="HTTP Request"), node("agent", "agent")],
        [tool_edge("tool_one", "agent"), tool_edge("labelled", "agent")],
    )
    nodes = {n.id: n for n in analyze(text).workflow.nodes}
    assert nodes["tool_one"].tool_name == "http_request"
    found = cmp9_by_node(text)
    assert set(found) == {"tool_one", "labelled"}
    assert dict(found["tool_one"][0].extra)["tool_name"] == "http_request"


def test_node_id_is_never_the_name() -> None:
    """Two unlabelled nodes whose ids would sanitize alike but whose types differ: no collision."""
    text = workflow(
        [
            node("web-search", "http_request"),
            node("web_search", "calculator"),
            node("agent", "agent"),
        ],
        [tool_edge("web-search", "agent"), tool_edge("web_search", "agent")],
    )
    assert cmp9_by_node(text) == {}


def test_finding_on_an_unlabelled_node_is_anchored_on_its_id() -> None:
    text = workflow(
        [node("t1", "calculator"), node("t2", "calculator"), node("agent", "agent")],
        [tool_edge("t1", "agent"), tool_edge("t2", "agent")],
    )
    found = cmp9_by_node(text)
    assert at(text, found["t1"][0].span) == '"t1"'
    assert at(text, found["t2"][0].span) == '"t2"'
