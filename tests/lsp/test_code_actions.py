"""Code actions and fix applicability: an unsafe fix is offered one by one, never preferred, and
never part of `source.fixAll.flowdrop`; the spec's locator code rides in the diagnostic's data."""

from __future__ import annotations

import copy

from lsprotocol import types

from tests.support.builders import CORPUS_CONFIG
from tests.support.lsp import Session, _code_actions

# A dead route and nothing else (no call of the site's own Twig functions: R11 warnings).
ROUTE = "flowdrop_workflow.flowdrop_workflow.aincient_chrome_agent.yml"
ROUTE_URI = f"file:///site/config/sync/{ROUTE}"
WHOLE = types.Range(start=types.Position(0, 0), end=types.Position(0, 0))


async def _dead_route(session: Session) -> types.Diagnostic:
    text = (CORPUS_CONFIG / ROUTE).read_text(encoding="utf-8")
    session.open(ROUTE_URI, text, language_id="yaml")
    (route,) = await session.publishes.wait_for(ROUTE_URI, 1)
    assert route.code == "FD-TOOL-ROUTE"
    return route


async def test_an_unsafe_fix_is_offered_but_never_preferred(session: Session) -> None:
    route = await _dead_route(session)
    assert isinstance(route.data, dict)
    assert [(f["title"], f["applicability"]) for f in route.data["fixes"]] == [
        ('Remove the branch "Pick brand"', "unsafe")
    ]
    actions = await _code_actions(session, ROUTE_URI, route.range, [route])
    quick = [a for a in actions if a.kind == types.CodeActionKind.QuickFix]
    assert [a.title for a in quick] == ['Remove the branch "Pick brand"']  # the title as it is
    assert not any(a.is_preferred for a in quick)


async def test_fix_all_skips_unsafe_fixes(session: Session) -> None:
    await _dead_route(session)
    actions = await _code_actions(
        session, ROUTE_URI, WHOLE, [], only=[types.CodeActionKind.SourceFixAll]
    )
    assert not actions  # the only fix there removes a branch: nothing safe to apply


async def test_data_claiming_an_unsafe_preferred_fix_is_not_preferred(session: Session) -> None:
    """The core never makes one (a preferred fix is safe); data sent back by a client is not
    trusted to say otherwise."""
    route = await _dead_route(session)
    forged = copy.deepcopy(route)
    assert isinstance(forged.data, dict)
    forged.data["fixes"][0]["preferred"] = True
    actions = await _code_actions(session, ROUTE_URI, forged.range, [forged])
    quick = [a for a in actions if a.kind == types.CodeActionKind.QuickFix]
    assert len(quick) == 1 and not quick[0].is_preferred


async def test_the_locator_code_rides_in_data_and_code_stays_the_rule(session: Session) -> None:
    uri = "file:///workspace/dangling.flowdrop.json"
    text = (
        '{"nodes": [{"id": "a", "type": "http_request", "data": {"label": "Fetch"}}],\n'
        ' "edges": [{"id": "e0", "source": "a", "target": "b"},\n'
        '  {"id": "e1", "source": "ghost", "target": "a"}]}\n'
    )
    session.open(uri, text)
    found = await session.publishes.wait_for(uri, 1)
    dangling = [d for d in found if d.code == "R8"]
    assert [(d.data["locatorCode"], d.data["locator"]) for d in dangling] == [  # type: ignore[index]
        ("R8_EDGE_TARGET_MISSING", "edge.0"),
        ("R8_EDGE_SOURCE_MISSING", "edge.1"),
    ]
    others = [d for d in found if d.code != "R8"]
    assert all("locatorCode" not in (d.data or {}) for d in others)
