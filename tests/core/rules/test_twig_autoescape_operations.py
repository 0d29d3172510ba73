"""FD-TWIG-AUTOESCAPE's fix as operations: the output's value wrapped in `{% autoescape false %}`,
the whole string written anew in its own style over it (the mapping holding it patched), in
JSON and Drupal YAML (a quoted scalar, a block scalar)."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.operations import Update
from tests.support.operation_cases import (
    mapper_json,
    mapper_yaml,
    read,
    round_trip,
)

CODE = "FD-TWIG-AUTOESCAPE"
TITLE = "Wrap the value in {% autoescape false %}"
TEMPLATE = "https://x/?q={{ g.a }}&t=天気🌦️"
WRAPPED = "{% autoescape false %}" + TEMPLATE + "{% endautoescape %}"

CASES = {
    # (text, syntax, the value's text, what the fix writes over it)
    "json": (
        mapper_json(TEMPLATE),
        "json",
        json.dumps(TEMPLATE, ensure_ascii=False),
        json.dumps(WRAPPED, ensure_ascii=False),
    ),
    "yaml-single-quoted": (mapper_yaml(f"'{TEMPLATE}'"), "yaml", f"'{TEMPLATE}'", f"'{WRAPPED}'"),
    "yaml-block": (mapper_yaml("|-\n              " + TEMPLATE), "yaml", None, None),
}


@pytest.mark.parametrize("case", CASES)
def test_the_value_is_wrapped(case: str) -> None:
    text, syntax, before, after = CASES[case]
    fix, fixed = round_trip(text, syntax, CODE, TITLE)
    assert not fix.is_safe and not fix.preferred and fix.destructive is None
    (op,) = fix.operations
    assert isinstance(op, Update) and op.scope == "config"
    (output,) = read(fixed, syntax)["nodes"][0]["data"]["config"]["dynamicOutputs"]
    assert output["value"] == WRAPPED
    assert op.patch == {"dynamicOutputs": [output]}
    (edit,) = fix.edits  # the value alone is written anew
    if before is not None:
        assert (text[edit.span.start : edit.span.end], edit.new_text) == (before, after)
    else:
        assert text[edit.span.start : edit.span.end] == "|-\n              " + TEMPLATE
