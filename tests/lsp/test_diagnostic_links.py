"""`codeDescription.href`: every diagnostic links to something that exists — by default the
rule's page shipped in the package, else the configured `docs-url`."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import pytest
import pytest_lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.support.lsp import CLIENTS, REPO, server_command, start_session

EXAMPLE = (REPO / "examples" / "research-agent.flowdrop.json").read_text(encoding="utf-8")
URI = "file:///workspace/research.flowdrop.json"


@pytest_lsp.fixture(params=CLIENTS, config=ClientServerConfig(server_command=server_command()))
async def fresh_client(request: pytest.FixtureRequest, lsp_client: LanguageClient):
    lsp_client.flowdrop_kind = request.param  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def _cmp9_links(client: LanguageClient, options: dict[str, object]) -> set[str]:
    session = await start_session(client, client.flowdrop_kind, options)  # type: ignore[attr-defined]
    session.open(URI, EXAMPLE)
    diagnostics = await session.publishes.wait_for(URI, 1)
    return {
        d.code_description.href
        for d in diagnostics
        if d.code == "CMP-9" and d.code_description is not None
    }


async def test_the_default_link_is_the_shipped_page_of_the_rule(
    fresh_client: LanguageClient,
) -> None:
    (href,) = await _cmp9_links(fresh_client, {})
    assert href.startswith("file://")
    page = Path(url2pathname(urlparse(href).path))
    assert page.read_text(encoding="utf-8").startswith(
        '<a id="rule-cmp-9"></a>\n# CMP-9 — Tool name collision'
    )


async def test_a_configured_docs_url_is_linked_with_the_rule_anchor(
    fresh_client: LanguageClient,
) -> None:
    links = await _cmp9_links(fresh_client, {"docsUrl": "https://git.example.org/x/README.md"})
    assert links == {"https://git.example.org/x/README.md#rule-cmp-9"}
