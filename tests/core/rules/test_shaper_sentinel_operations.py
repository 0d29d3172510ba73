"""LANG-25's fix as operations: the misspelt reserved value (the whole source, or a literal's
prefix) rewritten inside the string, its rest kept as written, in JSON and Drupal YAML."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.operations import EditString
from tests.support.operation_cases import one_node_yaml, read, round_trip

CODE = "LANG-25"
PATH = ("data", "config", "mapping", "created")


def shaper_json(source: str) -> str:
    config = {"mapping": {"created": source, "title": "page.title"}}
    node = {"id": "shape", "type": "data_shaper", "data": {"label": "Shape", "config": config}}
    return json.dumps({"nodes": [node], "edges": []}, indent=2, ensure_ascii=False)


def shaper_yaml(token: str) -> str:
    return one_node_yaml(
        "shape",
        "data_shaper",
        "Shape",
        f"        mapping:\n          created: {token}\n          title: page.title\n",
    )


CASES = {
    # (text, syntax, misspelt characters, the reserved value)
    "json-now": (shaper_json("_NOW"), "json", "_NOW", "_NOW_"),
    "yaml-now": (shaper_yaml("_NOW"), "yaml", "_NOW", "_NOW_"),
    "json-literal": (shaper_json('_literal:"天気🌦️"\n'), "json", "_literal:", "_LITERAL:"),
    "yaml-literal": (shaper_yaml("'_literal:天気🌦️ x'"), "yaml", "_literal:", "_LITERAL:"),
    "yaml-double-quoted": (
        shaper_yaml('"_literal:\\"天気\\"\\n"'),
        "yaml",
        "_literal:",
        "_LITERAL:",
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_the_reserved_value_is_written_in_place(case: str) -> None:
    text, syntax, misspelt, meant = CASES[case]
    fix, fixed = round_trip(text, syntax, CODE, f"Write '{meant}'")
    assert fix.preferred and fix.is_safe
    assert fix.operations == (EditString(fix.operations[0].target, PATH, 0, len(misspelt), meant),)
    (edit,) = fix.edits
    assert text[edit.span.start : edit.span.end] == misspelt
    assert edit.new_text == meant
    source = read(fixed, syntax)["nodes"][0]["data"]["config"]["mapping"]["created"]
    assert source.startswith(meant)
