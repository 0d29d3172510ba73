"""The one facade the editor layer asks: an open workflow, kept analysed, and every editor
feature answered about it as plain frozen data.

`WorkflowService` owns the incremental engine of one buffer (core/engine/document.py) — the
edits go in, the findings, hovers, hints, lenses, locations, symbols, completions, rename edits
and fixes come out — so that nothing above core/ide reaches into the engine, the rule context or
the model. Spans are code-point `Span`s and edits core `TextEdit`s: turning them into a
protocol's ranges is the protocol layer's business (lsp/convert.py), as is choosing what to
send. One module per feature does the querying (hover.py, hints.py, lenses.py, outline.py,
completion.py, navigation.py, symbols.py, insight.py); this one only holds the document and delegates, and
re-exports the data types and the few settings-level helpers the editor layer needs — and the
site navigation (site_navigation.py: definitions, references, hovers and symbols across a site's
files, asked of the site index the server's host gives).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from flowdrop_lsp.core.config.selection import named_as_workflow, syntax_of
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.site_facts import WorkflowFacts
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Edit, Finding, TextEdit
from flowdrop_lsp.core.fixes import preferred_edits
from flowdrop_lsp.core.ide import completion, hints, hover, launch_hover, lenses, outline
from flowdrop_lsp.core.ide.completion import CompletionItem, Completions
from flowdrop_lsp.core.ide.completion_context import Slot
from flowdrop_lsp.core.ide.expressions import expression_definition, expression_hover
from flowdrop_lsp.core.ide.hints import InlayHint
from flowdrop_lsp.core.ide.hover import HoverText
from flowdrop_lsp.core.ide.lenses import ShownTool, ToolSet, ToolsLens
from flowdrop_lsp.core.ide.navigation import (
    REFERENCE_KINDS,
    Kind,
    Occurrence,
    RenameRefused,
    navigation_index,
    rename_edits,
)
from flowdrop_lsp.core.ide.outline import SymbolGroup
from flowdrop_lsp.core.ide.site_navigation import (
    SiteLocation,
    SiteNavigation,
    SiteSymbol,
    SymbolKind,
    combined_hover,
)
from flowdrop_lsp.core.ide.symbols import ROLE_ORDER, EdgeSymbol, NodeSymbol, Role, matching_nodes
from flowdrop_lsp.core.rules.registry import rule_url
from flowdrop_lsp.core.text.positions import EditableText, Span

__all__ = [
    "ROLE_ORDER",
    "CompletionItem",
    "Completions",
    "EdgeSymbol",
    "Highlight",
    "HoverText",
    "InlayHint",
    "NodeSymbol",
    "Occurrence",
    "RenameRefused",
    "Role",
    "ShownTool",
    "SiteLocation",
    "SiteNavigation",
    "SiteSymbol",
    "Slot",
    "SymbolGroup",
    "SymbolKind",
    "ToolSet",
    "ToolsLens",
    "WorkflowFacts",
    "WorkflowService",
    "combined_hover",
    "rule_url",
    "syntax_of",
]

_WITHOUT_DECLARATION = REFERENCE_KINDS - {Kind.DECLARATION}
_DECLARATION = frozenset({Kind.DECLARATION})


@dataclass(frozen=True, slots=True)
class Highlight:
    """One use of a node id: its declaration (where it is written) or a reference to it."""

    span: Span
    is_declaration: bool


class WorkflowService:
    """One open workflow buffer, analysed edit by edit, and what an editor may ask about it.

    `release_on_close`: the owner promises to call `close()` when it drops the service, so the
    engine may keep its analysis out of the garbage collector's way (see WorkflowDocument)."""

    def __init__(
        self,
        text: str,
        settings: Settings | None = None,
        *,
        syntax: str = "json",
        allow_comments: bool = False,
        release_on_close: bool = False,
        site_facts: bool = False,
    ) -> None:
        self._document = WorkflowDocument(
            text,
            settings,
            allow_comments=allow_comments,
            syntax=syntax,
            freeze_after_read=release_on_close,
            site_facts=site_facts,
        )

    def site_facts(self) -> WorkflowFacts | None:
        """The file's site facts as its text is now, from what the engine read (no second
        parse): its top level as last read, its nodes and edges from their models."""
        return self._document.site_facts()

    # ----- the buffer -----------------------------------------------------------------------
    @property
    def text(self) -> str:
        return self._document.text

    @property
    def lines(self) -> EditableText:
        """The current text with its line index (positions ↔ offsets)."""
        return self._document.buffer

    @property
    def settings(self) -> Settings:
        return self._document.settings

    def apply_edit(self, start: int, end: int, new_text: str) -> Edit:
        """Replace the code points `[start, end)` with `new_text` and re-analyse what it touched;
        the edit as made (what both texts share at its ends left out: core.text.changes)."""
        return self._document.apply_edit(start, end, new_text)

    def close(self) -> None:
        self._document.close()

    def settle(self) -> None:
        """What the last whole read left for an idle moment, done (WorkflowDocument.settle)."""
        self._document.settle()

    # ----- what it is -------------------------------------------------------------------------
    @property
    def is_workflow(self) -> bool:
        return self._document.is_workflow

    def is_flowdrop(self, path: PurePath | None, workspace_folder: PurePath | None) -> bool:
        """A FlowDrop workflow: `path` matches the configured globs (relative to the settings
        file's folder, else `workspace_folder`), or the content is FlowDrop's shape
        (core.config.selection). Unrelated JSON gets nothing."""
        named = path is not None and named_as_workflow(path, self.settings, workspace_folder)
        return named or self._document.looks_like_flowdrop

    # ----- diagnostics and fixes --------------------------------------------------------------
    def findings(self) -> tuple[Finding, ...]:
        return self._document.findings()

    def fix_all_edits(self) -> list[TextEdit]:
        """The preferred fix of every finding that has one, as one set of edits: safe fixes
        only (a preferred fix is always safe; an unsafe one is never applied wholesale)."""
        return preferred_edits(self.findings(), unsafe=False)

    def stats(self) -> dict[str, Any]:
        """How many findings there are and what the last change re-did (`flowdrop.stats`)."""
        findings = self.findings()
        return {"findings": len(findings), **self._document.stats.as_dict()}

    # ----- insight ------------------------------------------------------------------------------
    def hover(self, offset: int, markdown: bool) -> HoverText | None:
        inside = expression_hover(self._document, offset)
        if inside is not None:
            text = "\n\n".join(inside.lines)
            return HoverText(inside.span, text if markdown else text.replace("`", ""), markdown)
        found = hover.hover_at(self._document, offset, markdown)
        if found is not None:
            return found
        # A config key or an edge's handle: what the launch checks judge there.
        return launch_hover.launch_hover_at(self._document, offset, markdown)

    def inlay_hints(self, start: int, end: int) -> list[InlayHint]:
        return hints.inlay_hints(self._document, start, end)

    def code_lenses(self) -> list[ToolsLens]:
        return lenses.code_lenses(self._document)

    def tool_set(self, consumer: str) -> ToolSet | None:
        return lenses.tool_set(self._document, consumer)

    # ----- navigation ---------------------------------------------------------------------------
    def node_id_at(self, offset: int) -> Occurrence | None:
        """The node id under `offset` (its ends included), if any."""
        return navigation_index(self._document).occurrence_at(offset)

    def definitions(self, node_id: str) -> list[Span]:
        return [o.span for o in navigation_index(self._document).occurrences(node_id, _DECLARATION)]

    def references(self, node_id: str, include_declaration: bool) -> list[Span]:
        kinds = REFERENCE_KINDS if include_declaration else _WITHOUT_DECLARATION
        return [o.span for o in navigation_index(self._document).occurrences(node_id, kinds)]

    def highlights(self, node_id: str) -> list[Highlight]:
        occurrences = navigation_index(self._document).occurrences(node_id, REFERENCE_KINDS)
        return [Highlight(o.span, o.kind is Kind.DECLARATION) for o in occurrences]

    def rename_edits(self, node_id: str, new_id: str) -> list[TextEdit]:
        """The edits renaming `node_id` everywhere; raises RenameRefused (with why)."""
        return rename_edits(self._document, node_id, new_id)

    # ----- symbols and completion ---------------------------------------------------------------
    def outline(self) -> list[SymbolGroup]:
        return outline.outline(self._document)

    def matching_nodes(self, query: str, limit: int) -> list[NodeSymbol]:
        """Up to `limit` nodes whose id or label matches `query` (workspace symbols)."""
        return matching_nodes(self._document, query, limit)

    def expression_definitions(self, offset: int) -> list[Span]:
        """From a name inside an expression to what declares it (a data mapper's input)."""
        return expression_definition(self._document, offset)

    def completions(self, offset: int) -> Completions | None:
        return completion.completions(self._document, offset)
