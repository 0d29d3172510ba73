"""`nesting_depth` reads a JSON text's depth from its bytes, strings skipped however they are
escaped: it agrees with the parsed value's depth on every JSON text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flowdrop_lsp.doctor.body import nesting_depth


def depth_of(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(depth_of, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth_of, value), default=0)
    return 0


# Strings made of what could fool a scan of the bytes: quotes, backslashes, brackets.
tricky = st.text(alphabet=st.sampled_from('"\\[]{}ab\u00e9\n/u'), max_size=12)
values = st.recursive(
    st.none() | st.booleans() | st.integers() | tricky,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(tricky, inner, max_size=4),
    max_leaves=40,
)


@given(values, st.booleans(), st.booleans())
def test_the_depth_of_the_bytes_is_the_depth_of_the_value(
    value: Any, ascii_only: bool, indented: bool
) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only, indent=2 if indented else None)
    assert nesting_depth(text.encode("utf-8")) == depth_of(value)


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        (b"{}", 1),
        (b"3", 0),
        (b'"[[["', 0),
        (b'{"a\\\\": ["\\\\"]}', 2),  # an escaped backslash ends no string early
        (b'{"a": "\\"[[["}', 1),  # an escaped quote ends no string
        (b'[["\\\\\\"]"]]', 2),
        (b"[" * 100_000, 100_000),
        (b'"unterminated [[[', 0),
    ],
)
def test_known_depths(text: bytes, depth: int) -> None:
    assert nesting_depth(text) == depth
