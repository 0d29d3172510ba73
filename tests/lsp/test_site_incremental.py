"""An edited buffer of a Drupal workflow inside the real site shows what a fresh read shows
(issue 25): the workflow's FD-DEPENDENCY findings — and every other one — after renaming a node
id or typing one quote into a label equal those of the same text closed and opened again, and
what `check --no-cache` reports for that text written to disk.

The site is a copy of tests/corpus/atelier-cms/config/sync in which aincient_weather's
`dependencies.config` no longer lists chat_output (so its node chat_output.1 gets FD-DEPENDENCY)
and that node's label holds an emoji and CJK (the finding's message names it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.support.lsp import CLIENTS, Session, replace_span, server_command, start_session
from tests.support.site import copy_site
from tests.support.site_agreement import Shown, check_report, until_agreed

WEATHER = "flowdrop_workflow.flowdrop_workflow.aincient_weather.yml"
CHAT_OUTPUT_ENTRY = "    - flowdrop_node_type.flowdrop_node_type.chat_output\n"
NODE = "  -\n    id: chat_output.1\n"
QUOTED_LABEL = "label: 'Chat Output 💬 输出'"
PLAIN_LABEL = "label: Chat Output 💬 输出"
OPTIONS = {"diagnostics": {"scope": "workspace"}}


@pytest_lsp.fixture(config=ClientServerConfig(server_command=server_command()))
async def lsp(lsp_client: LanguageClient):
    yield lsp_client
    await lsp_client.shutdown_session()


def whole(diagnostic: types.Diagnostic) -> tuple[Any, ...]:
    """Everything a diagnostic shows and carries, but the version its data names."""
    data = dict(diagnostic.data or {})
    data.pop("version", None)
    related = tuple(
        (r.location.uri, Shown.of(types.Diagnostic(range=r.location.range, message=r.message)))
        for r in diagnostic.related_information or ()
    )
    return (Shown.of(diagnostic), related, repr(sorted(data.items())))


def dependency_findings(diagnostics: list[types.Diagnostic]) -> list[Shown]:
    return sorted(Shown.of(d) for d in diagnostics if d.code == "FD-DEPENDENCY")


async def site_with_weather_label(lsp: LanguageClient, tmp_path: Path, kind: str, label: str):
    """The server on the planted site, once it publishes what `check` reports; the weather
    workflow's path and text."""
    root = tmp_path / "ws"
    site = copy_site(root, "config/sync")
    path = site / WEATHER
    text = path.read_text(encoding="utf-8")
    text = text.replace(CHAT_OUTPUT_ENTRY, "", 1).replace("label: 'Chat Output'", label, 1)
    assert text.count(label) == 1
    path.write_text(text, encoding="utf-8")
    session = await start_session(lsp, kind, init_options=OPTIONS, workspace=root.as_uri())
    report = await until_agreed(session, [site], step="the start")
    assert any(shown.code == "FD-DEPENDENCY" for shown in report[str(path)])
    return session, path, text


async def edited_equals_fresh(
    session: Session, path: Path, text: str, start: int, end: int, new: str
) -> list[Shown]:
    """Open `text`, replace [start, end) by `new` with one didChange; the publish of that
    version must equal the publish of the same text opened afresh (after a close), and what
    `check` reports for it on disk. Answer the edited buffer's FD-DEPENDENCY findings."""
    uri = path.as_uri()
    session.open(uri, text, version=1, language_id="yaml")
    await session.publishes.wait_for(uri, 1)
    session.change(uri, 2, [replace_span(text, start, end, new, session.encoding)])
    edited = text[:start] + new + text[end:]
    after_edit = await session.publishes.wait_for(uri, 2)
    session.client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri))
    )
    # A version never published before: the reopened buffer's own publish, not an old one.
    session.open(uri, edited, version=3, language_id="yaml")
    fresh = await session.publishes.wait_for(uri, 3)
    assert sorted(map(whole, after_edit)) == sorted(map(whole, fresh))
    path.write_text(edited, encoding="utf-8")
    report = await check_report([path.parent], session.encoding)
    assert sorted(Shown.of(d) for d in after_edit) == list(report.get(str(path), ()))
    return dependency_findings(after_edit)


@pytest.mark.parametrize("kind", CLIENTS)
async def test_renaming_the_node_an_fd_dependency_finding_names(lsp, tmp_path, kind):
    session, path, text = await site_with_weather_label(lsp, tmp_path, kind, QUOTED_LABEL)
    at = text.index(NODE) + len(NODE) - 1  # the end of the id
    found = await edited_equals_fresh(session, path, text, at, at, "x")
    assert any("(chat_output.1x)" in shown.message for shown in found)


@pytest.mark.parametrize("kind", CLIENTS)
async def test_typing_a_quote_into_the_quoted_label_of_that_node(lsp, tmp_path, kind):
    session, path, text = await site_with_weather_label(lsp, tmp_path, kind, QUOTED_LABEL)
    at = text.index(QUOTED_LABEL) + len("label: 'Chat Out")
    await edited_equals_fresh(session, path, text, at, at, "'")


@pytest.mark.parametrize("kind", CLIENTS)
async def test_typing_a_quote_into_the_plain_label_of_that_node(lsp, tmp_path, kind):
    session, path, text = await site_with_weather_label(lsp, tmp_path, kind, PLAIN_LABEL)
    at = text.index(PLAIN_LABEL) + len("label: Chat Out")
    found = await edited_equals_fresh(session, path, text, at, at, "'")
    assert any("Chat Out'put 💬 输出" in shown.message for shown in found)
