"""Fingerprints (version 2) say what a finding is about, not how it is worded nor where it is:
a reworded message keeps them, another key, port, node or edge changes them, and so does
nothing inserted above (issue 38, item 5). The version-1 ones, kept to read old baselines,
are still the message-based ones."""

from __future__ import annotations

import json
from dataclasses import replace

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.baseline import (
    fingerprint_facts,
    fingerprints,
    message_fingerprints,
)
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.text.positions import Span
from tests.support.builders import node, workflow

# Edges of several rules (CMP-5, R13, R8, R12, EDGE-5), a schema error on a node and one on an
# edge.
EDGES = [
    {"id": "e1", "source": "fetch", "target": "post"},
    {"id": "e2", "source": "fetch", "target": "post"},
    {"id": "e3", "source": "ghost", "target": "post"},
    {"id": "e4", "source": "post", "target": "post"},
    {"id": "e5", "source": "fetch", "target": "post", "data": {"edgeType": "wormhole"}},
    {"id": 7, "source": "post", "target": "fetch"},
]
NODES = [node("fetch", label="Fetch"), node("post", label=42)]


def _findings(nodes: list[dict[str, object]], edges: list[dict[str, object]]) -> list[Finding]:
    return list(analyze(workflow(nodes, edges)).findings)


def _by_code(findings: list[Finding]) -> dict[str, list[str]]:
    prints: dict[str, list[str]] = {}
    for finding, print_ in zip(findings, fingerprints(findings, "w.json"), strict=True):
        prints.setdefault(finding.code, []).append(print_)
    return prints


def test_the_workflow_has_the_findings_the_tests_below_lean_on() -> None:
    codes = sorted(f.code for f in _findings(NODES, EDGES))
    assert codes == ["CMP-5", "EDGE-5", "FD-SCHEMA", "FD-SCHEMA", "R12", "R13", "R13", "R8"]


def test_a_reworded_message_keeps_every_fingerprint() -> None:
    findings = _findings(NODES, EDGES)
    reworded = [replace(f, message=f"reworded: {f.message}; did you mean 'x'?") for f in findings]
    assert fingerprints(reworded, "w.json") == fingerprints(findings, "w.json")
    # The version-1 fingerprints (a version-1 baseline's) were the message's: they change.
    old, old_reworded = (
        message_fingerprints(findings, "w.json"),
        message_fingerprints(reworded, "w.json"),
    )
    assert all(a != b for a, b in zip(old, old_reworded, strict=True))


def test_elements_inserted_above_keep_every_fingerprint() -> None:
    """A node and an edge inserted first move every line and every edge's index (`edge.3`
    becomes `edge.4`, `edges[5]` `edges[6]`): the fingerprints do not move with them."""
    before = _findings(NODES, EDGES)
    moved = _findings(
        [node("notes", label="Notes"), *NODES],
        [{"id": "e0", "source": "notes", "target": "fetch"}, *EDGES],
    )
    assert [f.locator for f in moved if f.locator] != [f.locator for f in before if f.locator]
    assert [f.span for f in moved] != [f.span for f in before]
    assert _by_code(moved) == _by_code(before)


def test_the_edges_of_one_node_are_told_apart_by_their_ends() -> None:
    """Two unknown edge types into the same node: not one fact counted twice, but two edges
    (removing the first keeps the second's fingerprint)."""
    edges = [
        {"id": "a", "source": "fetch", "target": "post", "data": {"edgeType": "wormhole"}},
        {"id": "b", "source": "post", "target": "post", "data": {"edgeType": "tunnel"}},
    ]
    nodes = [node("fetch", label="Fetch"), node("post", label="Post")]
    both = [f for f in _findings(nodes, edges) if f.code == "EDGE-5"]
    second = [f for f in _findings(nodes, edges[1:]) if f.code == "EDGE-5"]
    prints = fingerprints(both, "w.json")
    assert len(set(prints)) == 2 and all(p.endswith(":1") for p in prints)
    assert fingerprints(second, "w.json") == prints[1:]


def _config_finding(key: str, message: str, *, node_id: str = "fetch") -> Finding:
    return Finding(
        "R6.c",
        Severity.WARNING,
        message,
        Span(10, 14),
        node=node_id,
        locator=f"node.{node_id}.config.{key}",
    )


def test_another_key_node_identity_or_file_changes_the_fingerprint() -> None:
    one = _config_finding("timout", "config key 'timout' is unknown; did you mean 'timeout'?")
    same = _config_finding("timout", "config key 'timout' is not a parameter")
    assert fingerprints([one], "w.json") == fingerprints([same], "w.json")
    others = [
        _config_finding("urll", one.message),
        _config_finding("timout", one.message, node_id="post"),
        replace(one, identity=("port", "out")),
        replace(one, locator_code="R6_CONFIG_UNKNOWN"),
        replace(one, code="R6.a"),
    ]
    mine = fingerprints([one], "w.json")
    for other in others:
        assert fingerprints([other], "w.json") != mine, other
    assert fingerprints([one], "x.json") != mine


def test_equal_facts_are_told_apart_by_their_occurrence() -> None:
    one = _config_finding("timout", "a")
    prints = fingerprints([one, replace(one, message="b", span=Span(30, 34))], "w.json")
    assert [p.split(":")[1] for p in prints] == ["1", "2"] and prints[0] != prints[1]


def test_tool_name_rules_keep_their_facts_and_their_fingerprints() -> None:
    """CMP-9 (and FD-LLM-NAME, FD-TOOL-ROUTE) were identified by tool name and consumer in
    version 1 already: their fingerprints did not change, whatever the message."""
    cmp9 = Finding(
        "CMP-9",
        Severity.ERROR,
        "tool name collides",
        Span(3, 9),
        node="search",
        extra=(("tool_name", "web_search"), ("consumer", "agent")),
    )
    assert fingerprint_facts(cmp9, "w.json") == ("CMP-9", "w.json", "search", "web_search", "agent")
    assert fingerprints([cmp9], "w.json") == message_fingerprints([cmp9], "w.json")


def test_positions_are_no_part_of_the_facts() -> None:
    """No fact of any finding of the workflow is an edge's or an element's index."""
    for finding in _findings(NODES, EDGES):
        facts = json.dumps(fingerprint_facts(finding, "w.json"))
        assert "edge." not in facts.replace('"edge"', ""), facts
        assert "[" not in facts.strip("[]"), facts
