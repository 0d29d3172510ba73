"""core/ide/service.py, asked directly with no protocol in sight: hover text, inlay hints, code
lenses and the showTools set, locations, symbols, completions, rename edits and fixes, on a
small workflow with emoji and CJK labels and ids, in JSON and Drupal YAML, before and after
an edit. Every span is in code points: it slices the text to exactly the token it is about."""

from __future__ import annotations

import json
from pathlib import PurePosixPath

import pytest
import yaml

from flowdrop_lsp.core.fixes import apply_edits
from flowdrop_lsp.core.ide.service import RenameRefused, Role, Slot, WorkflowService
from tests.support.samples import AGENT, SEARCH, json_text, yaml_text

SYNTAXES = ["json", "yaml"]


def service(syntax: str) -> tuple[str, WorkflowService]:
    text = json_text() if syntax == "json" else yaml_text()
    return text, WorkflowService(text, syntax=syntax)


def label_token(syntax: str, label: str) -> str:
    return json.dumps(label, ensure_ascii=False) if syntax == "json" else label


def loaded(syntax: str, text: str) -> dict:
    return json.loads(text) if syntax == "json" else yaml.safe_load(text)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_hover_on_a_tool_label_says_where_it_goes_in_markdown_or_plain_text(syntax: str) -> None:
    text, workflow = service(syntax)
    token = label_token(syntax, "Web Search 🔎")
    at = text.index(token) + len(token) - 1  # on the emoji
    markdown = workflow.hover(at, markdown=True)
    plain = workflow.hover(at, markdown=False)
    assert markdown is not None and plain is not None
    assert text[markdown.span.start : markdown.span.end] == token
    assert plain.span == markdown.span and markdown.markdown and not plain.markdown
    assert markdown.text.splitlines() == [
        f'**Tool** `web_search` — "Web Search 🔎" (`{SEARCH}`)',
        "",
        "Offered to 1 consumer:",
        "",
        f'- "研究エージェント" (`{AGENT}`), through "Tool Box" — ⚠ collides with "web-search" '
        "(`calc.1`)",
    ]
    assert plain.text.splitlines()[0] == f'Tool web_search — "Web Search 🔎" ({SEARCH})'


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_hover_on_a_consumer_is_its_tool_list_and_nothing_elsewhere(syntax: str) -> None:
    text, workflow = service(syntax)
    token = label_token(syntax, "研究エージェント")
    answer = workflow.hover(text.index(token) + 1, markdown=True)
    assert answer is not None and text[answer.span.start : answer.span.end] == token
    lines = answer.text.splitlines()
    assert (
        lines[0]
        == f'**Consumer** "研究エージェント" (`{AGENT}`) is offered 2 tools · ⚠ 1 collision'
    )
    assert f'- `web_search` ⚠ — "Web Search 🔎" (`{SEARCH}`), through "Tool Box"' in lines
    assert workflow.hover(0, markdown=True) is None  # the document's first character


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_inlay_hints_follow_the_labels_they_are_about(syntax: str) -> None:
    text, workflow = service(syntax)
    hints = workflow.inlay_hints(0, len(text))
    ends = {
        label: text.index(label_token(syntax, label)) + len(label_token(syntax, label))
        for label in ("研究エージェント", "Web Search 🔎", "web-search")
    }
    assert [(h.offset, h.label) for h in hints] == [
        (ends["研究エージェント"], "2 tools"),
        (ends["Web Search 🔎"], "→ web_search"),
        (ends["web-search"], "→ web_search"),
    ]
    # Only what is in the range asked for.
    start = ends["Web Search 🔎"] - 1
    assert [h.label for h in workflow.inlay_hints(start, start + 1)] == ["→ web_search"]


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_code_lens_sits_on_each_consumer_and_opens_its_tool_set(syntax: str) -> None:
    text, workflow = service(syntax)
    [lens] = workflow.code_lenses()
    assert lens.consumer == AGENT and lens.title == "2 tools · 1 collision"
    assert AGENT in text[lens.span.start : lens.span.end]
    tool_set = workflow.tool_set(AGENT)
    assert (
        tool_set is not None and tool_set.collisions == 1 and tool_set.label == "研究エージェント"
    )
    assert [(t.tool_name, t.node, t.label, t.route, t.colliding_with) for t in tool_set.tools] == [
        ("web_search", SEARCH, "Web Search 🔎", ("toolbox.1",), ("calc.1",)),
        ("web_search", "calc.1", "web-search", ("toolbox.1",), (SEARCH,)),
    ]
    assert tool_set.message == (
        'FlowDrop: "研究エージェント" is offered 2 tools (1 collision): '
        'web_search ← "Web Search 🔎" via Tool Box (collides); '
        'web_search ← "web-search" via Tool Box (collides)'
    )
    assert workflow.tool_set(SEARCH) is None and workflow.tool_set("missing") is None


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_locations_of_a_node_id_from_any_of_its_uses(syntax: str) -> None:
    text, workflow = service(syntax)
    on_edge = text.index(SEARCH, text.index("edges")) + 1  # inside the CJK id, in an edge
    occurrence = workflow.node_id_at(on_edge)
    assert occurrence is not None and occurrence.node_id == SEARCH
    [declaration] = workflow.definitions(SEARCH)
    assert text[declaration.start : declaration.end] == SEARCH
    assert declaration.start < text.index("edges")
    with_declaration = workflow.references(SEARCH, include_declaration=True)
    without = workflow.references(SEARCH, include_declaration=False)
    assert with_declaration == [declaration, *without] and len(without) == 2
    assert all(text[s.start : s.end] == SEARCH for s in with_declaration)
    highlights = workflow.highlights(SEARCH)
    assert [(h.span, h.is_declaration) for h in highlights] == [
        (declaration, True),
        *((span, False) for span in without),
    ]
    assert workflow.node_id_at(0) is None


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_rename_edits_rename_the_id_everywhere_and_refuse_a_merge(syntax: str) -> None:
    text, workflow = service(syntax)
    renamed = apply_edits(text, workflow.rename_edits(SEARCH, "検索.🔁2"))
    data = loaded(syntax, renamed)
    ids = [n["id"] for n in data["nodes"]]
    assert "検索.🔁2" in ids and SEARCH not in renamed
    assert data["edges"][1]["source"] == "検索.🔁2"
    assert data["edges"][1]["sourceHandle"] == "検索.🔁2-output-tool"
    with pytest.raises(RenameRefused, match="already exists"):
        workflow.rename_edits(SEARCH, "calc.1")
    with pytest.raises(RenameRefused, match="empty"):
        workflow.rename_edits(SEARCH, "")


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_the_outline_groups_nodes_by_role_then_the_edges(syntax: str) -> None:
    text, workflow = service(syntax)
    groups = workflow.outline()
    assert [(g.name, [m.name for m in g.members]) for g in groups] == [
        (Role.CONSUMER.value, ["研究エージェント"]),
        (Role.TOOLBOX.value, ["Tool Box"]),
        (Role.TOOL.value, ["Web Search 🔎", "web-search"]),
        (Role.OTHER.value, ["Chat 💬"]),
        (
            "Edges",
            [
                f"chat_input.1 → {AGENT}",
                f"{SEARCH} → toolbox.1",
                "calc.1 → toolbox.1",
                f"toolbox.1 → {AGENT}",
            ],
        ),
    ]
    search = groups[2].members[0]
    assert search.detail == f"{SEARCH} · http_request"
    assert "Web Search 🔎" in text[search.span.start : search.span.end]
    for group in groups:  # every member inside its group
        assert all(
            group.span.start <= m.span.start <= m.span.end <= group.span.end for m in group.members
        )
    assert [n.node_id for n in workflow.matching_nodes("wsr🔎", 10)] == [SEARCH]
    assert [n.node_id for n in workflow.matching_nodes("検索", 10)] == [SEARCH]
    assert len(workflow.matching_nodes("", 3)) == 3


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_completion_of_an_edge_source_offers_the_node_ids_written_for_the_format(
    syntax: str,
) -> None:
    text, workflow = service(syntax)
    key = '"source": "' if syntax == "json" else "source: "
    at = text.index(key) + len(key)
    found = workflow.completions(at)
    assert found is not None and found.slot is Slot.NODE_ID and not found.incomplete
    assert text[found.replace.start : found.replace.end] == "chat_input.1"
    by_value = {item.value: item for item in found.items}
    assert (
        by_value[SEARCH].text == SEARCH
        and by_value[SEARCH].detail == "Web Search 🔎 · http_request"
    )
    assert [item.rank for item in found.items] == list(range(len(found.items)))
    # Each candidate, written in, reads back as itself.
    for item in found.items:
        edited = text[: found.replace.start] + item.text + text[found.replace.end :]
        assert loaded(syntax, edited)["edges"][0]["source"] == item.value
    assert workflow.completions(0) is None


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_answers_follow_an_edit_and_the_fixes_and_stats_are_current(syntax: str) -> None:
    text, workflow = service(syntax)
    assert [f.code for f in workflow.findings()] == ["CMP-9", "CMP-9"]
    fixed = apply_edits(text, workflow.fix_all_edits())
    assert WorkflowService(fixed, syntax=syntax).findings() == ()
    token = label_token(syntax, "web-search")
    start = text.index(token)
    workflow.apply_edit(start, start + len(token), label_token(syntax, "Calculator 計算 🧮"))
    assert workflow.findings() == ()
    assert workflow.stats()["findings"] == 0 and workflow.stats()["fullReread"] is False
    [lens] = workflow.code_lenses()
    assert lens.title == "2 tools · 0 collisions"
    hint_labels = [h.label for h in workflow.inlay_hints(0, len(workflow.text))]
    assert hint_labels == ["2 tools", "→ web_search", "→ calculator"]


def test_a_workflow_is_flowdrop_by_its_name_or_by_its_content() -> None:
    _, workflow = service("json")
    assert workflow.is_flowdrop(None, None)  # the content is FlowDrop's shape
    other = WorkflowService('{"name": "x", "version": 1}')
    assert not other.is_flowdrop(PurePosixPath("/w/package.json"), PurePosixPath("/w"))
    assert other.is_flowdrop(PurePosixPath("/w/a.flowdrop.json"), PurePosixPath("/w"))
