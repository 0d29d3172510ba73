"""A didChange is applied whole or not at all: our buffer never silently drifts from the
client's (unit tests of Document.apply, and the same through the protocol)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import attrs
import pytest
from lsprotocol import types

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.text.positions import Encoding, LineIndex
from flowdrop_lsp.lsp.documents import (
    Change,
    ChangeRejected,
    Document,
    mark_unsound_positions,
    unappliable,
)
from tests.support.lsp import Session, full_change, position, replace_span
from tests.support.samples import json_text

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
        at(2**31, 0),  # LSP's positions are uintegers: at most 2^31 - 1
        at(0, 0, 0, 2**31),
        Change((0, 0, 0, True), ""),  # JSON true is no integer
        Change((0, 1.5, 0, 2), ""),  # type: ignore[arg-type]
    ],
)
def test_what_cannot_be_applied(change: Change) -> None:
    # Only a position that is no valid unsigned integer: the client's text cannot be known.
    assert unappliable(change) is not None


@pytest.mark.parametrize(
    "change",
    [
        at(0, 0),
        at(3, 0),
        at(2, 0, 3, 0),
        at(0, 99),
        Change(None, "x"),
        at(4, 0),  # a line past the end: the end (vscode-languageserver-textdocument)
        at(0, 0, 9, 0),
        at(1, 1, 0, 0),  # reversed: its swap
        at(1, 1, 1, 0),
        at(2**31 - 1, 2**31 - 1),
    ],
)
def test_what_can_be_applied(change: Change) -> None:
    # A character past its line's end is clamped, as LSP says; a line past the last one is the
    # end of the text, and a reversed range its swap, as the reference implementation does.
    assert unappliable(change) is None


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (at(0, 99, text="X"), "abX\ncd\n"),  # past the line's end: its end, not the next line
        (at(1, 2, 1, 50, text="X"), "ab\ncdX\n"),
        (at(7, 3, text="X"), "ab\ncd\nX"),  # a line past the last: the end of the text
        (at(1, 1, 9, 9, text="X"), "ab\ncX"),
        (at(1, 1, 0, 1, text="X"), "aXd\n"),  # reversed: its swap
        (at(1, 0, 0, 9, text="X"), "abXcd\n"),  # swapped first, then clamped
        (at(9, 0, 0, 2, text="X"), "abX"),
    ],
)
def test_out_of_range_and_reversed_ranges_are_clamped_and_swapped(
    change: Change, expected: str
) -> None:
    doc = document()
    doc.apply([change, at(0, 0, text="<")], 2, "utf-16")
    assert (doc.text, doc.version, doc.out_of_sync) == ("<" + expected, 2, False)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
def test_clamping_counts_in_the_clients_encoding(encoding: Encoding) -> None:
    text = "a🤖検\nb\n"
    doc = Document("file:///a.json", "json", 1, text, Settings())
    lines = LineIndex(text)
    past = lines.position(3, encoding)[1] + 1  # one unit past the end of line 0
    before_cjk = lines.position(2, encoding)[1]
    # "!" at the line's end; then from past the end back to before 検: the swap, clamped.
    doc.apply([at(0, past, text="!"), at(0, past + 5, 0, before_cjk, text="?")], 2, encoding)
    assert doc.text == "a🤖?\nb\n"


@pytest.mark.parametrize(
    ("params", "bad"),
    [
        ({"line": 0, "character": 0}, False),
        ({"line": 2**31 - 1, "character": 0}, False),
        ({"line": 3.0, "character": 0}, False),
        ({"line": -1, "character": 0}, True),
        ({"line": 0, "character": 2**31}, True),
        ({"line": 1.5, "character": 0}, True),
        ({"line": "3", "character": 0}, True),
        ({"line": True, "character": 0}, True),
        ({"line": None, "character": 0}, True),
        ({"character": 0}, True),
    ],
)
def test_positions_that_are_no_unsigned_integers_are_marked(params: dict, bad: bool) -> None:
    good = {"line": 0, "character": 0}
    message = {
        "jsonrpc": "2.0",
        "method": "textDocument/didChange",
        "params": {
            "textDocument": {"uri": "file:///a.json", "version": 2},
            "contentChanges": [
                {"range": {"start": good, "end": good}, "text": "a"},
                {"range": {"start": good, "end": params}, "text": "b"},
                {"text": "whole"},
            ],
        },
    }
    marked = mark_unsound_positions(message)
    if not bad:
        assert marked is None
        return
    assert marked is not None
    changes = marked["params"]["contentChanges"]
    assert changes[0] == message["params"]["contentChanges"][0]
    assert changes[1]["range"]["end"] == {"line": -1, "character": -1}
    assert changes[2] == {"text": "whole"}
    assert message["params"]["contentChanges"][1]["range"]["end"] is params  # not changed


def test_a_bad_second_change_leaves_the_buffer_as_it_was() -> None:
    doc = document()
    with pytest.raises(ChangeRejected):
        doc.apply([at(0, 0, text="X"), at(0, -1, text="Y")], 2, "utf-16")
    assert doc.text == TEXT
    assert doc.version == 1
    assert doc.out_of_sync


def test_each_change_is_checked_against_the_text_the_previous_ones_leave() -> None:
    doc = document()
    # Line 5 exists only after the first change added lines.
    doc.apply([at(0, 0, text="1\n2\n3\n"), at(5, 0, text="Z")], 2, "utf-16")
    assert doc.text == "1\n2\n3\nab\ncd\nZ"
    doc2 = document()
    # And a line the first change removed is gone: line 1 is now the empty last line.
    doc2.apply([at(0, 0, 1, 0, text=""), at(1, 1, text="Z")], 2, "utf-16")
    assert doc2.text == "cd\nZ"


def test_an_out_of_sync_document_waits_for_a_full_text_change() -> None:
    doc = document()
    with pytest.raises(ChangeRejected):
        doc.apply([at(1, -1, 0, 0, text="X")], 2, "utf-16")
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


def unsound_change(line: int, character: int) -> types.TextDocumentContentChangePartial:
    """A change at a position that is no uinteger (lsprotocol refuses to build one)."""
    with attrs.validators.disabled():
        return types.TextDocumentContentChangePartial(
            range=rng(line, character, line, character), text="x"
        )


async def test_an_unappliable_change_warns_once_and_a_full_text_change_resyncs(
    session: Session,
) -> None:
    client = session.client
    text = '{"nodes": [], "edges": []}\n'
    session.open(URI, text)
    await session.publishes.wait_for(URI, 1)
    good = types.TextDocumentContentChangePartial(range=rng(0, 0, 0, 0), text=" ")
    bad = unsound_change(7, -1)
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
    bad = unsound_change(-4000, 0)
    session.change(URI, 2, [bad])
    for _ in range(100):
        if not session.publishes.latest(URI).diagnostics:
            break
        await asyncio.sleep(0.01)
    # Their positions would point into a text the client no longer has.
    assert session.publishes.latest(URI).diagnostics == ()


# ----- out-of-range and reversed ranges through the protocol, in each client's encoding -------
SCRATCH_URI = "file:///workspace/scratch.flowdrop.json"


def _essentials(diagnostics: list[types.Diagnostic]) -> list[tuple]:
    return sorted(
        (
            d.code,
            d.severity,
            d.message,
            (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character),
        )
        for d in diagnostics
    )


def _odd_change(text: str, case: str, encoding: str) -> tuple[types.Range, str, str]:
    """The range the client sends for `case`, the new text, and the text the client then holds."""
    lines = LineIndex(text)
    if case == "character past the line end":  # a CJK line; inserted at its end
        line = lines.line_of(text.index("研究エージェント"))
        past = lines.position(lines.line_end(line), encoding)[1] + 40
        new = ' "note": "🤖検",'
        at = types.Position(line, past)
        return (
            types.Range(at, at),
            new,
            text.replace('"研究エージェント",', '"研究エージェント",' + new),
        )
    if case == "line past the last line":  # appended at the end
        at = types.Position(len(lines.line_starts) + 3, 7)
        return types.Range(at, at), "\n[🤖]", text + "\n[🤖]"
    if case == "end past the last line":  # from inside an emoji line to past the end
        start = text.rindex("🤖")
        end = types.Position(len(lines.line_starts) + 100, 0)
        new = "🤖3" + text[start + len("🤖1") :]
        return types.Range(position(text, start, encoding), end), new, text[:start] + new
    assert case == "reversed range"  # from a CJK line back to an emoji line: its swap
    start, end = text.index("🤖1"), text.index("究")
    new = text[start:end].replace("🤖1", "🤖2").replace("研", "研🤖")
    rng_ = types.Range(position(text, end, encoding), position(text, start, encoding))
    return rng_, new, text[:start] + new + text[end:]


@pytest.mark.parametrize(
    "case",
    [
        "character past the line end",
        "line past the last line",
        "end past the last line",
        "reversed range",
    ],
)
async def test_out_of_range_and_reversed_changes_are_applied_as_the_reference_does(
    session: Session, case: str
) -> None:
    encoding = session.encoding
    text = json_text()
    session.open(URI, text)
    await session.publishes.wait_for(URI, 1)
    rng_, new, text = _odd_change(text, case, encoding)
    session.change(URI, 2, [types.TextDocumentContentChangePartial(range=rng_, text=new)])
    # More edits, computed on the text the client holds: a dangling edge target, then typing.
    target = text.index('"target": "agent.🤖1"') + len('"target": "agent.🤖')
    session.change(URI, 3, [replace_span(text, target, target + 1, "9", encoding)])
    text = text[:target] + "9" + text[target + 1 :]
    label = text.index("Tool Box") + len("Tool")
    session.change(URI, 4, [replace_span(text, label, label, " 🧰", encoding)])
    text = text[:label] + " 🧰" + text[label:]
    published = await session.publishes.wait_for(URI, 4)
    session.open(SCRATCH_URI, text)
    from_scratch = await session.publishes.wait_for(SCRATCH_URI, 1)
    assert _essentials(published) == _essentials(from_scratch)
    assert any(d.code for d in from_scratch)  # the dangling target is reported
    assert not [m for m in session.client.messages if m.type == types.MessageType.Warning]


async def test_a_negative_position_still_puts_the_document_out_of_sync(session: Session) -> None:
    client = session.client
    text = (Path(__file__).parents[2] / "examples" / "research-agent.flowdrop.json").read_text()
    session.open(URI, text)
    assert await session.publishes.wait_for(URI, 1)
    bad = unsound_change(2, -1)
    session.change(URI, 2, [bad])
    good = types.TextDocumentContentChangePartial(range=rng(0, 0, 0, 0), text=" ")
    session.change(URI, 3, [good])  # out of sync: not applied either
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="flowdrop.stats", arguments=[URI])
    )
    assert result["version"] == 1  # neither change was applied
    warnings = [m for m in client.messages if m.type == types.MessageType.Warning]
    assert len(warnings) == 1 and "reopen" in warnings[0].message
    await session.publishes.wait_for(URI, None)  # the diagnostics withdrawn
    assert session.publishes.latest(URI).diagnostics == ()
    session.change(URI, 4, full_change(text))
    assert await session.publishes.wait_for(URI, 4)
