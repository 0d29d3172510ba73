"""A YAML syntax error is reported on the line where the text is wrong (with where PyYAML gave
up as related information), and everything outside the broken item of `nodes`/`edges` keeps its
findings: the items around the break are read on their own, as JSON reads around a half-typed
element."""

from __future__ import annotations

import pytest

from flowdrop_lsp.core.text.positions import LineIndex
from tests.support.builders import findings
from tests.support.drupal import audit_agent_with_collision, workflow


def line_of(text: str, offset: int) -> int:
    return LineIndex(text).position(offset)[0] + 1


def test_the_planted_collision_shows_two_cmp9() -> None:
    text = audit_agent_with_collision()
    found = findings(text, syntax="yaml")
    assert sorted(f.code for f in found) == ["CMP-9", "CMP-9", "FD-TOOL-ROUTE"]
    assert [line_of(text, f.span.start) for f in found if f.code == "CMP-9"] == [383, 491]


def test_an_unterminated_label_far_away_is_reported_on_its_line_and_the_rest_stays() -> None:
    text = audit_agent_with_collision().replace(
        "      label: 'Chat Input'\n", "      label: 'unterminated\n", 1
    )
    found = findings(text, syntax="yaml")
    assert sorted(f.code for f in found) == ["CMP-9", "CMP-9", "FD-SYNTAX", "FD-TOOL-ROUTE"]
    syntax = next(f for f in found if f.code == "FD-SYNTAX")
    assert line_of(text, syntax.span.start) == 34
    assert text[syntax.span.start : syntax.span.end] == "'unterminated"
    assert "unterminated" in syntax.message
    # Where PyYAML gave up (further down) is the related location.
    assert syntax.related and line_of(text, syntax.related[0].span.start) > 34
    cmp9 = [line_of(text, f.span.start) for f in found if f.code == "CMP-9"]
    assert cmp9 == [383, 491]


@pytest.mark.parametrize(
    ("broken_line", "expected_line_text"),
    [
        ("      lab\n", "      lab"),  # a key being typed
        ("      label: 'x' y\n", "      label: 'x' y"),  # text after a quoted scalar
        ('      label: "half\n', '      label: "half'),  # double-quoted, unterminated
        ("      label: {a: b\n", "      label: {a: b"),  # an unclosed flow mapping
        ("\tlabel: x\n", "\tlabel: x"),  # a tab in indentation
    ],
)
def test_a_broken_line_in_an_item_is_reported_there_and_collisions_elsewhere_stay(
    broken_line: str, expected_line_text: str
) -> None:
    text = workflow("'Web Search'", "'web-search'", "'Other 数据 🤖'")
    text = text.replace("      label: 'Other 数据 🤖'\n", broken_line, 1)
    found = findings(text, syntax="yaml")
    assert sorted(f.code for f in found) == ["CMP-9", "CMP-9", "FD-SYNTAX"], found
    syntax = next(f for f in found if f.code == "FD-SYNTAX")
    line = line_of(text, syntax.span.start)
    assert text.splitlines()[line - 1] == expected_line_text


def test_a_half_typed_label_counts_for_what_it_says() -> None:
    # As the JSON reader reads `"label": "Web Sea`, the unterminated label is its text so far.
    text = workflow("'Web Search'", "'Other'").replace("'Other'", "'web search", 1)
    found = findings(text, syntax="yaml")
    assert sorted(f.code for f in found) == ["CMP-9", "CMP-9", "FD-SYNTAX"]


def test_an_error_outside_nodes_and_edges_is_still_one_finding_at_its_line() -> None:
    text = workflow("'Web Search'", "'web-search'").replace(
        "label: 'Research'\n", "label: 'Research\n"
    )
    found = findings(text, syntax="yaml")
    assert [f.code for f in found] == ["FD-SYNTAX"]
    assert line_of(text, found[0].span.start) == text.splitlines().index("label: 'Research") + 1


# A small workflow: tool_a 'Web Search' and tool_b web-search collide (CMP-9) at agent_1; tool_c
# (at lines 13-20) is the item the cases below break.
SMALL = """\
id: m
nodes:
  -
    id: tool_a
    type: http_request
    data:
      label: 'Web Search'
  -
    id: tool_b
    type: http_request
    data:
      label: web-search
  -
    id: tool_c
    type: http_request
    position:
      x: 1
      'y': 2
    data:
      label: 'Fetch'
  -
    id: box_1
    type: toolbox
    data:
      label: 'My Tools'
  -
    id: agent_1
    type: agent
    data:
      label: Agent
edges:
  - {id: e1, source: tool_a, target: box_1, data: {edgeType: tool_availability}}
  - {id: e2, source: tool_b, target: box_1, data: {edgeType: tool_availability}}
  - {id: e3, source: tool_c, target: box_1, data: {edgeType: tool_availability}}
  - {id: e4, source: box_1, target: agent_1, data: {edgeType: tool_availability}}
"""


def with_line(text: str, number: int, line: str) -> str:
    lines = text.split("\n")
    lines[number - 1] = line
    return "\n".join(lines)


BROKEN_LINES = [
    (14, "   id: tool_c", 14),  # the id one space short
    (13, "   -", 13),  # an item marker one space too far
    (13, " -", 13),  # an item marker one space short
    (17, "     x: 1", 17),  # a key one space short
    (17, "       x: 1", 17),  # a key one space too far
]


@pytest.mark.parametrize(("number", "line", "at_fault"), BROKEN_LINES)
def test_a_mis_indented_line_is_reported_there_and_nothing_else_changes(
    number: int, line: str, at_fault: int
) -> None:
    text = with_line(SMALL, number, line)
    found = findings(text, syntax="yaml")
    # No R8 for an edge whose node is (in) the broken item; the collision elsewhere stays.
    assert sorted(f.code for f in found) == ["CMP-9", "CMP-9", "FD-SYNTAX"], found
    syntax = next(f for f in found if f.code == "FD-SYNTAX")
    assert line_of(text, syntax.span.start) == at_fault, syntax


@pytest.mark.parametrize(
    ("number", "line"),
    [
        (486, "   id: aincient_flows_aincient_capability_read_meta_tags.1"),  # the id, short
        (485, " -"),  # the marker, one short
        (500, "   -"),  # the next item's marker, one space too far
    ],
)
def test_the_real_workflow_keeps_its_collision_past_a_mis_indented_line(
    number: int, line: str
) -> None:
    text = with_line(audit_agent_with_collision(), number, line)
    found = findings(text, syntax="yaml")
    assert sorted(f.code for f in found) == ["CMP-9", "CMP-9", "FD-SYNTAX", "FD-TOOL-ROUTE"], [
        (f.code, line_of(text, f.span.start), f.message) for f in found
    ]
    syntax = next(f for f in found if f.code == "FD-SYNTAX")
    assert line_of(text, syntax.span.start) == number


@pytest.mark.parametrize("char", ["\x00", "\x01", "\x1b", "\x7f", "\x9f", "\ufffe", "\ud800"])
def test_a_character_yaml_refuses_is_reported_there_and_the_rest_stays(char: str) -> None:
    # libyaml refuses it wherever it is, and says so where its reader happened to be (1:1 for
    # a short document); it is reported at the character, as the JSON reader reports one, and
    # only its item is broken. A lone surrogate (an editor may send one) cannot even be handed
    # to libyaml.
    text = workflow("'Web Search'", "'web-search'", "'Other 数据 🤖'")
    at = text.index("数据")
    text = text[:at] + char + text[at:]
    found = findings(text, syntax="yaml")
    assert sorted(f.code for f in found) == ["CMP-9", "CMP-9", "FD-SYNTAX"], found
    syntax = next(f for f in found if f.code == "FD-SYNTAX")
    assert (syntax.span.start, syntax.span.end) == (at, at + 1)
    assert f"unacceptable character #x{ord(char):04x}" in syntax.message


def test_a_refused_character_outside_nodes_and_edges_is_reported_there() -> None:
    text = workflow("'Web Search'", "'web-search'").replace("label: 'Research'", "label: 'Re\x00'")
    (syntax,) = findings(text, syntax="yaml")
    assert syntax.code == "FD-SYNTAX"
    assert syntax.span.start == text.index("\x00")
