"""Removing and adding a member of a JSON object in the file's layout
(core.syntax.json.members): each edit applied, the text parsed again, the rest unchanged."""

from __future__ import annotations

import json
from typing import Any

import pytest

from flowdrop_lsp.core.syntax.json.members import json_member_insertion, json_member_removal
from flowdrop_lsp.core.syntax.json.parser import parse_json
from flowdrop_lsp.core.syntax.json.shapes import FULL
from flowdrop_lsp.core.syntax.tree import JArray, JObject, child_at, to_python
from tests.support.builders import CORPUS_JSON, REPO, vendored

LINES = '{\n  "a": 1,\n  "b": [1, 2],\n  "c": {"x": true}\n}'


def _object(text: str, *path: str | int, comments: bool = False) -> JObject:
    value = parse_json(text, allow_comments=comments, shape=FULL).root
    for step in path:
        value = child_at(value, step)
    assert isinstance(value, JObject)
    return value


def _removed(text: str, key: str, *path: str | int, comments: bool = False) -> str | None:
    span = json_member_removal(text, _object(text, *path, comments=comments), key)
    return None if span is None else text[: span[0]] + text[span[1] :]


def _added(text: str, key: str, value: Any, *path: str | int) -> str | None:
    insertion = json_member_insertion(text, _object(text, *path), key, value)
    if insertion is None:
        return None
    at, inserted = insertion
    return text[:at] + inserted + text[at:]


def _without(data: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != key}


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("a", '{\n  "b": [1, 2],\n  "c": {"x": true}\n}'),
        ("b", '{\n  "a": 1,\n  "c": {"x": true}\n}'),
        ("c", '{\n  "a": 1,\n  "b": [1, 2]\n}'),
    ],
)
def test_a_member_on_its_own_line_goes_with_its_separator(key: str, expected: str) -> None:
    result = _removed(LINES, key)
    assert result == expected
    assert json.loads(result) == _without(json.loads(LINES), key)


@pytest.mark.parametrize(
    ("key", "expected"),
    [("a", '{"b": 2, "c": 3}'), ("b", '{"a": 1, "c": 3}'), ("c", '{"a": 1, "b": 2}')],
)
def test_a_member_on_one_line(key: str, expected: str) -> None:
    assert _removed('{"a": 1, "b": 2, "c": 3}', key) == expected


def test_the_only_member_leaves_empty_braces() -> None:
    assert _removed('{\n  "x": {\n    "a": [1, {"b": 2}]\n  }\n}', "a", "x") == '{\n  "x": {}\n}'
    assert _removed('{"a": 1}', "a") == "{}"


def test_a_nested_value_goes_whole() -> None:
    text = '{\n  "a": {\n    "deep": [\n      1,\n      {"x": null}\n    ]\n  },\n  "b": 2\n}'
    assert _removed(text, "a") == '{\n  "b": 2\n}'


def test_a_duplicated_key_loses_its_last_member() -> None:
    assert _removed('{"a": 1, "b": 2, "a": 3}', "a") == '{"a": 1, "b": 2}'
    assert _removed('{"a": 1, "a": 3, "b": 2}', "a") == '{"a": 1, "b": 2}'


def test_a_comment_in_the_way_is_not_swallowed() -> None:
    text = '{\n  "a": 1, // why a\n  "b": 2\n}'
    assert _removed(text, "a", comments=True) is None
    assert _removed(text, "b", comments=True) is None
    # A comment inside the member goes with it; one elsewhere stays.
    text = '{\n  /* head */ "a": /* one */ 1,\n  "b": 2\n}'
    assert _removed(text, "a", comments=True) == '{\n  /* head */ "b": 2\n}'
    assert _removed('{\n  // all\n  "a": 1\n}', "a", comments=True) is None


def test_a_trailing_comma_of_jsonc_stays_valid() -> None:
    assert _removed('{"a": 1, "b": 2,}', "b", comments=True) == '{"a": 1,}'
    assert _removed('{"a": 1,}', "a", comments=True) == "{}"


def test_nothing_to_remove_or_an_unclosed_object() -> None:
    assert _removed(LINES, "zz") is None
    assert _removed('{"a": 1, "b": 2', "a") is None
    assert _removed('{"a": 1, "b": }', "b") is None


def test_crlf_is_kept() -> None:
    text = LINES.replace("\n", "\r\n")
    assert _removed(text, "b") == '{\r\n  "a": 1,\r\n  "c": {"x": true}\r\n}'
    assert _removed(text, "c") == '{\r\n  "a": 1,\r\n  "b": [1, 2]\r\n}'
    added = _added(text, "d", {"k": [1]})
    assert added is not None
    assert added == text[:-3] + ',\r\n  "d": {\r\n    "k": [\r\n      1\r\n    ]\r\n  }\r\n}'
    assert "\n" not in added.replace("\r\n", "")
    assert json.loads(added) == {**json.loads(text), "d": {"k": [1]}}


def test_code_points_before_the_member() -> None:
    text = '{"名前": "🎉🎉 ok", "🚀": [1], "b": 1, "c": 2}'
    assert _removed(text, "c") == '{"名前": "🎉🎉 ok", "🚀": [1], "b": 1}'
    assert _removed(text, "🚀") == '{"名前": "🎉🎉 ok", "b": 1, "c": 2}'
    assert _added(text, "天気", "☀️") == text[:-1] + ', "天気": "☀️"}'


def test_an_insertion_on_its_own_line() -> None:
    assert _added(LINES, "d", 30) == LINES[:-2] + ',\n  "d": 30\n}'
    assert _added(LINES, "d", "x") == LINES[:-2] + ',\n  "d": "x"\n}'


def test_a_container_is_spread_as_the_members_are() -> None:
    text = '{\n    "config": {\n        "a": 1\n    }\n}'
    added = _added(text, "b", {"x": [1, "é"], "y": {}}, "config")
    assert added == (
        '{\n    "config": {\n        "a": 1,\n        "b": {\n'
        '            "x": [\n                1,\n                "é"\n            ],\n'
        '            "y": {}\n        }\n    }\n}'
    )
    assert _added(text, "b", [], "config") == text.replace('"a": 1', '"a": 1,\n        "b": []')


def test_an_insertion_on_one_line() -> None:
    assert _added('{"a": 1}', "b", {"c": [1]}) == '{"a": 1, "b": {"c": [1]}}'
    assert _added('{\n  "x": {"a": 1}\n}', "b", None, "x") == '{\n  "x": {"a": 1, "b": null}\n}'


def test_an_insertion_into_an_empty_object() -> None:
    assert _added("{}", "a", 1) == '{"a": 1}'
    for text in ("{ }", "{\n}", '{\n  "x": {\n  }\n}'):
        path = ("x",) if "x" in text else ()
        added = _added(text, "a", [1], *path)
        assert added is not None
        loaded = json.loads(added)
        assert (loaded["x"] if path else loaded) == {"a": [1]}


def test_no_insertion_that_would_not_be_json() -> None:
    assert _added(LINES, "a", 2) is None  # a duplicate key
    assert _added(LINES, "d", {1, 2}) is None
    assert _added(LINES, "d", float("nan")) is None
    assert _added('{"a": 1, "b": 2', "c", 3) is None


def test_the_last_member_after_a_trailing_comma_or_a_comment() -> None:
    for text in ('{\n  "a": 1, // c\n  "b": 2 // d\n}', '{\n  "a": 1,\n  "b": 2,\n}'):
        obj = _object(text, comments=True)
        insertion = json_member_insertion(text, obj, "c", 3)
        assert insertion is not None
        at, inserted = insertion
        result = text[:at] + inserted + text[at:]
        assert to_plain(result) == {"a": 1, "b": 2, "c": 3}


def to_plain(text: str) -> Any:
    parsed = parse_json(text, allow_comments=True, shape=FULL)
    assert not parsed.problems
    return to_python(parsed.root)


def test_a_node_of_the_research_agent_example() -> None:
    path = vendored(REPO / "examples" / "research-agent.flowdrop.json")
    text = path.read_text(encoding="utf-8")
    data = _object(text, "nodes", 1, "data")
    removal = json_member_removal(text, data, "label")
    assert removal is not None
    assert data.start < removal[0] < removal[1] < data.end
    removed = text[: removal[0]] + text[removal[1] :]
    expected = json.loads(text)
    del expected["nodes"][1]["data"]["label"]
    assert json.loads(removed) == expected

    insertion = json_member_insertion(text, data, "config", {"timeout": 30})
    assert insertion is not None
    at, inserted = insertion
    assert inserted == ', "config": {"timeout": 30}'
    added = text[:at] + inserted + text[at:]
    expected = json.loads(text)
    expected["nodes"][1]["data"]["config"] = {"timeout": 30}
    assert json.loads(added) == expected


def test_a_config_of_the_corpus() -> None:
    path = vendored(CORPUS_JSON / "workshop_one_ai_call.flowdrop.json")
    text = path.read_text(encoding="utf-8")
    config = _object(text, "nodes", 0, "data", "config")
    removal = json_member_removal(text, config, "maxRetries")
    assert removal is not None
    removed = text[: removal[0]] + text[removal[1] :]
    expected = json.loads(text)
    del expected["nodes"][0]["data"]["config"]["maxRetries"]
    assert json.loads(removed) == expected
    # Only the member's own text went: its line, with the next line's indentation kept.
    assert text[removal[0] : removal[1]].startswith('"maxRetries": 0,\n')

    removed_config = _object(removed, "nodes", 0, "data", "config")
    insertion = json_member_insertion(removed, removed_config, "timeout", 30)
    assert insertion is not None
    at, inserted = insertion
    indent = " " * (
        config.members[-1].key.start - text.rfind("\n", 0, config.members[-1].key.start) - 1
    )
    assert inserted == ",\n" + indent + '"timeout": 30'
    expected["nodes"][0]["data"]["config"]["timeout"] = 30
    assert json.loads(removed[:at] + inserted + removed[at:]) == expected


def test_every_member_of_every_config_of_the_corpus() -> None:
    """Each member of each node's `data` and `config` removed, and one added, in every JSON
    workflow of the corpus: the text parses to the data minus (plus) that member."""
    files = sorted(CORPUS_JSON.glob("*.flowdrop.json"))
    assert files
    edits = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        loaded = json.loads(text)
        nodes = child_at(parse_json(text, shape=FULL).root, "nodes")
        assert isinstance(nodes, JArray)
        for index, node in enumerate(loaded["nodes"]):
            for path_to in (("data",), ("data", "config")):
                plain = _at(node, path_to)
                if not isinstance(plain, dict):
                    continue
                obj = nodes.items[index]
                for step in path_to:
                    obj = child_at(obj, step)
                assert isinstance(obj, JObject)
                for key in plain:
                    span = json_member_removal(text, obj, key)
                    assert span is not None, (path.name, index, key)
                    edited = json.loads(text[: span[0]] + text[span[1] :])
                    assert _at(edited["nodes"][index], path_to) == _without(plain, key)
                    assert _without_node(edited, index) == _without_node(loaded, index)
                    edits += 1
                insertion = json_member_insertion(text, obj, "added·键", {"a": [1]})
                assert insertion is not None
                at, inserted = insertion
                edited = json.loads(text[:at] + inserted + text[at:])
                assert _at(edited["nodes"][index], path_to) == {**plain, "added·键": {"a": [1]}}
                assert _without_node(edited, index) == _without_node(loaded, index)
    assert edits > 100


def _at(value: Any, path: tuple[str, ...]) -> Any:
    for step in path:
        value = value.get(step) if isinstance(value, dict) else None
    return value


def _without_node(loaded: dict[str, Any], index: int) -> dict[str, Any]:
    """The document but node `index`'s `data` (what an edit there leaves as it was)."""
    nodes = [n for i, n in enumerate(loaded["nodes"]) if i != index]
    node = {k: v for k, v in loaded["nodes"][index].items() if k != "data"}
    return {**loaded, "nodes": nodes, "node": node}
