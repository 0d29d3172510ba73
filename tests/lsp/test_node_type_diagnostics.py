"""A node-type definition open in the editor gets its own diagnostics (the node-type rules),
at the exact position in the negotiated encoding, and they follow the typing."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from tests.support.lsp import Session, position

NAME = "flowdrop_node_type.flowdrop_node_type.translate.yml"
# The entry's key is CJK and an emoji (two UTF-16 units): the value after it is at UTF-16
# column 21, code point 20, UTF-8 byte 27.
LINE = "parameters: {'翻訳🌐': true}\n"
TEXT = "id: translate\nlabel: '翻訳 🌐 Translate'\n" + LINE + "outputs: {  }\n"


async def test_an_open_definition_gets_its_diagnostic_at_the_exact_position(
    session: Session, tmp_path: Path
) -> None:
    site = tmp_path / "config" / "sync"
    site.mkdir(parents=True)
    path = site / NAME
    path.write_text(TEXT, encoding="utf-8")
    uri = path.as_uri()
    session.open(uri, TEXT, language_id="yaml")
    diagnostics = await session.publishes.wait_for(uri, 1)
    assert [d.code for d in diagnostics] == ["FD-NODE-TYPE-ENTRY"]
    found = diagnostics[0]
    assert "parameter '翻訳🌐' is a boolean, not a mapping of its flags" in found.message
    assert found.severity == types.DiagnosticSeverity.Error
    offset = TEXT.index("true}")
    assert found.range.start == position(TEXT, offset, session.encoding)
    assert found.range.end == position(TEXT, offset + len("true"), session.encoding)
    expected = {"utf-16": 21, "utf-32": 20, "utf-8": 27}[session.encoding]
    assert found.range.start == types.Position(line=2, character=expected)
    # Typed into a mapping of flags: the finding goes, nothing else comes.
    start = position(TEXT, offset, session.encoding)
    end = position(TEXT, offset + len("true"), session.encoding)
    session.change(
        uri,
        2,
        [
            types.TextDocumentContentChangePartial(
                range=types.Range(start=start, end=end), text="{configurable: true}"
            )
        ],
    )
    after = await session.publishes.wait_for(uri, 2)
    assert [d.code for d in after] == []
