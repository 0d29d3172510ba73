"""A didChange is applied whole or not at all: our buffer never silently drifts from the
client's (unit tests of Document.apply, and the same through the protocol)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.lsp.documents import Change, ChangeRejected, Document, unappliable
from tests.support.lsp import Session

TEXT = "ab\ncd\n"  # lines 0..2 (line 2 is empty); line 3 is the last + 1


def document() -> Document:
    return Document("file:///a.json", "json", 1, TEXT, Settings())


def at(line: int, char: int, end_line: int | None = None, end_char: int | None = None, text=""):
    end = (line if end_line is None else end_line, char if end_char is None else end_char)
    return Change((line, char, *end), text)


@pytest.mark.parametrize(
    "change",
    [
        at(-1, 0),
        at(0, -1),
        at(0, 0, 0, -1),
        at(1, 1, 0, 0),
        at(1, 1, 1, 0),
        at(4, 0),
        at(0, 0, 9, 0),
    ],
)
def test_what_cannot_be_applied(change: Change) -> None:
    assert unappliable(change, 3) is not None


@pytest.mark.parametrize(
    "change", [at(0, 0), at(3, 0), at(2, 0, 3, 0), at(0, 99), Change(None, "x")]
)
def test_what_can_be_applied(change: Change) -> None:
    # A character past its line's end is clamped, as LSP says; the last line + 1 is allowed.
    assert unappliable(change, 3) is None


def test_a_bad_second_change_leaves_the_buffer_as_it_was() -> None:
    doc = document()
    with pytest.raises(ChangeRejected):
        doc.apply([at(0, 0, text="X"), at(5, 0, text="Y")], 2, "utf-16")
    assert doc.text == TEXT
    assert doc.version == 1
    assert doc.out_of_sync


def test_each_change_is_checked_against_the_text_the_previous_ones_leave() -> None:
    doc = document()
    # Line 5 exists only after the first change added lines.
    doc.apply([at(0, 0, text="1\n2\n3\n"), at(5, 0, text="Z")], 2, "utf-16")
    assert doc.text == "1\n2\n3\nab\ncd\nZ"
    doc2 = document()
    with pytest.raises(ChangeRejected):  # and a line the first change removed is gone
        doc2.apply([at(0, 0, 2, 0, text=""), at(2, 0, text="Z")], 2, "utf-16")
    assert doc2.text == TEXT


def test_an_out_of_sync_document_waits_for_a_full_text_change() -> None:
    doc = document()
    with pytest.raises(ChangeRejected):
        doc.apply([at(1, 1, 0, 0, text="X")], 2, "utf-16")
    with pytest.raises(ChangeRejected):  # a later, valid incremental change is not applied
        doc.apply([at(0, 0, text="Y")], 3, "utf-16")
    assert doc.text == TEXT
    doc.apply([at(9, 9, text="lost"), Change(None, "new\n"), at(1, 0, text="Q")], 4, "utf-16")
    assert (doc.text, doc.version, doc.out_of_sync) == ("new\nQ", 4, False)
    doc.apply([at(0, 0, text=">")], 5, "utf-16")
    assert doc.text == ">new\nQ"


# ----- through the protocol ---------------------------------------------------------------------
URI = "file:///workspace/sync.flowdrop.json"


def rng(sl: int, sc: int, el: int, ec: int) -> types.Range:
    return types.Range(start=types.Position(sl, sc), end=types.Position(el, ec))


async def test_an_unappliable_change_warns_once_and_a_full_text_change_resyncs(
    session: Session,
) -> None:
    client = session.client
    text = '{"nodes": [], "edges": []}\n'
    session.open(URI, text)
    await session.publishes.wait_for(URI, 1)
    good = types.TextDocumentContentChangePartial(range=rng(0, 0, 0, 0), text=" ")
    bad = types.TextDocumentContentChangePartial(range=rng(7, 0, 7, 0), text="x")
    session.change(URI, 2, [good, bad])
    session.change(URI, 3, [good])  # out of sync: not applied either
    session.change(URI, 4, [bad])
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="flowdrop.stats", arguments=[URI])
    )
    assert result["version"] == 1  # none of versions 2-4 was applied
    warnings = [m for m in client.messages if m.type == types.MessageType.Warning]
    assert len(warnings) == 1
    assert "reopen" in warnings[0].message
    # Nothing published for unapplied text: version 1's diagnostics, then their withdrawal.
    assert {p.version for p in session.publishes.by_uri[URI]} == {1, None}
    assert session.publishes.latest(URI).diagnostics == ()
    # Nothing is answered from the stale buffer: no fixes computed against the wrong text.
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            range=rng(0, 0, 0, 1),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    assert not actions
    session.change(URI, 5, [types.TextDocumentContentChangeWholeDocument(text=text)])
    await session.publishes.wait_for(URI, 5)
    await asyncio.sleep(0.05)
    assert len([m for m in client.messages if m.type == types.MessageType.Warning]) == 1


async def test_diagnostics_published_before_an_unappliable_change_are_withdrawn(
    session: Session,
) -> None:
    text = (Path(__file__).parents[2] / "examples" / "research-agent.flowdrop.json").read_text()
    session.open(URI, text)
    assert await session.publishes.wait_for(URI, 1)  # the collision
    bad = types.TextDocumentContentChangePartial(range=rng(4000, 0, 4000, 0), text="x")
    session.change(URI, 2, [bad])
    for _ in range(100):
        if not session.publishes.latest(URI).diagnostics:
            break
        await asyncio.sleep(0.01)
    # Their positions would point into a text the client no longer has.
    assert session.publishes.latest(URI).diagnostics == ()
