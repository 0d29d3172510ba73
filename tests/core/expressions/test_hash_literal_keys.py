"""`hash_literal_keys`: the keys of the map an ExpressionLanguage expression evaluates to, said
only when the whole expression is one hash literal with its keys written out."""

from __future__ import annotations

import pytest

from flowdrop_lsp.core.expressions.expression_language import hash_literal_keys


@pytest.mark.parametrize(
    ("source", "keys"),
    [
        ("{'brand_brief': b, tone: t, 2: x}", {"brand_brief", "tone", "2"}),
        ('{"天気": 1, "🌦️": 2}', {"天気", "🌦️"}),
        ("{}", set()),
        ("{a: 1,}", {"a"}),
        ("{a: {b: 1}, c: [1, 2], d: f(1), e: (x ? 1 : 2)}", {"a", "c", "d", "e"}),
        ("  {a: 1}  ", {"a"}),
    ],
)
def test_the_keys_written_out(source: str, keys: set[str]) -> None:
    assert hash_literal_keys(source) == frozenset(keys)


@pytest.mark.parametrize(
    "source",
    [
        "a",  # a name: its value is not known here
        "{(k): 1}",  # a computed key
        "{a: 1}['a']",  # the hash indexed: a value, not the hash
        "{a: 1} ~ 'x'",  # the hash concatenated
        "{a: 1",  # refused: unclosed
        "{a 1}",  # refused: no colon
        "[1, 2]",  # a list
    ],
)
def test_nothing_said_of_anything_else(source: str) -> None:
    assert hash_literal_keys(source) is None
