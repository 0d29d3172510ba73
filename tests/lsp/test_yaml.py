"""Drupal workflow YAML over LSP: diagnostics on the label scalars in the negotiated encoding,
a YAML quick fix, edits re-analysed, and other YAML left alone."""

from __future__ import annotations

import asyncio

import yaml
from lsprotocol import types

from flowdrop_lsp.core.text.positions import LineIndex
from tests.support.drupal import workflow
from tests.support.lsp import Session, _code_actions, apply_edits, cmp9, edits_of, replace_span

URI = "file:///site/config/sync/flowdrop_workflow.flowdrop_workflow.research.yml"


def _range_of(text: str, token: str, encoding: str) -> types.Range:
    lines = LineIndex(text)
    start = text.index(token)
    sl, sc = lines.position(start, encoding)  # type: ignore[arg-type]
    el, ec = lines.position(start + len(token), encoding)  # type: ignore[arg-type]
    return types.Range(start=types.Position(sl, sc), end=types.Position(el, ec))


async def test_yaml_labels_are_squiggled_in_the_negotiated_encoding(session: Session) -> None:
    text = workflow("'Web Search 🤖 数据'", "'web-search'")
    session.open(URI, text, language_id="yaml")
    found = cmp9(await session.publishes.wait_for(URI, 1))
    ranges = sorted((d.range for d in found), key=lambda r: r.start.line)
    assert ranges == [
        _range_of(text, "'Web Search 🤖 数据'", session.encoding),
        _range_of(text, "'web-search'", session.encoding),
    ]


async def test_the_yaml_quick_fix_keeps_yaml_and_clears_the_collision(session: Session) -> None:
    text = workflow("'Web Search'", "'web-search'")
    session.open(URI, text, language_id="yaml")
    target = [
        d for d in cmp9(await session.publishes.wait_for(URI, 1)) if "web-search" not in d.message
    ]
    actions = await _code_actions(session, URI, target[0].range, target)
    preferred = [a for a in actions if a.is_preferred]
    fixed = apply_edits(text, edits_of(preferred[0], URI), session.encoding)
    assert fixed == text.replace("'web-search'", "'web-search 2'")
    yaml.safe_load(fixed)
    session.change(URI, 2, [types.TextDocumentContentChangeWholeDocument(text=fixed)])
    assert cmp9(await session.publishes.wait_for(URI, 2)) == []


async def test_typing_in_yaml_breaks_and_repairs(session: Session) -> None:
    text = workflow("'Web Search'", "'Other'")
    session.open(URI, text, language_id="yaml")
    assert cmp9(await session.publishes.wait_for(URI, 1)) == []
    start = text.index("'Other'")
    broken = text[:start] + "'web-sea" + text[start + len("'Other'") :]
    session.change(
        URI, 2, [replace_span(text, start, start + len("'Other'"), "'web-sea", session.encoding)]
    )
    assert [d.code for d in await session.publishes.wait_for(URI, 2)] == ["FD-SYNTAX"]
    end = broken.index("'web-sea") + len("'web-sea")
    session.change(URI, 3, [replace_span(broken, end, end, "rch'", session.encoding)])
    assert len(cmp9(await session.publishes.wait_for(URI, 3))) == 2


async def test_other_yaml_gets_nothing(session: Session) -> None:
    compose = "file:///site/docker-compose.yml"
    session.open(compose, "services:\n  web:\n    image: nginx\n", language_id="yaml")
    session.open(URI, workflow("'A'", "'B'"), language_id="yaml")
    await session.publishes.wait_for(URI, 1)
    await asyncio.sleep(0.2)
    assert session.publishes.count(compose) == 0


async def test_a_dead_route_in_a_real_site_workflow(session: Session) -> None:
    from tests.support.builders import CORPUS_CONFIG

    name = "flowdrop_workflow.flowdrop_workflow.aincient_pages_agent.yml"
    text = (CORPUS_CONFIG / name).read_text(encoding="utf-8")
    uri = f"file:///site/config/sync/{name}"
    session.open(uri, text, language_id="yaml")
    published = await session.publishes.wait_for(uri, 1)
    (route,) = [d for d in published if d.code == "FD-TOOL-ROUTE"]
    # The calls of the Twig functions the site's own modules add (their code is not here, no
    # settings declare them): a warning each, on the name, naming the settings line.
    site_calls = [d for d in published if d.code == "R11"]
    assert [d.severity for d in site_calls] == [types.DiagnosticSeverity.Warning] * 3
    assert site_calls[0].range == _range_of(text, "component_catalog", session.encoding)
    assert '`extend-twig-functions = ["component_catalog"]`' in site_calls[0].message
    assert route.code == "FD-TOOL-ROUTE"
    assert route.severity == types.DiagnosticSeverity.Warning
    assert route.range == _range_of(text, "capability_quick_brand_picker", session.encoding)
    actions = await _code_actions(session, uri, route.range, [route])
    titles = [a.title for a in actions if a.kind == types.CodeActionKind.QuickFix]
    assert titles == ['Remove the branch "Pick brand"']
    assert not any(a.is_preferred for a in actions)
    removed = apply_edits(text, edits_of(actions[0], uri), session.encoding)
    yaml.safe_load(removed)
    session.change(uri, 2, [types.TextDocumentContentChangeWholeDocument(text=removed)])
    assert [d.code for d in await session.publishes.wait_for(uri, 2)] == ["R11"] * 3
