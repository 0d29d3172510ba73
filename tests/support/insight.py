"""The example documents with wide characters (emoji, CJK) that hover, inlay hints and code lens
share, and LSP positions in them."""

from __future__ import annotations

from lsprotocol import types

from flowdrop_lsp.core.text.positions import LineIndex
from tests.support.lsp import REPO, Session

URI = "file:///workspace/research.flowdrop.json"


YAML_URI = "file:///site/config/sync/flowdrop_workflow.flowdrop_workflow.research_agent.yml"


WIDE_TOOL = '"Web Search 🤖 数据"'  # still the tool name web_search


WIDE_AGENT = '"研究 Agent 🧪"'


def wide_example() -> str:
    text = EXAMPLE.read_text(encoding="utf-8")
    return text.replace('"Web Search"', WIDE_TOOL).replace('"Research Agent"', WIDE_AGENT)


def position(text: str, offset: int, encoding: str) -> types.Position:
    line, character = LineIndex(text).position(offset, encoding)  # type: ignore[arg-type]
    return types.Position(line=line, character=character)


def token_range(text: str, token: str, encoding: str, occurrence: int = 0) -> types.Range:
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(token, start + 1)
    return types.Range(
        start=position(text, start, encoding), end=position(text, start + len(token), encoding)
    )


async def opened(session: Session, text: str, uri: str = URI, language_id: str = "json") -> str:
    session.open(uri, text, language_id=language_id)
    await session.publishes.wait_for(uri, 1)
    return text


EXAMPLE = REPO / "examples" / "research-agent.flowdrop.json"
