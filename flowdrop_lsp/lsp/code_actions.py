"""Code actions: the core's fixes as quick fixes, and `source.fixAll.flowdrop`.

Every fix is offered as a quick fix, unsafe ones too (one by one, the user choosing), but only a
safe preferred fix is `isPreferred`; fix-all applies the preferred fixes, which are safe only
(`WorkflowService.fix_all_edits`).

Fixes come from the diagnostic's `data` (computed with the diagnostic, for the version it
names), so no re-analysis is needed. A diagnostic from an older version, or one without our
data, is matched against the current analysis instead. A code-action request never fails: on
any unexpected problem it answers with no actions and logs why.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from flowdrop_lsp.lsp.convert import (
    SOURCE,
    fix_data,
    range_from_json,
    to_range,
    workspace_edit,
)
from flowdrop_lsp.lsp.current import document_at
from flowdrop_lsp.lsp.guard import answers_on_failure

if TYPE_CHECKING:
    from flowdrop_lsp.core.facade import Finding
    from flowdrop_lsp.lsp.documents import Document
    from flowdrop_lsp.lsp.server import FlowdropServer

FIX_ALL_KIND = "source.fixAll.flowdrop"


def _wants(only: Sequence[str] | None, kind: str) -> bool:
    """LSP kinds are hierarchical: asking for `source.fixAll` includes `source.fixAll.flowdrop`."""
    if not only:
        return True
    return any(kind == wanted or kind.startswith(wanted + ".") for wanted in only)


def _workspace_edit(
    ls: FlowdropServer, document: Document, edits: list[types.TextEdit]
) -> types.WorkspaceEdit:
    return workspace_edit(document.uri, document.version, edits, ls.supports_document_changes)


def _current_fixes(
    ls: FlowdropServer, document: Document, diagnostic: types.Diagnostic
) -> list[dict[str, Any]]:
    """Fixes for a diagnostic that is stale or not ours to trust: the current finding with the
    same code at the same place (or about the same node)."""
    encoding = ls.encoding
    data = diagnostic.data if isinstance(diagnostic.data, dict) else {}
    findings = ls.judged_findings(document)
    for finding in findings:
        if finding.code != diagnostic.code or not finding.fixes:
            continue
        same_place = to_range(document.lines, finding.span, encoding) == diagnostic.range
        same_node = data.get("node") is not None and data.get("node") == finding.node
        same_consumer = data.get("consumer") in (None, finding.extra_dict().get("consumer"))
        if same_place or (same_node and same_consumer):
            return [fix_data(fix, document.lines, encoding) for fix in finding.fixes]
    return []


def _fixes_for(
    ls: FlowdropServer, document: Document, diagnostic: types.Diagnostic
) -> list[dict[str, Any]]:
    data = diagnostic.data
    if (
        isinstance(data, dict)
        and data.get("version") == document.version
        and isinstance(data.get("fixes"), list)
    ):
        return data["fixes"]
    return _current_fixes(ls, document, diagnostic)


def _quick_fixes(
    ls: FlowdropServer, document: Document, diagnostic: types.Diagnostic
) -> list[types.CodeAction]:
    actions = []
    for fix in _fixes_for(ls, document, diagnostic):
        edits = [
            types.TextEdit(range=range_from_json(e["range"]), new_text=e["newText"])
            for e in fix["edits"]
        ]
        # An unsafe fix is offered like any other, chosen by the user, never preferred.
        safe = fix.get("applicability", "safe") == "safe"
        actions.append(
            types.CodeAction(
                title=fix["title"],
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                is_preferred=(bool(fix["preferred"]) and safe) or None,
                edit=_workspace_edit(ls, document, edits),
            )
        )
    return actions


def _findings_in_range(ls: FlowdropServer, document: Document, rng: types.Range) -> list[Finding]:
    encoding = ls.encoding
    start = document.lines.offset(rng.start.line, rng.start.character, encoding)
    end = document.lines.offset(rng.end.line, rng.end.character, encoding)
    return [
        f
        for f in ls.judged_findings(document)
        if f.fixes and f.span.start <= end and start <= f.span.end
    ]


def code_actions(ls: FlowdropServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    document = document_at(ls, params.text_document.uri)
    # A workflow, or a site's node type (its cross-file findings have fixes too: a misspelt
    # callee in `executor_plugin`, a contract name to follow).
    if document is None or not ls.is_judged(document):
        return []
    only = params.context.only
    actions: list[types.CodeAction] = []
    if _wants(only, types.CodeActionKind.QuickFix):
        ours = [d for d in params.context.diagnostics if d.source == SOURCE]
        if not ours:
            # Asked at a position without diagnostics in the request: offer what is there.
            diagnostics = ls.diagnostics_of(document)
            wanted = {(f.code, f.span) for f in _findings_in_range(ls, document, params.range)}
            findings = ls.judged_findings(document)
            ours = [
                d for d, f in zip(diagnostics, findings, strict=True) if (f.code, f.span) in wanted
            ]
        for diagnostic in ours:
            actions.extend(_quick_fixes(ls, document, diagnostic))
        actions.sort(key=lambda action: not action.is_preferred)  # Enter takes the first one
    if _wants(only, FIX_ALL_KIND) and ls.is_flowdrop(document):
        edits = document.workflow.fix_all_edits()
        if edits:
            lsp_edits = [
                types.TextEdit(
                    range=to_range(document.lines, e.span, ls.encoding), new_text=e.new_text
                )
                for e in edits
            ]
            actions.append(
                types.CodeAction(
                    title="Fix all FlowDrop problems with a safe fix",
                    kind=FIX_ALL_KIND,
                    edit=_workspace_edit(ls, document, lsp_edits),
                )
            )
    return actions


def register(server: FlowdropServer) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND], resolve_provider=False
        ),
    )
    @answers_on_failure("textDocument/codeAction", [])
    def on_code_action(
        ls: FlowdropServer, params: types.CodeActionParams
    ) -> list[types.CodeAction]:
        return code_actions(ls, params)
