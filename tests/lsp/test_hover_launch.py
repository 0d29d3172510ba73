"""Hover over LSP on what the launch checks judge (issue 29), under VS Code's (UTF-16) and
Neovim's (UTF-8) capabilities: a misspelt config key and an edge's handle naming no port, in a
JSON export of the real site's workflows written on one line, so that an emoji and CJK label
stands before the hovered token on its line; and a key of the Drupal YAML file itself."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml
from lsprotocol import types

from tests.support.insight import position, token_range
from tests.support.lsp import Session

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "atelier-cms" / "config" / "sync"
WORKFLOW = "flowdrop_workflow.flowdrop_workflow.{}.yml"


def _site(tmp_path: Path) -> Path:
    """The real site's node types (what the launch checks and the hover read)."""
    site = tmp_path / "config" / "sync"
    site.mkdir(parents=True)
    for path in CORPUS.glob("flowdrop_node_type.*.yml"):
        shutil.copy(path, site / path.name)
    return site


def _one_line_json(name: str, label: str, wide: str, old: str = "", new: str = "") -> str:
    text = (CORPUS / WORKFLOW.format(name)).read_text(encoding="utf-8")
    text = text.replace(label, wide, 1).replace(old, new, 1)
    data = yaml.safe_load(text)
    data["edges"] = data["edges"] or []  # Drupal writes no edges as `{  }`; JSON as `[]`
    return json.dumps(data, ensure_ascii=False)


async def _hover(session: Session, uri: str, text: str, offset: int) -> types.Hover | None:
    return await session.client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=position(text, offset, session.encoding),
        )
    )


def _value(hover: types.Hover | None) -> str:
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    return hover.contents.value.replace("\n  ", " ")  # a wrapped line joined, as Markdown does


async def test_hover_on_a_misspelt_config_key_after_emoji_and_cjk(
    session: Session, tmp_path: Path
) -> None:
    text = _one_line_json(
        "reason",
        "label: 'Reason (agent step)'",
        "label: '推論 🤖 step'",
        "maxTokens: 8192",
        "maxTokes: 8192",
    )
    path = _site(tmp_path) / "reason.flowdrop.json"
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    session.open(uri, text, language_id="json")
    published = await session.publishes.wait_for(uri, 1)
    assert [d.code for d in published] == ["R6.c"]
    key = '"maxTokes"'
    assert text.count("\n") == 0 and text.index("🤖") < text.index(key)
    hover = await _hover(session, uri, text, text.index(key) + 4)  # inside the key
    assert hover is not None and hover.range == token_range(text, key, session.encoding)
    value = _value(hover)
    assert value.startswith('**Config key** `maxTokes` of "推論 🤖 step" (`aincient_reason.1`)')
    assert "did you mean `maxTokens`?" in value
    assert "- `maxTokens` — default `1024`" in value
    assert await _hover(session, uri, text, text.index("8192")) is None  # the value: nothing


async def test_hover_on_a_handle_naming_no_port_after_emoji_and_cjk(
    session: Session, tmp_path: Path
) -> None:
    text = _one_line_json("aincient_weather", "label: 'Data Mapper'", "label: 'データ 🗺️ Mapper'")
    path = _site(tmp_path) / "weather.flowdrop.json"
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    session.open(uri, text, language_id="json")
    await session.publishes.wait_for(uri, 1)
    handle = '"data_mapper.2-input-gf"'
    assert text.index("🗺️") < text.index(handle)
    hover = await _hover(session, uri, text, text.index(handle) + len(handle) - 2)
    assert hover is not None and hover.range == token_range(text, handle, session.encoding)
    value = _value(hover)
    assert value.startswith("**Target handle** `data_mapper.2-input-gf` — ⚠ names input port `gf`")
    assert "did you mean `g`?" in value and "Its inputs:\n\n- `g`" in value


async def test_hover_on_a_config_key_of_the_drupal_yaml_file(
    session: Session, tmp_path: Path
) -> None:
    site = _site(tmp_path)
    path = site / WORKFLOW.format("aincient_policy_links")
    shutil.copy(CORPUS / path.name, path)
    text = path.read_text(encoding="utf-8")
    uri = path.as_uri()
    session.open(uri, text, language_id="yaml")
    await session.publishes.wait_for(uri, 1)
    hover = await _hover(session, uri, text, text.index("check: links") + 1)
    assert hover is not None and hover.range == token_range(
        text, "check", session.encoding, text[: text.index("check: links")].count("check")
    )
    assert "- **`check`** ← here — required, default `''`" in _value(hover)
