"""EDGE-5 / EDGE-1: which edges are tool edges (docs/domain.md §2)."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.tool_edges import classify_tool_edge
from flowdrop_lsp.core.findings import Severity
from tests.support.builders import at, findings, node, token_span, workflow

SETTINGS = Settings()


@pytest.mark.parametrize(
    ("handle", "is_tool"),
    [
        ("agent.1-input-tool", True),
        ("agent_1-input-tool", True),
        ("agent.1-input-tool_calls", False),
        ("agent.1-input-tools", False),
        ("agent.1-input-toolbox", False),
        ("agent.1-input-tool-extra", False),
        ("agent.1-input-message", False),
        ("agent.1-output-tool", False),
        ("agent.1-INPUT-TOOL", False),
        ("-input-tool", True),
        ("input-tool", False),
        ("", False),
        (None, False),
    ],
)
def test_undeclared_edge_is_classified_by_exact_handle_suffix(
    handle: str | None, is_tool: bool
) -> None:
    assert classify_tool_edge(None, handle, SETTINGS) is is_tool


@pytest.mark.parametrize("declared", ["data", "trigger", "loopback", "agent_result"])
def test_recognised_non_tool_declaration_beats_a_tool_handle(declared: str) -> None:
    assert classify_tool_edge(declared, "agent.1-input-tool", SETTINGS) is False


@pytest.mark.parametrize("handle", [None, "agent.1-input-message", "agent.1-input-tool_calls"])
def test_tool_availability_declaration_beats_a_non_tool_handle(handle: str | None) -> None:
    assert classify_tool_edge("tool_availability", handle, SETTINGS) is True


def _doc(edge_data: object, target_handle: str | None) -> str:
    """Two same-named tools wired to one agent; the first edge carries `edge_data` and
    `target_handle`, the second is a plain declared tool edge."""
    first: dict[str, object] = {"source": "a", "target": "agent"}
    if target_handle is not None:
        first["targetHandle"] = target_handle
    if edge_data is not ...:
        first["data"] = edge_data
    second = {"source": "b", "target": "agent", "data": {"edgeType": "tool_availability"}}
    return workflow(
        [node("a", label="Search"), node("b", label="search"), node("agent", "agent")],
        [first, second],
    )


def _is_tool(edge_data: object, target_handle: str | None) -> bool:
    analysis = analyze(_doc(edge_data, target_handle))
    return analysis.workflow.edges[0].is_tool


def test_declaration_decides_in_both_directions_in_a_document() -> None:
    # A recognised non-tool declaration with a tool handle: NOT a tool edge, so no collision.
    text = _doc({"edgeType": "data"}, "agent-input-tool")
    assert analyze(text).workflow.edges[0].is_tool is False
    assert findings(text, "CMP-9") == []
    assert findings(text, "EDGE-5") == []
    # A tool declaration without any handle: a tool edge, so the collision is found.
    text = _doc({"edgeType": "tool_availability"}, None)
    assert {f.node for f in findings(text, "CMP-9")} == {"a", "b"}


@pytest.mark.parametrize(
    ("handle", "is_tool"),
    [("agent-input-tool", True), ("agent-input-tool_calls", False), (None, False)],
)
def test_unrecognised_declaration_is_refused_and_falls_back_to_the_handle(
    handle: str | None, is_tool: bool
) -> None:
    text = _doc({"edgeType": "tool"}, handle)
    assert _is_tool({"edgeType": "tool"}, handle) is is_tool
    edge5 = findings(text, "EDGE-5")
    assert len(edge5) == 1
    assert edge5[0].severity is Severity.ERROR
    assert edge5[0].span == token_span(text, '"tool"')
    assert at(text, edge5[0].span) == '"tool"'
    assert bool(findings(text, "CMP-9")) is is_tool


@pytest.mark.parametrize("edge_type", ["", 5, None, True, ["tool_availability"], {"x": 1}])
def test_empty_or_non_string_edge_type_is_no_declaration(edge_type: object) -> None:
    assert _is_tool({"edgeType": edge_type}, "agent-input-tool") is True
    assert _is_tool({"edgeType": edge_type}, "agent-input-data") is False
    assert findings(_doc({"edgeType": edge_type}, "agent-input-tool"), "EDGE-5") == []


@pytest.mark.parametrize("edge_data", [..., None, 5, "tool_availability", [], {}])
def test_edge_data_of_any_shape_leaves_the_handle_to_decide(edge_data: object) -> None:
    assert _is_tool(edge_data, "agent-input-tool") is True
    assert _is_tool(edge_data, "agent-input-other") is False


def test_editor_metadata_edge_type_is_only_a_hint() -> None:
    """`data.metadata.edgeType: "tool"` is styling; the handle decides."""
    assert _is_tool({"metadata": {"edgeType": "tool"}}, "agent-input-message") is False
    assert _is_tool({"metadata": {"edgeType": "tool"}}, "agent-input-tool") is True
    assert findings(_doc({"metadata": {"edgeType": "tool"}}, "agent-input-tool"), "EDGE-5") == []


def test_non_string_target_handle_is_not_a_tool_handle() -> None:
    text = json.dumps(
        {
            "nodes": [node("a", label="S"), node("b", label="S"), node("agent", "agent")],
            "edges": [
                {"source": "a", "target": "agent", "targetHandle": 7},
                {"source": "b", "target": "agent", "targetHandle": "agent-input-tool"},
            ],
        }
    )
    edges = analyze(text).workflow.edges
    assert [e.is_tool for e in edges] == [False, True]


def test_configured_edge_types_extend_the_recognised_set() -> None:
    settings = Settings().with_overrides({"extend-edge-types": ["tool"]})
    text = _doc({"edgeType": "tool"}, "agent-input-tool")
    assert findings(text, "EDGE-5", settings) == []
    # "tool" is now a recognised declaration that is not tool_availability: not a tool edge.
    assert analyze(text, settings).workflow.edges[0].is_tool is False
