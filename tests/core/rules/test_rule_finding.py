"""`Rule.finding`, the one way a rule makes a finding: its code and default severity stamped,
the spec's locator made from the edge or the node's config key, as every rule wrote by hand."""

from __future__ import annotations

from dataclasses import replace

from flowdrop_lsp.core.domain.model import NO_EDGE_SPANS, Edge, SpanDetail, not_an_object_node
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import Rule, node_locator
from flowdrop_lsp.core.rules.document import SCHEMA_RULE
from flowdrop_lsp.core.text.positions import Span

RULE = Rule("FD-X", "X", Severity.WARNING, "A rule for the test.")
SPAN = Span(3, 7)
NODE = replace(not_an_object_node(0, SPAN), id="fetch")


def _edge(index: int) -> Edge:
    return Edge(index, SPAN, None, "a", "b", None, None, None, False, SpanDetail(NO_EDGE_SPANS))


def test_code_and_default_severity_are_stamped() -> None:
    assert RULE.finding(SPAN, "said") == Finding("FD-X", Severity.WARNING, "said", SPAN)
    assert RULE.finding(SPAN, "said", severity=Severity.ERROR).severity == Severity.ERROR


def test_a_config_key_locates_under_the_node() -> None:
    found = RULE.finding(SPAN, "said", node=NODE, key="url", locator_code="R6_X")
    assert (found.node, found.locator, found.locator_code) == (
        "fetch",
        "node.fetch.config.url",
        "R6_X",
    )
    assert RULE.finding(SPAN, "said", node="fetch", key="url").locator == "node.fetch.config.url"


def test_an_edge_locates_at_its_position_and_names_no_node_of_itself() -> None:
    found = RULE.finding(SPAN, "said", edge=_edge(4))
    assert (found.node, found.locator) == (None, "edge.4")
    assert RULE.finding(SPAN, "said", node="b", edge=_edge(4)).node == "b"


def test_any_other_locator_is_given() -> None:
    assert RULE.finding(SPAN, "said", node=NODE).locator is None  # a node alone locates nothing
    assert RULE.finding(SPAN, "s", locator=node_locator("fetch")).locator == "node.fetch"


def test_fd_schema_groups_by_what_it_is_about_not_its_wording() -> None:
    group = SCHEMA_RULE.cap_group
    assert group is not None
    element = SCHEMA_RULE.finding(SPAN, "edges[3].source: x", identity=("edges", "a", "b"))
    assert group(element) == ("FD-SCHEMA", "edges")
    assert group(SCHEMA_RULE.finding(SPAN, "y", node="fetch")) == ("FD-SCHEMA", "nodes")
    assert group(SCHEMA_RULE.finding(SPAN, "document: z")) == ("FD-SCHEMA", "document")
