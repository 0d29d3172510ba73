"""Drupal config workflow YAML: the real site read like YAML, a flow mapping with CRLF and a BOM,
scalars written as Drupal's dumper would, tolerance of what YAML allows and of what breaks it.
(A collision's positions and renames in every scalar style, through an alias, in a block scalar:
the YAML cases of tests/cases/CMP-9.)"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.selection import text_is_flowdrop
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.fixes import apply_edits, preferred_edits
from flowdrop_lsp.core.syntax.yaml.writer import yaml_scalar
from flowdrop_lsp.core.text.positions import LineIndex
from flowdrop_lsp.entry import main
from tests.support.builders import CORPUS_CONFIG, corpus_codes
from tests.support.drupal import workflow
from tests.support.site import copy_site

WORKFLOWS = sorted(CORPUS_CONFIG.glob("flowdrop_workflow.flowdrop_workflow.*.yml"))
NODE_TYPES = sorted(CORPUS_CONFIG.glob("flowdrop_node_type.flowdrop_node_type.*.yml"))


def cmp9(text: str) -> list[Finding]:
    return [f for f in analyze(text, syntax="yaml").findings if f.code == "CMP-9"]


def fix_all(text: str) -> str:
    return apply_edits(text, preferred_edits(analyze(text, syntax="yaml").findings))


def labels(text: str) -> list[str]:
    return [node["data"]["label"] for node in yaml.safe_load(text)["nodes"]]


# ----- the real site -------------------------------------------------------------------------


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name.split(".")[-2])
def test_every_real_workflow_checks_clean_and_reads_like_yaml(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    analysis = analyze(text, syntax="yaml")
    assert [f.code for f in analysis.findings] == corpus_codes(path.name.split(".")[-2])
    assert analysis.is_workflow and text_is_flowdrop(text, "yaml")


def test_the_real_config_directory_checks_clean_in_the_cli(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    copy_site(tmp_path, "config/sync")
    assert main(["check", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    # The site's node types are found beside the workflows: their launch checks run too.
    # Each dead route's only fix removes its branch: unsafe, left to `--unsafe-fixes`.
    # (105 files: the 15 workflows and the 90 node types their site's checks judge.)
    # And the 4 calls of the site's own Twig functions, which no settings declare.
    assert "11 warnings in 5 of 105 files\n[~] 4 fixable with --fix --unsafe-fixes\n" in out
    assert out.count("FD-TOOL-ROUTE") == 4
    assert out.count("warning R11") == 4
    assert out.count("FD-UNKNOWN-PORT") == 3


def test_node_type_definitions_are_not_workflows() -> None:
    assert len(NODE_TYPES) == 90
    for path in NODE_TYPES:
        assert not text_is_flowdrop(path.read_text(encoding="utf-8"), "yaml"), path.name


def test_other_yaml_is_not_judged_in_a_walk(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "docker-compose.yml").write_text("services:\n  web:\n    image: nginx\n")
    (tmp_path / "graph.yaml").write_text("nodes:\n  - 1\n  - 2\nedges:\n  - [1, 2]\n")
    (tmp_path / "ci.yml").write_text("on: push\njobs: {}\n")
    assert main(["check", str(tmp_path)]) == 0
    assert capsys.readouterr().out == ""


def test_a_workflow_yaml_by_content_is_checked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "exported.yml").write_text(workflow("'Web Search'", "'web-search'"))
    assert main(["check", str(tmp_path)]) == 1
    assert capsys.readouterr().out.count("CMP-9") == 2


# ----- the same analysis: flow mappings, CRLF, a BOM; scalars as Drupal writes them ------------


def test_flow_mappings_crlf_and_bom() -> None:
    text = workflow("'Web Search'", "'web-search'").replace(
        "      label: 'web-search'\n      metadata:\n        node_type_id: http_request\n",
        "      {label: 'web-search', metadata: {node_type_id: http_request}}\n",
    )
    text = text.replace("    data:\n      {label", "    data: {label").replace("}}\n", "}}\n")
    crlf = "\ufeff" + text.replace("\n", "\r\n")
    for document in (text, crlf):
        found = {f.node: f for f in cmp9(document)}
        assert set(found) == {"http_request.1", "http_request.2"}
        for finding in found.values():
            token = document[finding.span.start : finding.span.end]
            assert token in ("'Web Search'", "'web-search'")
        fixed = fix_all(document)
        assert cmp9(fixed) == []
        assert yaml.safe_load(fixed.lstrip("\ufeff")) is not None


@pytest.mark.parametrize(
    ("original", "value", "written"),
    [
        ("plain", "Search", "Search"),
        ("plain", "Web Search 2", "'Web Search 2'"),
        ("plain", "yes", "'yes'"),  # would load as a boolean
        ("plain", "123", "'123'"),
        ("plain", "- x", "'- x'"),
        ("'a'", "It's", "'It''s'"),
        ('"a"', "Tab\there", '"Tab\\there"'),
        ("'a'", "Line\nbreak", '"Line\\nbreak"'),
        ("|\n  a", "x", "'x'"),
        ("'a'", "数据 🤖", "'数据 🤖'"),
    ],
)
def test_scalars_are_written_as_drupal_would(original: str, value: str, written: str) -> None:
    assert yaml_scalar(original, value) == written
    assert yaml.safe_load(f"k: {written}\n") == {"k": value}


# ----- tolerance -------------------------------------------------------------------------------


def test_a_tab_in_indentation_is_one_syntax_finding_at_its_place() -> None:
    text = workflow("'Web Search'", "'web-search'")
    broken = text.replace("    position:\n", "    position:\n\t", 1)
    found = analyze(broken, syntax="yaml").findings
    # The agent's item is broken; the tools' collision elsewhere is still reported.
    assert [f.code for f in found] == ["FD-SYNTAX", "CMP-9", "CMP-9"]
    line, _ = LineIndex(broken).position(found[0].span.start)
    assert broken.splitlines()[line].startswith("\t") or "\t" in broken.splitlines()[line]


def test_a_bad_flow_mapping_is_one_syntax_finding_on_its_line() -> None:
    text = workflow("'Web Search'", "'web-search'").replace("'Research Agent 🤖'", "{a: b")
    found = analyze(text, syntax="yaml").findings
    assert [f.code for f in found] == ["FD-SYNTAX", "CMP-9", "CMP-9"]
    assert "flow mapping" in found[0].message
    assert text[found[0].span.start : found[0].span.end] == "{a: b"


def test_duplicate_keys_warn_and_the_last_wins() -> None:
    text = workflow("'Web Search'", "'other'").replace(
        "      label: 'other'\n", "      label: 'other'\n      label: 'web-search'\n"
    )
    codes = sorted(f.code for f in analyze(text, syntax="yaml").findings)
    assert codes == ["CMP-9", "CMP-9", "FD-DUPLICATE-KEY"]


def test_tags_never_construct_objects() -> None:
    text = workflow("!!python/object/apply:os.system ['echo pwned']", "'x'")
    analysis = analyze(text, syntax="yaml")  # read as text, never run
    assert all(f.code != "FD-SYNTAX" for f in analysis.findings)


def test_an_alias_explosion_is_refused_not_expanded() -> None:
    lines = ["a0: &a0 ['x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x']"]
    for level in range(1, 9):
        refs = ", ".join([f"*a{level - 1}"] * 10)
        lines.append(f"a{level}: &a{level} [{refs}]")
    text = "\n".join(lines) + "\nnodes: []\nedges: []\n"
    found = analyze(text, syntax="yaml").findings
    assert [f.code for f in found] == ["FD-SYNTAX"]
    assert "aliases expand" in found[0].message


def test_non_utf8_bytes_are_one_syntax_finding_at_the_byte(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "flowdrop_workflow.flowdrop_workflow.latin1.yml"
    text = workflow("'Caf\xe9'", "'x'").replace(" 🤖", "")
    path.write_bytes(text.encode("latin-1"))
    assert main(["check", str(path), "--fix"]) == 1
    out = capsys.readouterr().out
    line = text[: text.index("\xe9")].count("\n") + 1
    column = text.index("\xe9") - text.rindex("\n", 0, text.index("\xe9"))
    assert f"{path}:{line}:{column}: error FD-SYNTAX not UTF-8: byte 0xE9" in out
    assert path.read_bytes() == text.encode("latin-1")  # --fix never touches it


def test_a_site_toolbox_type_is_honoured_in_yaml(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    site = copy_site(tmp_path, "config/sync")
    box = site / "flowdrop_node_type.flowdrop_node_type.flowdrop_node_processor_toolbox.yml"
    mine = site / "flowdrop_node_type.flowdrop_node_type.my_site_toolbox.yml"
    mine.write_text(
        box.read_text(encoding="utf-8")
        .replace("id: flowdrop_node_processor_toolbox", "id: my_site_toolbox")
        .replace("label: 'Tool Box'", "label: 'My Site Box'"),
        encoding="utf-8",
    )
    wf = site / "flowdrop_workflow.flowdrop_workflow.research.yml"
    text = workflow("'Web Search'", "'web-search'").replace(
        "node_type_id: flowdrop_node_processor_toolbox", "node_type_id: my_site_toolbox"
    )
    wf.write_text(text, encoding="utf-8")
    assert main(["check", str(wf)]) == 1
    out = capsys.readouterr().out
    # Forwarded through the site's own toolbox type to the agent.
    assert out.count('CMP-9 [*] tool name "web_search"') == 2 and 'at "Research Agent' in out
    mine.unlink()  # the site no longer defines it: the box is taken as the consumer itself
    main(["check", str(wf)])
    out = capsys.readouterr().out
    assert 'at "Web Tools"' in out and 'at "Research Agent' not in out
    assert "FD-UNKNOWN-NODE-TYPE" in out


def test_not_a_workflow_yaml_named_like_one() -> None:
    codes = [f.code for f in analyze("just: a mapping\n", syntax="yaml").findings]
    assert codes == ["FD-NOT-WORKFLOW"]
    assert [f.code for f in analyze("", syntax="yaml").findings] == ["FD-NOT-WORKFLOW"]


def test_the_shipped_drupal_example_shows_a_collision_and_a_dead_route() -> None:
    from tests.support.builders import REPO

    path = (
        REPO
        / "examples/drupal-site/config/sync/flowdrop_workflow.flowdrop_workflow.research_agent.yml"
    )
    text = path.read_text(encoding="utf-8")
    found = analyze(text, syntax="yaml").findings
    assert [f.code for f in found] == ["CMP-9", "CMP-9", "FD-TOOL-ROUTE"]
    fixed = fix_all(text)
    assert [f.code for f in analyze(fixed, syntax="yaml").findings] == ["FD-TOOL-ROUTE"]
    assert fixed == text.replace("label: web-search\n", "label: 'web-search 2'\n")
