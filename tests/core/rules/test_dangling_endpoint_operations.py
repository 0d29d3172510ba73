"""R8's fixes as operations (issue 37): an edge whose end names no node is pointed back at the
node its own handle names (unsafe: a guess, chosen), or removed (unsafe) — in a copy of the real
workshop workflow, as Drupal YAML and as JSON. Each fix's operations, applied to the plain
workflow, give what its edits give, and the finding is gone."""

from __future__ import annotations

import json

import pytest
import yaml

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.domain.ports import Direction
from flowdrop_lsp.core.findings import Applicability, Finding
from flowdrop_lsp.core.operations import Remove, Update
from flowdrop_lsp.core.rules.dangling_endpoint import handle_node
from tests.support.builders import node, workflow
from tests.support.config_site import in_syntax as _in
from tests.support.launch import corpus_yaml, planted
from tests.support.operation_cases import applied as _applied
from tests.support.operation_cases import fix_titled as _fix
from tests.support.operation_cases import read as _load

CODE = "R8"
SYNTAXES = ("yaml", "json")
WORKSHOP = corpus_yaml("workshop_one_ai_call")
POINT_TARGET = "Point the edge at 'chat_output.1'"
POINT_SOURCE = "Point the edge at 'chat_input.1'"
REMOVE = "Remove the edge"


def _found(text: str, syntax: str) -> list[Finding]:
    return [f for f in analyze(text, syntax=syntax).findings if f.code == CODE]


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_missing_target_is_pointed_back_at_the_node_its_handle_names(syntax: str) -> None:
    text = _in(syntax, planted(WORKSHOP, "target: chat_output.1\n", "target: chat_output.2\n"))
    (finding,) = _found(text, syntax)
    assert finding.message == "edge target 'chat_output.2' is not defined in nodes"
    assert [fix.title for fix in finding.fixes] == [POINT_TARGET, REMOVE]
    point = _fix(finding, POINT_TARGET)
    assert not point.preferred and point.applicability is Applicability.UNSAFE
    assert point.destructive is None
    # A guess between two repairs: neither `--fix` nor `--fix --unsafe-fixes` picks one.
    assert finding.applied_fix() is None and finding.applied_fix(True) is None
    (op,) = point.operations
    assert isinstance(op, Update) and (op.scope, op.patch) == ("edge", {"target": "chat_output.1"})
    fixed = _applied(text, syntax, point)
    assert _found(fixed, syntax) == []
    assert _load(fixed, syntax) == yaml.safe_load(WORKSHOP)
    # Only the end's value is written, in the file's own style.
    (edit,) = point.edits
    assert edit.new_text == ("chat_output.1" if syntax == "yaml" else '"chat_output.1"')


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_missing_source_is_pointed_back_at_the_node_its_handle_names(syntax: str) -> None:
    text = _in(syntax, planted(WORKSHOP, "source: chat_input.1\n", "source: chat_input.9\n"))
    (finding,) = _found(text, syntax)
    assert finding.message == "edge source 'chat_input.9' is not defined in nodes"
    point = _fix(finding, POINT_SOURCE)
    assert point.applicability is Applicability.UNSAFE
    (op,) = point.operations
    assert isinstance(op, Update) and op.patch == {"source": "chat_input.1"}
    fixed = _applied(text, syntax, point)
    assert _found(fixed, syntax) == []
    assert _load(fixed, syntax) == yaml.safe_load(WORKSHOP)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_removing_the_edge(syntax: str) -> None:
    text = _in(syntax, planted(WORKSHOP, "target: chat_output.1\n", "target: chat_output.2\n"))
    (finding,) = _found(text, syntax)
    remove = _fix(finding, REMOVE)
    assert not remove.preferred and remove.applicability is Applicability.UNSAFE
    assert remove.destructive == "the edge is deleted"
    (op,) = remove.operations
    assert isinstance(op, Remove) and op.target.kind == "edge"
    fixed = _applied(text, syntax, remove)
    assert _found(fixed, syntax) == []
    expected = yaml.safe_load(WORKSHOP)
    del expected["edges"][1]
    assert _load(fixed, syntax) == expected


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_handle_naming_no_existing_node_offers_the_removal_only(syntax: str) -> None:
    missing = planted(WORKSHOP, "target: chat_output.1\n", "target: chat_output.2\n")
    text = _in(
        syntax,
        planted(
            missing,
            "targetHandle: chat_output.1-input-message\n",
            "targetHandle: chat_output.2-input-message\n",
        ),
    )
    (finding,) = _found(text, syntax)
    assert [fix.title for fix in finding.fixes] == [REMOVE]
    assert finding.applied_fix() is None


def test_the_only_edge_offers_the_pointing_and_no_removal() -> None:
    text = workflow(
        [node("a", label="A"), node("b", label="B")],
        [{"source": "a", "target": "c", "sourceHandle": "a-output-x", "targetHandle": "b-input-y"}],
    )
    (finding,) = _found(text, "json")
    assert [fix.title for fix in finding.fixes] == ["Point the edge at 'b'"]
    fixed = _applied(text, "json", finding.fixes[0])
    assert json.loads(fixed)["edges"][0]["target"] == "b"
    assert _found(fixed, "json") == []


def test_the_node_a_handle_names_is_read_as_ports_reads_it() -> None:
    nodes = {"chat_output.1", "a-input-b", "x"}
    exists = nodes.__contains__
    assert handle_node("chat_output.1-input-message", Direction.INPUT, exists) == "chat_output.1"
    # A node id holding a marker: the handle still names it.
    assert handle_node("a-input-b-input-port", Direction.INPUT, exists) == "a-input-b"
    # The other side's marker, an empty port, no handle: no node.
    assert handle_node("x-output-port", Direction.INPUT, exists) is None
    assert handle_node("x-input-", Direction.INPUT, exists) is None
    assert handle_node(None, Direction.OUTPUT, exists) is None
    assert handle_node("missing-output-port", Direction.OUTPUT, exists) is None
