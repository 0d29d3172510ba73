"""Navigation queries on the engine's analysis: id occurrences (declaration, endpoints, handles,
edge ids), rename edits that keep JSON and YAML valid, symbols by role, completion context."""

from __future__ import annotations

import json

import pytest
import yaml

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.fixes import apply_edits
from flowdrop_lsp.core.ide.completion_context import (
    Slot,
    candidates,
    completion_context,
    written_value,
)
from flowdrop_lsp.core.ide.edge_ids import spelled_ids
from flowdrop_lsp.core.ide.navigation import Kind, RenameRefused, navigation_index, rename_edits
from flowdrop_lsp.core.ide.symbols import Role, matches_query, node_symbols
from tests.support.samples import (
    AGENT,
    SEARCH,
    _edge,
    _node,
    json_text,
    navigation_workflow,
    yaml_text,
)


def document(syntax: str) -> WorkflowDocument:
    return WorkflowDocument(json_text() if syntax == "json" else yaml_text(), syntax=syntax)


@pytest.mark.parametrize("syntax", ["json", "yaml"])
def test_every_occurrence_of_a_node_id_spells_it(syntax: str) -> None:
    doc = document(syntax)
    found = navigation_index(doc).occurrences(AGENT)
    kinds = [o.kind for o in found]
    assert kinds.count(Kind.DECLARATION) == 1
    assert kinds.count(Kind.TARGET) == 2 and kinds.count(Kind.TARGET_HANDLE) == 2
    assert kinds.count(Kind.EDGE_ID) == 4  # each edge id spells the target and its handle
    assert all(doc.text[o.span.start : o.span.end] == AGENT for o in found)
    assert [o.span.start for o in found] == sorted(o.span.start for o in found)


@pytest.mark.parametrize("syntax", ["json", "yaml"])
def test_the_id_under_a_position(syntax: str) -> None:
    doc = document(syntax)
    index = navigation_index(doc)
    text = doc.text
    handle = text.index(f"{SEARCH}-output-tool")
    assert index.occurrence_at(handle + 1).node_id == SEARCH  # type: ignore[union-attr]
    assert index.occurrence_at(handle + len(SEARCH) + 3) is None  # "-output-tool" is no id
    target = text.index("toolbox.1", text.index("source"))  # an edge's target
    occurrence = index.occurrence_at(target + 2)
    assert occurrence is not None and occurrence.node_id == "toolbox.1"
    (definition,) = index.definitions("toolbox.1")
    assert definition.span.start == text.index("toolbox.1")
    assert index.occurrence_at(text.index("Tool Box")) is None  # a label is not an id


def test_an_id_inside_a_port_name_or_a_longer_id_is_not_embedded() -> None:
    edge_id = "xy-edge__datadata-output-x-data.2data.2-input-data"
    spelled = spelled_ids(edge_id, "data", "data.2", "data-output-x", "data.2-input-data")
    assert spelled == [(9, "data"), (13, "data"), (27, "data.2"), (33, "data.2")]


# Ids that the prefix `xy-edge__`, a handle's `-output-` or another id spell too.
AWKWARD_IDS = ["x", "y", "g", "-", "_", "e", "edge", "d", "🤖", "代理", "xy-edge__"]


def _edge_layouts(source: str, target: str) -> list[dict]:
    """One edge per layout editors write (the editor's, Drupal's shorter one, dashed)."""
    editor, short, dashed = _edge(source, target), _edge(source, target), _edge(source, target)
    short["id"] = f"xy-edge__{source}tool-{target}tool"
    dashed["id"] = f"{source}-{source}-output-tool-{target}-{target}-input-tool"
    return [editor, short, dashed]


def _awkward_workflow(old: str) -> dict:
    return {
        "nodes": [_node(old, "http_request", "Web"), _node("agent", "ai_agent", "Agent")],
        "edges": [*_edge_layouts(old, "agent"), *_edge_layouts("agent", old)],
    }


@pytest.mark.parametrize("syntax", ["json", "yaml"])
@pytest.mark.parametrize("old", AWKWARD_IDS)
def test_a_rename_rewrites_the_ids_parts_of_an_edge_id_never_the_prefix(
    syntax: str, old: str
) -> None:
    data = _awkward_workflow(old)
    text = (
        json.dumps(data, indent=2, ensure_ascii=False)
        if syntax == "json"
        else yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    )
    doc = WorkflowDocument(text, syntax=syntax)
    new = apply_edits(text, rename_edits(doc, old, "web"))
    loaded = json.loads(new) if syntax == "json" else yaml.safe_load(new)
    assert loaded == _awkward_workflow("web")  # the prefix and agent's parts as they were


@pytest.mark.parametrize("old", AWKWARD_IDS)
def test_definition_and_references_from_an_edge_id(old: str) -> None:
    text = json.dumps(_awkward_workflow(old), indent=2, ensure_ascii=False)
    index = navigation_index(WorkflowDocument(text))
    edge_id = f'"xy-edge__{old}{old}-output-tool-agentagent-input-tool"'
    start = text.index(edge_id) + 1
    assert index.occurrence_at(start + 2) is None  # inside the prefix
    for at in (len("xy-edge__"), len(f"xy-edge__{old}")):  # the source, its handle
        occurrence = index.occurrence_at(start + at)
        assert occurrence is not None and occurrence.node_id == old
        assert occurrence.kind is Kind.EDGE_ID
        assert text[occurrence.span.start : occurrence.span.end] == old
    target = index.occurrence_at(start + len(f"xy-edge__{old}{old}-output-tool-"))
    assert target is not None and target.node_id == "agent"
    (definition,) = index.definitions(old)
    assert text[definition.span.start : definition.span.end] == old
    # The declaration; in each of the 6 edges the endpoint and its handle, and in the edge ids
    # the id twice (the editor's and the dashed layout) or once (Drupal's ports-only layout).
    assert len(index.occurrences(old)) == 1 + 6 * 2 + 2 * (2 + 1 + 2)


def test_an_edge_id_in_no_known_shape_is_renamed_only_where_a_half_matches() -> None:
    data = _awkward_workflow("x")
    stale_target = "xy-edge__xx-output-tool-other.1other.1-input-tool"
    data["edges"][0]["id"] = stale_target  # the target was reconnected: its half is stale
    data["edges"][1]["id"] = "x-x-x"  # no shape at all
    text = json.dumps(data, indent=2, ensure_ascii=False)
    new = json.loads(apply_edits(text, rename_edits(WorkflowDocument(text), "x", "web")))
    assert new["edges"][0]["id"] == "xy-edge__webweb-output-tool-other.1other.1-input-tool"
    assert new["edges"][1]["id"] == "x-x-x"


def _same_findings_modulo(old: str, new: str, before: str, after: str, syntax: str) -> None:
    def shown(text: str) -> list[tuple[str, str]]:
        return [(f.code, f.message) for f in analyze(text, syntax=syntax).findings]

    assert [(c, m.replace(before, after)) for c, m in shown(old)] == shown(new)


@pytest.mark.parametrize("syntax", ["json", "yaml"])
@pytest.mark.parametrize("new_id", ["agent.2", "ツール 🤖 2", 'say "hi": 1', "123"])
def test_rename_everywhere_keeps_the_document_valid(syntax: str, new_id: str) -> None:
    doc = document(syntax)
    old = doc.text
    new = apply_edits(old, rename_edits(doc, AGENT, new_id))
    loaded = json.loads(new) if syntax == "json" else yaml.safe_load(new)
    expected = json.loads(
        json.dumps(navigation_workflow()).replace(json.dumps(AGENT)[1:-1], json.dumps(new_id)[1:-1])
    )
    assert loaded == expected
    _same_findings_modulo(old, new, AGENT, new_id, syntax)


def test_a_plain_rename_edits_only_the_ids_characters() -> None:
    doc = document("json")
    edits = rename_edits(doc, "toolbox.1", "box.1")
    assert {doc.text[e.span.start : e.span.end] for e in edits} == {"toolbox.1"}
    assert {e.new_text for e in edits} == {"box.1"}


def test_yaml_rename_keeps_plain_scalars_plain_and_quotes_when_needed() -> None:
    doc = document("yaml")
    plain = apply_edits(doc.text, rename_edits(doc, "calc.1", "calculator.9"))
    assert "source: calculator.9\n" in plain and "- id: calculator.9\n" in plain
    quoted = apply_edits(doc.text, rename_edits(doc, "calc.1", "calc: 1"))
    assert "source: 'calc: 1'\n" in quoted
    assert yaml.safe_load(quoted)["nodes"][4]["id"] == "calc: 1"


def test_an_escaped_token_is_rewritten_whole_and_stays_valid() -> None:
    text = json_text().replace('"source": "calc.1"', '"source": "calc\\u002e1"')
    doc = WorkflowDocument(text)
    new = apply_edits(text, rename_edits(doc, "calc.1", "c.2"))
    assert json.loads(new)["edges"][2]["source"] == "c.2"


@pytest.mark.parametrize("syntax", ["json", "yaml"])
def test_rename_refuses_an_existing_or_empty_id(syntax: str) -> None:
    doc = document(syntax)
    with pytest.raises(RenameRefused, match='"toolbox.1" already exists'):
        rename_edits(doc, SEARCH, "toolbox.1")
    with pytest.raises(RenameRefused, match="empty"):
        rename_edits(doc, SEARCH, "")
    assert rename_edits(doc, SEARCH, SEARCH) == []


def test_a_stale_edge_id_is_left_alone() -> None:
    data = navigation_workflow()
    data["edges"][1]["id"] = "xy-edge__other.1other.1-output-tool-toolbox.1toolbox.1-input-tool"
    text = json.dumps(data, indent=2, ensure_ascii=False)
    doc = WorkflowDocument(text)
    new = json.loads(apply_edits(text, rename_edits(doc, SEARCH, "s.2")))
    assert new["edges"][1]["id"].startswith("xy-edge__other.1other.1-output-tool-")


def test_answers_follow_incremental_edits() -> None:
    doc = document("json")
    assert navigation_index(doc).occurrences(AGENT)
    label = doc.text.index("Chat 💬")
    doc.apply_edit(label, label, "New ")  # inside one node: re-read incrementally
    assert not doc.stats.full_reread
    after = navigation_index(doc).occurrences(AGENT)
    assert len(after) == 9
    assert all(doc.text[o.span.start : o.span.end] == AGENT for o in after)
    declaration = doc.text.index('"id": "chat_input.1"')
    doc.apply_edit(declaration + 7, declaration + 17, "chat_start")  # rename by hand
    assert not doc.stats.full_reread
    assert navigation_index(doc).definitions("chat_start.1")
    assert not navigation_index(doc).definitions("chat_input.1")
    assert len(navigation_index(doc).occurrences("chat_input.1")) == 4  # the edge still uses it


def test_a_self_edge_is_counted_once() -> None:
    data = navigation_workflow()
    data["edges"].append(_edge("calc.1", "calc.1", "loop"))
    doc = WorkflowDocument(json.dumps(data, indent=2))
    found = navigation_index(doc).occurrences("calc.1", frozenset({Kind.SOURCE, Kind.TARGET}))
    assert len(found) == 3


@pytest.mark.parametrize("syntax", ["json", "yaml"])
def test_symbols_by_role(syntax: str) -> None:
    roles = {s.node_id: s.role for s in node_symbols(document(syntax))}
    assert roles == {
        "chat_input.1": Role.OTHER,
        AGENT: Role.CONSUMER,
        "toolbox.1": Role.TOOLBOX,
        SEARCH: Role.TOOL,
        "calc.1": Role.TOOL,
    }


def test_fuzzy_query() -> None:
    assert matches_query("wsrch", "Web Search 🔎")
    assert matches_query("", None)
    assert not matches_query("xyz", "Web Search", AGENT)
    assert matches_query("検索", SEARCH)


def test_completion_context_in_json() -> None:
    doc = document("json")
    text = doc.text
    at = text.index('"target": "toolbox.1"') + len('"target": "tool')
    context = completion_context(doc, at)
    assert context is not None and context.slot is Slot.NODE_ID and context.typed == "tool"
    assert text[context.replace.start : context.replace.end] == "toolbox.1"
    assert context.quote == '"'
    assert completion_context(doc, text.index('"label"') + 3) is None
    type_at = text.index('"node_type_id": "') + len('"node_type_id": "')
    assert completion_context(doc, type_at).slot is Slot.NODE_TYPE  # type: ignore[union-attr]
    assert AGENT in candidates(doc, Slot.NODE_ID)
    assert "tool_availability" in candidates(doc, Slot.EDGE_TYPE)
    assert written_value(doc, '"', 'a"b') == 'a\\"b'
    assert written_value(doc, "", "a") == '"a"'


def test_completion_context_in_yaml() -> None:
    doc = document("yaml")
    text = doc.text
    at = text.index("target: toolbox.1") + len("target: tool")
    context = completion_context(doc, at)
    assert context is not None and context.slot is Slot.NODE_ID and context.typed == "tool"
    assert text[context.replace.start : context.replace.end] == "toolbox.1"
    assert written_value(doc, "", "calc.1") == "calc.1"
    assert written_value(doc, "", "a: b") == "'a: b'"
    assert written_value(doc, "'", "it's") == "it''s"


def test_a_yaml_rename_keeps_comments_and_flow_style() -> None:
    text = (
        "# A hand-written workflow: the comments and the flow style must survive a rename.\n"
        "nodes:\n"
        "  - id: calc.1  # the calculator\n"
        "    data: {label: Calculator}\n"
        "  - {id: agent.1, data: {label: Agent}}\n"
        "edges:\n"
        "  - {source: calc.1, target: agent.1, sourceHandle: calc.1-output-tool,"
        " targetHandle: agent.1-input-tool}\n"
    )
    doc = WorkflowDocument(text, syntax="yaml")
    renamed = apply_edits(text, rename_edits(doc, "calc.1", "calc, v2"))
    assert "# the calculator" in renamed and renamed.startswith("# A hand-written")
    loaded = yaml.safe_load(renamed)
    assert loaded["nodes"][0]["id"] == "calc, v2"
    assert loaded["edges"][0]["source"] == "calc, v2"
    assert loaded["edges"][0]["sourceHandle"] == "calc, v2-output-tool"
    assert loaded["edges"][0]["target"] == "agent.1"
    flow = apply_edits(text, rename_edits(doc, "agent.1", "agent.2"))
    assert "{id: agent.2, data: {label: Agent}}" in flow
