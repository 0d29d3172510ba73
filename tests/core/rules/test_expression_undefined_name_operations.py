"""LANG-6's fix (and LANG-7's, made by the same `name_findings`) as operations: the name meant
written over the one read, an edit inside the string at code-point offsets of its value, in
place in JSON and Drupal YAML (a block scalar; JSON escapes, CJK and an emoji before it)."""

from __future__ import annotations

import pytest

from flowdrop_lsp.core.operations import EditString
from tests.support.builders import findings
from tests.support.operation_cases import VALUE_PATH, mapper_json, mapper_yaml, read, round_trip

EXPRESSION = "'天気 \"🌦️\"\\n' ~ pgae.title"
EL_CASES = {
    "json": mapper_json(EXPRESSION, "expression_language", ("page",)),
    "yaml-block": mapper_yaml(
        "|-\n              '天気 \"🌦️\"\\n' ~\n              pgae.title",
        "expression_language",
        ("page",),
    ),
}


@pytest.mark.parametrize("case", EL_CASES)
def test_an_unknown_expression_language_name_is_renamed_in_place(case: str) -> None:
    syntax = "json" if case == "json" else "yaml"
    text = EL_CASES[case]
    fix, fixed = round_trip(text, syntax, "LANG-6", "Write 'page'")
    assert fix.preferred and fix.is_safe
    (op,) = fix.operations
    assert isinstance(op, EditString) and op.path == VALUE_PATH
    value = read(text, syntax)["nodes"][0]["data"]["config"]["dynamicOutputs"][0]["value"]
    assert (op.start, op.end, op.text) == (value.index("pgae"), value.index("pgae") + 4, "page")
    (edit,) = fix.edits
    assert text[edit.span.start : edit.span.end] == "pgae"
    assert fixed == text.replace("pgae.", "page.")


TWIG_CASES = {
    "json": mapper_json('"🌦️" 天気\n{{ geoo.a }}', inputs=("geo",)),
    "yaml-block": mapper_yaml(
        '|\n              "🌦️" 天気\n              {{ geoo.a }}', inputs=("geo",)
    ),
}


@pytest.mark.parametrize("case", TWIG_CASES)
def test_a_misspelt_twig_input_is_renamed_in_place(case: str) -> None:
    syntax = "json" if case == "json" else "yaml"
    text = TWIG_CASES[case]
    fix, fixed = round_trip(text, syntax, "LANG-7", "Write 'geo'")
    (op,) = fix.operations
    value = read(text, syntax)["nodes"][0]["data"]["config"]["dynamicOutputs"][0]["value"]
    assert isinstance(op, EditString)
    assert (op.start, op.end) == (value.index("geoo"), value.index("geoo") + 4)
    (edit,) = fix.edits
    assert text[edit.span.start : edit.span.end] == "geoo"
    assert fixed == text.replace("{{ geoo.a }}", "{{ geo.a }}")


@pytest.mark.parametrize("syntax", ["json", "yaml"])
def test_several_close_inputs_are_each_a_choice(syntax: str) -> None:
    inputs = ("user", "users")
    text = (
        mapper_json("usr.name", "expression_language", inputs)
        if syntax == "json"
        else mapper_yaml("usr.name", "expression_language", inputs)
    )
    (finding,) = findings(text, "LANG-6", syntax=syntax)
    assert [f.title for f in finding.fixes] == ["Write 'user'", "Write 'users'"]
    assert not any(f.preferred or f.is_safe for f in finding.fixes)
    for fix, name in zip(finding.fixes, inputs, strict=True):
        (edit,) = fix.edits
        assert text[edit.span.start : edit.span.end] == "usr"
        assert edit.new_text == name
    _, fixed = round_trip(text, syntax, "LANG-6", "Write 'users'")
    assert fixed == text.replace("usr.name", "users.name")
