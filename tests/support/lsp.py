"""A pytest-lsp session against the real server (under VS Code's and Neovim's capabilities), its
publishes, and edits and positions for requests."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from flowdrop_lsp.core.text.positions import LineIndex
from tests.support.forks import FORKS
from tests.support.samples import json_text, yaml_text

JSON_URI = "file:///workspace/nav.flowdrop.json"


YAML_URI = "file:///site/config/sync/flowdrop_workflow.flowdrop_workflow.nav.yml"


def span_of(text: str, rng: types.Range, encoding: str) -> tuple[int, int]:
    lines = LineIndex(text)
    return (
        lines.offset(rng.start.line, rng.start.character, encoding),  # type: ignore[arg-type]
        lines.offset(rng.end.line, rng.end.character, encoding),  # type: ignore[arg-type]
    )


async def open_workflow(session: Session, syntax: str) -> tuple[str, str]:
    uri, language_id, make = FORMATS[syntax]
    text = make()
    session.open(uri, text, language_id=language_id)
    await session.publishes.wait_for(uri, 1)
    return uri, text


def doc_position(uri: str, text: str, offset: int, encoding: str) -> dict:
    return {
        "text_document": types.TextDocumentIdentifier(uri=uri),
        "position": position(text, offset, encoding),
    }


def apply_edits(text: str, edits: list[types.TextEdit], encoding: str) -> str:
    lines = LineIndex(text)
    spans = []
    for edit in edits:
        start = lines.offset(edit.range.start.line, edit.range.start.character, encoding)  # type: ignore[arg-type]
        end = lines.offset(edit.range.end.line, edit.range.end.character, encoding)  # type: ignore[arg-type]
        spans.append((start, end, edit.new_text))
    for start, end, new_text in sorted(spans, reverse=True):
        text = text[:start] + new_text + text[end:]
    return text


def edits_of(action: types.CodeAction, uri: str) -> list[types.TextEdit]:
    assert action.edit is not None
    if action.edit.document_changes:
        change = action.edit.document_changes[0]
        assert isinstance(change, types.TextDocumentEdit)
        assert change.text_document.uri == uri
        return list(change.edits)  # type: ignore[arg-type]
    assert action.edit.changes is not None
    return list(action.edit.changes[uri])


def cmp9(diagnostics: list[types.Diagnostic]) -> list[types.Diagnostic]:
    return [d for d in diagnostics if d.code == "CMP-9"]


def full_change(text: str) -> list[types.TextDocumentContentChangeEvent]:
    return [types.TextDocumentContentChangeWholeDocument(text=text)]


def replace_span(
    text: str, start: int, end: int, new_text: str, encoding: str
) -> types.TextDocumentContentChangePartial:
    lines = LineIndex(text)
    sl, sc = lines.position(start, encoding)  # type: ignore[arg-type]
    el, ec = lines.position(end, encoding)  # type: ignore[arg-type]
    return types.TextDocumentContentChangePartial(
        range=types.Range(start=types.Position(sl, sc), end=types.Position(el, ec)), text=new_text
    )


async def _code_actions(
    session: Session, uri: str, rng: types.Range, diagnostics: list[types.Diagnostic], only=None
):
    return await session.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=rng,
            context=types.CodeActionContext(diagnostics=diagnostics, only=only),
        )
    )


REPO = Path(__file__).resolve().parents[2]


SPEC_EXAMPLES = REPO / "tests" / "fixtures" / "spec"


CLIENTS = ["visual-studio-code", "neovim"]


# An upper bound, never the expected time: CI machines under load ran the suite 2× slower.
WAIT = 60.0


@dataclass
class Publishes:
    """Every publishDiagnostics received, per uri, in order."""

    by_uri: dict[str, list[types.PublishDiagnosticsParams]] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def record(self, params: types.PublishDiagnosticsParams) -> None:
        self.by_uri.setdefault(params.uri, []).append(params)
        self.changed.set()

    def count(self, uri: str) -> int:
        return len(self.by_uri.get(uri, []))

    async def wait_for_new(
        self, uri: str, after: int, timeout: float = WAIT
    ) -> types.PublishDiagnosticsParams:
        """The first publish for `uri` after the first `after` ones."""

        async def until() -> types.PublishDiagnosticsParams:
            while self.count(uri) <= after:
                self.changed.clear()
                await self.changed.wait()
            return self.by_uri[uri][after]

        return await asyncio.wait_for(until(), timeout)

    def latest(self, uri: str) -> types.PublishDiagnosticsParams | None:
        items = self.by_uri.get(uri)
        return items[-1] if items else None

    async def wait_for(
        self, uri: str, version: int | None, timeout: float = WAIT
    ) -> list[types.Diagnostic]:
        """The diagnostics of the publish for `uri` that names `version` (None: an unversioned
        publish, as on close)."""

        async def until() -> list[types.Diagnostic]:
            while True:
                for params in reversed(self.by_uri.get(uri, [])):
                    if params.version == version:
                        return list(params.diagnostics)
                self.changed.clear()
                await self.changed.wait()

        return await asyncio.wait_for(until(), timeout)


@dataclass
class Session:
    client: LanguageClient
    publishes: Publishes
    kind: str
    encoding: str
    result: types.InitializeResult
    # What the server registered dynamically (client/registerCapability), as editors accept it.
    registrations: list[types.Registration] = field(default_factory=list)
    # The refresh requests the server sent (workspace/inlayHint/refresh, …), answered as editors do.
    refreshes: list[str] = field(default_factory=list)

    def open(self, uri: str, text: str, version: int = 1, language_id: str = "json") -> None:
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id=language_id, version=version, text=text
                )
            )
        )

    def change(
        self, uri: str, version: int, changes: list[types.TextDocumentContentChangeEvent]
    ) -> None:
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=changes,
            )
        )


def server_command() -> list[str]:
    """`python -m flowdrop_lsp serve`, forked from the fork server (tests/support/forks.py:
    a fresh process without the import time; tests/lsp/conftest.py starts the fork server)."""
    return FORKS.command("flowdrop_lsp", "serve")


def accept_registrations(lsp_client: LanguageClient) -> list[types.Registration]:
    """Answer `client/registerCapability` as editors do; the registrations are kept in the
    returned list (the server registers its node-type watch where the client supports it)."""
    registrations: list[types.Registration] = []

    def on_register(*args):
        registrations.extend(args[-1].registrations)

    lsp_client.protocol.fm.features[types.CLIENT_REGISTER_CAPABILITY] = on_register
    return registrations


async def start_session(
    lsp_client: LanguageClient,
    kind: str,
    init_options: dict | None = None,
    workspace: str | None = None,
) -> Session:
    """Initialize under `kind`'s capabilities; `workspace` (a folder uri) is sent as the root
    and the only workspace folder."""
    publishes = Publishes()

    # Wrap pytest-lsp's own handler (which keeps `client.diagnostics`) to keep every version.
    features = lsp_client.protocol.fm.features
    original = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def on_publish(*args):
        publishes.record(args[-1])
        return original(*args)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_publish
    registrations = accept_registrations(lsp_client)
    refreshes: list[str] = []
    for method in (types.WORKSPACE_INLAY_HINT_REFRESH, types.WORKSPACE_CODE_LENS_REFRESH):
        features[method] = lambda *args, method=method: refreshes.append(method)

    capabilities = client_capabilities(kind)
    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities,
            initialization_options=init_options,
            root_uri=workspace,
            workspace_folders=[types.WorkspaceFolder(uri=workspace, name="workspace")]
            if workspace
            else None,
        )
    )
    encoding = (
        getattr(
            result.capabilities.position_encoding, "value", result.capabilities.position_encoding
        )
        or "utf-16"
    )
    return Session(lsp_client, publishes, kind, encoding, result, registrations, refreshes)


FORMATS = {"json": (JSON_URI, "json", json_text), "yaml": (YAML_URI, "yaml", yaml_text)}


def position(text: str, offset: int, encoding: str) -> types.Position:
    line, character = LineIndex(text).position(offset, encoding)  # type: ignore[arg-type]
    return types.Position(line=line, character=character)
