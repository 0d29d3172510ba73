"""The expression rules on the real site (tests/corpus/atelier-cms): every expression of it
passes, and mistakes planted in copies of its workflows are found at their exact character, in
YAML and JSON: a misspelt Twig filter (R11, fixed safely), a misspelt input name (LANG-7), a
missing `{% endif %}` in a 100-line prompt template (R11), a broken JSONPath (R11), an
ExpressionLanguage syntax error (R11) and an unknown name (LANG-6). Each fix applied leaves the
site's other findings as they were."""

from __future__ import annotations

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.fixes import apply_edits
from tests.support.builders import as_json, at, findings, plant
from tests.support.builders import in_syntax as _in
from tests.support.config_site import WORKFLOWS, corpus_workflow, other_findings
from tests.support.config_site import site_settings as undeclared_site_settings

SYNTAXES = ["yaml", "json"]
# The Twig functions the site's own modules add (their code is not in the corpus).
SITE_FUNCTIONS = ("install_capabilities", "component_catalog", "site_destinations")
EXPRESSION_CODES = {"R11", "LANG-6", "LANG-7", "LANG-23", "LANG-25", "FD-TWIG-AUTOESCAPE"}
WEATHER = "aincient_weather"
PAGES = "aincient_pages_agent"
AUDIT = "aincient_audit_agent"


def site_settings():
    """The real site's settings with its own Twig functions declared, as its
    flowdrop-lsp.toml would (`extend-twig-functions`)."""
    return undeclared_site_settings().with_overrides({"extend-twig-functions": SITE_FUNCTIONS})


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.stem.rsplit(".", 1)[-1])
@pytest.mark.parametrize("syntax", SYNTAXES)
def test_every_expression_of_the_real_site_passes(path, syntax: str) -> None:
    text = path.read_text(encoding="utf-8")
    text = text if syntax == "yaml" else as_json(text)
    reported = analyze(text, site_settings(), syntax=syntax).findings
    assert [f for f in reported if f.code in EXPRESSION_CODES] == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_the_sites_own_functions_undeclared_are_warnings_naming_the_setting(syntax: str) -> None:
    settings = undeclared_site_settings()
    said = []
    for path in WORKFLOWS:
        text = path.read_text(encoding="utf-8")
        text = text if syntax == "yaml" else as_json(text)
        reported = analyze(text, settings, syntax=syntax).findings
        expression_findings = [f for f in reported if f.code in EXPRESSION_CODES]
        assert all(f.locator_code == "R11_UNKNOWN_TWIG_NAME" for f in expression_findings)
        assert all(f.severity.value == "warning" for f in expression_findings)
        for finding in expression_findings:
            name = at(text, finding.span)
            said.append(name)
            assert f'`extend-twig-functions = ["{name}"]`' in finding.message
    # Each call of each of them, at its name: pages_agent calls site_destinations twice.
    assert sorted(said) == sorted([*SITE_FUNCTIONS, "site_destinations"])


def _fixed(text: str, finding) -> str:
    (fix,) = [f for f in finding.fixes if f.preferred]
    return apply_edits(text, fix.edits)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_misspelt_filter_is_refused_where_it_is_and_fixed(syntax: str) -> None:
    settings = site_settings()
    original = _in(syntax, corpus_workflow(WEATHER))
    text = _in(
        syntax,
        plant(corpus_workflow(WEATHER), "(q|split(',')|first|trim)", "(q|split(',')|frist|trim)"),
    )
    (finding,) = findings(text, "R11", settings, syntax)
    assert at(text, finding.span) == "frist"
    assert finding.severity.value == "error"
    assert finding.locator_code == "R11_EXPRESSION_INVALID"
    assert finding.locator == "node.data_mapper.1.config.dynamicOutputs.0.value"
    assert "unknown filter 'frist' (did you mean 'first'?)" in finding.message
    repaired = _fixed(text, finding)
    assert repaired == original
    assert other_findings(repaired, syntax, settings, "R11") == other_findings(
        original, syntax, settings, "R11"
    )


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_misspelt_input_name_renders_empty_and_is_said(syntax: str) -> None:
    settings = site_settings()
    text = _in(
        syntax,
        plant(corpus_workflow(WEATHER), "{{ g.results[0].name }}", "{{ gg.results[0].name }}"),
    )
    (finding,) = findings(text, "LANG-7", settings, syntax)
    assert at(text, finding.span) == "gg"
    assert finding.severity.value == "warning"
    assert "renders as ''" in finding.message
    assert findings(text, "R11", settings, syntax) == []


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_close_input_name_is_fixed(syntax: str) -> None:
    settings = site_settings()
    original = _in(syntax, corpus_workflow(WEATHER))
    planted = plant(corpus_workflow(WEATHER), "name: q\n", "name: query\n")
    planted = planted.replace("(q|split", "(querry|split")
    text = _in(syntax, planted)
    reported = findings(text, "LANG-7", settings, syntax)
    assert [at(text, f.span) for f in reported] == ["querry", "querry"]
    assert "did you mean 'query'?" in reported[0].message
    repaired = _fixed(text, reported[0])
    assert at(repaired, findings(repaired, "LANG-7", settings, syntax)[0].span) == "querry"
    assert original  # the rest of the site is as it was
    assert other_findings(repaired, syntax, settings, "LANG-7") == other_findings(
        text, syntax, settings, "LANG-7"
    )


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_missing_endif_in_a_long_prompt_template(syntax: str) -> None:
    settings = site_settings()
    text = _in(
        syntax,
        plant(
            corpus_workflow(PAGES),
            "          {{ site_destinations() }}\n          {% endif %}\n",
            "          {{ site_destinations() }}\n",
        ),
    )
    (finding,) = findings(text, "R11", settings, syntax)
    assert finding.locator == "node.prompt_template.3.config.template"
    assert "Twig template in config 'template'" in finding.message
    assert 'this "if" tag is not closed (by "endif"' in finding.message
    # On the tag left open, on the document's text (not where Twig stops, the template's end).
    assert text[finding.span.start : finding.span.end] == "if"
    assert text[: finding.span.start].endswith("{% ")


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_broken_jsonpath_is_refused(syntax: str) -> None:
    settings = site_settings()
    text = _in(syntax, plant(corpus_workflow(AUDIT), "path: '$[0].name'", "path: '$[0.name'"))
    (finding,) = findings(text, "R11", settings, syntax)
    assert finding.locator == "node.data_extractor.1.config.path"
    assert "JSONPath" in finding.message
    assert at(text, finding.span) in ("[", "$", "")


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_expression_language_errors_and_unknown_names(syntax: str) -> None:
    settings = site_settings()
    yaml_text = corpus_workflow(WEATHER)
    yaml_text = plant(
        yaml_text,
        "value: '{% autoescape false %}{{ g.results[0].name }}{% endautoescape %}'",
        "value: 'g.results[0].name ~ (gg.country'",
    )
    yaml_text = yaml_text.replace(
        "        engine: twig\n", "        engine: expression_language\n", 2
    )
    text = _in(syntax, yaml_text)
    refused = findings(text, "R11", settings, syntax)
    assert any(f.locator == "node.data_mapper.2.config.dynamicOutputs.0.value" for f in refused)
    fixed_paren = _in(syntax, yaml_text.replace("(gg.country'", "gg.country'"))
    (unknown,) = [
        f for f in findings(fixed_paren, "LANG-6", settings, syntax) if f.node == "data_mapper.2"
    ][:1]
    assert at(fixed_paren, unknown.span) == "gg"
    assert unknown.severity.value == "error"
