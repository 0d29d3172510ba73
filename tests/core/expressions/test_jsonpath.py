"""JSONPath: only what every dialect refuses, with exact spans; the site's paths parse."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from flowdrop_lsp.core.expressions.jsonpath import parse_jsonpath

SYNC = Path(__file__).parents[2] / "corpus" / "atelier-cms" / "config" / "sync"

VALID = [
    "$",
    "$[0].name",
    "$..author",
    "$.store.book[*].author",
    "$['a b']",
    '$["a b"]',
    "$.a[?(@.price < 10)]",
    "$[0,1]",
    "$[1:3]",
    "$[-1:]",
    "$.*",
    "$..*",
    "$.名前",
    "$.😀[0]",
    "$['a]b']",
    "$['it\\'s']",
    "$.a[?(@.x == ']')]",
    "$.a[?(@.b && (@.c || @.d))]",
    "$..book[?(@.isbn)]",
    "$.a.b.c",
    "$[*]",
    "$..[0]",
    "$.length()",
    "$[ 0 ]",
]
REFUSED = {
    "": (0, 0),
    "a.b": (0, 1),
    "@.a": (0, 1),
    "$[": (1, 2),
    "$.a[0": (3, 4),
    "$]": (1, 2),
    "$.a)": (3, 4),
    "$(a]": (1, 2),
    "$[]": (1, 3),
    "$.a[ ]": (3, 6),
    "$.a.": (3, 4),
    "$..": (1, 3),
    "$.a[?(@.x": (3, 9),
    "$.a[?(@.x > 1]": (3, 14),
    "$['a": (2, 4),
    '$.a["b': (4, 6),
    "$.名前.": (4, 5),
    "$.😀[": (3, 4),
}


@pytest.mark.parametrize("path", VALID)
def test_valid_paths(path: str) -> None:
    assert parse_jsonpath(path).problems == ()


@pytest.mark.parametrize(("path", "span"), REFUSED.items())
def test_refused_paths_at_their_span(path: str, span: tuple[int, int]) -> None:
    problems = parse_jsonpath(path).problems
    assert [(problem.start, problem.end) for problem in problems] == [span]


def test_no_names_are_read() -> None:
    assert parse_jsonpath("$.a[?(@.b == c)]").reads == ()


def _jsonpath_paths(value: Any) -> list[str]:
    if isinstance(value, dict):
        found = []
        if value.get("engine") == "jsonpath" and isinstance(value.get("path"), str):
            found.append(value["path"])
        for item in value.values():
            found += _jsonpath_paths(item)
        return found
    if isinstance(value, list):
        return [path for item in value for path in _jsonpath_paths(item)]
    return []


def test_the_site_paths_parse() -> None:
    paths = [
        path
        for file in sorted(SYNC.glob("flowdrop_workflow.*.yml"))
        for path in _jsonpath_paths(yaml.safe_load(file.read_text(encoding="utf-8")))
    ]
    assert paths, "the site has data extractors with a JSONPath"
    assert [path for path in paths if not parse_jsonpath(path).ok] == []
