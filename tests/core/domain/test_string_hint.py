"""The string hint of nodes read by the fast path (domain.string_hint.StringHint): it may only rule a node
out when `data` certainly holds none of the strings asked about outside its label and metadata;
anything else still goes to the exact finder."""

from __future__ import annotations

import random
from typing import Any

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.model import DataString, Node
from flowdrop_lsp.core.domain.value_reading import read_node_value
from flowdrop_lsp.core.text.positions import Span

WANTED = frozenset({"web_search", "Web Search"})


def _node(value: Any) -> tuple[Node, list[frozenset[str]]]:
    """A node read from `value`, and the questions its exact finder was asked."""
    asked: list[frozenset[str]] = []

    def finder(values: frozenset[str]) -> tuple[DataString, ...]:
        asked.append(values)
        return (DataString(("config", "x"), next(iter(values)), Span(0, 1)),)

    node = read_node_value(0, value, Span(0, 10), Settings(), lambda: None, finder)  # type: ignore[arg-type, return-value]
    return node, asked


def test_a_node_without_the_strings_is_ruled_out_without_the_finder() -> None:
    node, asked = _node({"id": "a", "data": {"label": "Fetch", "config": {"url": "https://x"}}})
    assert node.strings_equal_to(WANTED) == ()
    assert asked == []


def test_a_string_in_config_always_reaches_the_finder() -> None:
    for where in (
        {"config": {"tool": "web_search"}},
        {"config": {"branches": [{"name": "b", "value": "Web Search"}]}},
        {"other": [["deep", {"x": "web_search"}]]},
    ):
        node, asked = _node({"id": "a", "data": {"label": "Fetch", **where}})
        assert node.strings_equal_to(WANTED), where
        assert asked == [WANTED]


def test_label_and_metadata_are_names_not_references() -> None:
    node, asked = _node(
        {"id": "a", "data": {"label": "Web Search", "metadata": {"id": "web_search"}}}
    )
    assert node.strings_equal_to(WANTED) == ()
    assert asked == []


def test_data_that_is_not_an_object_is_left_to_the_finder() -> None:
    node, asked = _node({"id": "a", "data": ["web_search"]})
    assert node.strings_equal_to(WANTED)
    assert asked == [WANTED]


def test_the_hint_never_hides_a_string_that_is_there() -> None:
    rng = random.Random(7)
    words = [f"w{i}" for i in range(400)]
    for _ in range(300):
        config = {f"k{j}": rng.choice(words) for j in range(rng.randrange(1, 12))}
        present = frozenset({rng.choice(list(config.values()))})
        node, asked = _node({"id": "a", "data": {"label": "L", "config": config}})
        assert node.strings_equal_to(present), config
        assert asked == [present]
