"""Which edges carry tools: a recognised `data.edgeType` decides, else the target handle's
suffix (docs/domain.md, EDGE-1, EDGE-5)."""

from __future__ import annotations

from flowdrop_lsp.core.config.settings import Settings

TOOL_EDGE_TYPE = "tool_availability"
TOOL_HANDLE_SUFFIX = "-input-tool"


def classify_tool_edge(declared: str | None, target_handle: str | None, settings: Settings) -> bool:
    """EDGE-5: a recognised declaration decides; otherwise (absent, empty, non-string or
    unrecognised) the target handle decides by EXACT suffix (EDGE-1)."""
    if declared and declared in settings.edge_types:
        return declared == TOOL_EDGE_TYPE
    return target_handle is not None and target_handle.endswith(TOOL_HANDLE_SUFFIX)
