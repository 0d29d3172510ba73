"""R6.l: a secret reference written without its `$` — planted in copies of the real site's
workflows (YAML and JSON), at the top of config and nested in it; the fix that adds the `$`;
the spec's exact pattern; incremental == from scratch."""

from __future__ import annotations

import json

import pytest
import yaml

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.fixes import apply_edits
from flowdrop_lsp.core.rules.secret_reference import corrected, malformed_strings
from flowdrop_lsp.core.text.positions import Span
from tests.support.builders import at, findings, plant
from tests.support.builders import in_syntax as _in
from tests.support.config_site import corpus_workflow, other_findings, site_settings

CODE = "R6.l"
SYNTAXES = ["yaml", "json"]
WEATHER = "aincient_weather"
HEADERS = (
    "        headers: {  }\n        body: ''\n        timeout: 30\n        follow_redirects: true\n"
    "        instanceTitle: 'Geocode Second Try'\n"
)
TOKEN = "'Bearer {{ secrets.GEO_TOKEN }}'"
WITH_TOKEN = HEADERS.replace(
    "        headers: {  }\n", f"        headers:\n          Authorization: {TOKEN}\n"
)
URL = '&count=1&language=en&format=json"\n          -\n            name: url_first'
WITH_KEY = URL.replace("&count=1", "&key={{ secrets.GEO_KEY }}&count=1")


def _value_token(text: str, syntax: str, value: str) -> Span:
    token = json.dumps(value, ensure_ascii=False) if syntax == "json" else None
    if token is None:
        token = next(t for t in (f"'{value}'", f'"{value}"') if t in text)
    start = text.index(token)
    return Span(start, start + len(token))


def _others(text: str, syntax: str, settings: Settings) -> list[tuple[str, str, str]]:
    return other_findings(text, syntax, settings, CODE)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_reference_without_its_dollar_is_a_warning_on_the_string(syntax: str) -> None:
    text = _in(syntax, plant(corpus_workflow(WEATHER), HEADERS, WITH_TOKEN))
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert finding.severity.value == "warning"
    assert finding.message == (
        "config 'headers.Authorization' of \"HTTP Request\" (http_request.1) writes "
        "'{{ secrets.' without the leading '$': it is no secret reference, and the node gets "
        "the text as it is; write '${{ secrets.NAME }}'"
    )
    assert finding.span == _value_token(text, syntax, "Bearer {{ secrets.GEO_TOKEN }}")
    assert finding.locator == "node.http_request.1.config.headers"
    assert finding.locator_code is None


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_nested_reference_is_found_too(syntax: str) -> None:
    text = _in(syntax, plant(corpus_workflow(WEATHER), URL, WITH_KEY))
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert finding.message.startswith("config 'dynamicOutputs[0].value' of \"Data Mapper\"")
    assert "{{ secrets.GEO_KEY }}" in at(text, finding.span)
    assert at(text, finding.span).startswith('"https://geocoding-api')
    assert finding.locator == "node.data_mapper.1.config.dynamicOutputs"


def test_without_node_types_too() -> None:
    """Not a schema-driven check (R6.j names those): it needs no node type."""
    text = plant(corpus_workflow(WEATHER), HEADERS, WITH_TOKEN)
    assert len(findings(text, CODE, Settings(), "yaml")) == 1


def test_the_spec_s_exact_pattern() -> None:
    def reported(value: str) -> bool:
        return bool(list(malformed_strings({"k": value})))

    assert reported("{{ secrets.A }}")
    assert reported("x {{ secrets.A }} and ${{ secrets.B }}")  # one of them unprefixed
    assert not reported("${{ secrets.A }}")
    assert not reported("{{secrets.A}}")  # not the spec's `{{ secrets.`
    assert not reported("{{ (q|split(',')|first) }}")  # Twig, no secret
    assert list(malformed_strings({"a": [{"b": "{{ secrets.X }}"}], "n": 1, "t": None})) == [
        (("a", 0, "b"), "{{ secrets.X }}")
    ]
    assert corrected("x {{ secrets.A }} ${{ secrets.B }} {{ secrets.C }}") == (
        "x ${{ secrets.A }} ${{ secrets.B }} ${{ secrets.C }}"
    )


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_positions_after_emoji_and_cjk(syntax: str) -> None:
    text = plant(corpus_workflow(WEATHER), HEADERS, WITH_TOKEN)
    text = plant(
        text,
        "label: 'HTTP Request'\n      config:\n        method: GET\n        headers:\n          Authorization",
        "label: '🌦️ 天気 HTTP'\n      config:\n        method: GET\n        headers:\n          Authorization",
    )
    text = _in(syntax, text)
    (finding,) = findings(text, CODE, site_settings(), syntax)
    assert finding.span == _value_token(text, syntax, "Bearer {{ secrets.GEO_TOKEN }}")
    assert '"🌦️ 天気 HTTP" (http_request.1)' in finding.message


@pytest.mark.parametrize("syntax", SYNTAXES)
@pytest.mark.parametrize("planted", ["headers", "nested"])
def test_the_fix_adds_the_dollar(syntax: str, planted: str) -> None:
    settings = site_settings()
    old, new, before, after = (
        (HEADERS, WITH_TOKEN, "{{ secrets.GEO_TOKEN", "${{ secrets.GEO_TOKEN")
        if planted == "headers"
        else (URL, WITH_KEY, "{{ secrets.GEO_KEY", "${{ secrets.GEO_KEY")
    )
    original = plant(corpus_workflow(WEATHER), old, new)
    text = _in(syntax, original)
    (finding,) = findings(text, CODE, settings, syntax)
    (fix,) = finding.fixes
    assert fix.title == "Write '${{ secrets.…'"
    assert fix.preferred and fix.applicability.value == "safe"
    fixed = apply_edits(text, fix.edits)
    assert findings(fixed, CODE, settings, syntax) == []
    assert _others(fixed, syntax, settings) == _others(text, syntax, settings)
    expected = yaml.safe_load(original.replace(before, after))
    loaded = yaml.safe_load(fixed) if syntax == "yaml" else json.loads(fixed)
    assert loaded == expected
    if syntax == "yaml":  # only the value's text changed
        assert fixed == original.replace(before, after)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_incremental_planting_and_removing_equals_from_scratch(syntax: str) -> None:
    settings = site_settings()
    document = WorkflowDocument(_in(syntax, corpus_workflow(WEATHER)), settings, syntax=syntax)
    assert [f for f in document.findings() if f.code == CODE] == []
    at_key = document.text.index("&count=1")
    document.apply_edit(at_key, at_key, "&key={{ secrets.K }}")
    label = document.text.index("Geocode")
    document.apply_edit(label, label + len("Geocode"), "Géo 🌍")
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f.locator for f in fresh if f.code == CODE] == [
        "node.data_mapper.1.config.dynamicOutputs"
    ]
    dollar = document.text.index("{{ secrets.K }}")
    document.apply_edit(dollar, dollar, "$")  # written right
    fresh = WorkflowDocument(document.text, settings, syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f for f in fresh if f.code == CODE] == []
