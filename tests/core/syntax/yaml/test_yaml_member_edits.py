"""Removing and adding a member of a block mapping as Drupal writes YAML
(core.syntax.yaml.members): each edit applied, the text loaded again by PyYAML, the rest
unchanged."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from flowdrop_lsp.core.syntax.tree import JArray, JObject, JString, child_at
from flowdrop_lsp.core.syntax.yaml.members import (
    yaml_empty_mapping_filling,
    yaml_member_insertion,
    yaml_member_removal,
    yaml_only_member_emptying,
)
from flowdrop_lsp.core.syntax.yaml.reader import read_yaml
from tests.support.builders import CORPUS_CONFIG, vendored

DOC = "id: x\nconfig:\n  a: 1\n  b:\n    deep:\n      - 1\n      - two\n  c: 'it''s'\nlast: true\n"


def _object(text: str, *path: str | int, column: int = 0) -> JObject:
    value = read_yaml(text, column)[0].root
    for step in path:
        value = child_at(value, step)
    assert isinstance(value, JObject)
    return value


def _removed(text: str, key: str, *path: str | int, column: int = 0) -> str | None:
    span = yaml_member_removal(text, _object(text, *path, column=column), key, column)
    return None if span is None else text[: span[0]] + text[span[1] :]


def _added(text: str, key: str, value: Any, *path: str | int, column: int = 0) -> str | None:
    insertion = yaml_member_insertion(text, _object(text, *path, column=column), key, value, column)
    if insertion is None:
        return None
    at, inserted = insertion
    return text[:at] + inserted + text[at:]


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        (
            "a",
            "id: x\nconfig:\n  b:\n    deep:\n      - 1\n      - two\n  c: 'it''s'\nlast: true\n",
        ),
        ("b", "id: x\nconfig:\n  a: 1\n  c: 'it''s'\nlast: true\n"),
        ("c", "id: x\nconfig:\n  a: 1\n  b:\n    deep:\n      - 1\n      - two\nlast: true\n"),
    ],
)
def test_a_member_goes_with_its_lines(key: str, expected: str) -> None:
    assert _removed(DOC, key, "config") == expected
    loaded = yaml.safe_load(DOC)
    del loaded["config"][key]
    assert yaml.safe_load(expected) == loaded


def test_members_of_the_top_level() -> None:
    assert _removed(DOC, "id") == DOC[len("id: x\n") :]
    assert _removed(DOC, "config") == "id: x\nlast: true\n"
    assert _removed(DOC, "last") == DOC[: -len("last: true\n")]


def test_the_only_member_is_kept() -> None:
    assert _removed("config:\n  a: 1\nb: 2\n", "a", "config") is None
    assert _removed("a: 1\n", "a") is None
    assert _removed(DOC, "zz", "config") is None


def test_a_flow_mapping_is_not_edited() -> None:
    text = "config: {a: 1, b: 2}\nempty: {  }\n"
    assert _removed(text, "a", "config") is None
    assert _added(text, "c", 3, "config") is None
    assert _added(text, "c", 3, "empty") is None


def test_comment_lines_stay() -> None:
    text = "a: 1 # one\n# before b\nb: 2 # two\n# before c\nc: 3\n"
    assert _removed(text, "b") == "a: 1 # one\n# before b\n# before c\nc: 3\n"
    assert _added(text, "d", 4) == text + "d: 4\n"


def test_a_text_without_a_final_line_break() -> None:
    assert _removed("a: 1\nb: 2", "b") == "a: 1"
    assert _removed("a: 1\r\nb: 2", "b") == "a: 1"
    assert _added("a: 1\nb: 2", "c", 3) == "a: 1\nb: 2\nc: 3"


def test_an_anchor_is_not_taken_from_its_aliases() -> None:
    text = "a: &one 1\nb: *one\nc: 3\n"
    assert _removed(text, "a") is None
    assert _removed(text, "b") == "a: &one 1\nc: 3\n"  # an alias may go
    # An anchor no alias repeats, or text that only looks like one, may go too.
    assert _removed("a: &one 1\nc: 3\n", "a") == "c: 3\n"
    assert _removed("a: 'R &amp; D'\nb: 2\n", "a") == "b: 2\n"
    assert _removed("a:\n  - &x {k: 1}\n  - *x\nb: 2\n", "a") == "b: 2\n"


def test_the_insertion_follows_the_last_value() -> None:
    expected = DOC.replace("  c: 'it''s'\n", "  c: 'it''s'\n  timeout: 30\n")
    assert _added(DOC, "timeout", 30, "config") == expected
    added = _added(DOC, "d", "x", "config", "b")
    assert added == DOC.replace("      - two\n", "      - two\n    d: x\n")


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("plain", " plain"),
        ("Chat Input", " 'Chat Input'"),
        ("it's: here", " 'it''s: here'"),
        ("", " ''"),
        ("123", " '123'"),
        ("true", " 'true'"),
        ("- x", " '- x'"),
        ("two\nlines", ' "two\\nlines"'),
        ("天気🌦", " 天気🌦"),
        (30, " 30"),
        (-7, " -7"),
        (0.7, " 0.7"),
        (1e20, " 1.0e+20"),
        (1.5e-7, " 1.5e-07"),
        (float("inf"), " .inf"),
        (True, " true"),
        (False, " false"),
        (None, " null"),
        ({}, " {  }"),
        ([], " []"),
    ],
)
def test_a_scalar_as_drupal_writes_it(value: Any, written: str) -> None:
    added = _added(DOC, "k", value, "config")
    assert added == DOC.replace("  c: 'it''s'\n", f"  c: 'it''s'\n  k:{written}\n")
    loaded = yaml.safe_load(DOC)
    loaded["config"]["k"] = value
    assert yaml.safe_load(added) == loaded


def test_containers_as_block_lines() -> None:
    value = {"x": 1, "l": [1, {"m": 2, "n": []}, ["a"], {}], "e": {}}
    added = _added("config:\n  a: 1\nother: 3\n", "k", value, "config")
    assert added == (
        "config:\n  a: 1\n  k:\n    x: 1\n    l:\n      - 1\n      -\n        m: 2\n"
        "        'n': []\n      -\n        - a\n      - {  }\n    e: {  }\nother: 3\n"
    )
    assert yaml.safe_load(added) == {"config": {"a": 1, "k": value}, "other": 3}


@pytest.mark.parametrize("key", ["a: b", "123", "true", "y", "# no", "名前", ""])
def test_a_key_is_quoted_when_it_must_be(key: str) -> None:
    added = _added(DOC, key, 1, "config")
    assert added is not None
    loaded = yaml.safe_load(DOC)
    loaded["config"][key] = 1
    assert yaml.safe_load(added) == loaded


def test_no_insertion_it_cannot_write() -> None:
    assert _added(DOC, "a", 2, "config") is None  # a duplicate key
    assert _added(DOC, "k", {1, 2}, "config") is None
    assert _added(DOC, "k", {"x": object()}, "config") is None
    assert _added(DOC, "x" * 2000, 1, "config") is None
    # A kept block scalar's trailing lines would be cut off; a clipped one's are not its own.
    assert _added("a: 1\nb: |+\n  x\n\nc: 2\n", "d", 3) is not None
    assert _added("a: 1\nb: |+\n  x\n\n", "d", 3) is None
    assert _added("a: 1\nb:\n  c: >+\n    x\n\n", "d", 3) is None
    clipped = _added("a: 1\nb: |\n  x\n\n", "d", 3)
    assert clipped is not None
    assert yaml.safe_load(clipped) == {"a": 1, "b": "x\n", "d": 3}


def test_crlf_is_kept() -> None:
    text = DOC.replace("\n", "\r\n")
    assert (
        _removed(text, "b", "config")
        == "id: x\r\nconfig:\r\n  a: 1\r\n  c: 'it''s'\r\nlast: true\r\n"
    )
    added = _added(text, "k", {"x": [1]}, "config")
    assert added == text.replace(
        "  c: 'it''s'\r\n", "  c: 'it''s'\r\n  k:\r\n    x:\r\n      - 1\r\n"
    )
    assert _added("a: 1\r\nb: 2", "c", 3) == "a: 1\r\nb: 2\r\nc: 3"


def test_code_points_before_the_member() -> None:
    text = "名前: '🎉🎉 it''s'\n🚀:\n  - 天気\nb: 1\nc: 2\n"
    assert _removed(text, "b") == "名前: '🎉🎉 it''s'\n🚀:\n  - 天気\nc: 2\n"
    assert _removed(text, "🚀") == "名前: '🎉🎉 it''s'\nb: 1\nc: 2\n"
    assert _added(text, "☀️", "晴れ") == text + "☀️: 晴れ\n"


ITEMS = "nodes:\n  - id: a\n    type: b\n    c: 1\n  - id: z\nedges: {  }\n"


def _item(text: str, index: int) -> tuple[int, int]:
    """Where item `index` of `nodes` starts (after its `- `) and ends, as a re-read sees it."""
    nodes = _object(text).get("nodes")
    assert isinstance(nodes, JArray)
    start = nodes.items[index].start
    stop = text.find("\n  -", start)
    return start, (stop + 1 if stop >= 0 else text.find("edges"))


def _in_item(text: str, index: int, edit: str, key: str, value: Any = None) -> str | None:
    start, stop = _item(text, index)
    column = start - text.rfind("\n", 0, start) - 1
    item = text[start:stop]
    assert isinstance(_object(item, column=column).get("id"), JString)
    changed = (
        _removed(item, key, column=column)
        if edit == "remove"
        else _added(item, key, value, column=column)
    )
    return None if changed is None else text[:start] + changed + text[stop:]


def test_the_first_member_of_an_item_shares_the_dash_line() -> None:
    assert _in_item(ITEMS, 0, "remove", "id") == ITEMS.replace("- id: a\n    type: b", "- type: b")
    assert _in_item(ITEMS, 0, "remove", "type") == ITEMS.replace("    type: b\n", "")
    assert _in_item(ITEMS, 0, "remove", "c") == ITEMS.replace("    c: 1\n", "")
    assert _in_item(ITEMS, 1, "remove", "id") is None  # its only member
    added = _in_item(ITEMS, 1, "add", "k", {"v": 1})
    assert added == ITEMS.replace("  - id: z\n", "  - id: z\n    k:\n      v: 1\n")
    added = _in_item(ITEMS, 0, "add", "k", "v")
    assert added == ITEMS.replace("    c: 1\n", "    c: 1\n    k: v\n")
    removed = _in_item(ITEMS, 0, "remove", "id")
    assert removed is not None
    assert yaml.safe_load(removed)["nodes"] == [{"type": "b", "c": 1}, {"id": "z"}]
    assert yaml.safe_load(added)["nodes"] == [
        {"id": "a", "type": "b", "c": 1, "k": "v"},
        {"id": "z"},
    ]
    # An item's text that ends the document without a line break.
    assert _added("id: z", "k", "v", column=4) == "id: z\n    k: v"
    assert _removed("id: z\n    k: v", "k", column=4) == "id: z"


def test_an_item_read_with_the_document() -> None:
    text = "- a: 1\n  b: 2\n- c: 3\n"
    items = read_yaml(text)[0].root
    assert isinstance(items, JArray)
    first = items.items[0]
    assert isinstance(first, JObject)
    span = yaml_member_removal(text, first, "a")
    assert span is not None
    assert text[: span[0]] + text[span[1] :] == "- b: 2\n- c: 3\n"
    span = yaml_member_removal(text, first, "b")
    assert span is not None
    assert text[: span[0]] + text[span[1] :] == "- a: 1\n- c: 3\n"


def _config(root: JObject, node_id: str) -> JObject:
    nodes = root.get("nodes")
    assert isinstance(nodes, JArray)
    for item in nodes.items:
        id_value = child_at(item, "id")
        if isinstance(id_value, JString) and id_value.value == node_id:
            config = child_at(child_at(item, "data"), "config")
            assert isinstance(config, JObject)
            return config
    raise AssertionError(node_id)


def _loaded_config(loaded: dict[str, Any], node_id: str) -> dict[str, Any]:
    return next(n for n in loaded["nodes"] if n["id"] == node_id)["data"]["config"]


def test_a_node_config_of_the_weather_workflow() -> None:
    path = CORPUS_CONFIG / "flowdrop_workflow.flowdrop_workflow.aincient_weather.yml"
    text = vendored(path).read_text(encoding="utf-8")
    assert any(ord(c) > 0xFFFF or ord(c) > 0x7F for c in text)  # offsets are code points
    root = read_yaml(text)[0].root
    assert isinstance(root, JObject)
    config = _config(root, "http_request.1")
    span = yaml_member_removal(text, config, "follow_redirects")
    assert span is not None
    assert text[span[0] : span[1]] == "        follow_redirects: true\n"
    removed = text[: span[0]] + text[span[1] :]
    expected = yaml.safe_load(text)
    del _loaded_config(expected, "http_request.1")["follow_redirects"]
    assert yaml.safe_load(removed) == expected

    # A node without a timeout gets one, after its config's last line.
    config = _config(root, "data_mapper.1")
    insertion = yaml_member_insertion(text, config, "timeout", 30)
    assert insertion is not None
    at, inserted = insertion
    assert inserted == "        timeout: 30\n"
    assert text[:at].endswith("instanceDescription: 'builds the geocoding URL'\n")
    expected = yaml.safe_load(text)
    _loaded_config(expected, "data_mapper.1")["timeout"] = 30
    assert yaml.safe_load(text[:at] + inserted + text[at:]) == expected

    # A config of one member keeps it; a member can still be added.
    config = _config(root, "chat_input.1")
    assert yaml_member_removal(text, config, "nodeType") is None
    assert yaml_member_insertion(text, config, "timeout", 30) is not None


def test_max_retries_out_timeout_in() -> None:
    path = CORPUS_CONFIG / "flowdrop_workflow.flowdrop_workflow.reason.yml"
    text = vendored(path).read_text(encoding="utf-8")
    root = read_yaml(text)[0].root
    assert isinstance(root, JObject)
    nodes = root.get("nodes")
    assert isinstance(nodes, JArray)
    node_id = child_at(nodes.items[0], "id")
    assert isinstance(node_id, JString)
    config = _config(root, node_id.value)
    span = yaml_member_removal(text, config, "maxRetries")
    assert span is not None
    removed = text[: span[0]] + text[span[1] :]
    expected = yaml.safe_load(text)
    del _loaded_config(expected, node_id.value)["maxRetries"]
    assert yaml.safe_load(removed) == expected

    new_root = read_yaml(removed)[0].root
    assert isinstance(new_root, JObject)
    insertion = yaml_member_insertion(removed, _config(new_root, node_id.value), "timeout", 30)
    assert insertion is not None
    at, inserted = insertion
    added = removed[:at] + inserted + removed[at:]
    _loaded_config(expected, node_id.value)["timeout"] = 30
    assert yaml.safe_load(added) == expected
    # The edit is exactly the one line: everything else is the file as it was.
    assert added == text.replace("        maxRetries: 0\n", "        timeout: 30\n")


def _at(value: Any, path: tuple[str, ...]) -> Any:
    for step in path:
        value = value.get(step) if isinstance(value, dict) else None
    return value


def test_every_member_of_every_config_of_the_site() -> None:
    """Each member of each node's `config` removed (but an only one), and one added, in the
    workflows of the site: the text loads as the data minus (plus) that member."""
    # The smaller workflows of the site (the weather one included): the big ones would take
    # tens of seconds to load again after every edit, and say nothing new.
    files = [
        path
        for path in sorted(CORPUS_CONFIG.glob("flowdrop_workflow.*.yml"))
        if path.stat().st_size < 25_000
    ]
    assert len(files) > 5
    edits = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        loaded = _load(text)
        root = read_yaml(text)[0].root
        nodes = child_at(root, "nodes")
        if not isinstance(nodes, JArray):
            continue
        for index, node in enumerate(loaded["nodes"]):
            for path_to in (("data", "config"),):
                plain = _at(node, path_to)
                if not isinstance(plain, dict) or not plain:
                    continue
                obj = nodes.items[index]
                for step in path_to:
                    obj = child_at(obj, step)
                assert isinstance(obj, JObject)
                for key in plain:
                    span = yaml_member_removal(text, obj, key)
                    assert (span is None) == (len(plain) == 1), (path.name, index, key)
                    if span is None:
                        continue
                    edited = _load(text[: span[0]] + text[span[1] :])
                    assert _at(edited["nodes"][index], path_to) == {
                        k: v for k, v in plain.items() if k != key
                    }
                    assert _without_node(edited, index) == _without_node(loaded, index)
                    edits += 1
                insertion = yaml_member_insertion(text, obj, "added·键", {"a": [1, "x y"]})
                assert insertion is not None, (path.name, index)
                at, inserted = insertion
                edited = _load(text[:at] + inserted + text[at:])
                assert _at(edited["nodes"][index], path_to) == {
                    **plain,
                    "added·键": {"a": [1, "x y"]},
                }
                assert _without_node(edited, index) == _without_node(loaded, index)
    assert edits > 50


def _load(text: str) -> Any:
    # libyaml's loader (PyYAML's pure-Python one takes seconds for a whole workflow).
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _without_node(loaded: dict[str, Any], index: int) -> dict[str, Any]:
    nodes = [n for i, n in enumerate(loaded["nodes"]) if i != index]
    node = {k: v for k, v in loaded["nodes"][index].items() if k != "data"}
    return {**loaded, "nodes": nodes, "node": node}


# ----- filling an empty flow mapping (`config: {  }`, as Drupal writes an empty config) ---------


@pytest.mark.parametrize(
    ("text", "column", "expected"),
    [
        (
            "id: a\ndata:\n  config: {  }\n  label: 'Fetch 🌐 取得'\n",
            0,
            "id: a\ndata:\n  config:\n    url: 'https://x'\n  label: 'Fetch 🌐 取得'\n",
        ),
        ("config: {}\r\nb: 1\r\n", 0, "config:\r\n  url: 'https://x'\r\nb: 1\r\n"),
        ("config: {  }", 0, "config:\n  url: 'https://x'"),
    ],
)
def test_an_empty_flow_mapping_becomes_a_block_mapping(
    text: str, column: int, expected: str
) -> None:
    root = read_yaml(text, column)[0].root
    data = root.get("data") if root.get("data") is not None else root
    filled = yaml_empty_mapping_filling(text, data.get("config"), "url", "https://x", column)
    assert filled is not None
    start, end, written = filled
    assert text[:start] + written + text[end:] == expected


def test_an_empty_flow_mapping_with_a_comment_after_it_is_left_alone() -> None:
    text = "config: {  } # none yet\n"
    config = read_yaml(text)[0].root.get("config")
    assert yaml_empty_mapping_filling(text, config, "url", "x") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("data:\n  config:\n    zz: 1\n  label: x\n", "data:\n  config: {  }\n  label: x\n"),
        (
            "data:\r\n  config:\r\n    zz:\r\n      a: [1]\r\n  label: x\r\n",
            "data:\r\n  config: {  }\r\n  label: x\r\n",
        ),
    ],
)
def test_the_only_member_leaves_the_empty_mapping_drupal_writes(text: str, expected: str) -> None:
    config = read_yaml(text)[0].root.get("data").get("config")
    assert yaml_member_removal(text, config, "zz") is None  # a line deleted would leave null
    emptied = yaml_only_member_emptying(text, config, "zz")
    assert emptied is not None
    start, end, written = emptied
    assert text[:start] + written + text[end:] == expected


def test_an_item_s_only_member_is_not_emptied() -> None:
    text = "nodes:\n  - zz: 1\n"
    item = read_yaml(text)[0].root.get("nodes").items[0]
    assert yaml_only_member_emptying(text, item, "zz", 0) is None
