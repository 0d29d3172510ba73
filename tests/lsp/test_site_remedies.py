"""The site's repairs in the editor (issue 29): a call type's misspelt callee, opened in the
editor, gets the FD-CALL error on the id's letters with "did you mean", and the quick fix
(safe, preferred) writes the right id back — the node type's text as the site has it. Run
under every client profile (UTF-16 and UTF-8 positions)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsprotocol import types

from tests.support.lsp import WAIT, Session, _code_actions, apply_edits, edits_of, span_of
from tests.support.site import copy_site

SHAPE_TYPE = (
    "flowdrop_node_type.flowdrop_node_type."
    "flowdrop_workflow_executor_flowdrop_workflow_aincient_brand_specialist_shape.yml"
)
RIGHT = "aincient_brand_specialist_shape"
WRONG = "aincient_brand_specialist_shpae"


async def _first_with_call(session: Session, uri: str) -> list[types.Diagnostic]:
    """The first publish for `uri` holding an FD-CALL finding (the site is read in the
    background after the open: the first publish may come before it)."""
    publishes = session.publishes

    async def wait() -> list[types.Diagnostic]:
        while True:
            for params in publishes.by_uri.get(uri, []):
                if any(d.code == "FD-CALL" for d in params.diagnostics):
                    return list(params.diagnostics)
            publishes.changed.clear()
            await publishes.changed.wait()

    return await asyncio.wait_for(wait(), WAIT)


async def test_a_misspelt_callee_is_repaired_from_the_call_type_s_quick_fix(
    session: Session, tmp_path: Path
) -> None:
    site = copy_site(tmp_path, "config/sync")
    path = site / SHAPE_TYPE
    pristine = path.read_text(encoding="utf-8")
    assert pristine.count(f"flowdrop_workflow:{RIGHT}'") == 1
    text = pristine.replace(f"flowdrop_workflow:{RIGHT}'", f"flowdrop_workflow:{WRONG}'")
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    session.open(uri, text, language_id="yaml")

    diagnostics = await _first_with_call(session, uri)
    (call,) = [d for d in diagnostics if d.code == "FD-CALL"]
    assert f"did you mean '{RIGHT}'?" in call.message
    assert call.message.count(WRONG) == 1  # the id said once
    start, end = span_of(text, call.range, session.encoding)
    assert WRONG in text[start:end]

    actions = await _code_actions(session, uri, call.range, [call])
    assert actions
    quick = [a for a in actions if isinstance(a, types.CodeAction) and a.kind == "quickfix"]
    preferred = [a for a in quick if a.is_preferred]
    assert len(preferred) == 1, [a.title for a in quick]
    fixed = apply_edits(text, edits_of(preferred[0], uri), session.encoding)
    assert fixed == pristine
