"""Every rule has a stable code, a summary, and an example here that produces it: adding a rule
without an example fails this test."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.config.site_files import is_workflow_config_file
from flowdrop_lsp.core.domain.node_types import NodeTypeRegistry
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.rules import (
    confirmation_choice,
    non_connectable_input,
    port_exposure,
    visual_type,
)
from flowdrop_lsp.core.rules.base import Explanation
from flowdrop_lsp.core.rules.registry import (
    ALL_RULES,
    EXPLANATIONS,
    NODE_TYPE_RULES,
    RULE_INDEX,
    RULE_PAGES,
    RULES_BY_CODE,
    SITE_RULES,
    docs_home,
    example_node_type,
    rule_index_page,
    rule_page,
    rule_url,
)
from flowdrop_lsp.core.workspace.site import SiteIndex
from scripts import generate_docs
from tests.support.builders import REPO, node, tool_edge, workflow
from tests.support.node_types import definition_findings_of

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


def _mapper(engine: str, value: str) -> dict[str, object]:
    """A data mapper with one input `q` and one output of `value`, in `engine`."""
    port = {"label": "Q", "dataType": "string"}
    return node(
        "m",
        "data_mapper",
        data={
            "config": {
                "engine": engine,
                "dynamicInputs": [{"name": "q", **port}],
                "dynamicOutputs": [{"name": "out", **port, "value": value}],
            }
        },
    )


EXAMPLES = {
    "FD-SYNTAX": '{"nodes": [}',
    "FD-DUPLICATE-KEY": '{"nodes": [], "edges": [], "edges": []}',
    "FD-NOT-WORKFLOW": '{"name": "package"}',
    "FD-SCHEMA": '{"nodes": [{"type": "agent"}], "edges": []}',
    "CMP-9": workflow(
        [node("a", label="A"), node("b", label="a")], [tool_edge("a", "x"), tool_edge("b", "x")]
    ),
    "CMP-10": workflow(
        [node("a", label="A"), node("h", "http_request", "H")], [tool_edge("a", "h")]
    ),
    "R2": workflow([node("a", label="A"), node("a", label="B")], []),
    "R8": workflow([], [tool_edge("a", "b")]),
    "EDGE-5": workflow(
        [node("a"), node("b")], [{"source": "a", "target": "b", "data": {"edgeType": "toool"}}]
    ),
    "DATA-10": workflow(
        [node("t", "toolbox"), node("u", "toolbox")], [tool_edge("t", "u"), tool_edge("u", "t")]
    ),
    "FD-LLM-NAME": workflow([node("a", label="1st"), node("x", "agent")], [tool_edge("a", "x")]),
    "R12": workflow([node("a")], [{"source": "a", "target": "a"}]),
    "R13": workflow(
        [node("a"), node("b")], [{"source": "a", "target": "b"}, {"source": "a", "target": "b"}]
    ),
    "FD-UNKNOWN-NODE-TYPE": workflow([node("a", "http_reqest")], []),
    "R5": workflow([node(f"n{i}") for i in range(501)], []),
    # Nested 64 levels deep (the root, then 63 arrays): refused at the door, nothing else read.
    "STORE-1": '{"nodes": [], "edges": [], "matrix": ' + "[" * 63 + "]" * 63 + "}",
    "R3": workflow(
        [node("a"), node("b")],
        [{"id": "e", "source": "a", "target": "b"}, {"id": "e", "source": "b", "target": "a"}],
    ),
    "CMP-3": workflow([node("a", None)], []),
    "CMP-5": workflow(
        [node("a"), node("b")], [{"source": "a", "target": "b"}, {"source": "b", "target": "a"}]
    ),
    "SG-18": workflow(
        [node("a"), node("b")],
        [
            {"source": "a", "target": "b"},
            {"source": "a", "target": "b", "targetHandle": "b-input-loop_back"},
        ],
    ),
    "EDGE-8": workflow(
        [node("a"), node("b")], [{"source": "a", "target": "b", "data": {"condition": "x > 1"}}]
    ),
    "EDGE-9": workflow([node("a"), node("b")], [{"source": "a", "target": "b", "is_tool": True}]),
    "R7": workflow(
        [
            node("a", data={"config": {"ports": {"inputs": [{"id": "url", "exposed": False}]}}}),
            node("b"),
        ],
        [{"source": "b", "target": "a", "targetHandle": "a-input-url"}],
    ),
    "FD-UNKNOWN-PORT": workflow(
        [node("a"), node("b", "logger")],
        [{"source": "a", "target": "b", "targetHandle": "b-input-mesage"}],
    ),
    "CFG-4": workflow(
        [node("a", "http_request"), node("b", "http_request")],
        [{"source": "a", "target": "b", "targetHandle": "b-input-timeout"}],
    ),
    "SCH-20": workflow([node("a", "http_request", data={"config": {"nodeType": "gateway"}})], []),
    "RT-GATE-8": workflow(
        [node("a", "http_request", data={"config": {"requiresConfirmation": "waive"}})], []
    ),
    "FD-TOOL-ROUTE": workflow(
        [
            node("t", label="Web Search"),
            node("reason.1", "agent"),
            node("x", "data_extractor", data={"config": {"path": "$[0].name"}}),
            node(
                "switch_gateway.1",
                "switch_gateway",
                data={"config": {"branches": [{"name": "Maps", "value": "maps_lookup"}]}},
            ),
        ],
        [
            tool_edge("t", "reason.1"),
            {"source": "reason.1", "target": "x", "sourceHandle": "reason.1-output-tool_calls"},
            {
                "source": "x",
                "target": "switch_gateway.1",
                "targetHandle": "switch_gateway.1-input-expression",
            },
        ],
    ),
    "R6.b": workflow([node("a", "fetcher", data={"config": {}})], []),
    "R6.c": workflow([node("a", "fetcher", data={"config": {"url": "x", "timout": 5}})], []),
    "R6.l": workflow([node("a", data={"config": {"key": "{{ secrets.KEY }}"}})], []),
    "R6.d": workflow(
        [
            node(
                "a",
                data={
                    "config": {"timeout": "30"},
                    "metadata": {"configSchema": {"properties": {"timeout": {"type": "integer"}}}},
                },
            )
        ],
        [],
    ),
    "DYN-2": workflow([node("m", data={"config": {"dynamicInputs": [{"name": "q"}]}})], []),
    "DYN-3": workflow([node("m", data={"config": {"dynamicOutputs": [{"name": "2nd"}]}})], []),
    "DYN-5": workflow(
        [node("m", "mapper", data={"config": {"dynamicInputs": [{"name": "url", "label": "U"}]}})],
        [],
    ),
    "LANG-2": workflow([node("x", data={"config": {"engine": "xpath"}})], []),
    "R11": workflow(
        [node("p", "data_extractor", data={"config": {"engine": "jsonpath", "path": "$[0"}})], []
    ),
    "LANG-7": workflow([_mapper("twig", "{{ qq }}")], []),
    "LANG-6": workflow([_mapper("expression_language", "qq ~ '!'")], []),
    "FD-TWIG-AUTOESCAPE": workflow([_mapper("twig", "{{ q }}&b={{ q }}")], []),
    "LANG-23": workflow(
        [node("p", "data_extractor", data={"config": {"engine": "property_path", "path": "$.a"}})],
        [],
    ),
    "LANG-25": workflow(
        [node("s", "data_shaper", data={"config": {"mapping": {"at": "_NOW"}}})], []
    ),
    "LANG-28": workflow([node("c", "if_else", data={"config": {"operator": "like"}})], []),
    "STORE-2": json.dumps({"id": "w", "name": "", "nodes": [], "edges": []}),
    "STORE-8": json.dumps({"schema_version": "1", "nodes": [], "edges": []}),
    "BR-3": workflow(
        [node("g", data={"config": {"branches": [{"name": "A", "value": 1}, {"name": "a"}]}})], []
    ),
    "LANG-27": workflow(
        [node("g", data={"config": {"default_branch": "x", "branches": [{"name": "A"}]}})], []
    ),
    "DYN-7": workflow(
        [node("a"), node("m")],
        [{"source": "a", "target": "m", "targetHandle": "m-input-dynamicInputs"}],
    ),
}
# Rules that need more than the defaults: FD-UNKNOWN-NODE-TYPE and the config checks (R6) only
# speak with a registry, the config checks with a node type that declares parameters.
FETCHER = """\
id: fetcher
parameters:
  url:
    configurable: true
    required: true
"""
# DYN-5 with a type that opts in to dynamic inputs and declares a `url` parameter.
MAPPER = """\
id: mapper
parameters:
  dynamicInputs:
    configurable: true
  url:
    connectable: true
"""
SITE = NodeTypeRegistry.from_texts(
    [
        (Path("flowdrop_node_type.flowdrop_node_type.http_request.yml"), "id: http_request\n"),
        (Path("flowdrop_node_type.flowdrop_node_type.fetcher.yml"), FETCHER),
        (Path("flowdrop_node_type.flowdrop_node_type.mapper.yml"), MAPPER),
    ]
)
SETTINGS = {
    code: Settings().with_registry(SITE)
    for code in ("FD-UNKNOWN-NODE-TYPE", "R6.b", "R6.c", "DYN-5")
}
# The port checks (FD-UNKNOWN-PORT, R7) with the node types of R7's page: an `http_request`
# whose `url` input and `json` output are declared, a `logger` with a `message` input.
PORT_SITE = NodeTypeRegistry.from_texts(
    [
        (Path(f"flowdrop_node_type.flowdrop_node_type.{name}.yml"), text)
        for name, text in map(example_node_type, port_exposure.EXPLANATION.site_node_types)
    ]
)
SETTINGS |= {code: Settings().with_registry(PORT_SITE) for code in ("FD-UNKNOWN-PORT", "R7")}
# CFG-4 and SCH-20 with their pages' `http_request` (`timeout` is configuration only; it
# supports the visual types `default` and `simple`).
for _code, _module in (
    ("CFG-4", non_connectable_input),
    ("SCH-20", visual_type),
    ("RT-GATE-8", confirmation_choice),
):
    SETTINGS[_code] = Settings().with_registry(
        NodeTypeRegistry.from_texts(
            [
                (Path(f"flowdrop_node_type.flowdrop_node_type.{name}.yml"), text)
                for name, text in map(example_node_type, _module.EXPLANATION.site_node_types)
            ]
        )
    )


# Cross-file rules: their example is a site (the explanation's, below).
SITE_CODES = {rule.code for rule, _check in SITE_RULES}
# Node-type rules: their example is a definition file judged by itself.
NODE_TYPE_CODES = {rule.code for rule, _check in NODE_TYPE_RULES}


def test_every_rule_has_an_example() -> None:
    assert set(EXAMPLES) | SITE_CODES | NODE_TYPE_CODES == {rule.code for rule in ALL_RULES}
    assert not set(EXAMPLES) & SITE_CODES and not (set(EXAMPLES) | SITE_CODES) & NODE_TYPE_CODES
    assert all(EXPLANATIONS[code].is_site_example for code in SITE_CODES | NODE_TYPE_CODES)


def test_rule_codes_are_unique_and_documented() -> None:
    assert len(RULES_BY_CODE) == len(ALL_RULES)
    for rule in ALL_RULES:
        assert rule.title and rule.summary and rule.anchor == "rule-" + rule.code.lower()


@pytest.mark.parametrize("code", sorted(EXAMPLES))
def test_example_produces_its_rule_with_its_default_severity(code: str) -> None:
    findings = analyze(EXAMPLES[code], SETTINGS.get(code, Settings())).findings
    found = [f for f in findings if f.code == code]
    assert found, [f.code for f in findings]
    assert {f.severity for f in found} == {RULES_BY_CODE[code].default_severity}


def test_examples_are_json_where_they_should_be() -> None:
    for code, text in EXAMPLES.items():
        if code not in {"FD-SYNTAX", "FD-DUPLICATE-KEY"}:
            json.loads(text)


def test_every_rule_module_is_registered_once_and_the_rest_is_derived() -> None:
    from pathlib import Path

    from flowdrop_lsp.core.rules import registry as rules

    folder = Path(rules.__file__).parent
    # A rule is a module, or a package (a folder with __init__.py) for a rule that needs several.
    modules = {p.stem for p in folder.glob("*.py")} - {
        "__init__",
        "base",
        "capping",
        "registry",
        "scoped",
        "standing",
    }
    modules |= {p.parent.name for p in folder.glob("*/__init__.py")}
    registered = [m.__name__.rsplit(".", 1)[1] for m in rules.RULE_MODULES]
    assert sorted(registered) == sorted(modules) and len(set(registered)) == len(registered)
    checks = (
        {rule.code for rule, _ in rules.GRAPH_RULES}
        | {rule.code for rule, _ in rules.EDGE_RULES}
        | {rule.code for rule, _ in rules.SITE_RULES}
        | {rule.code for rule, _ in rules.NODE_TYPE_RULES}
    )
    assert checks | {r.code for r in rules.DOCUMENT_RULES} == set(rules.RULES_BY_CODE)
    assert rules.rule_url("CMP-9", "https://x/README.md") == "https://x/README.md#rule-cmp-9"


# ----- explanations (`flowdrop-lsp rule CODE`) and the shipped rule pages ----------------------


def _site_settings(explanation: Explanation) -> Settings:
    if not explanation.site_node_types:
        return Settings()
    site = NodeTypeRegistry.from_texts(
        [
            (Path(f"flowdrop_node_type.flowdrop_node_type.{name}.yml"), text)
            for name, text in map(example_node_type, explanation.site_node_types)
        ]
    )
    return Settings().with_registry(site)


def test_every_rule_has_an_explanation() -> None:
    assert list(EXPLANATIONS) == [rule.code for rule in ALL_RULES]


def _site_findings(explanation: Explanation, text: str, folder: Path) -> list[Finding]:
    """The cross-file findings of the example file `text` in the explanation's site, written
    to `folder`; with the single-file findings when the example is a workflow."""
    for name, other in explanation.site_files:
        (folder / name).write_text(other, encoding="utf-8")
    path = folder / explanation.file_name
    path.write_text(text, encoding="utf-8")
    index = SiteIndex(folder)
    index.load()
    found = list(index.findings(path))
    if is_workflow_config_file(path):
        found += analyze(text, Settings(), syntax="yaml").findings
    return found


@pytest.mark.parametrize("code", sorted(SITE_CODES))
def test_site_explanation_examples_fail_and_pass_through_a_site_index(
    code: str, tmp_path: Path
) -> None:
    explanation = EXPLANATIONS[code]
    (tmp_path / "failing").mkdir()
    (tmp_path / "passing").mkdir()
    failing = _site_findings(explanation, explanation.failing, tmp_path / "failing")
    found = [f for f in failing if f.code == code]
    assert found, [f.message for f in failing]
    assert {f.severity for f in found} == {RULES_BY_CODE[code].default_severity}
    passing = _site_findings(explanation, explanation.passing, tmp_path / "passing")
    assert passing == [], [f"{f.code} {f.message}" for f in passing]


@pytest.mark.parametrize("code", sorted(NODE_TYPE_CODES))
def test_node_type_examples_fail_and_pass_through_a_site(code: str, tmp_path: Path) -> None:
    """A node-type rule's examples, written as the definition file they are named for in a
    folder of their own, checked through the host as `check` and the server ask it: the
    failing one reports the rule (at its default severity), the passing one nothing at all
    (its site's cross-file rules included)."""
    explanation = EXPLANATIONS[code]
    for kind, text in (("failing", explanation.failing), ("passing", explanation.passing)):
        (tmp_path / kind).mkdir()
        (tmp_path / kind / explanation.file_name).write_text(text, encoding="utf-8")
    failing = definition_findings_of(tmp_path / "failing" / explanation.file_name)
    found = [f for f in failing if f.code == code]
    assert found, [f"{f.code} {f.message}" for f in failing]
    assert {f.severity for f in found} == {RULES_BY_CODE[code].default_severity}
    passing = definition_findings_of(tmp_path / "passing" / explanation.file_name)
    assert passing == (), [f"{f.code} {f.message}" for f in passing]


@pytest.mark.parametrize(
    "code", [rule.code for rule in ALL_RULES if rule.code not in SITE_CODES | NODE_TYPE_CODES]
)
def test_explanation_examples_fail_and_pass_through_the_checker(code: str) -> None:
    explanation = EXPLANATIONS[code]
    settings = _site_settings(explanation)
    failing = analyze(explanation.failing, settings).findings
    assert code in {f.code for f in failing}, [f.message for f in failing]
    # The passing example is clean altogether: an example that passed one rule while failing
    # another would teach the wrong thing.
    passing = analyze(explanation.passing, settings).findings
    assert passing == (), [f"{f.code} {f.message}" for f in passing]


def test_the_shipped_rule_pages_are_the_rendered_explanations() -> None:
    """Regenerate with `make generate` (scripts/generate_docs.py; or `UPDATE_GOLDEN=1 pytest
    tests/core/rules/test_rule_catalogue.py`)."""
    expected = generate_docs.rule_pages()
    assert expected[RULE_INDEX] == rule_index_page()
    assert all(expected[f"{rule.code}.md"] == rule_page(rule.code) for rule in ALL_RULES)
    if os.environ.get("UPDATE_GOLDEN") == "1":
        generate_docs.write()
    shipped = {p.name: p.read_text(encoding="utf-8") for p in RULE_PAGES.glob("*.md")}
    assert shipped == expected


def test_the_pages_are_package_data() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    data = pyproject["tool"]["setuptools"]["package-data"]["flowdrop_lsp"]
    relative = RULE_PAGES.relative_to(REPO / "flowdrop_lsp").as_posix()
    assert f"{relative}/*.md" in data


@pytest.mark.parametrize("code", [rule.code for rule in ALL_RULES])
def test_the_default_link_is_an_existing_page_about_that_rule(code: str) -> None:
    url = rule_url(code, Settings().docs_url)
    assert url is not None and url.startswith("file://")
    assert urlparse(url).fragment == RULES_BY_CODE[code].anchor  # the page's first line
    page = Path(url2pathname(urlparse(url).path))
    assert page.is_file()
    text = page.read_text(encoding="utf-8")
    assert text.startswith(f'<a id="{RULES_BY_CODE[code].anchor}"></a>\n# {code} — ')


def test_a_configured_docs_url_links_to_its_anchor_or_fills_its_template() -> None:
    assert rule_url("CMP-9", "https://x/README.md") == "https://x/README.md#rule-cmp-9"
    assert rule_url("CMP-9", "https://x/rules/{code}.html") == "https://x/rules/CMP-9.html"
    assert rule_url("CMP-9", "https://x/doc#{anchor}") == "https://x/doc#rule-cmp-9"
    assert rule_url("NOPE", "https://x/README.md") is None
    assert docs_home("") == (RULE_PAGES / RULE_INDEX).as_uri()
    # A template in the path: its folder (a `{` is no valid URI character).
    assert docs_home("https://x/rules/{code}.html") == "https://x/rules/"
    assert docs_home("https://x/doc#{anchor}") == "https://x/doc"


def test_the_readme_has_an_anchor_for_every_rule() -> None:
    """The anchors a configured `docs-url` pointing at this README links to: each on the rule's
    line of the README's generated rule list (tests/test_docs.py), linking to its page."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    relative = RULE_PAGES.relative_to(REPO).as_posix()
    for rule in ALL_RULES:
        assert f'<a id="{rule.anchor}"></a>[{rule.code}]({relative}/{rule.code}.md) — ' in readme
