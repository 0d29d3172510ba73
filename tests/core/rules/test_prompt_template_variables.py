"""LANG-7 on a prompt template: its context is the map arriving on `variables`, checked where
the one edge feeding it says what that map holds — a data mapper's ExpressionLanguage output
that is one hash literal, or an error port's envelope — and only for a near miss of a name it
delivers (a site's modules may add names). Found at the exact characters of the read in JSON
and Drupal YAML (CJK and an emoji before it), fixed safely by the one close name; silent where
the upstream is unknown, as on the real site (its brand-state node's `variables` output)."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.operations import EditString
from tests.support.builders import at, plant, token_span
from tests.support.builders import in_syntax as _in
from tests.support.config_site import corpus_workflow, site_settings
from tests.support.operation_cases import read, round_trip

CODE = "LANG-7"
TEMPLATE = '天気 "🌦️" 🧑‍🎨\n{% if tone is defined %}{{ tone }}{% endif %}\n{{ brand_breif }}'
HASH = "{'brand_brief': brief ~ '…', tone: '落ち着いた'}"
TEMPLATE_PATH = ("data", "config", "template")


def json_workflow(
    template: str = TEMPLATE,
    value: str = HASH,
    engine: str = "expression_language",
    source_port: str = "vars",
    extra_edges: tuple[dict, ...] = (),
) -> str:
    mapper = {
        "id": "brief_map",
        "type": "data_mapper",
        "data": {
            "label": "Brief",
            "config": {
                "engine": engine,
                "dynamicInputs": [{"name": "brief", "label": "Brief", "dataType": "string"}],
                "dynamicOutputs": [
                    {"name": "vars", "label": "Vars", "dataType": "json", "value": value}
                ],
            },
        },
    }
    prompt = {
        "id": "prompt",
        "type": "prompt_template",
        "data": {"label": "Prompt", "config": {"template": template}},
    }
    edge = {
        "id": "e0",
        "source": "brief_map",
        "target": "prompt",
        "sourceHandle": f"brief_map-output-{source_port}",
        "targetHandle": "prompt-input-variables",
    }
    return json.dumps(
        {"nodes": [mapper, prompt], "edges": [edge, *extra_edges]}, indent=2, ensure_ascii=False
    )


def yaml_workflow(hash_value: str = HASH) -> str:
    """The same in Drupal's dumper style: the template a literal block scalar, the mapper's
    value single-quoted (its quotes doubled)."""
    quoted = hash_value.replace("'", "''")
    return (
        "id: wf\n"
        "label: WF\n"
        "nodes:\n"
        "  -\n"
        "    id: brief_map\n"
        "    data:\n"
        "      label: Brief\n"
        "      config:\n"
        "        engine: expression_language\n"
        "        dynamicInputs:\n"
        "          -\n"
        "            name: brief\n"
        "            label: Brief\n"
        "            dataType: string\n"
        "        dynamicOutputs:\n"
        "          -\n"
        "            name: vars\n"
        "            label: Vars\n"
        "            dataType: json\n"
        f"            value: '{quoted}'\n"
        "      metadata:\n"
        "        node_type_id: data_mapper\n"
        "  -\n"
        "    id: prompt\n"
        "    data:\n"
        "      label: Prompt\n"
        "      config:\n"
        "        template: |-\n"
        '          天気 "🌦️" 🧑‍🎨\n'
        "          {% if tone is defined %}{{ tone }}{% endif %}\n"
        "          {{ brand_breif }}\n"
        "      metadata:\n"
        "        node_type_id: prompt_template\n"
        "edges:\n"
        "  -\n"
        "    id: e0\n"
        "    source: brief_map\n"
        "    target: prompt\n"
        "    sourceHandle: brief_map-output-vars\n"
        "    targetHandle: prompt-input-variables\n"
    )


CASES = {"json": json_workflow(), "yaml": yaml_workflow()}


def lang7(text: str, syntax: str = "json", settings: Settings | None = None) -> list:
    analysis = analyze(text, settings or Settings(), syntax=syntax)
    return [f for f in analysis.findings if f.code == CODE]


@pytest.mark.parametrize("syntax", CASES)
def test_a_near_miss_of_a_key_the_mapper_delivers_is_said_at_its_characters(syntax: str) -> None:
    text = CASES[syntax]
    (finding,) = lang7(text, syntax)
    assert finding.span == token_span(text, "brand_breif")
    assert at(text, finding.span) == "brand_breif"
    assert finding.severity.value == "warning"
    assert "(did you mean 'brand_brief'?)" in finding.message
    assert "renders as ''" in finding.message
    assert finding.locator == "node.prompt.config.template"


@pytest.mark.parametrize("syntax", CASES)
def test_the_one_close_name_is_written_over_it_safely(syntax: str) -> None:
    text = CASES[syntax]
    fix, fixed = round_trip(text, syntax, CODE, "Write 'brand_brief'")
    assert fix.preferred and fix.is_safe
    (op,) = fix.operations
    assert isinstance(op, EditString) and op.path == TEMPLATE_PATH
    template = read(text, syntax)["nodes"][1]["data"]["config"]["template"]
    start = template.index("brand_breif")
    assert (op.start, op.end, op.text) == (start, start + len("brand_breif"), "brand_brief")
    assert fixed == text.replace("{{ brand_breif }}", "{{ brand_brief }}")
    assert lang7(fixed, syntax) == []


def test_a_name_merely_absent_is_not_said_since_a_site_may_add_it() -> None:
    # `context_policy` is nowhere near `brand_brief` or `tone`: the real site's templates read
    # it with nothing wired (a module injects it), so absence alone proves nothing.
    text = json_workflow(template="{{ context_policy }} {{ brand_brief }} {{ tone }}")
    assert lang7(text) == []


@pytest.mark.parametrize(
    ("why", "text"),
    [
        ("a Twig mapper renders a string", json_workflow(value="{{ brief }}", engine="twig")),
        ("a value that is no hash literal", json_workflow(value="brief")),
        ("a key computed in parentheses", json_workflow(value="{(brief): 1, brand_brief: 2}")),
        ("a hash used, not delivered", json_workflow(value="{brand_brief: brief}['x']")),
        ("an output the mapper does not have", json_workflow(source_port="other")),
        ("a trigger carries no value (DATA-3)", json_workflow(source_port="trigger")),
        (
            "two edges feed it: the last to finish wins (DATA-2)",
            json_workflow(
                extra_edges=(
                    {
                        "id": "e1",
                        "source": "elsewhere",
                        "target": "prompt",
                        "sourceHandle": "elsewhere-output-data",
                        "targetHandle": "prompt-input-variables",
                    },
                )
            ),
        ),
    ],
)
def test_silent_where_what_flows_in_is_not_known(why: str, text: str) -> None:
    assert lang7(text) == [], why


def test_a_guarded_or_bound_read_is_never_said() -> None:
    template = (
        "{{ brand_breif|default('') }}{% if tonee is defined %}{{ tonee }}{% endif %}"
        "{% set brand_brif = 1 %}{{ brand_brif }}"
    )
    assert lang7(json_workflow(template=template)) == []


@pytest.mark.parametrize("syntax", CASES)
def test_an_edit_of_the_mapper_alone_rechecks_the_template(syntax: str) -> None:
    """The finding is the edge's, which reads its source: a keystroke in the mapper's value
    (the template untouched) makes it come and go, as a fresh read says."""
    document = WorkflowDocument(CASES[syntax], Settings(), syntax=syntax)
    start = document.text.index("brand_brief")  # the mapper's key, before the template
    document.apply_edit(start, start + len("brand_brief"), "brand_breif")
    fresh = WorkflowDocument(document.text, Settings(), syntax=syntax).findings()
    assert document.findings() == fresh
    assert [f for f in fresh if f.code == CODE] == []
    document.apply_edit(start, start + len("brand_breif"), "brand_brief")
    fresh = WorkflowDocument(document.text, Settings(), syntax=syntax).findings()
    assert document.findings() == fresh
    assert [at(document.text, f.span) for f in fresh if f.code == CODE] == ["brand_breif"]


# ----- the real site ----------------------------------------------------------------------------

STUDIO = "brand_studio"


@pytest.mark.parametrize("syntax", ["yaml", "json"])
def test_the_real_sites_brand_state_variables_are_unknown_so_nothing_is_said(syntax: str) -> None:
    """The real site feeds its brand studio's prompt template from `brand_state.1`'s
    `variables` output: the template reads `stage_directive`, which that node type declares no
    output of (it declares `status_directive`, a near miss): what the port delivers is its
    value, a map only the site's PHP knows, so a misspelling there is not ours to judge."""
    settings = site_settings()
    text = _in(
        syntax,
        plant(corpus_workflow(STUDIO), "{{ brand_brief }}", "{{ brand_breif }}"),
    )
    assert [f for f in analyze(text, settings, syntax=syntax).findings if f.code == CODE] == []
