"""The server's own store of open documents: text, version, line index, latest analysis.

The server keeps its own buffers instead of pygls's workspace (whose text sync rebuilds the
whole document per change, see the protocol override in server.py), so that what we analyse
is always exactly the buffer the client sent — unsaved and untitled ones included, never the
disk.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from urllib.parse import unquote, urlparse

from flowdrop_lsp.cli.discover import matches_globs
from flowdrop_lsp.core.analysis import Analysis
from flowdrop_lsp.core.settings import Settings
from flowdrop_lsp.core.text import Encoding, LineIndex


@dataclass(frozen=True)
class Change:
    """One content change: a range in the client's encoding, or None for the whole text."""

    range: tuple[int, int, int, int] | None  # start line, start character, end line, end character
    text: str


@dataclass
class Document:
    uri: str
    language_id: str
    version: int
    text: str
    lines: LineIndex = field(init=False)
    analysis: Analysis | None = None
    analysed_version: int | None = None
    published: bool = False  # whether diagnostics were published (so they can be cleared)

    def __post_init__(self) -> None:
        self.lines = LineIndex(self.text)

    def apply(self, changes: Iterable[Change], version: int, encoding: Encoding) -> None:
        for change in changes:
            if change.range is None:
                self.text = change.text
            else:
                start_line, start_char, end_line, end_char = change.range
                start = self.lines.offset(start_line, start_char, encoding)
                end = max(start, self.lines.offset(end_line, end_char, encoding))
                self.text = self.text[:start] + change.text + self.text[end:]
            self.lines = LineIndex(self.text)
        self.version = version

    @property
    def allow_comments(self) -> bool:
        return self.language_id == "jsonc" or self.uri.endswith(".jsonc")


def uri_path(uri: str) -> PurePosixPath | None:
    parsed = urlparse(uri)
    if parsed.scheme not in ("file", "vscode-remote", ""):
        return None
    return PurePosixPath(unquote(parsed.path))


def is_flowdrop_document(document: Document, analysis: Analysis, settings: Settings) -> bool:
    """A FlowDrop workflow: a path matching the configured globs, or JSON whose content is a
    workflow (a top-level object with `nodes` or `edges`). Unrelated JSON gets nothing."""
    path = uri_path(document.uri)
    if path is not None and matches_globs(path, settings.files):  # type: ignore[arg-type]
        return True
    return analysis.is_workflow


class DocumentStore:
    def __init__(self) -> None:
        self._documents: dict[str, Document] = {}

    def open(self, uri: str, language_id: str, version: int, text: str) -> Document:
        document = Document(uri, language_id, version, text)
        self._documents[uri] = document
        return document

    def get(self, uri: str) -> Document | None:
        return self._documents.get(uri)

    def close(self, uri: str) -> Document | None:
        return self._documents.pop(uri, None)

    def all(self) -> list[Document]:
        return list(self._documents.values())
