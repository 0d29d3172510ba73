"""The site's node-type registry (core/domain/node_types.py, core/workspace/node_types.py): the real 90 definitions, a site-defined
toolbox, safety of the YAML reading, and what the registry does to the node-type roles."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import (
    DEFAULT_PASSTHROUGH_TYPES,
    Settings,
    SettingsError,
)
from flowdrop_lsp.core.config.site_files import MAX_SITE_FILE_BYTES as MAX_DEFINITION_BYTES
from flowdrop_lsp.core.domain.node_types import NodeTypeRegistry, read_definition
from flowdrop_lsp.core.workspace.node_types import NodeTypeFiles, NodeTypeLocator
from flowdrop_lsp.core.workspace.reading import SiteFile, read_site_file
from tests.support.builders import corpus_codes, node, tool_edge, workflow

SYNC = Path(__file__).resolve().parents[3] / "tests" / "corpus" / "atelier-cms" / "config" / "sync"
PREFIX = "flowdrop_node_type.flowdrop_node_type."


def _definition(type_id: str, *, plugin: str = "x:y", connectable: bool = False) -> str:
    return (
        f"id: {type_id}\nlabel: '{type_id}'\nexecutor_plugin: '{plugin}'\n"
        f"parameters:\n  tool:\n    connectable: {str(connectable).lower()}\n"
        "tool_exposed: false\n"
    )


@pytest.fixture(scope="module")
def site() -> NodeTypeRegistry:
    registry = NodeTypeLocator().for_workflow(SYNC / "any.flowdrop.json", Settings())
    assert registry is not None
    return registry


def test_the_real_site_defines_90_types_without_problems(site: NodeTypeRegistry) -> None:
    assert len(site.types) == 90 and len(site.files) == 90
    assert site.problems == ()
    assert site.sources == (SYNC,)
    assert site.toolbox_types == {"flowdrop_node_processor_toolbox"}
    # `parameters.tool.connectable: true` (the toolbox itself is one: it takes tools in).
    assert site.tool_accepting_types == {
        "aincient_flows_aincient_invoke",
        "aincient_reason",
        "flowdrop_node_processor_toolbox",
        "flowdrop_workflow_executor_flowdrop_workflow_reason",
    }
    # 16 with `outputs.tool.exposed`, 13 with `tool_exposed`, 5 with both.
    assert len(site.tool_exposed_types) == 24
    assert {"calculator", "aincient_flows_aincient_capability_brand_picker"} <= (
        site.tool_exposed_types
    )
    assert "http_request" in site.types and "http_request" not in site.tool_exposed_types


def test_the_registry_sets_the_roles(site: NodeTypeRegistry) -> None:
    settings = Settings().with_registry(site)
    assert settings.known_node_types == site.types
    assert settings.passthrough_types == {"flowdrop_node_processor_toolbox", "toolbox"}
    assert "flowdrop_workflow_executor_flowdrop_workflow_reason" in settings.tool_accepting_types
    assert "agent" in settings.tool_accepting_types  # not defined by the site: the default stands
    assert "flowdrop_node_processor_toolbox" not in settings.tool_accepting_types
    assert len(settings.non_accepting_types) == 86
    assert "90 definitions from" in settings.node_types_origin
    assert Settings().with_registry(None) == Settings()


def test_the_real_workflows_give_only_their_known_findings_under_the_real_registry(
    site: NodeTypeRegistry,
) -> None:
    settings = Settings().with_registry(site)
    for path in sorted((SYNC.parents[1] / "json").glob("*.json")):
        found = analyze(path.read_text(encoding="utf-8"), settings).findings
        expected = corpus_codes(path.name.split(".")[0], with_site=True)
        assert [f.code for f in found] == expected, path.name


def _toolbox_workflow() -> str:
    return workflow(
        [
            node("search_a", "http_request", "Web Search"),
            node("search_b", "http_request", "web-search"),
            node("box", "my_site_toolbox", "My Tools"),
            node("agent", "aincient_reason", "Agent"),
        ],
        # One tool directly, the other through the box: they meet only if the box forwards.
        [
            tool_edge("search_a", "agent"),
            tool_edge("search_b", "box"),
            tool_edge("box", "agent"),
        ],
    )


def test_a_site_defined_toolbox_is_a_passthrough(tmp_path: Path) -> None:
    for path in SYNC.glob(PREFIX + "*.yml"):
        shutil.copy(path, tmp_path)
    (tmp_path / f"{PREFIX}my_site_toolbox.yml").write_text(
        _definition("my_site_toolbox", plugin="my_module:toolbox", connectable=True)
    )
    document = tmp_path / "site.flowdrop.json"
    document.write_text(_toolbox_workflow())
    registry = NodeTypeLocator().for_workflow(document, Settings())
    assert registry is not None and len(registry.types) == 91
    assert "my_site_toolbox" in registry.toolbox_types

    without = analyze(document.read_text())
    # Without the registry the box is a consumer and itself a tool ("my_tools"): no collision.
    assert not [f for f in without.findings if f.code == "CMP-9"]
    with_site = analyze(document.read_text(), Settings().with_registry(registry))
    found = [f for f in with_site.findings if f.code == "CMP-9"]
    assert len(found) == 2
    assert all('at "Agent"' in f.message for f in found)


def test_an_explicit_replacement_wins_over_the_registry(tmp_path: Path) -> None:
    registry = NodeTypeRegistry.from_texts(
        [(tmp_path / "a.yml", _definition("my_box", plugin="m:toolbox"))]
    )
    replaced = Settings().with_overrides({"passthrough-types": ["only_this"]})
    assert replaced.with_registry(registry).passthrough_types == {"only_this"}
    extended = Settings().with_overrides({"extend-passthrough-types": ["mine"]})
    assert extended.with_registry(registry).passthrough_types == {"my_box", "mine", "toolbox"} | (
        DEFAULT_PASSTHROUGH_TYPES - {"my_box"}
    )


def test_a_users_extend_decides_the_types_it_names(tmp_path: Path) -> None:
    registry = NodeTypeRegistry.from_texts(
        [
            (tmp_path / "a.yml", _definition("formatter")),
            (tmp_path / "b.yml", _definition("thinker", connectable=True)),
        ]
    )
    settings = Settings().with_overrides(
        {"extend-tool-accepting-types": ["formatter"], "extend-non-accepting-types": ["thinker"]}
    )
    applied = settings.with_registry(registry)
    assert "formatter" in applied.tool_accepting_types
    assert "formatter" not in applied.non_accepting_types
    assert "thinker" in applied.non_accepting_types
    assert "thinker" not in applied.tool_accepting_types


def test_cmp10_from_the_registry(site: NodeTypeRegistry) -> None:
    # `text_input` is not in the defaults: only the site says it does not accept tools.
    text = workflow(
        [node("t", "http_request", "Search"), node("x", "text_input", "Input")],
        [tool_edge("t", "x")],
    )
    assert not [f for f in analyze(text).findings if f.code == "CMP-10"]
    found = [
        f for f in analyze(text, Settings().with_registry(site)).findings if f.code == "CMP-10"
    ]
    assert len(found) == 1 and "'text_input'" in found[0].message
    # Into a type the site says accepts tools: fine.
    text = workflow(
        [node("t", "http_request", "Search"), node("x", "aincient_reason", "R")],
        [tool_edge("t", "x")],
    )
    assert not [f for f in analyze(text, Settings().with_registry(site)).findings]


def test_unknown_node_type_only_with_a_registry(site: NodeTypeRegistry) -> None:
    text = workflow([node("a", "http_request"), node("b", "my_site_thing", "Thing")], [])
    assert not [f for f in analyze(text).findings if f.code == "FD-UNKNOWN-NODE-TYPE"]
    found = [
        f
        for f in analyze(text, Settings().with_registry(site)).findings
        if f.code == "FD-UNKNOWN-NODE-TYPE"
    ]
    assert len(found) == 1
    finding = found[0]
    assert "'my_site_thing'" in finding.message and "90 definitions from" in finding.message
    assert text[finding.span.start : finding.span.end] == '"my_site_thing"'
    assert finding.node == "b"


def test_unknown_node_type_sits_on_the_drupal_type_string(site: NodeTypeRegistry) -> None:
    raw = {"id": "x.1", "data": {"label": "X", "metadata": {"node_type_id": "nope"}}}
    text = json.dumps({"nodes": [raw], "edges": []})
    found = [
        f
        for f in analyze(text, Settings().with_registry(site)).findings
        if f.code == "FD-UNKNOWN-NODE-TYPE"
    ]
    assert [text[f.span.start : f.span.end] for f in found] == ['"nope"']


def test_an_invalid_definition_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / f"{PREFIX}good.yml").write_text(_definition("good"))
    (tmp_path / f"{PREFIX}broken.yml").write_text("id: [unclosed\n")
    (tmp_path / f"{PREFIX}list.yaml").write_text("- a\n- b\n")
    (tmp_path / f"{PREFIX}noid.yml").write_text("label: x\n")
    (tmp_path / f"{PREFIX}binary.yml").write_bytes(b"\xff\xfe\x00id: x")
    registry = NodeTypeLocator().for_workflow(tmp_path / "w.json", Settings())
    assert registry is not None and registry.types == {"good"}
    problems = "\n".join(registry.problems)
    assert len(registry.problems) == 4
    assert "broken.yml: not valid YAML" in problems
    assert "list.yaml: not a node-type definition" in problems
    assert "noid.yml: not a node-type definition (no string 'id')" in problems
    assert "binary.yml: cannot read" in problems


def test_python_tags_are_never_constructed(tmp_path: Path) -> None:
    # The syntax tree reader composes: a tag constructs nothing, the value is read as the data it
    # is (here a list, so no executor plugin), as every workflow is read.
    text = "id: evil\nexecutor_plugin: !!python/object/apply:os.system ['touch pwned']\n"
    read = read_definition(text, tmp_path / "evil.yml")
    assert not isinstance(read, str) and read.executor_plugin is None and not read.toolbox
    read = read_definition("id: !!python/object:builtins.object {}\n", tmp_path / "e.yml")
    assert isinstance(read, str) and "no string 'id'" in read
    assert not (tmp_path / "pwned").exists() and not Path("pwned").exists()


def test_large_definitions_are_skipped(tmp_path: Path) -> None:
    big = tmp_path / f"{PREFIX}big.yml"
    big.write_text("id: big\ndescription: '" + "x" * MAX_DEFINITION_BYTES + "'\n")
    registry = NodeTypeLocator().for_workflow(tmp_path / "w.json", Settings())
    assert registry is not None and registry.types == frozenset()
    assert registry.problems == (f"{big}: larger than {MAX_DEFINITION_BYTES} bytes; skipped",)
    assert isinstance(read_definition(big.read_text(), big), str)


def test_no_definitions_no_registry(tmp_path: Path) -> None:
    assert NodeTypeLocator().for_workflow(tmp_path / "w.json", Settings()) is None


def test_the_node_types_setting_adds_folders_and_globs(tmp_path: Path) -> None:
    (tmp_path / "types").mkdir()
    (tmp_path / "types" / f"{PREFIX}a.yml").write_text(_definition("a"))
    (tmp_path / "more" / "x").mkdir(parents=True)
    (tmp_path / "more" / "x" / f"{PREFIX}b.yml").write_text(_definition("b"))
    (tmp_path / "work").mkdir()
    config = tmp_path / "flowdrop-lsp.toml"
    config.write_text('node-types = ["types"]\nextend-node-types = ["more/**/*.yml"]\n')
    settings = Settings.from_file(config)
    assert settings.node_types == ("types", "more/**/*.yml")
    registry = NodeTypeLocator().for_workflow(tmp_path / "work" / "w.json", settings)
    assert registry is not None and registry.types == {"a", "b"}
    assert registry.sources == (tmp_path / "types", tmp_path / "more" / "x" / f"{PREFIX}b.yml")
    with pytest.raises(SettingsError, match="node-types"):
        Settings().with_overrides({"node-types": "types"})


def test_the_locator_caches_per_folder_and_overlays_win(tmp_path: Path) -> None:
    definition = tmp_path / f"{PREFIX}a.yml"
    definition.write_text(_definition("a"))
    reads: list[Path] = []

    def read(path: Path) -> SiteFile:
        reads.append(path)
        return read_site_file(path)

    locator = NodeTypeLocator(files=NodeTypeFiles(read))
    first = locator.for_workflow(tmp_path / "one.json", Settings())
    second = locator.for_workflow(tmp_path / "two.json", Settings())
    assert first is second and reads == [definition]
    locator.set_overlay(definition, _definition("a", plugin="m:toolbox"))
    registry = locator.for_workflow(tmp_path / "one.json", Settings())
    assert registry is not None and registry.toolbox_types == {"a"}
    assert reads == [definition]  # the buffer, not the disk
    locator.set_overlay(definition, None)
    registry = locator.for_workflow(tmp_path / "one.json", Settings())
    assert registry is not None and registry.toolbox_types == frozenset()
