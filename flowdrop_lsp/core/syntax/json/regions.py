"""Reading a stretch of `nodes`/`edges`, or one element of them, exactly as a whole read of the
document reads it: what keeps the incremental engine local while the text is broken (see
core.syntax.json.parser, whose recovery at element boundaries these rely on).
"""

from __future__ import annotations

from typing import Any

from flowdrop_lsp.core.syntax.json.parser import _Parser, parse_json
from flowdrop_lsp.core.syntax.json.shapes import ELEMENT, ELEMENT_DEPTH
from flowdrop_lsp.core.syntax.tree import JsonValue, SyntaxProblem


def parse_element(text: str, shape: Any) -> tuple[JsonValue | None, tuple[SyntaxProblem, ...]]:
    """Read `text` as exactly one value (an element of `nodes` or `edges`). The caller accepts
    the result only when no problem has kind 'syntax'."""
    parsed = parse_json(text, shape=shape, depth=ELEMENT_DEPTH)
    return parsed.root, parsed.problems


# What `parse_array_region` returns when the stretch it read reaches past its end.
OVERRUN = "overrun"
# How much of the text after a stretch `parse_array_region` needs: the token there is looked
# at (and quoted in messages, up to 20 characters), never read.
REGION_CONTEXT = 64


def parse_array_region(
    text: str, stop: int, shape: Any, after_element: bool, column: int = 0
) -> tuple[list[JsonValue], tuple[SyntaxProblem, ...]] | str | None:
    """Re-read the stretch `[0, stop)` of the interior of `nodes` or `edges` exactly as a whole
    read of the document reads it: the elements in it, and every problem met on the way (in the
    stretch's coordinates). `after_element` when an element precedes the stretch (the read
    starts expecting ',' or ']'); `text` goes on past `stop` with REGION_CONTEXT characters of
    what follows (the next element or the array's ']'). `column`: where `text` starts in its
    line (the whole read cuts a half-typed element at a '{' no deeper than the element, which
    needs the element's column).

    OVERRUN when what is read reaches past `stop` (a half-typed element that swallows the next
    one, a token running on into it): the caller re-reads a longer stretch. None when the array
    would end (or break) inside the stretch: the structure above the elements changed."""
    problems: list[SyntaxProblem] = []
    parser = _Parser(text, problems, allow_trailing_commas=False, allow_comments=False)
    parser.first_column = column
    items: list[JsonValue] = []
    ending, _, _ = parser.array_items(
        ELEMENT_DEPTH, (ELEMENT, shape), items, -1, after_item=after_element, stop=stop
    )
    if ending == OVERRUN:
        return OVERRUN
    if ending != "stop":
        return None
    problems.sort(key=lambda problem: (problem.start, problem.end))
    return items, tuple(problems)
