"""An open file of a site, edited: its cross-file findings (the real rules) follow the typing.

A real-sized workflow is given to its site on every publish. A large one (over SITE_SYNC_CHARS)
is given to it once the typing pauses: meanwhile its cross-file findings are carried through
the edits (moved by the text inserted before them, dropped when an edit touches them), then
judged again on the new text. A site not read yet is read in the background, never in a
publish; under `flowdrop.diagnostics.scope: open` nothing else is read or published.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from flowdrop_lsp.core.workspace.host import SITE_SYNC_CHARS
from tests.support.lsp import Session, position
from tests.support.site import copy_site

STUDIO = "flowdrop_workflow.flowdrop_workflow.brand_studio.yml"
STALE = "flowdrop_node_type.flowdrop_node_type.planted_gone"
REAL_ENTRY = "    - flowdrop_node_type.flowdrop_node_type.boolean_gateway\n"


def planted_site(tmp_path: Path, padding: int = 0) -> Path:
    """A copy of the real site whose brand_studio lists a node type the site lacks (an
    FD-DEPENDENCY error on that entry), its description padded by `padding` characters."""
    site = copy_site(tmp_path, "config/sync")
    path = site / STUDIO
    text = path.read_text(encoding="utf-8")
    assert REAL_ENTRY in text
    text = text.replace(REAL_ENTRY, REAL_ENTRY + f"    - {STALE}\n", 1)
    if padding:
        text = text.replace("description: '", "description: '" + "padding " * (padding // 8), 1)
    path.write_text(text, encoding="utf-8")
    return path


def stale_lines(diagnostics: list[types.Diagnostic]) -> list[int]:
    return [
        d.range.start.line
        for d in diagnostics
        if d.code == "FD-DEPENDENCY" and STALE in d.message and "does not have" in d.message
    ]


def insert(session: Session, uri: str, text: str, offset: int, new: str, version: int) -> str:
    at = position(text, offset, session.encoding)
    session.change(
        uri,
        version,
        [types.TextDocumentContentChangePartial(range=types.Range(start=at, end=at), text=new)],
    )
    return text[:offset] + new + text[offset:]


async def latest_with(session: Session, uri: str, version: int, wanted) -> list[types.Diagnostic]:
    """The diagnostics of the latest publish of `version` once they meet `wanted`."""
    import asyncio

    publishes = session.publishes

    async def wait() -> list[types.Diagnostic]:
        while True:
            for params in reversed(publishes.by_uri.get(uri, [])):
                if params.version == version:
                    if wanted(list(params.diagnostics)):
                        return list(params.diagnostics)
                    break
            publishes.changed.clear()
            await publishes.changed.wait()

    return await asyncio.wait_for(wait(), 60)


async def test_a_large_buffer_carries_its_site_findings_until_the_site_reads_it(
    session: Session, tmp_path: Path
) -> None:
    path = planted_site(tmp_path, padding=SITE_SYNC_CHARS + 1000)
    uri, text = path.as_uri(), path.read_text(encoding="utf-8")
    entry_line = text[: text.index(STALE)].count("\n")
    session.open(uri, text, language_id="yaml")
    # The site is read in the background after the open; its finding then arrives.
    found = await latest_with(session, uri, 1, lambda d: stale_lines(d) == [entry_line])
    assert stale_lines(found) == [entry_line]

    # A line inserted above the entry: at once (version 2) the finding is one line lower,
    # carried through the edit; it stays there once the site has read the new text.
    text = insert(session, uri, text, 0, "# a comment\n", 2)
    first = await session.publishes.wait_for(uri, 2)
    assert stale_lines(first) == [entry_line + 1]

    # Typing inside the entry itself: the finding is dropped at once (what it said may no longer
    # hold); the entry now names a real node type, and the site, reading it, agrees.
    at = text.index(STALE) + len("flowdrop_node_type.flowdrop_node_type.")
    text = text[:at] + "boolean_gateway_x" + text[at + len("planted_gone") :]
    start = position(text, at, session.encoding)
    session.change(
        uri,
        3,
        [
            types.TextDocumentContentChangePartial(
                range=types.Range(
                    start=start,
                    end=types.Position(line=start.line, character=start.character + 12),
                ),
                text="boolean_gateway_x",
            )
        ],
    )
    dropped = await session.publishes.wait_for(uri, 3)
    assert stale_lines(dropped) == []
    # Once the typing pauses, the site reads the text: `boolean_gateway_x` is stale too.
    again = await latest_with(
        session,
        uri,
        3,
        lambda d: any("boolean_gateway_x" in x.message and x.code == "FD-DEPENDENCY" for x in d),
    )
    assert [d.range.start.line for d in again if "boolean_gateway_x" in d.message] == [
        entry_line + 1
    ]


async def test_a_real_sized_buffer_is_judged_on_every_change(
    session: Session, tmp_path: Path
) -> None:
    path = planted_site(tmp_path)
    uri, text = path.as_uri(), path.read_text(encoding="utf-8")
    assert len(text) < SITE_SYNC_CHARS
    entry_line = text[: text.index(STALE)].count("\n")
    session.open(uri, text, language_id="yaml")
    await latest_with(session, uri, 1, lambda d: stale_lines(d) == [entry_line])
    # Removing the stale entry's line: version 2 says no more about it.
    start = text.index(f"    - {STALE}\n")
    begin = position(text, start, session.encoding)
    end = position(text, start + len(f"    - {STALE}\n"), session.encoding)
    session.change(
        uri,
        2,
        [types.TextDocumentContentChangePartial(range=types.Range(start=begin, end=end), text="")],
    )
    after = await session.publishes.wait_for(uri, 2)
    assert stale_lines(after) == []
    assert not [d for d in after if d.code == "FD-DEPENDENCY"]
