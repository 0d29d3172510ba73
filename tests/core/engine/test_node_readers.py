"""The two node readers read every node alike.

A node is read from a syntax tree (`model.read_node`: broken documents, YAML, a re-read element)
or from its plain value (`value_reading.read_node_value`: the fast path, every element of a
valid document). They stay two, because the fast path is per element and must stay plain
lookups; so this property holds them to one meaning: for random nodes — wrong types, missing
members, unicode labels, the editor's render type — both give the same Node (its facts: id,
type, label, name source, tool name, routing…) with or without `useInstanceTitle`. The same
for edges (`read_edge`, `read_edge_value`).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.node_type_resolution import EDITOR_RENDER_TYPE
from flowdrop_lsp.core.domain.tree_reading import read_edge, read_node
from flowdrop_lsp.core.domain.value_reading import read_edge_value, read_node_value
from flowdrop_lsp.core.syntax.json.regions import parse_element
from flowdrop_lsp.core.syntax.json.shapes import EDGE_SHAPE, NODE_SHAPE
from flowdrop_lsp.core.text.positions import Span

# Strings that matter to the rules, and any text at all (unicode, control characters, empty).
words = st.sampled_from(
    ["", "web_search", "Web Search", "web-search", EDITOR_RENDER_TYPE, "tool_availability"]
)
strings = st.one_of(words, st.text(max_size=12))
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False)
)
# Anything JSON, for the members a reader must tolerate being of the wrong type.
anything = st.recursive(
    st.one_of(scalars, strings),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(strings, inner, max_size=3)
    ),
    max_leaves=6,
)
maybe_string = st.one_of(strings, anything)

branches = st.lists(
    st.one_of(
        st.fixed_dictionaries({}, optional={"name": maybe_string, "value": maybe_string}),
        anything,
    ),
    max_size=3,
)
configs = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "instanceTitle": maybe_string,
            "branches": st.one_of(branches, anything),
            "default_branch": maybe_string,
            "path": maybe_string,
            "other": anything,
        },
    ),
    anything,
)
metadata = st.one_of(
    st.fixed_dictionaries({}, optional={"node_type_id": maybe_string, "id": maybe_string}),
    anything,
)
data = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "label": maybe_string,
            "metadata": metadata,
            "config": configs,
            "extra": anything,
        },
    ),
    anything,
)
nodes = st.one_of(
    st.fixed_dictionaries(
        {}, optional={"id": maybe_string, "type": maybe_string, "data": data, "position": anything}
    ),
    anything,  # an item of `nodes` that is not an object at all
)
edges = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "id": maybe_string,
            "source": maybe_string,
            "target": maybe_string,
            "sourceHandle": maybe_string,
            "targetHandle": st.one_of(
                st.sampled_from(["agent-input-tool", "x-input-tool", "input"]), maybe_string
            ),
            "data": st.one_of(
                st.fixed_dictionaries({}, optional={"edgeType": maybe_string}), anything
            ),
        },
    ),
    anything,
)


def _tree(value: Any, shape: dict[str, Any]) -> tuple[Any, str]:
    """`value` as the engine's tree path reads it: its JSON text parsed with the element shape."""
    text = json.dumps(value, ensure_ascii=False)
    tree, problems = parse_element(text, shape)
    assert tree is not None and not problems, problems
    return tree, text


@settings(max_examples=300, deadline=None)
@given(node=nodes, use_instance_title=st.booleans())
def test_both_node_readers_read_every_node_alike(node: Any, use_instance_title: bool) -> None:
    configured = Settings(use_instance_title=use_instance_title)
    tree, text = _tree(node, NODE_SHAPE)
    from_tree = read_node(0, tree, configured, text)
    from_value = read_node_value(0, json.loads(text), from_tree.span, configured, lambda: None)  # type: ignore[arg-type, return-value]
    assert from_value == from_tree
    assert from_value.routing == from_tree.routing  # compared by the Node too; said plainly


@settings(max_examples=200, deadline=None)
@given(edge=edges)
def test_both_edge_readers_read_every_edge_alike(edge: Any) -> None:
    configured = Settings()
    tree, text = _tree(edge, EDGE_SHAPE)
    from_tree = read_edge(0, tree, configured)
    from_value = read_edge_value(0, json.loads(text), from_tree.span, configured, lambda: None)  # type: ignore[arg-type, return-value]
    assert from_value == from_tree


def test_the_readers_agree_on_the_render_type_and_empty_strings() -> None:
    """The cases of docs/domain.md §4 spelled out (the property finds them, this names them)."""
    configured = Settings()
    cases = [
        ({"type": EDITOR_RENDER_TYPE, "data": {"metadata": {"id": "http"}}}, "http"),
        ({"type": "agent", "data": {"metadata": {"node_type_id": "", "id": "x"}}}, "agent"),
        ({"type": EDITOR_RENDER_TYPE}, None),
        ({"type": 3, "data": {"metadata": {"node_type_id": "t"}}}, "t"),
    ]
    for node, type_id in cases:
        tree, text = _tree(node, NODE_SHAPE)
        assert read_node(0, tree, configured, text).type_id == type_id
        value = read_node_value(0, node, Span(0, len(text)), configured, lambda: None)  # type: ignore[arg-type, return-value]
        assert value.type_id == type_id
