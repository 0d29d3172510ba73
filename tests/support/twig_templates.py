"""Twig templates the Twig tests share: hand-written valid and invalid ones covering every
construct, and the real site's (tests/corpus/atelier-cms) Twig strings."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import yaml

from flowdrop_lsp.core.expressions.base import SymbolKind
from flowdrop_lsp.core.expressions.twig import TWIG_35, parse_twig
from flowdrop_lsp.core.expressions.twig.lexer import T, tokenize

CORPUS = Path(__file__).parents[1] / "corpus" / "atelier-cms" / "config" / "sync"

VALID = [
    # text, print, comments, whitespace control
    "plain text",
    "",
    "{{ name }}",
    "{{- name -}}",
    "{{~ name ~}}",
    "a {# comment #} b",
    "a {#- trimmed -#} b {#~ line ~#}",
    "{# multi\nline #}{{ x }}",
    "héllo 👋 {{ 名前 }} 世界",
    "{{ '👋 emoji' ~ \"漢字\" }}",
    # literals
    "{{ 1 }}{{ 1.5 }}{{ 1.5e+3 }}{{ -1 }}{{ +2 }}",
    "{{ true }}{{ false }}{{ null }}{{ none }}{{ TRUE }}{{ NULL }}",
    "{{ 'single \\' quote' }}{{ \"double \\\" quote\" }}",
    "{{ \"interpolated #{name} and #{ a.b ~ 'x' }\" }}",
    '{{ "nested #{ "inner #{deep}" }" }}',
    '{{ "a # not interpolation" }}',
    "{{ [1, 2, 3] }}{{ [] }}{{ [1, [2, 3],] }}",
    "{{ {a: 1, 'b': 2, 3: c, (d ~ 'e'): f} }}",
    "{{ {a, b} }}{{ {} }}{{ {a: 1,} }}",
    # operators
    "{{ a + b - c * d / e // f % g ** h }}",
    "{{ a ~ b ~ c }}",
    "{{ a and b or not c }}",
    "{{ a b-and b b-or c b-xor d }}",
    "{{ a == b }}{{ a != b }}{{ a < b }}{{ a > b }}{{ a <= b }}{{ a >= b }}{{ a <=> b }}",
    "{{ a in b }}{{ a not in b }}",
    "{{ a matches '/x/' }}{{ a starts with 'x' }}{{ a ends with 'y' }}",
    "{{ 1..5 }}{{ a..b }}",
    "{{ a ?? b ?? 'c' }}",
    "{{ a ? b : c }}{{ a ? b }}{{ a ?: b }}",
    "{{ a ? b ? c : d : e }}",
    "{{ (a + b) * c }}{{ not (a and b) }}",
    "{{ -a.b }}{{ - 1 }}",
    # attribute access and calls
    "{{ a.b.c }}{{ a.0 }}{{ a['b'] }}{{ a[b ~ 'c'] }}{{ a.b(1, 2) }}{{ a.b() }}",
    "{{ a[1:2] }}{{ a[:2] }}{{ a[1:] }}{{ 'abc'[1:] }}",
    "{{ a.in }}{{ a.not }}{{ a.is }}",
    "{{ a|upper }}{{ a|default('x') }}{{ a|join(', ')|lower }}",
    "{{ a|slice(1, 2) }}{{ a|replace({'a': 'b'}) }}{{ a|date('Y-m-d') }}",
    "{{ a|default }}{{ a.b|default(c) }}{{ a|e('html') }}{{ a|escape }}{{ a|raw }}",
    "{{ items|map(i => i * 2)|filter(i => i > 1)|reduce((c, i) => c + i, 0) }}",
    "{{ items|sort((a, b) => a <=> b) }}{{ items|map((v, k) => k ~ v) }}",
    "{{ items|map(i => i.name)|join(glue=', ') }}",
    "{{ max(1, 2) }}{{ min([1, 2]) }}{{ range(1, 10, 2) }}{{ cycle(['a', 'b'], i) }}",
    "{{ random() }}{{ date('now') }}{{ constant('PHP_EOL') }}{{ include('x.twig') }}",
    "{{ source('x') }}{{ attribute(a, 'b') }}{{ block('x') }}",
    "{{ include('x', {a: 1}, with_context = false) }}",
    # tests
    "{{ a is defined }}{{ a is not defined }}{{ a.b is defined }}",
    "{{ a is null }}{{ a is none }}{{ a is empty }}{{ a is iterable }}",
    "{{ a is even }}{{ a is odd }}{{ a is not odd }}",
    "{{ a is same as(b) }}{{ a is same as b }}{{ a is divisible by(3) }}{{ a is divisible by 3 }}",
    "{{ a is constant('X') }}",
    "{{ a is defined and a }}",
    # tags
    "{% if a %}x{% endif %}",
    "{% if a %}x{% elseif b %}y{% elseif c %}z{% else %}w{% endif %}",
    "{%- if a -%} x {%~ endif ~%}",
    "{% for x in items %}{{ x }}{% endfor %}",
    "{% for k, v in items %}{{ k }}{{ v }}{{ loop.index }}{% else %}none{% endfor %}",
    "{% for i in 1..3 %}{{ loop.last ? '' : ',' }}{% endfor %}",
    "{% for x in items|filter(x => x) %}{% for y in x %}{{ loop.parent }}{% endfor %}{% endfor %}",
    "{% set a = 1 %}{{ a }}",
    "{% set a, b = 1, 2 %}{{ a }}{{ b }}",
    "{% set a %}captured {{ b }}{% endset %}{{ a }}",
    "{% set a = {b: 1} %}{{ a.b }}",
    "{% block content %}x{% endblock %}",
    "{% block content %}x{% endblock content %}",
    "{% block title 'x' ~ y %}",
    "{% block a %}{% block b %}{% endblock %}{% endblock %}",
    "{% extends 'base.twig' %}{% block a %}{{ parent() }}{% endblock %}",
    "{% extends 'base.twig' %}\n  \n{% block a %}x{% endblock %}\n",
    "{% extends layout ? 'a' : 'b' %}{% block a %}{% endblock %}",
    "{% extends 'base.twig' %}{% set x = 1 %}{% block a %}{{ x }}{% endblock %}",
    "{% extends 'base.twig' %}{% import 'forms' as forms %}{% block a %}{% endblock %}",
    "{% include 'a.twig' %}",
    "{% include 'a.twig' with {b: 1} only %}",
    "{% include 'a.twig' ignore missing with vars %}",
    "{% include ['a', 'b'] ignore missing only %}",
    "{% embed 'a.twig' %}{% block b %}x{% endblock %}{% endembed %}",
    "{% embed 'a.twig' with {c: 1} %}\n{% block b %}{{ parent() }}{% endblock %}\n{% endembed %}",
    "{% macro input(name, value = '', type = 'text') %}{{ name }}{{ value }}{% endmacro %}",
    "{% macro m(a = [1, 2], b = -1, c = {x: 'y'}, d = null) %}{{ varargs|length }}{% endmacro %}",
    "{% macro m() %}x{% endmacro m %}",
    "{% import 'forms.twig' as forms %}{{ forms.input('a') }}",
    "{% import _self as me %}{% macro m() %}{% endmacro %}{{ me.m() }}",
    "{% from 'forms.twig' import input as field, textarea %}{{ field('a') }}{{ textarea() }}",
    "{% with {a: 1} %}{{ a }}{% endwith %}",
    "{% with {a: 1} only %}{{ a }}{% endwith %}",
    "{% with %}{% set a = 1 %}{% endwith %}",
    "{% with vars %}{{ x }}{% endwith %}",
    "{% apply upper %}x{% endapply %}",
    "{% apply lower|escape('html') %}X{% endapply %}",
    "{% autoescape %}{{ a }}{% endautoescape %}",
    "{% autoescape false %}{{ g.results[0].name }}{% endautoescape %}",
    "{% autoescape 'js' %}{{ a }}{% endautoescape %}",
    "{% verbatim %}{{ not parsed }}{% if %}{% endverbatim %}",
    "{%- verbatim -%} x {%- endverbatim -%}",
    "{% do a.b(1) %}",
    "{% flush %}",
    "{% deprecated 'gone' %}",
    "{% use 'blocks.twig' %}{% block a %}{{ parent() }}{% endblock %}",
    "{% use 'blocks.twig' with a as b, c as d %}",
    "{% for a in b %}{% if loop.first %}{% set c = a %}{% endif %}{% endfor %}{{ c }}",
    "{% if a is defined and a %}\n  {{ a }}\n{% endif %}",
    "{{ a\n|\nupper\n}}",
    "{% if\n  a\n  and b\n%}x{% endif %}",
    "line1\nline2\r\nline3 {{ x }}",
    "{{ 'a' }}{{ \"\" }}{{ '' }}",
    "{{ a.b.c.d|default('') }}",
    "{{ x|format(1, 2) }}{{ x|number_format(2, '.', ',') }}{{ x|round(1, 'floor') }}",
    "{{ x|batch(3, 'No item') }}{{ x|column('id') }}{{ x|merge([1]) }}{{ x|keys }}",
    "{{ x|reverse }}{{ x|length }}{{ x|first }}{{ x|last }}{{ x|split(',') }}",
    "{{ x|title }}{{ x|capitalize }}{{ x|striptags }}{{ x|nl2br }}{{ x|trim }}",
    "{{ x|abs }}{{ x|url_encode }}{{ x|json_encode }}{{ x|convert_encoding('UTF-8', 'ISO') }}",
    "{{ x|date_modify('+1 day') }}{{ x|spaceless }}",
    "{{ a has some b }}{{ a has every b }}",
    "{{ {(a): b} }}{{ {'a b': c} }}{{ {1: 2} }}",
    "{{ [a, b]|map(x => x ?? 'z') }}",
    "{{ a.b is not null ? a.b : 'x' }}",
    "{{ a ~ (b ? c : d) ~ e }}",
    "{% set x = a|default('y') %}{{ x }}",
    "{% if a %}{% elseif b %}{% endif %}",
    "{% for x in [] %}{% endfor %}",
    "{{ attribute(a, 'b', [1]) }}",
]

INVALID = [
    "{{ a",
    "{{ a ",
    "{{ a|frist }}",
    "{{ frist() }}",
    "{{ a is frist }}",
    "{% frist %}",
    "{% if a %}",
    "{% endif %}",
    "{% if a %}{% endfor %}",
    "{{ 'abc }}",
    '{{ "abc }}',
    "{{ (a }}",
    "{{ a) }}",
    "{# x",
    "{% verbatim %}x",
    "{{ a + }}",
    "{{ }}",
    "{% %}",
    "{% set true = 1 %}",
    "{% set a, b = 1 %}",
    "{% block a %}{% endblock b %}",
    "{% block a %}{% endblock %}{% block a %}{% endblock %}",
    "{% extends 'a' %}hello",
    "{% extends 'a' %}{{ x }}",
    "{% extends 'a' %}{% if x %}{% block b %}{% endblock %}{% endif %}",
    "{% extends 'a' %}{% extends 'b' %}",
    "{{ parent() }}",
    "{% block a %}{{ parent() }}{% endblock %}",
    "{{ block() }}",
    "{{ attribute(a) }}",
    "{% macro m(a.b) %}{% endmacro %}",
    "{% macro m(a = b) %}{% endmacro %}",
    "{% macro m() %}{% endmacro n %}",
    "{{ a == = b }}",
    "{{ a.() }}",
    "{{ f(a.b = 1) }}",
    "{% autoescape a %}{% endautoescape %}",
    "{% use a %}",
    "{{ a @ b }}",
    "{{ {a b} }}",
    "{{ {[a]: b} }}",
    "{{ [1 2] }}",
    "{% for a in %}{% endfor %}",
    "{% for 1 in a %}{% endfor %}",
    "{{ a|upper( }}",
    "{{ 'a' 'b' }}",
    "{% include %}",
    "{% embed 'a' %}text{% endembed %}",
    "{% guard function x %}{% endguard %}",
    "{{ not }}",
    "{% if a %}{% else %}{% else %}{% endif %}",
    "{{ a }}\n\n{% if b %}\n{{ c|nope }}\n{% endif %}",
    "{{ a ?? }}",
    "{{ x => x }}",
    "{% set a %}",
    "{% with %}",
    "{% apply %}x{% endapply %}",
    "{% apply nope %}x{% endapply %}",
]


def real_templates() -> list[str]:
    """Every string of the real site's config that holds Twig (`{{` or `{%`)."""
    found: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and ("{{" in value or "{%" in value):
            found.append(value)

    for path in sorted(CORPUS.glob("*.yml")):
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    return found


# ----- the differential corpus: every template above, real ones, and their mutations --------


def _misspell(word: str, rng: random.Random) -> str:
    if len(word) < 2:
        return word + "x"
    i = rng.randrange(len(word) - 1)
    return word[:i] + word[i + 1] + word[i] + word[i + 2 :]


def mutations(template: str, rng: random.Random) -> list[str]:
    """Deterministic damage: a token dropped or doubled, a name misspelled, an end tag removed,
    the template cut short, Unicode inserted."""
    tokens, _ = tokenize(template)
    spans = [(t.start, t.end) for t in tokens if t.type not in (T.TEXT, T.EOF) and t.end > t.start]
    out = []
    if spans:
        start, end = rng.choice(spans)
        out.append(template[:start] + template[end:])
        start, end = rng.choice(spans)
        out.append(template[:end] + " " + template[start:end] + template[end:])
    parsed = parse_twig(template, TWIG_35)
    if parsed.symbols:
        symbol = rng.choice(parsed.symbols)
        if symbol.kind is not SymbolKind.TAG or symbol.name != "verbatim":
            name = template[symbol.start : symbol.end]
            out.append(template[: symbol.start] + _misspell(name, rng) + template[symbol.end :])
    end_tag = template.rfind("{% end")
    if end_tag >= 0:
        close = template.find("%}", end_tag)
        out.append(template[:end_tag] + template[close + 2 :])
    if len(template) > 2:
        out.append(template[: rng.randrange(1, len(template))])
    if template:
        at = rng.randrange(len(template) + 1)
        out.append(template[:at] + rng.choice(["é", "👋", "漢字", "\u00a0"]) + template[at:])
    return out


@cache
def corpus() -> tuple[str, ...]:
    rng = random.Random(20240611)
    base = [*VALID, *real_templates()]
    mutated = [m for _ in range(3) for template in base for m in mutations(template, rng)]
    # A second generation: damage on damage (a misspelled name in a template already cut short).
    mutated += [m for template in mutated[::4] for m in mutations(template, rng)]
    return tuple(dict.fromkeys([*base, *INVALID, *mutated]))
