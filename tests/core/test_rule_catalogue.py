"""Every rule has a stable code, a summary, and an example here that produces it: adding a rule
without an example fails this test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flowdrop_lsp.core import analyze
from flowdrop_lsp.core.node_types import NodeTypeRegistry
from flowdrop_lsp.core.rules import ALL_RULES, RULES_BY_CODE
from flowdrop_lsp.core.settings import Settings
from tests.core.builders import node, tool_edge, workflow

EXAMPLES = {
    "FD-SYNTAX": '{"nodes": [}',
    "FD-DUPLICATE-KEY": '{"nodes": [], "edges": [], "edges": []}',
    "FD-NOT-WORKFLOW": '{"name": "package"}',
    "FD-SCHEMA": '{"nodes": [{"type": "agent"}], "edges": []}',
    "CMP-9": workflow(
        [node("a", label="A"), node("b", label="a")], [tool_edge("a", "x"), tool_edge("b", "x")]
    ),
    "CMP-10": workflow(
        [node("a", label="A"), node("h", "http_request", "H")], [tool_edge("a", "h")]
    ),
    "R2": workflow([node("a", label="A"), node("a", label="B")], []),
    "R8": workflow([], [tool_edge("a", "b")]),
    "EDGE-5": workflow(
        [node("a"), node("b")], [{"source": "a", "target": "b", "data": {"edgeType": "toool"}}]
    ),
    "FD-TOOLBOX-CYCLE": workflow(
        [node("t", "toolbox"), node("u", "toolbox")], [tool_edge("t", "u"), tool_edge("u", "t")]
    ),
    "FD-LLM-NAME": workflow([node("a", label="1st"), node("x", "agent")], [tool_edge("a", "x")]),
    "R12": workflow([node("a")], [{"source": "a", "target": "a"}]),
    "R13": workflow(
        [node("a"), node("b")], [{"source": "a", "target": "b"}, {"source": "a", "target": "b"}]
    ),
    "FD-UNKNOWN-NODE-TYPE": workflow([node("a", "http_reqest")], []),
    "FD-TOOL-ROUTE": workflow(
        [
            node("t", label="Web Search"),
            node("reason.1", "agent"),
            node("x", "data_extractor", data={"config": {"path": "$[0].name"}}),
            node(
                "switch_gateway.1",
                "switch_gateway",
                data={"config": {"branches": [{"name": "Maps", "value": "maps_lookup"}]}},
            ),
        ],
        [
            tool_edge("t", "reason.1"),
            {"source": "reason.1", "target": "x", "sourceHandle": "reason.1-output-tool_calls"},
            {
                "source": "x",
                "target": "switch_gateway.1",
                "targetHandle": "switch_gateway.1-input-expression",
            },
        ],
    ),
}
# Rules that need more than the defaults: FD-UNKNOWN-NODE-TYPE only speaks with a registry.
SITE = NodeTypeRegistry.from_texts(
    [(Path("flowdrop_node_type.flowdrop_node_type.http_request.yml"), "id: http_request\n")]
)
SETTINGS = {"FD-UNKNOWN-NODE-TYPE": Settings().with_registry(SITE)}


def test_every_rule_has_an_example() -> None:
    assert set(EXAMPLES) == {rule.code for rule in ALL_RULES}


def test_rule_codes_are_unique_and_documented() -> None:
    assert len(RULES_BY_CODE) == len(ALL_RULES)
    for rule in ALL_RULES:
        assert rule.title and rule.summary and rule.anchor == "rule-" + rule.code.lower()


@pytest.mark.parametrize("code", sorted(EXAMPLES))
def test_example_produces_its_rule_with_its_default_severity(code: str) -> None:
    findings = analyze(EXAMPLES[code], SETTINGS.get(code, Settings())).findings
    found = [f for f in findings if f.code == code]
    assert found, [f.code for f in findings]
    assert {f.severity for f in found} == {RULES_BY_CODE[code].default_severity}


def test_examples_are_json_where_they_should_be() -> None:
    for code, text in EXAMPLES.items():
        if code not in {"FD-SYNTAX", "FD-DUPLICATE-KEY"}:
            json.loads(text)


def test_every_rule_module_is_registered_once_and_the_rest_is_derived() -> None:
    from pathlib import Path

    from flowdrop_lsp.core import rules

    folder = Path(rules.__file__).parent
    modules = {p.stem for p in folder.glob("*.py")} - {"__init__", "base"}
    registered = [m.__name__.rsplit(".", 1)[1] for m in rules.RULE_MODULES]
    assert sorted(registered) == sorted(modules) and len(set(registered)) == len(registered)
    checks = {rule.code for rule, _ in rules.GRAPH_RULES} | {
        rule.code for rule, _ in rules.EDGE_RULES
    }
    assert checks | {r.code for r in rules.DOCUMENT_RULES} == set(rules.RULES_BY_CODE)
    assert rules.rule_url("CMP-9", "https://x/README.md") == "https://x/README.md#rule-cmp-9"
