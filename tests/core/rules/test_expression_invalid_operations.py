"""R11's fix as operations: a misspelt Twig name is an edit inside its string (`EditString`, code
points of the value), written in place in JSON and Drupal YAML — through a YAML block scalar,
JSON escapes, CJK and emoji before the name — and the operations applied to the plain workflow
are what the fixed text reads back as. `round_trip` is what every `*_operations` test of the
rules asks of a fix."""

from __future__ import annotations

import pytest

from flowdrop_lsp.core.operations import EditString, editor_operations
from tests.support.builders import findings
from tests.support.operation_cases import VALUE_PATH, mapper_json, mapper_yaml, read, round_trip

CODE = "R11"


# A misspelt filter after a line break, a quote, CJK and an emoji, in each way of writing it.
TEMPLATE = '天気 "🌦️"\n{{ g.a|uper }}'
CASES = {
    "json": mapper_json(TEMPLATE + "&"),
    "yaml-block": mapper_yaml('|\n              天気 "🌦️"\n              {{ g.a|uper }}&'),
    "yaml-block-strip": mapper_yaml('|-\n              天気 "🌦️"\n              {{ g.a|uper }}&'),
    "yaml-double-quoted": mapper_yaml('"天気 \\"🌦️\\"\\n{{ g.a|uper }}&"'),
}


@pytest.mark.parametrize("case", CASES)
def test_a_misspelt_filter_is_renamed_in_place(case: str) -> None:
    syntax = "json" if case == "json" else "yaml"
    text = CASES[case]
    fix, fixed = round_trip(text, syntax, CODE, "Write 'upper'")
    assert fix.preferred and fix.is_safe and fix.destructive is None
    (op,) = fix.operations
    assert isinstance(op, EditString)
    assert op.path == VALUE_PATH
    value = read(text, syntax)["nodes"][0]["data"]["config"]["dynamicOutputs"][0]["value"]
    assert value == TEMPLATE + ("&\n" if case == "yaml-block" else "&")
    # Code points of the value: the emoji is one character (two in UTF-16), the escapes none.
    assert (op.start, op.end, op.text) == (value.index("uper"), value.index("uper") + 4, "upper")
    # The one edit is the name's own characters in the text: nothing else is rewritten.
    (edit,) = fix.edits
    assert text[edit.span.start : edit.span.end] == "uper"
    assert edit.new_text == "upper"
    assert fixed == text.replace("|uper", "|upper")
    # To FlowDrop's editor: the whole new string, in the shallow patch of `config`.
    outputs = read(fixed, syntax)["nodes"][0]["data"]["config"]["dynamicOutputs"]
    (editor,) = editor_operations(fix.operations, read(text, syntax)) or [{}]
    assert (editor["nodeId"], editor["patch"]) == ("map", {"dynamicOutputs": outputs})


@pytest.mark.parametrize("syntax", ["json", "yaml"])
def test_several_close_names_are_each_a_choice(syntax: str) -> None:
    template = "🌦️ {{ g.d|formatdate }}"
    text = mapper_json(template) if syntax == "json" else mapper_yaml(f"'{template}'")
    (finding,) = findings(text, CODE, syntax=syntax)
    assert [f.title for f in finding.fixes] == ["Write 'format_date'", "Write 'format'"]
    for fix in finding.fixes:
        assert not fix.preferred and not fix.is_safe
    _, fixed = round_trip(text, syntax, CODE, "Write 'format'")
    assert "{{ g.d|format }}" in fixed
