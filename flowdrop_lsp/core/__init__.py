"""The analysis core: pure Python, no pygls or lsprotocol. `analyze(text, settings)` is the API."""

from flowdrop_lsp.core.analysis import Analysis, analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.findings import Finding, Fix, RelatedLocation, Severity, TextEdit
from flowdrop_lsp.core.text.positions import LineIndex, Span

__all__ = [
    "Analysis",
    "Finding",
    "Fix",
    "LineIndex",
    "RelatedLocation",
    "Settings",
    "Severity",
    "Span",
    "TextEdit",
    "analyze",
]
