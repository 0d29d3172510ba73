"""docs/domain.md §1: a tool's name, byte for byte as the reference runtime makes it."""

from __future__ import annotations

import pytest

from flowdrop_lsp.core.domain.names import llm_name_problem, sanitize_tool_name
from tests.support.builders import at, cmp9_by_node, node, tool_edge, workflow

VECTORS = [
    ("Weather API", "weather_api"),
    ("Get User (Admin)", "get_user_admin"),
    ("API v2 Request", "api_v2_request"),
    ("get_weather", "get_weather"),
    ("", "unnamed_tool"),
    ("!@#$%", "unnamed_tool"),
    ("GetWeatherData", "getweatherdata"),
    ("Web Search", "web_search"),
    ("web-search", "web_search"),
    ("Capability: Quick brand picker", "capability_quick_brand_picker"),
    ("Café Search", "caf_search"),
    ("Über", "ber"),
    ("数据", "unnamed_tool"),
]


@pytest.mark.parametrize(("label", "expected"), VECTORS)
def test_domain_vectors(label: str, expected: str) -> None:
    assert sanitize_tool_name(label) == expected


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("  __Leading and trailing__  ", "leading_and_trailing"),
        ("a\u00a0b", "a_b"),  # a no-break space is two UTF-8 bytes, one separator run
        ("ÀB", "b"),  # only ASCII letters are lowered; À is a separator
        ("x📦y", "x_y"),
        ("already_snake_42", "already_snake_42"),
        ("_", "unnamed_tool"),
        ("ＡＢＣ", "unnamed_tool"),  # full-width letters are not ASCII
    ],
)
def test_more_vectors(label: str, expected: str) -> None:
    assert sanitize_tool_name(label) == expected


def _two_tools(label_a: str, label_b: str) -> str:
    return workflow(
        [node("a", label=label_a), node("b", label=label_b), node("agent", "agent", "Agent")],
        [tool_edge("a", "agent"), tool_edge("b", "agent")],
    )


def test_cafe_and_caf_collide() -> None:
    assert sanitize_tool_name("Café") == sanitize_tool_name("Caf") == "caf"
    assert set(cmp9_by_node(_two_tools("Café", "Caf"))) == {"a", "b"}


def test_two_labels_without_ascii_letters_collide_as_unnamed_tool() -> None:
    text = _two_tools("数据", "データ")
    found = cmp9_by_node(text)
    assert set(found) == {"a", "b"}
    assert {dict(f.extra)["tool_name"] for fs in found.values() for f in fs} == {"unnamed_tool"}


def test_json_escape_is_decoded_before_naming() -> None:
    text = workflow(
        [
            node("a", label="Web Search"),
            node("b", label="PLACEHOLDER"),
            node("agent", "agent", "Agent"),
        ],
        [tool_edge("a", "agent"), tool_edge("b", "agent")],
    ).replace('"PLACEHOLDER"', '"web\\u002dsearch"')
    found = cmp9_by_node(text)
    assert set(found) == {"a", "b"}
    assert at(text, found["b"][0].span) == '"web\\u002dsearch"'
    assert dict(found["b"][0].extra)["tool_name"] == "web_search"


def test_distinct_names_do_not_collide() -> None:
    assert cmp9_by_node(_two_tools("Web Search", "Web Searcher")) == {}


@pytest.mark.parametrize(
    ("name", "rejected"),
    [
        ("web_search", False),
        ("_private", False),
        ("a" * 64, False),
        ("a" * 65, True),
        ("2fa_check", True),
        ("unnamed_tool", False),
    ],
)
def test_llm_name_problem(name: str, rejected: bool) -> None:
    assert (llm_name_problem(name) is not None) is rejected
