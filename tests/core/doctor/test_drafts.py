"""A draft's text (core/doctor/drafts.py) is as compact as the editor's body: STORE-1's 8 MiB
door judges that text, so a draft FlowDrop accepts must not grow past it by being written."""

from __future__ import annotations

import json

from flowdrop_lsp.core.doctor.drafts import draft_text


def test_a_draft_is_written_no_larger_than_its_compact_json_and_its_line_breaks() -> None:
    draft = {
        "id": "w",
        "nodes": [
            {"id": f"n{i}", "type": "t", "data": {"label": "数 👋", "config": {"list": [1, 2, 3]}}}
            for i in range(50)
        ],
        "edges": [{"id": "e", "source": "n0", "target": "n1"}],
    }
    compact = json.dumps(draft, ensure_ascii=False, separators=(",", ":"))
    written = draft_text(draft)
    assert json.loads(written) == draft
    elements = len(draft["nodes"]) + len(draft["edges"])
    # One line per element and per member, nothing else added.
    assert len(written.encode()) <= len(compact.encode()) + 2 * (elements + len(draft)) + 4
