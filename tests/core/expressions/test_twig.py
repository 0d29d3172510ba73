"""The Twig parser on its own: errors with their exact spans, reads and their guards,
bindings and scoping, symbols, completion places, Unicode offsets, and the real site's
templates (which must parse with no problem)."""

from __future__ import annotations

import pytest

from flowdrop_lsp.core.expressions.base import Place, ProblemKind, SymbolKind
from flowdrop_lsp.core.expressions.twig import (
    DRUPAL_TWIG_EXTENSION,
    SIGNATURES,
    TWIG_35,
    TWIG_CORE,
    names_in_scope,
    parse_twig,
    twig_completion_place,
)
from tests.support.twig_templates import VALID, real_templates


def reads(source: str) -> list[tuple[str, bool]]:
    return [(read.name, read.guarded) for read in parse_twig(source).reads]


def first_problem(source: str) -> tuple[ProblemKind, str, str | None]:
    problem = parse_twig(source).problems[0]
    return problem.kind, source[problem.start : problem.end], problem.name


@pytest.mark.parametrize("template", VALID)
def test_every_hand_written_construct_parses(template: str) -> None:
    assert parse_twig(template).problems == ()


@pytest.mark.parametrize(
    ("source", "kind", "text", "name"),
    [
        ("{{ a|frist }}", ProblemKind.UNKNOWN_FILTER, "frist", "frist"),
        ("{{ frist(1) }}", ProblemKind.UNKNOWN_FUNCTION, "frist", "frist"),
        ("{{ a is frist }}", ProblemKind.UNKNOWN_TEST, "frist", "frist"),
        ("x {% frist %}", ProblemKind.UNKNOWN_TAG, "frist", "frist"),
        ("{% if a %}{% frist %}{% endif %}", ProblemKind.UNKNOWN_TAG, "frist", "frist"),
        ("{% endif %}", ProblemKind.SYNTAX, "endif", None),
        ("{% if a %}{% endfor %}", ProblemKind.SYNTAX, "endfor", None),
        ("{{ (a }}", ProblemKind.SYNTAX, "(", None),
        ("{{ a ", ProblemKind.SYNTAX, "{{", None),
        ("{% if a ", ProblemKind.SYNTAX, "{%", None),
        ("x {# open", ProblemKind.SYNTAX, "{#", None),
        ('{{ "abc }}', ProblemKind.SYNTAX, '"', None),
        ("{{ a) }}", ProblemKind.SYNTAX, ")", None),
        ("{{ a + }}", ProblemKind.SYNTAX, "}}", None),
        ("{{ a @ b }}", ProblemKind.SYNTAX, "@", None),
        ("{% set true = 1 %}", ProblemKind.SYNTAX, "true", None),
        ("{% block a %}{% endblock b %}", ProblemKind.SYNTAX, "%}", None),
    ],
)
def test_errors_point_at_the_offending_token(
    source: str, kind: ProblemKind, text: str, name: str | None
) -> None:
    assert first_problem(source) == (kind, text, name)


def test_an_unclosed_tag_points_at_the_tag_left_open() -> None:
    source = "{% if a %}\n{{ a }}"
    problem = parse_twig(source).problems[0]
    assert (problem.kind, problem.start, problem.end) == (ProblemKind.SYNTAX, 3, 5)
    assert source[problem.start : problem.end] == "if"
    assert 'this "if" tag is not closed (by "endif"' in problem.message
    assert "line" not in problem.message  # a template's line is no line of the file


def test_a_lexer_error_comes_first_as_in_twig() -> None:
    # Twig lexes the whole template before it parses.
    parsed = parse_twig("{{ a|frist }} {{ 'open")
    assert parsed.problems[0].kind is ProblemKind.SYNTAX
    assert [p.kind for p in parsed.problems[1:]] == [ProblemKind.UNKNOWN_FILTER]


def test_unknown_names_do_not_stop_the_parse() -> None:
    parsed = parse_twig("{{ a|nope }}{{ b|nada }}{{ c }}")
    assert [p.name for p in parsed.problems] == ["nope", "nada"]
    assert [r.name for r in parsed.reads] == ["a", "b", "c"]


def test_vocabularies() -> None:
    assert "find" in TWIG_CORE.filters and "find" not in TWIG_35.filters
    assert not parse_twig("{{ a|find(x => x) }}", TWIG_35).ok
    drupal = TWIG_CORE.extended(
        filters=DRUPAL_TWIG_EXTENSION.filters,
        functions=DRUPAL_TWIG_EXTENSION.functions,
        tags=DRUPAL_TWIG_EXTENSION.tags,
    )
    assert parse_twig("{{ 'Hi'|t }}{{ url('<front>') }}{{ a|without('b') }}", drupal).ok
    assert parse_twig("{% trans %}Hi {{ name }}{% plural n %}Hey{% endtrans %}", drupal).ok
    assert not parse_twig("{{ 'Hi'|t }}").ok


def test_drupal_s_sandbox_tag_holds_includes_only() -> None:
    """Drupal's environment adds Twig's sandbox extension; its tag's verdicts are php-twig's
    (3.5.1 with SandboxExtension added, asked once): a lone text passes, as Twig checks a
    one-node body's children."""
    drupal = TWIG_CORE.extended(tags=DRUPAL_TWIG_EXTENSION.tags)
    assert parse_twig("{% sandbox %}\n  {% include 'x' %}\n{% endsandbox %}", drupal).ok
    assert parse_twig("{% sandbox %}text{% endsandbox %}", drupal).ok
    for refused in (
        "{% sandbox %}{{ a }}{% endsandbox %}",
        "{% sandbox %}a{{ b }}{% endsandbox %}",
    ):
        (problem,) = parse_twig(refused, drupal).problems
        assert problem.message == 'Only "include" tags are allowed within a "sandbox" section.'
    assert not parse_twig("{% sandbox %}{% endsandbox %}").ok  # not a plain Twig tag


def test_signatures_cover_the_core() -> None:
    kinds = [
        (SymbolKind.FILTER, TWIG_CORE.filters),
        (SymbolKind.FUNCTION, TWIG_CORE.functions),
        (SymbolKind.TEST, TWIG_CORE.tests),
        (SymbolKind.TAG, TWIG_CORE.tags),
    ]
    missing = [
        (kind, name) for kind, names in kinds for name in names if (kind, name) not in SIGNATURES
    ]
    assert missing == []
    assert SIGNATURES[(SymbolKind.FILTER, "default")].startswith("default(value = '')")


def test_reads_are_the_roots_of_attribute_chains() -> None:
    parsed = parse_twig("{{ a.b.c }}{{ d['e'] }}")
    assert [(r.name, r.start, r.end) for r in parsed.reads] == [("a", 3, 4), ("d", 14, 15)]


def test_guarded_reads() -> None:
    assert reads("{{ a is defined ? a }}") == [("a", True), ("a", True)]
    assert reads("{{ a is not defined }}") == [("a", True)]
    assert reads("{{ a ?? b }}") == [("a", True), ("b", False)]
    assert reads("{{ a.b|default('') }}{{ a }}") == [("a", True), ("a", True)]
    assert reads("{{ a|upper|default }}") == [("a", False)]


def test_globals_and_literals_are_no_reads() -> None:
    assert reads("{{ _self }}{{ _context }}{{ _charset }}{{ true }}{{ null }}") == []


def test_scoping() -> None:
    assert reads("{% set a = 1 %}{{ a }}") == []
    assert reads("{{ a }}{% set a = 1 %}") == [("a", False)]
    assert reads("{% set a = a + 1 %}") == [("a", False)]
    assert reads("{% for k, v in items %}{{ k }}{{ v }}{{ loop.index }}{% endfor %}") == [
        ("items", False)
    ]
    # A loop's names end with it; what its body sets stays (conservative).
    assert reads("{% for v in s %}{% set t = v %}{% endfor %}{{ v }}{{ t }}{{ loop }}") == [
        ("s", False),
        ("v", False),
        ("loop", False),
    ]
    assert reads("{% macro m(a, b = 1) %}{{ a }}{{ b }}{{ varargs }}{{ c }}{% endmacro %}") == [
        ("c", False)
    ]
    assert reads("{% import 'f' as forms %}{{ forms.input() }}") == []
    assert reads("{% from 'f' import input as field %}{{ field() }}") == []
    assert reads("{% with {a: 1, 'b': 2} %}{{ a }}{{ b }}{% endwith %}{{ a }}") == [("a", False)]
    assert reads("{{ items|map(x => x.name ~ y) }}{{ x }}") == [
        ("items", False),
        ("y", False),
        ("x", False),
    ]
    assert reads("{{ items|reduce((c, i) => c + i) }}") == [("items", False)]


def test_bindings_and_names_in_scope() -> None:
    source = "{% for item in items %}{{ item }}{% endfor %}{% set total = 3 %}{{ total }}"
    parsed = parse_twig(source)
    by_name = {b.name: b for b in parsed.bindings}
    assert by_name["item"].kind == "for"
    assert source[by_name["item"].start : by_name["item"].end] == "item"
    assert source[by_name["loop"].start : by_name["loop"].end] == "for"
    assert set(names_in_scope(parsed, source.index("{{ item"))) == {"item", "loop"}
    assert names_in_scope(parsed, source.index("{{ total")) == ("total",)
    assert names_in_scope(parsed, 0) == ()


def test_symbols() -> None:
    parsed = parse_twig("{% if a is divisible by 3 %}{{ a|upper }}{{ max(1) }}{% endif %}")
    assert [(s.kind, s.name) for s in parsed.symbols] == [
        (SymbolKind.TAG, "if"),
        (SymbolKind.TEST, "divisible by"),
        (SymbolKind.FILTER, "upper"),
        (SymbolKind.FUNCTION, "max"),
    ]
    test = parsed.symbols[1]
    assert (test.start, test.end) == (11, 23)


def test_offsets_are_code_points() -> None:
    source = "👋 漢字 {{ 名前|frist }} {{ x }}"
    parsed = parse_twig(source)
    problem = parsed.problems[0]
    assert source[problem.start : problem.end] == "frist"
    assert [source[r.start : r.end] for r in parsed.reads] == ["名前", "x"]
    assert parse_twig("{{ '👋 漢字' ~ \"é #{ a }\" }}").ok


def test_a_prompt_template_parses_fast_enough() -> None:
    # Not a benchmark: a guard against an accidental quadratic lexer.
    import time

    line = "{% if live is defined and live %}Name: {{ user.name|default('x') }} — {{ q|trim }}{% endif %}\n"
    source = line * 200
    started = time.perf_counter()
    parsed = parse_twig(source)
    assert parsed.ok
    assert time.perf_counter() - started < 0.5


@pytest.mark.parametrize(
    ("source", "place", "partial", "owner"),
    [
        ("{{ a|", Place.FILTER, "", None),
        ("{{ a|up", Place.FILTER, "up", None),
        ("{{ a is ", Place.TEST, "", None),
        ("{{ a is def", Place.TEST, "def", None),
        ("{{ a is not ", Place.TEST, "", None),
        ("{% ", Place.TAG, "", None),
        ("{%- i", Place.TAG, "i", None),
        ("{{ user.", Place.ATTRIBUTE, "", "user"),
        ("{{ user.na", Place.ATTRIBUTE, "na", "user"),
        ("{{ a.b.", Place.ATTRIBUTE, "", None),
        ("{{ ", Place.NAME, "", None),
        ("{{ a + b", Place.NAME, "b", None),
        ("{% if a and ", Place.NAME, "", None),
        ("{{ f(", Place.NAME, "", None),
        ('{{ "x #{ na', Place.NAME, "na", None),
        ("text ", Place.NONE, "", None),
        ("{{ a }} text", Place.NONE, "", None),
        ("{# comment ", Place.NONE, "", None),
        ("{{ 'str", Place.NONE, "", None),
        ('{{ "str', Place.NONE, "", None),
        ("{% verbatim %}{{ ", Place.NONE, "", None),
    ],
)
def test_completion_places(source: str, place: Place, partial: str, owner: str | None) -> None:
    at = twig_completion_place(source + " }}", len(source))
    expected_partial = partial if place is not Place.NONE else ""
    assert (at.place, (source + " }}")[at.start : at.end], at.owner) == (
        place,
        expected_partial,
        owner,
    )


def test_completion_replaces_the_whole_word() -> None:
    source = "{{ a|upp }}"
    at = twig_completion_place(source, source.index("pp"))
    assert (at.place, source[at.start : at.end]) == (Place.FILTER, "upp")


# Functions the site registers itself (its own Twig extension).
SITE_FUNCTIONS = ("install_capabilities", "component_catalog", "site_destinations")


def test_the_real_sites_templates_parse_with_no_problem() -> None:
    templates = real_templates()
    assert len(templates) >= 10
    vocabulary = TWIG_CORE.extended(functions=SITE_FUNCTIONS)
    problems = [(t[:60], parse_twig(t, vocabulary).problems) for t in templates]
    assert [p for p in problems if p[1]] == []


def test_real_site_reads() -> None:
    geocoding = (
        "https://geocoding-api.open-meteo.com/v1/search?name="
        "{{ (q|split(',')|first|trim)|url_encode }}&count=1&language=en&format=json"
    )
    assert geocoding in real_templates()
    assert reads(geocoding) == [("q", False)]
    weather = "{% autoescape false %}{{ g.results[0].name }}{% endautoescape %}"
    assert weather in real_templates()
    assert reads(weather) == [("g", False)]
    prompt = next(t for t in real_templates() if "live_page_state is defined" in t)
    found = parse_twig(prompt, TWIG_CORE.extended(functions=SITE_FUNCTIONS)).reads
    assert {r.name for r in found if r.name == "live_page_state" and r.guarded} == {
        "live_page_state"
    }
