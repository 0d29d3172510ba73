"""R13 past its cap with several duplicated edges interleaved: only the first duplicates of each
(source, target, handles) are sorted, the rest counted; what is reported is exactly the first
100 duplicates by position and a summary counting all the others, anchored on the 101st."""

from __future__ import annotations

import json

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.rules.base import FINDINGS_PER_GROUP as CAP
from tests.support.builders import node


def test_interleaved_duplicates_are_reported_by_position() -> None:
    # Three keys, interleaved: a→b, b→c, c→a, a→b, … (edges 0, 1, 2 are the first of each).
    ends = [("a", "b"), ("b", "c"), ("c", "a")]
    edges = [{"source": s, "target": t} for i in range(3 * (CAP + 40)) for s, t in [ends[i % 3]]]
    text = json.dumps(
        {"nodes": [node("a"), node("b"), node("c")], "edges": edges}, indent=1, ensure_ascii=False
    )
    found = [f for f in analyze(text).findings if f.code == "R13"]
    *listed, summary = found
    assert len(listed) == CAP
    assert dict(summary.extra)["capped"] == len(edges) - 3 - CAP
    # The target value of edge i is the i-th `"target": "…"` in the text.
    targets = [i + len('"target": ') for i in range(len(text)) if text.startswith('"target"', i)]
    assert [f.span.start for f in listed] == targets[3 : 3 + CAP]
    assert summary.span.start == targets[3 + CAP]
    assert all(f.related[0].span.start == targets[i % 3] for i, f in enumerate(listed, 3))
