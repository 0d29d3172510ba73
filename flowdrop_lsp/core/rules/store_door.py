"""STORE-1: FlowDrop refuses a workflow over 8 MiB (UTF-8 bytes) or nested 64 levels or deeper,
before reading any meaning out of it; so does this checker (core/syntax/door.py, kept by every
whole read: the command line, the editor's buffers, the site's background read, the Doctor's
drafts).

One finding, on the file's first character, and nothing else: the text is not parsed, so no
other rule runs on it (a 53 MB export is told at once what FlowDrop would tell it, instead of
after an analysis of something FlowDrop will never store). The size is the text's UTF-8 bytes,
as FlowDrop counts a body, Drupal config YAML included (the site's readers keep the same bound);
the depth counts `{}` as 1, exactly for JSON, at its least for YAML (a legal file is never
called too deep). Nothing can be fixed here by a rename: cut the workflow down (a workflow too
big is usually one exported with its run data, or a sub-workflow's worth of nodes)."""

from __future__ import annotations

from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.base import Rule
from flowdrop_lsp.core.syntax.door import MAX_WORKFLOW_BYTES, REFUSED_DEPTH, MiB, Refusal
from flowdrop_lsp.core.text.positions import Span

RULE = Rule(
    "STORE-1",
    "Workflow refused at the door",
    Severity.ERROR,
    "The workflow is over 8 MiB or nested 64 levels deep: FlowDrop refuses it before reading "
    "it, and it is not analysed.",
    spec_ids=("STORE-1",),
)


def _size(size: int) -> str:
    if size >= MiB:
        return f"{size / MiB:.1f} MiB"
    return f"{size:,} bytes"


def door_finding(refused: Refusal, text_length: int) -> Finding:
    """The one finding of a text the door refused, on its first character."""
    if refused.too_large:
        said = (
            f"the workflow is {_size(refused.size)} ({refused.size:,} bytes); FlowDrop refuses "
            f"a workflow over {MAX_WORKFLOW_BYTES // MiB} MiB (STORE-1), so it is not analysed"
        )
    else:
        least = "at least " if refused.at_least else ""
        said = (
            f"the workflow nests {least}{refused.depth} levels deep; FlowDrop refuses a "
            f"workflow nested {REFUSED_DEPTH} levels or deeper (STORE-1), so it is not analysed"
        )
    return RULE.finding(Span(0, min(1, text_length)), said)


def _nested(levels: int) -> str:
    """A workflow whose one node's config nests down to `levels` in all (the root is 1)."""
    inner = "[" * (levels - 5) + "]" * (levels - 5)
    return f"""\
{{
  "nodes": [
    {{
      "id": "matrix",
      "type": "universalNode",
      "data": {{
        "label": "Matrix",
        "config": {{"rows": {inner}}},
        "metadata": {{"node_type_id": "http_request"}}
      }}
    }}
  ],
  "edges": []
}}
"""


EXPLANATION = RULE.explained(
    "FlowDrop's storage door refuses a request body over 8 MiB of octets or nested 64 levels "
    "or deeper (spec STORE-1; a document nested 63 levels deep must be accepted) before any "
    "workflow-level meaning is read. A file or buffer past either bound gets this one finding "
    "on its first character and is not parsed, so no other rule reports on it: the size is "
    "its UTF-8 bytes (Drupal config YAML too: the site's readers keep the same bound), the "
    "depth counts `{}` as 1 (for YAML, at its least: a legal file is never called too deep). "
    "The failing example's config nests down to level 64; the passing one to 63.",
    failing=_nested(REFUSED_DEPTH),
    passing=_nested(REFUSED_DEPTH - 1),
)
