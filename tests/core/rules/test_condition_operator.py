"""LANG-28: a condition node's operator outside the six, and a `regex` pattern both PCRE and
Python refuse — planted in a copy of the real site's weather workflow (YAML and JSON); the
operator's fix applied and re-analysed; patterns PCRE may accept never reported; a site type on
the `if_else` executor; incremental == from scratch."""

from __future__ import annotations

import json

import pytest
import yaml

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.fixes import apply_edits
from flowdrop_lsp.core.rules.condition_operator import pattern_error
from tests.support.builders import at, findings, plant
from tests.support.builders import in_syntax as _in
from tests.support.config_site import corpus_workflow, node_type_text, other_findings, site_settings

CODE = "LANG-28"
SYNTAXES = ["yaml", "json"]
WEATHER = "aincient_weather"
OPERATOR = "        operator: not_equals\n"
MATCH = "        matchText: ''\n"


def _others(text: str, syntax: str, settings: Settings) -> list[tuple[str, str, str]]:
    return other_findings(text, syntax, settings, CODE)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_an_operator_outside_the_six_is_an_error_with_its_fix(syntax: str) -> None:
    settings = site_settings()
    original = corpus_workflow(WEATHER)
    text = _in(syntax, plant(original, OPERATOR, "        operator: 'Not Equals'\n"))
    (finding,) = findings(text, CODE, settings, syntax)
    assert finding.severity.value == "error"
    assert at(text, finding.span) == ("'Not Equals'" if syntax == "yaml" else '"Not Equals"')
    assert finding.message == (
        "operator 'Not Equals' of \"If/Else\" (if_else.1) is none of equals, not_equals, "
        "contains, starts_with, ends_with, regex: the save is refused"
    )
    assert finding.locator == "node.if_else.1.config.operator"
    assert findings(text, CODE, Settings(), syntax) == [finding]  # `if_else` without node types
    (fix,) = finding.fixes
    assert fix.title == "Write 'not_equals'" and fix.preferred
    fixed = apply_edits(text, fix.edits)
    assert findings(fixed, CODE, settings, syntax) == []
    assert _others(fixed, syntax, settings) == _others(text, syntax, settings)
    load = yaml.safe_load if syntax == "yaml" else json.loads
    assert load(fixed) == load(_in(syntax, original))


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_broken_regex_is_a_warning_on_the_pattern(syntax: str) -> None:
    text = plant(corpus_workflow(WEATHER), OPERATOR, "        operator: regex\n")
    text = _in(syntax, plant(text, MATCH, "        matchText: '^(Paris|Lyon'\n"))
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert finding.severity.value == "warning"
    assert at(text, finding.span) == ("'^(Paris|Lyon'" if syntax == "yaml" else '"^(Paris|Lyon"')
    assert finding.message == (
        'the regex pattern of "If/Else" (if_else.1) cannot be compiled (missing ), '
        "unterminated subpattern): the node fails each time it runs"
    )
    assert finding.locator == "node.if_else.1.config.matchText"
    assert finding.fixes == ()


@pytest.mark.parametrize(
    "pattern",
    [
        "(?<city>\\w+)",  # a PCRE named group
        "(*UTF8)a(",  # a verb
        "\\Qa(\\E",  # quoting
        "[[:alpha:]]+",  # a POSIX class
        "\\p{Lu}\\X",  # Unicode properties
        "a++b",  # possessive
        "abc(?i)",  # a flag mid-pattern
        "\\b*",  # a quantified assertion
        "a{2}{3}",
        "[\\d-z]",
        "",
        "^[A-Z]\\d{3}$",
    ],
)
def test_patterns_pcre_may_accept_are_never_reported(pattern: str) -> None:
    assert pattern_error(pattern) is None


def test_patterns_both_engines_refuse() -> None:
    assert pattern_error("(abc") == "missing ), unterminated subpattern"
    assert pattern_error("abc)") == "unbalanced parenthesis"
    assert pattern_error("[abc") == "unterminated character set"
    assert pattern_error("*abc") == "nothing to repeat"
    assert pattern_error("a|+b") == "nothing to repeat"


def test_other_operators_and_wrong_types_are_skipped() -> None:
    weather = corpus_workflow(WEATHER)
    for operator, match in (
        ("contains", "'(abc'"),  # a pattern only for `regex`
        ("regex", "3"),
        ("''", "'(abc'"),  # unset: the type's default
        ("[regex]", "'(abc'"),
    ):
        text = plant(weather, OPERATOR, f"        operator: {operator}\n")
        text = plant(text, MATCH, f"        matchText: {match}\n")
        assert findings(text, CODE, site_settings(), "yaml") == [], operator


def test_a_site_type_on_the_if_else_executor_is_a_condition_node() -> None:
    text = plant(corpus_workflow(WEATHER), OPERATOR, "        operator: like\n")
    text = plant(text, "node_type_id: if_else\n", "node_type_id: guard\n")
    guard = node_type_text("if_else").replace("\nid: if_else\n", "\nid: guard\n")
    assert findings(text, CODE, Settings(), "yaml") == []  # unknown type: not a condition node
    (finding,) = findings(text, CODE, site_settings(guard=guard), "yaml")
    assert finding.locator == "node.if_else.1.config.operator"


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_equals_from_scratch(syntax: str) -> None:
    settings = site_settings()
    document = WorkflowDocument(_in(syntax, corpus_workflow(WEATHER)), settings, syntax=syntax)
    start = document.text.index("not_equals")
    document.apply_edit(start, start + len("not_equals"), "differs")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f.locator for f in fresh if f.code == CODE] == ["node.if_else.1.config.operator"]
    document.apply_edit(start, start + len("differs"), "not_equals")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f for f in fresh if f.code == CODE] == []
