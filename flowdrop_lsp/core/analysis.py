"""`analyze(text)`: the whole pipeline from text to findings, with no protocol in sight.

text → tolerant JSON tree with spans → workflow model → tool graph → rules → findings (with
severity overrides and ignored rules applied, sorted by position). It is the engine
(core/engine/document.py) reading a text from scratch: the CLI and the server reach the same
engine through the host (core/workspace/host.py), so they and the incremental path share every
line of analysis. The tests ask it; the package does not.
"""

from __future__ import annotations

from dataclasses import dataclass

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.graph import ToolGraph
from flowdrop_lsp.core.domain.model import Edge, Node, Workflow
from flowdrop_lsp.core.engine.document import WorkflowDocument, apply_settings
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.rules.base import RuleContext

DEFAULT_SETTINGS = Settings()

__all__ = ["Analysis", "analyze", "apply_settings"]


@dataclass(frozen=True)
class Analysis:
    text: str
    is_workflow: bool
    graph: ToolGraph
    context: RuleContext
    findings: tuple[Finding, ...]
    document: WorkflowDocument

    @property
    def workflow(self) -> Workflow:
        """The nodes and edges read, in document order (spans as of this analysis)."""
        lists = self.document.lists
        nodes = tuple(e.model for e in lists["nodes"].elements if isinstance(e.model, Node))
        edges = tuple(e.model for e in lists["edges"].elements if isinstance(e.model, Edge))
        return Workflow(nodes, edges)


def analysis_of(document: WorkflowDocument) -> Analysis:
    return Analysis(
        document.text,
        document.is_workflow,
        document.graph,
        document.context,
        document.findings(),
        document,
    )


def analyze(
    text: str,
    settings: Settings = DEFAULT_SETTINGS,
    *,
    allow_comments: bool = False,
    syntax: str = "json",
) -> Analysis:
    """Analyse one workflow document (`syntax` "json" or "yaml"). Never raises on any input."""
    return analysis_of(
        WorkflowDocument(text, settings, allow_comments=allow_comments, syntax=syntax)
    )
