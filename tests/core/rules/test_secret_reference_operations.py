"""R6.l's fix as operations: a `$` inserted before each reference written without it, an edit
inside the string at code-point offsets of its value (the last reference first), written in
place in JSON and Drupal YAML whatever the string's style: escapes, CJK and an emoji before
it, a plain scalar, a block scalar."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.operations import EditString
from tests.support.operation_cases import one_node_yaml, read, round_trip

CODE = "R6.l"
TITLE = "Write '${{ secrets.…'"
VALUE = 'a\n"b" 天気🌦️ {{ secrets.A }} and ${{ secrets.B }} then {{ secrets.C }}'


def fetch_json(headers: dict[str, str]) -> str:
    node = {
        "id": "fetch",
        "type": "http_request",
        "data": {"label": "Fetch", "config": {"method": "GET", "headers": headers}},
    }
    return json.dumps({"nodes": [node], "edges": []}, indent=2, ensure_ascii=False)


def fetch_yaml(header_lines: str) -> str:
    return one_node_yaml(
        "fetch",
        "http_request",
        "Fetch",
        f"        method: GET\n        headers:\n          Authorization: {header_lines}\n",
    )


CASES = {
    "json": fetch_json({"Authorization": VALUE}),
    "yaml-double-quoted": fetch_yaml(
        '"a\\n\\"b\\" 天気🌦️ {{ secrets.A }} and ${{ secrets.B }} then {{ secrets.C }}"'
    ),
    "yaml-block": fetch_yaml(
        '|-\n            a\n            "b" 天気🌦️ {{ secrets.A }} and ${{ secrets.B }} then '
        "{{ secrets.C }}"
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_each_dollar_is_inserted_in_place(case: str) -> None:
    syntax = "json" if case == "json" else "yaml"
    text = CASES[case]
    assert read(text, syntax)["nodes"][0]["data"]["config"]["headers"]["Authorization"] == VALUE
    fix, fixed = round_trip(text, syntax, CODE, TITLE)
    assert fix.preferred and fix.is_safe and fix.destructive is None
    first, second = VALUE.index("{{ secrets.A"), VALUE.index("{{ secrets.C")
    path = ("data", "config", "headers", "Authorization")
    assert [(op.path, op.start, op.end, op.text) for op in fix.operations] == [
        (path, second, second, "$"),
        (path, first, first, "$"),
    ]
    assert all(isinstance(op, EditString) for op in fix.operations)
    # Two insertions, each right before its `{{`: nothing else of the string is rewritten.
    assert sorted((e.span.start, e.span.end, e.new_text) for e in fix.edits) == [
        (text.index("{{ secrets.A"), text.index("{{ secrets.A"), "$"),
        (text.index("{{ secrets.C"), text.index("{{ secrets.C"), "$"),
    ]
    assert fixed == text.replace("{{ secrets.A", "${{ secrets.A").replace(
        "{{ secrets.C", "${{ secrets.C"
    )


@pytest.mark.parametrize("token", ["Bearer {{ secrets.T }}", "'{{ secrets.T }}'"])
def test_a_yaml_scalar_keeps_its_style(token: str) -> None:
    """A plain scalar stays plain, a quoted one quoted (the whole value was written anew as a
    quoted string before)."""
    text = fetch_yaml(token)
    _, fixed = round_trip(text, "yaml", CODE, TITLE)
    assert fixed == text.replace("{{ secrets.T", "${{ secrets.T")
