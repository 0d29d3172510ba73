"""Navigation across a site's files over LSP, under VS Code's and Neovim's capabilities (UTF-16
and UTF-8 positions): the server started on a copy of the real site (tests/corpus/atelier-cms)
with only brand_studio open; definitions land in closed files with exact ranges, references and
workspace symbols reach closed files, a call node's hover shows its callee; and a small site
with emoji and CJK text before the tokens, for the column units."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from flowdrop_lsp.core.text.positions import LineIndex
from tests.support.lsp import Session, doc_position, span_of
from tests.support.site import copy_site

WORKFLOW = "flowdrop_workflow.flowdrop_workflow.{}.yml"
NODE_TYPE = "flowdrop_node_type.flowdrop_node_type.{}.yml"
COLOUR = "aincient_brand_specialist_colour"
COLOUR_LABEL = "'Run workflow: Brand colour & contrast specialist'"


async def open_file(session: Session, path: Path) -> tuple[str, str]:
    uri, text = path.as_uri(), path.read_text(encoding="utf-8")
    session.open(uri, text, language_id="yaml")
    return uri, text


def expected_range(path: Path, start: int, end: int, encoding: str) -> types.Range:
    lines = LineIndex(path.read_text(encoding="utf-8"))
    (sl, sc), (el, ec) = lines.position(start, encoding), lines.position(end, encoding)  # type: ignore[arg-type]
    return types.Range(
        start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec)
    )


def spanned(location: types.Location, encoding: str) -> str:
    path = Path(location.uri.removeprefix("file://"))
    text = path.read_text(encoding="utf-8")
    return text[slice(*span_of(text, location.range, encoding))]


async def test_definition_lands_in_the_closed_callee_and_node_type(
    session: Session, tmp_path: Path
) -> None:
    site = copy_site(tmp_path, "config/sync")
    uri, text = await open_file(session, site / WORKFLOW.format("brand_studio"))
    enc = session.encoding
    found = await session.client.text_document_definition_async(
        types.DefinitionParams(**doc_position(uri, text, text.index(COLOUR_LABEL) + 5, enc))
    )
    callee = site / WORKFLOW.format(COLOUR)
    callee_text = callee.read_text(encoding="utf-8")
    start = callee_text.index(f"id: {COLOUR}") + len("id: ")
    assert list(found or ()) == [
        types.Location(
            uri=callee.as_uri(), range=expected_range(callee, start, start + len(COLOUR), enc)
        )
    ]
    assert found[0].range.start.line == 12  # the `id:` line (13th)
    # From a node_type_id value to the node type's file.
    at = text.index("prompt_template", text.index("node_type_id: prompt_template")) + 4
    found = await session.client.text_document_definition_async(
        types.DefinitionParams(**doc_position(uri, text, at, enc))
    )
    assert isinstance(found, list) and len(found) == 1
    location = found[0]
    assert isinstance(location, types.Location)
    assert location.uri == (site / NODE_TYPE.format("prompt_template")).as_uri()
    assert spanned(location, enc) == "prompt_template"
    # The document's own answer is kept: off every name, nothing.
    nothing = await session.client.text_document_definition_async(
        types.DefinitionParams(**doc_position(uri, text, text.index("'Brand Studio'") + 2, enc))
    )
    assert nothing is None


async def test_references_and_hover_reach_closed_files(session: Session, tmp_path: Path) -> None:
    site = copy_site(tmp_path, "config/sync")
    uri, text = await open_file(session, site / WORKFLOW.format("brand_studio"))
    enc = session.encoding
    at = text.index("prompt_template", text.index("node_type_id: prompt_template")) + 4
    found = await session.client.text_document_references_async(
        types.ReferenceParams(
            **doc_position(uri, text, at, enc),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    assert found is not None
    files = {Path(loc.uri.removeprefix("file://")).name for loc in found}
    assert NODE_TYPE.format("prompt_template") in files  # the declaration
    assert WORKFLOW.format(COLOUR) in files and WORKFLOW.format("aincient_pages_agent") in files
    assert len(files) >= 9
    assert {spanned(loc, enc) for loc in found} == {"prompt_template"}
    # Hovering the call node: the document's own hover (a tool), then the callee's.
    hover = await session.client.text_document_hover_async(
        types.HoverParams(**doc_position(uri, text, text.index(COLOUR_LABEL) + 5, enc))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "Calls workflow" in hover.contents.value
    assert "Defined in" in hover.contents.value and "line 13" in hover.contents.value
    assert hover.range is not None
    assert text[slice(*span_of(text, hover.range, enc))] == COLOUR_LABEL


async def test_workspace_symbols_find_a_workflow_not_open(session: Session, tmp_path: Path) -> None:
    site = copy_site(tmp_path, "config/sync")
    await open_file(session, site / WORKFLOW.format("brand_studio"))
    found = await session.client.workspace_symbol_async(
        types.WorkspaceSymbolParams(query="aincient_weather")
    )
    assert found is not None
    workflows = [s for s in found if s.kind == types.SymbolKind.Module]
    assert [s.name for s in workflows] == ["Weather (demo tool)"]
    location = workflows[0].location
    assert isinstance(location, types.Location)
    assert location.uri == (site / WORKFLOW.format("aincient_weather")).as_uri()
    assert spanned(location, session.encoding) == "aincient_weather"


CALLEE = '{label: "🔎 検索ワークフロー", id: callee_flow, nodes: [], edges: []}\n'
CALL_TYPE = (
    '{label: "🤖 呼び出し", id: call_callee, '
    'executor_plugin: "flowdrop_workflow_executor:flowdrop_workflow:callee_flow"}\n'
)
CALLER = (
    "id: caller_flow\n"
    "label: 'Caller 🧭'\n"
    "nodes:\n"
    '  - {data: {label: "🤖 研究を呼ぶ", metadata: {node_type_id: call_callee}}, id: call.1}\n'
    "edges: []\n"
)


async def test_ranges_after_emoji_and_cjk_in_the_negotiated_encoding(
    session: Session, tmp_path: Path
) -> None:
    site = tmp_path / "config" / "sync"
    site.mkdir(parents=True)
    (site / WORKFLOW.format("callee_flow")).write_text(CALLEE, encoding="utf-8")
    (site / NODE_TYPE.format("call_callee")).write_text(CALL_TYPE, encoding="utf-8")
    caller = site / WORKFLOW.format("caller_flow")
    caller.write_text(CALLER, encoding="utf-8")
    uri, text = await open_file(session, caller)
    enc = session.encoding
    # The cursor after the emoji and inside the CJK of the call node's label.
    found = await session.client.text_document_definition_async(
        types.DefinitionParams(**doc_position(uri, text, text.index("研究") + 2, enc))
    )
    callee = site / WORKFLOW.format("callee_flow")
    start = CALLEE.index("callee_flow")
    assert list(found or ()) == [
        types.Location(
            uri=callee.as_uri(),
            range=expected_range(callee, start, start + len("callee_flow"), enc),
        )
    ]
    # The type token follows emoji and CJK on its line: its range in the caller's own file.
    at = text.index("call_callee") + 3
    references = await session.client.text_document_references_async(
        types.ReferenceParams(
            **doc_position(uri, text, at, enc),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    assert references is not None
    definition = site / NODE_TYPE.format("call_callee")
    type_start = CALL_TYPE.index("call_callee")
    token = text.index("call_callee")
    assert list(references) == [
        types.Location(
            uri=definition.as_uri(),
            range=expected_range(definition, type_start, type_start + len("call_callee"), enc),
        ),
        types.Location(
            uri=uri, range=expected_range(caller, token, token + len("call_callee"), enc)
        ),
    ]
    assert {spanned(loc, enc) for loc in references} == {"call_callee"}
