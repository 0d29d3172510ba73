"""R11 against the real Twig (Debian's php-twig 3.5.1, tests/support/twig_oracle.py): every
template Twig refuses gets an R11 finding — unknown names included, a warning where the site's
modules are not known, an error where they are — and no template Twig accepts gets an error.
The templates are the Twig differential's (hand-written, the real site's, their mutations) and
one unknown name of each kind. A refusal for a name Twig 3.5's plain environment lacks but
Drupal's has (`|t`, 3.15's `enum`) is the environments differing, not R11: left out, counted."""

from __future__ import annotations

import json

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.expressions import twig_vocabulary_of
from flowdrop_lsp.core.expressions.base import ProblemKind
from flowdrop_lsp.core.expressions.twig import TWIG_35, parse_twig
from flowdrop_lsp.core.findings import Severity
from tests.support.twig_oracle import require_twig, twig_verdicts
from tests.support.twig_templates import corpus

UNKNOWN_NAMES = [
    "{{ x|nosuchfilter }}",
    "{{ nosuchfunction(1) }}",
    "{% nosuchtag %}",
    "{{ x is nosuchtest }}",
    "{{ component_catalog() }}",
]
_FIELDS = {
    ProblemKind.UNKNOWN_FILTER: "filters",
    ProblemKind.UNKNOWN_FUNCTION: "functions",
    ProblemKind.UNKNOWN_TEST: "tests",
    ProblemKind.UNKNOWN_TAG: "tags",
}


def _workflow(template: str) -> str:
    node = {"id": "p", "type": "prompt_template", "data": {"config": {"template": template}}}
    return json.dumps({"nodes": [node], "edges": []})


def _r11(template: str, settings: Settings) -> list[Severity]:
    findings = analyze(_workflow(template), settings).findings
    return [f.severity for f in findings if f.code == "R11"]


def _only_the_environments_differ(template: str) -> bool:
    """Twig 3.5 refuses a name Drupal's environment (ours) has."""
    problems = parse_twig(template, TWIG_35).problems
    if not problems or problems[0].kind not in _FIELDS:
        return False
    ours = getattr(twig_vocabulary_of(Settings()), _FIELDS[problems[0].kind])
    return problems[0].name in ours


def test_every_refusal_is_found_and_no_acceptance_is_an_error() -> None:
    require_twig()
    templates = [*corpus(), *UNKNOWN_NAMES]
    unknown_sites = Settings()
    known_sites = Settings(twig_extensions_complete=True)
    missed, wrongly_refused = [], []
    refused = differing = 0
    for template, (status, message, _) in zip(templates, twig_verdicts(templates), strict=True):
        for settings in (unknown_sites, known_sites):
            severities = _r11(template, settings)
            if status == "ok":
                if Severity.ERROR in severities:
                    wrongly_refused.append((template, settings.twig_names_complete))
            elif _only_the_environments_differ(template):
                differing += 1
            else:
                refused += 1
                if not severities:
                    missed.append((template, message))
                if settings is known_sites and Severity.ERROR not in severities:
                    missed.append((template, f"no error where the site is known: {message}"))
    assert missed == []
    assert wrongly_refused == []
    assert refused > 400
    assert differing < refused // 10


def test_the_unknown_names_are_warnings_unless_the_site_is_known() -> None:
    for template in UNKNOWN_NAMES:
        assert _r11(template, Settings()) == [Severity.WARNING]
        assert _r11(template, Settings(twig_extensions_complete=True)) == [Severity.ERROR]
