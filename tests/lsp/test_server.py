"""Protocol behaviour of the language server, under VS Code's and Neovim's client capabilities."""

from __future__ import annotations

import asyncio
import json

from lsprotocol import types
from pytest_lsp import client_capabilities

from flowdrop_lsp.core.text.positions import LineIndex
from tests.support.lsp import (
    REPO,
    SPEC_EXAMPLES,
    Session,
    _code_actions,
    apply_edits,
    cmp9,
    edits_of,
    full_change,
    replace_span,
)

EXAMPLE = REPO / "examples" / "research-agent.flowdrop.json"
URI = "file:///workspace/research.flowdrop.json"


def label_range(text: str, label_token: str, encoding: str, occurrence: int = 0) -> types.Range:
    """The range of the `occurrence`-th `"label": <label_token>` value token."""
    needle = f'"label": {label_token}'
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(needle, start + 1)
    start += len('"label": ')
    lines = LineIndex(text)
    sl, sc = lines.position(start, encoding)  # type: ignore[arg-type]
    el, ec = lines.position(start + len(label_token), encoding)  # type: ignore[arg-type]
    return types.Range(start=types.Position(sl, sc), end=types.Position(el, ec))


def rk(r: types.Range) -> tuple[int, int, int, int]:
    """Ranges are not hashable: compare them as tuples."""
    return (r.start.line, r.start.character, r.end.line, r.end.character)


def insert_at(
    text: str, offset: int, new_text: str, encoding: str
) -> types.TextDocumentContentChangePartial:
    lines = LineIndex(text)
    line, character = lines.position(offset, encoding)  # type: ignore[arg-type]
    position = types.Position(line, character)
    return types.TextDocumentContentChangePartial(
        range=types.Range(start=position, end=position), text=new_text
    )


async def test_refused_spec_example_marks_both_labels_and_not_the_toolbox(session: Session) -> None:
    text = (SPEC_EXAMPLES / "cmp9-refused-two-tools-through-a-box.json").read_text(encoding="utf-8")
    uri = "file:///workspace/refused.flowdrop.json"
    session.open(uri, text)
    diagnostics = await session.publishes.wait_for(uri, 1)
    errors = cmp9(diagnostics)
    assert {rk(d.range) for d in errors} == {
        rk(label_range(text, '"Web Search"', session.encoding)),
        rk(label_range(text, '"web-search"', session.encoding)),
    }
    box = label_range(text, '"My Tools"', session.encoding)
    assert all(rk(d.range) != rk(box) for d in diagnostics)
    for d in errors:
        assert d.severity == types.DiagnosticSeverity.Error
        assert d.source == "flowdrop"
        assert d.code_description is not None and d.code_description.href.endswith("#rule-cmp-9")
        assert "web_search" in d.message
        assert d.data["fixes"]
    # (Its agents are not defined and its edges have no id: R8 and R3, which FlowDrop refuses
    # at save; nothing else.)
    assert not [
        d
        for d in diagnostics
        if d.severity == types.DiagnosticSeverity.Error and d.code not in ("CMP-9", "R8", "R3")
    ]


async def test_accepted_spec_example_has_no_error(session: Session) -> None:
    text = (SPEC_EXAMPLES / "cmp9-accepted-same-name-two-consumers.json").read_text(
        encoding="utf-8"
    )
    uri = "file:///workspace/accepted.flowdrop.json"
    session.open(uri, text)
    diagnostics = await session.publishes.wait_for(uri, 1)
    # Its agents are not defined and its edges have no id (R8, R3: errors, FlowDrop refuses
    # such edges at save); CMP-9 accepts it.
    assert {d.code for d in diagnostics} == {"R8", "R3"}


WIRED = """{
  "nodes": [
    { "id": "agent", "type": "agent", "data": { "label": "Agent" } },
    { "id": "outer", "type": "toolbox", "data": { "label": "Outer" } },
    { "id": "inner", "type": "toolbox", "data": { "label": "Inner" } },
    { "id": "t1", "type": "http_request", "data": { "label": "Fetch Page" } },
    { "id": "t2", "type": "http_request", "data": { "label": "fetch-page" } }
  ],
  "edges": [
    { "source": "inner", "target": "outer", "data": { "edgeType": "tool_availability" } },
    { "source": "outer", "target": "agent", "data": { "edgeType": "tool_availability" } },
    { "source": "t1", "target": "outer", "data": { "edgeType": "tool_availability" } }
  ]
}
"""
NEW_EDGE = (
    '\n    ,{ "source": "t2", "target": "inner", "data": { "edgeType": "tool_availability" } }'
)


async def test_wiring_a_tool_into_a_toolbox_creates_and_removing_clears_the_collision(
    session: Session,
) -> None:
    session.open(URI, WIRED)
    assert cmp9(await session.publishes.wait_for(URI, 1)) == []

    at = WIRED.index("\n  ]\n}")
    session.change(URI, 2, [insert_at(WIRED, at, NEW_EDGE, session.encoding)])
    wired = WIRED[:at] + NEW_EDGE + WIRED[at:]
    errors = cmp9(await session.publishes.wait_for(URI, 2))
    assert {rk(d.range) for d in errors} == {
        rk(label_range(wired, '"Fetch Page"', session.encoding)),
        rk(label_range(wired, '"fetch-page"', session.encoding)),
    }
    assert all(d.message.startswith('tool name "fetch_page" also used by ') for d in errors)
    publish = session.client.capabilities.text_document.publish_diagnostics  # type: ignore[union-attr]
    if publish is not None and publish.related_information:  # the route, two hops away, is there
        assert any(
            '"Inner" → "Outer"' in r.message for d in errors for r in d.related_information or ()
        )

    session.change(URI, 3, [replace_span(wired, at, at + len(NEW_EDGE), "", session.encoding)])
    assert cmp9(await session.publishes.wait_for(URI, 3)) == []


async def test_a_label_edit_creates_and_then_clears_a_collision(session: Session) -> None:
    text = WIRED.replace('"fetch-page"', '"Other Tool"')
    text = text.replace(
        '{ "source": "t1"',
        '{ "source": "t2", "target": "agent", "data": { "edgeType": "tool_availability" } },\n    { "source": "t1"',
    )
    session.open(URI, text)
    assert cmp9(await session.publishes.wait_for(URI, 1)) == []

    start = text.index('"Other Tool"') + 1
    session.change(
        URI,
        2,
        [replace_span(text, start, start + len("Other Tool"), "FETCH page", session.encoding)],
    )
    colliding = text[:start] + "FETCH page" + text[start + len("Other Tool") :]
    assert len(cmp9(await session.publishes.wait_for(URI, 2))) == 2

    session.change(
        URI,
        3,
        [replace_span(colliding, start, start + len("FETCH page"), "Other Tool", session.encoding)],
    )
    assert cmp9(await session.publishes.wait_for(URI, 3)) == []


async def test_preferred_quick_fix_clears_the_collision_and_adds_nothing(session: Session) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    session.open(URI, text)
    before = await session.publishes.wait_for(URI, 1)
    target = cmp9(before)[0]
    actions = await _code_actions(session, URI, target.range, [target])
    quick = [a for a in actions if a.kind == types.CodeActionKind.QuickFix]
    preferred = [a for a in quick if a.is_preferred]
    assert len(preferred) == 1 and quick[0] is preferred[0]
    if session.client.capabilities.workspace.workspace_edit.document_changes:  # type: ignore[union-attr]
        assert preferred[0].edit.document_changes[0].text_document.version == 1  # type: ignore[union-attr]
    fixed = apply_edits(text, edits_of(preferred[0], URI), session.encoding)
    json.loads(fixed)
    session.change(URI, 2, full_change(fixed))
    after = await session.publishes.wait_for(URI, 2)
    assert cmp9(after) == []
    assert [(d.code, d.message) for d in after] == [
        (d.code, d.message) for d in before if d.code != "CMP-9"
    ]


async def test_fix_all_clears_every_collision(session: Session) -> None:
    text = WIRED.replace('"label": "Agent"', '"label": "Agent"').replace(
        '{ "source": "t1"',
        '{ "source": "t2", "target": "inner", "data": { "edgeType": "tool_availability" } },\n    { "source": "t1"',
    )
    text = text.replace(
        '"Outer" } },',
        '"Outer" } },\n    { "id": "t3", "type": "calculator", "data": { "label": "FETCH_PAGE" } },',
    )
    text = text.replace(
        '"edges": [',
        '"edges": [\n    { "source": "t3", "target": "agent", "data": { "edgeType": "tool_availability" } },',
    )
    session.open(URI, text)
    assert len(cmp9(await session.publishes.wait_for(URI, 1))) == 3
    whole = types.Range(start=types.Position(0, 0), end=types.Position(0, 0))
    actions = await _code_actions(session, URI, whole, [], only=[types.CodeActionKind.SourceFixAll])
    assert [a.kind for a in actions] == ["source.fixAll.flowdrop"]
    fixed = apply_edits(text, edits_of(actions[0], URI), session.encoding)
    session.change(URI, 2, full_change(fixed))
    assert cmp9(await session.publishes.wait_for(URI, 2)) == []


UNICODE = (
    '{"nodes": [{"id": "a", "type": "agent"},\n'
    '{"id": "t1", "data": {"note": "🚀 数据 — 🎉", "label": "web-search"}},\n'
    '{"id": "t2", "data": {"note": "😀", "label": "Web Search"}}],\n'
    ' "edges": [{"source": "t1", "target": "a", "targetHandle": "a-input-tool"},\n'
    '           {"source": "t2", "target": "a", "targetHandle": "a-input-tool"}]}\n'
)


async def test_positions_after_emoji_and_cjk_in_the_negotiated_encoding(session: Session) -> None:
    session.open(URI, UNICODE)
    errors = cmp9(await session.publishes.wait_for(URI, 1))
    expected = {
        rk(label_range(UNICODE, '"web-search"', session.encoding)),
        rk(label_range(UNICODE, '"Web Search"', session.encoding)),
    }
    assert {rk(d.range) for d in errors} == expected
    line = UNICODE.splitlines()[1]
    code_points = line.index('"web-search"')
    got = next(d.range.start.character for d in errors if d.range.start.line == 1)
    if session.encoding == "utf-8":
        assert got == len(line[:code_points].encode("utf-8"))
    elif session.encoding == "utf-16":
        assert got == len(line[:code_points].encode("utf-16-le")) // 2
    assert got != code_points  # the encodings really differ on this line


async def test_close_clears_diagnostics(session: Session) -> None:
    session.open(URI, EXAMPLE.read_text(encoding="utf-8"))
    assert cmp9(await session.publishes.wait_for(URI, 1))
    session.client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=URI))
    )
    assert await session.publishes.wait_for(URI, None) == []


async def test_settings_change_republishes(session: Session) -> None:
    session.open(URI, EXAMPLE.read_text(encoding="utf-8"))
    first = cmp9(await session.publishes.wait_for(URI, 1))
    assert {d.severity for d in first} == {types.DiagnosticSeverity.Error}
    count = session.publishes.count(URI)
    session.client.set_configuration({"severity": {"CMP-9": "warning"}}, section="flowdrop")
    session.client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(
            settings={"flowdrop": {"severity": {"CMP-9": "warning"}}}
        )
    )
    # The re-publish names the same version; earlier re-publishes (after `initialized`) may
    # still arrive first, so look at each new one until the settings show.
    while True:
        republished = await session.publishes.wait_for_new(URI, count)
        count += 1
        assert republished.version == 1
        if {d.severity for d in cmp9(list(republished.diagnostics))} == {
            types.DiagnosticSeverity.Warning
        }:
            break


async def test_unrelated_json_gets_no_diagnostics_but_untitled_workflows_do(
    session: Session,
) -> None:
    package = "file:///workspace/package.json"
    session.open(package, '{"name": "x", "version": "1.0.0", "dependencies": {}}')
    settings = "file:///workspace/.vscode/settings.json"
    session.open(settings, '{"editor.fontSize": 14,')
    untitled = "untitled:Untitled-1"
    session.open(untitled, EXAMPLE.read_text(encoding="utf-8"))
    assert cmp9(await session.publishes.wait_for(untitled, 1))
    session.open(URI, WIRED)
    await session.publishes.wait_for(URI, 1)
    assert session.publishes.count(package) == 0
    assert session.publishes.count(settings) == 0


async def test_a_burst_of_edits_ends_with_the_last_version_only(session: Session) -> None:
    text = WIRED
    session.open(URI, text)
    await session.publishes.wait_for(URI, 1)
    start = text.index('"Fetch Page"') + 1
    current = "Fetch Page"
    for version in range(2, 102):
        new = "fetch-page" if version == 101 else f"Tool {version}"
        session.change(
            URI, version, [replace_span(text, start, start + len(current), new, session.encoding)]
        )
        text = text[:start] + new + text[start + len(current) :]
        current = new
    session.change(
        URI,
        102,
        [
            insert_at(
                text,
                text.index("\n  ]\n}"),
                NEW_EDGE,
                session.encoding,
            )
        ],
    )
    final = await session.publishes.wait_for(URI, 102)
    assert len(cmp9(final)) == 2
    versions = [p.version for p in session.publishes.by_uri[URI]]
    assert versions == sorted(versions)  # never an older text after a newer one
    assert versions[-1] == 102
    assert len(versions) < 102  # bursts were coalesced


async def test_broken_json_keeps_serving_and_recovers(session: Session) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    broken = text.replace('"label": "Calculator"', '"label": "Calcul', 1)
    session.open(URI, broken)
    diagnostics = await session.publishes.wait_for(URI, 1)
    assert any(d.code == "FD-SYNTAX" for d in diagnostics)
    assert len(cmp9(diagnostics)) == 2  # the untouched nodes are still analysed
    session.change(URI, 2, full_change(text))
    diagnostics = await session.publishes.wait_for(URI, 2)
    assert not any(d.code == "FD-SYNTAX" for d in diagnostics)
    assert len(cmp9(diagnostics)) == 2


async def test_code_actions_never_fail_on_stale_or_foreign_diagnostics(session: Session) -> None:
    session.open(URI, EXAMPLE.read_text(encoding="utf-8"))
    await session.publishes.wait_for(URI, 1)
    foreign = types.Diagnostic(
        range=types.Range(start=types.Position(9999, 0), end=types.Position(9999, 5)),
        message="x",
        source="flowdrop",
        code="CMP-9",
        data={"version": 0, "fixes": "garbage"},
    )
    other = types.Diagnostic(range=foreign.range, message="y", source="json")
    actions = await _code_actions(session, URI, foreign.range, [foreign, other])
    assert actions is None or isinstance(actions, (list, tuple))  # an answer, not an error
    assert not [a for a in actions or () if a.kind == types.CodeActionKind.QuickFix]
    missing = await session.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri="file:///nowhere.flowdrop.json"),
            range=foreign.range,
            context=types.CodeActionContext(diagnostics=[foreign]),
        )
    )
    assert not missing


async def test_pull_diagnostics_when_the_client_supports_them(session: Session) -> None:
    session.open(URI, EXAMPLE.read_text(encoding="utf-8"))
    await session.publishes.wait_for(URI, 1)
    if session.result.capabilities.diagnostic_provider is None:
        assert session.client.capabilities.text_document.diagnostic is None  # type: ignore[union-attr]
        return
    report = await session.client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=URI))
    )
    assert len(cmp9(list(report.items))) == 2


async def test_stats_command_reports_what_the_last_change_recomputed(session: Session) -> None:
    session.open(URI, WIRED)
    await session.publishes.wait_for(URI, 1)
    start = WIRED.index('"Fetch Page"') + 1
    session.change(URI, 2, [replace_span(WIRED, start, start + 5, "Fetch", session.encoding)])
    await session.publishes.wait_for(URI, 2)
    stats = await session.client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="flowdrop.stats", arguments=[URI])
    )
    assert stats["version"] == 2
    assert stats["fullReread"] is False
    assert stats["elementsReread"] == 1
    assert stats["consumersRecomputed"] == ["agent"]


async def test_a_settings_change_asks_the_client_to_refresh_inlay_hints_and_lenses(
    session: Session,
) -> None:
    """Hints and lenses are pulled after edits; after a settings change only a refresh request
    brings them up to date (sent where the client supports it: Neovim's capabilities do)."""
    asked = session.refreshes
    session.open(URI, EXAMPLE.read_text(encoding="utf-8"))
    await session.publishes.wait_for(URI, 1)
    session.client.set_configuration({"severity": {"CMP-9": "warning"}}, section="flowdrop")
    session.client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(
            settings={"flowdrop": {"severity": {"CMP-9": "warning"}}}
        )
    )
    capabilities = client_capabilities(session.kind).workspace
    wanted = []
    if capabilities.inlay_hint and capabilities.inlay_hint.refresh_support:
        wanted.append(types.WORKSPACE_INLAY_HINT_REFRESH)
    if capabilities.code_lens and capabilities.code_lens.refresh_support:
        wanted.append(types.WORKSPACE_CODE_LENS_REFRESH)
    assert wanted or session.kind != "neovim"  # Neovim supports the inlay-hint refresh
    for _ in range(200):
        if len(asked) >= len(wanted):
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    assert set(asked) == set(wanted)
