"""Where R11 puts a Twig refusal in the file (issue 41): never a template's line number in a
message (a template's lines are not the file's); an unclosed print on the `{{` that opens it,
not where Twig stops reading further down; an end tag that closes nothing with the tag left open
as a related location, at its own line of the file; columns in code points after CJK and emoji."""

from __future__ import annotations

import re

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.text.positions import LineIndex
from tests.support.operation_cases import mapper_yaml


def _r11(text: str) -> tuple[LineIndex, list]:
    found = [f for f in analyze(text, syntax="yaml").findings if f.code == "R11"]
    return LineIndex(text), found


def _block(*lines: str) -> str:
    return "|\n" + "".join(" " * 14 + line + "\n" for line in lines)


def test_an_unclosed_print_is_reported_at_its_opening_braces() -> None:
    text = mapper_yaml(_block("天気 🌦️ {{ g.brand_brief", "Some prose after it.", "and; more prose"))
    lines, [finding] = _r11(text)
    line, column = lines.position(finding.span.resolve().start)
    assert text.splitlines()[line].lstrip().startswith("天気 🌦️ {{")
    assert column == text.splitlines()[line].index("{{")
    assert 'Unclosed "{{"' in finding.message and '";"' in finding.message
    assert not re.search(r"\bline \d", finding.message)


def test_an_end_tag_closing_nothing_points_at_the_tag_left_open() -> None:
    text = mapper_yaml(_block("{% if g %}", "数 👋 text", "{% endfor %}"))
    lines, [finding] = _r11(text)
    assert 'Unexpected "endfor" tag' in finding.message
    assert not re.search(r"\bline \d", finding.message)
    [related] = finding.related
    line, column = lines.position(related.span.resolve().start)
    assert text.splitlines()[line].strip() == "{% if g %}"
    assert column == text.splitlines()[line].index("if")  # the tag's name
    assert related.message == 'the "if" tag opened here'


def test_a_block_defined_twice_points_at_the_first() -> None:
    text = mapper_yaml(_block("{% block a %}x{% endblock %}", "{% block a %}y{% endblock %}"))
    lines, [finding] = _r11(text)
    assert "already been defined" in finding.message
    assert not re.search(r"\bline \d", finding.message)
    [related] = finding.related
    line, _ = lines.position(related.span.resolve().start)
    assert "{% block a %}x" in text.splitlines()[line]
