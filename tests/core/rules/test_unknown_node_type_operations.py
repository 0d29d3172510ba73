"""FD-UNKNOWN-NODE-TYPE's "Replace the node type", the choice among every type of the site that
FlowDrop's editor offers (`Finding.choices`), and its remedies kept between edits. (Its fixes as
operations, each place of the node naming the unknown type patched: tests/cases/
FD-UNKNOWN-NODE-TYPE.)"""

from __future__ import annotations

import difflib
import json

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Applicability, Finding
from flowdrop_lsp.core.operations import PICKED, Update, apply_operations, with_picked
from flowdrop_lsp.core.rules.unknown_node_type import closest_types
from tests.support.builders import in_syntax as _in
from tests.support.builders import node, plant, workflow
from tests.support.config_site import corpus_workflow, site_settings
from tests.support.operation_cases import applied as _applied
from tests.support.operation_cases import read as _load

CODE = "FD-UNKNOWN-NODE-TYPE"
SYNTAXES = ("yaml", "json")
TYPE_LINE = "        node_type_id: aincient_reason\n"
MISSPELT = "        node_type_id: aincient_reasn\n"


def _found(text: str, syntax: str) -> list[Finding]:
    settings = site_settings()
    return [f for f in analyze(text, settings, syntax=syntax).findings if f.code == CODE]


def test_the_node_type_choice_ranks_every_type_of_the_site() -> None:
    settings = site_settings()
    catalog = settings.node_type_catalog
    assert catalog is not None
    text = workflow([node("a", "chat_put", "Chat")], [])
    (finding,) = _found(text, "json")
    assert finding.fixes  # the close ones stay fixes
    (choice,) = finding.choices
    assert choice.title == "Replace the node type"
    assert choice.edits == () and choice.applicability is Applicability.UNSAFE
    assert choice.destructive is None and not choice.preferred
    assert choice.choice is not None and choice.choice.param == "node_type_id"
    options = choice.choice.options
    assert sorted(value for value, _label in options) == sorted(catalog.ids)
    ratios = [difflib.SequenceMatcher(None, "chat_put", value).ratio() for value, _ in options]
    assert ratios == sorted(ratios, reverse=True)
    assert options[0][0] in closest_types("chat_put", catalog)
    for value, label in options:
        definition = catalog.get(value)
        assert definition is not None
        assert label == (f"{value} — {definition.label}" if definition.label else value)
    (op,) = choice.operations
    assert isinstance(op, Update) and op.scope == "node" and op.patch == {"type": PICKED}
    picked = apply_operations(json.loads(text), with_picked(choice.operations, "chat_output"))
    assert picked["nodes"][0]["type"] == "chat_output"
    assert _found(json.dumps(picked), "json") == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_the_choice_where_the_type_is_named_inside_the_metadata(syntax: str) -> None:
    # A Drupal node names its type in `data.metadata`: the pick goes there, the rest of the
    # metadata kept (the editor's `updateNodeData` patches `metadata` whole).
    text = _in(syntax, plant(corpus_workflow("reason"), TYPE_LINE, MISSPELT))
    (finding,) = _found(text, syntax)
    (choice,) = finding.choices
    assert choice.choice is not None and choice.edits == ()
    picked = choice.choice.options[0][0]
    workflow = _load(text, syntax)
    after = apply_operations(workflow, with_picked(choice.operations, picked))
    node_id = finding.node
    (before_node,) = [n for n in workflow["nodes"] if n["id"] == node_id]
    (after_node,) = [n for n in after["nodes"] if n["id"] == node_id]
    assert after_node["data"]["metadata"] == {
        **before_node["data"]["metadata"],
        "node_type_id": picked,
    }


def test_the_remedies_kept_between_edits_equal_a_fresh_reads() -> None:
    settings = site_settings()
    text = workflow(
        [node("a", "chat_put", "Chat"), node("b", "chat_inptu", "In"), node("c", "http_reqest")],
        [],
    )
    document = WorkflowDocument(text, settings)
    assert [len(f.choices) for f in document.findings() if f.code == CODE] == [1, 1, 1]
    for old, new in [('"In"', '"Input 🤖"'), ('"chat_put"', '"chat_pt"'), ('"Chat"', '"C"')]:
        start = document.text.index(old)
        document.apply_edit(start, start + len(old), new)
        fresh = WorkflowDocument(document.text, settings).findings()
        assert document.findings() == fresh
        for finding in (f for f in fresh if f.code == CODE):
            for fix in finding.fixes:
                _applied(document.text, "json", fix)
    (renamed,) = [f for f in document.findings() if "'chat_pt'" in f.message]
    (choice,) = renamed.choices
    catalog = settings.node_type_catalog
    assert choice.choice is not None and catalog is not None
    assert choice.choice.options[0][0] in closest_types("chat_pt", catalog)
