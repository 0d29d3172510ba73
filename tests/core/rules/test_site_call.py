"""FD-CALL on copies of the real site: a missing callee, a call cycle, a generic executor's
literal workflow id; none on the real site."""

from __future__ import annotations

from pathlib import Path

from flowdrop_lsp.core.fixes import apply_edits
from flowdrop_lsp.core.workspace.site import SiteIndex
from tests.support.site import (
    BRAND_STUDIO,
    COLOUR,
    COLOUR_CALL_TYPE,
    NODE_TYPE,
    WORKFLOW,
    copy_site,
    loaded,
    places,
    plant,
    site_findings,
    where_is,
)

COLOUR_NODE = "id: flowdrop_workflow_executor_flowdrop_workflow_aincient_brand_specialist_colour.1"
COLOUR_LABEL = "'Run workflow: Brand colour & contrast specialist'"
COLOUR_PLUGIN = "'flowdrop_workflow_executor:flowdrop_workflow:aincient_brand_specialist_colour'"


def _node(node_id: str, type_id: str, label: str, config: str = "") -> str:
    return (
        "  -\n"
        f"    id: {node_id}\n"
        "    data:\n"
        f"      label: '{label}'\n"
        f"{config}"
        "      metadata:\n"
        f"        node_type_id: {type_id}\n"
    )


def _add_node(folder: Path, name: str, block: str) -> str:
    return plant(folder, name, "\nedges:\n", "\n" + block + "edges:\n")


def test_the_real_site_has_no_call_findings(tmp_path: Path) -> None:
    assert places(loaded(copy_site(tmp_path)), "FD-CALL") == []


def test_a_missing_callee_is_reported_on_the_calling_node_and_the_node_type(
    tmp_path: Path,
) -> None:
    folder = copy_site(tmp_path)
    (folder / COLOUR).unlink()
    index = loaded(folder)
    studio = (folder / BRAND_STUDIO).read_text(encoding="utf-8")
    call_type = (folder / COLOUR_CALL_TYPE).read_text(encoding="utf-8")
    assert places(index, "FD-CALL") == sorted(
        [
            (BRAND_STUDIO, *where_is(studio, COLOUR_LABEL, after=COLOUR_NODE)),
            (COLOUR_CALL_TYPE, *where_is(call_type, COLOUR_PLUGIN)),
        ]
    )
    messages = sorted(item[3].message for item in site_findings(index, "FD-CALL"))
    told = (
        "calls workflow 'aincient_brand_specialist_colour', which the site does not have "
        "(no flowdrop_workflow.flowdrop_workflow.*.yml of that id)"
    )
    assert messages == [f"executor_plugin {told}", f"this node's type {told}"]
    node_finding = {item[0]: item[3] for item in site_findings(index, "FD-CALL")}[BRAND_STUDIO]
    assert node_finding.related[0].path == str(folder / COLOUR_CALL_TYPE)


def test_a_call_cycle_through_two_workflows_is_reported_on_each_calling_node(
    tmp_path: Path,
) -> None:
    folder = copy_site(tmp_path)
    (folder / NODE_TYPE.format("call_brand_studio")).write_text(
        "id: call_brand_studio\n"
        "label: 'Run workflow: Brand studio'\n"
        "parameters: {  }\n"
        "outputs: {  }\n"
        "executor_plugin: 'flowdrop_workflow_executor:flowdrop_workflow:brand_studio'\n",
        encoding="utf-8",
    )
    colour = _add_node(
        folder, COLOUR, _node("call_brand_studio.1", "call_brand_studio", "Back to the studio")
    )
    index = loaded(folder)
    studio = (folder / BRAND_STUDIO).read_text(encoding="utf-8")
    found = site_findings(index, "FD-CALL")
    assert [item[:3] for item in found] == sorted(
        [
            (COLOUR, *where_is(colour, "'Back to the studio'")),
            (BRAND_STUDIO, *where_is(studio, COLOUR_LABEL, after=COLOUR_NODE)),
        ]
    )
    by_file = {item[0]: item[3] for item in found}
    assert "a call cycle (aincient_brand_specialist_colour → brand_studio → " in (
        by_file[COLOUR].message
    )
    # The rest of the cycle, in the other file.
    assert [r.path for r in by_file[COLOUR].related] == [str(folder / BRAND_STUDIO)]
    assert [r.path for r in by_file[BRAND_STUDIO].related] == [str(folder / COLOUR)]
    related = by_file[COLOUR].related[0]
    assert studio[related.span.start : related.span.end] == COLOUR_LABEL


def test_a_generic_executor_naming_no_workflow_is_reported_on_its_workflow_id(
    tmp_path: Path,
) -> None:
    folder = copy_site(tmp_path)
    config = "      config:\n        workflow_id: aincient_nowhere\n"
    good = "      config:\n        workflow_id: aincient_weather\n"
    runtime = "      config:\n        workflow_id: '[input.workflow]'\n"
    colour = _add_node(
        folder,
        COLOUR,
        _node("workflow_executor.1", "workflow_executor", "Run it", config)
        + _node("workflow_executor.2", "workflow_executor", "Run weather", good)
        + _node("workflow_executor.3", "workflow_executor", "Run chosen", runtime),
    )
    index = loaded(folder)
    found = site_findings(index, "FD-CALL")
    assert [item[:3] for item in found] == [(COLOUR, *where_is(colour, "aincient_nowhere"))]
    assert "calls workflow 'aincient_nowhere', which the site does not have" in found[0][3].message


SHAPE_CALL_TYPE = NODE_TYPE.format(
    "flowdrop_workflow_executor_flowdrop_workflow_aincient_brand_specialist_shape"
)
SHAPE_PLUGIN = "flowdrop_workflow:aincient_brand_specialist_shape'"
SHPAE_PLUGIN = "flowdrop_workflow:aincient_brand_specialist_shpae'"


def test_a_misspelt_callee_is_told_the_close_id_once_with_a_safe_fix(tmp_path: Path) -> None:
    # Issue 29: `…_shpae` for `…_shape`. One close workflow: "did you mean", and in the node
    # type a safe preferred fix writing it (only the id's letters: the quotes stay); in the
    # workflow using the type the same, briefly, and no fix (it would edit another file).
    folder = copy_site(tmp_path)
    original = (folder / SHAPE_CALL_TYPE).read_text(encoding="utf-8")
    call_type = plant(folder, SHAPE_CALL_TYPE, SHAPE_PLUGIN, SHPAE_PLUGIN)
    found = {item[0]: item[3] for item in site_findings(loaded(folder), "FD-CALL")}
    told = (
        "calls workflow 'aincient_brand_specialist_shpae', which the site does not have "
        "(did you mean 'aincient_brand_specialist_shape'?)"
    )
    assert found[SHAPE_CALL_TYPE].message == f"executor_plugin {told}"
    assert found[BRAND_STUDIO].message == f"this node's type {told}"
    assert len(found[SHAPE_CALL_TYPE].message) < 160
    (fix,) = found[SHAPE_CALL_TYPE].fixes
    assert fix.is_safe and fix.preferred
    assert apply_edits(call_type, fix.edits) == original
    assert found[BRAND_STUDIO].fixes == ()
    assert found[BRAND_STUDIO].related[0].path == str(folder / SHAPE_CALL_TYPE)


def test_a_plain_or_double_quoted_plugin_keeps_its_style(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    full = "'flowdrop_workflow_executor:flowdrop_workflow:aincient_brand_specialist_shape'"
    for written in (full.strip("'"), full.replace("'", '"')):
        original = plant(folder, SHAPE_CALL_TYPE, full, written)
        typo = plant(
            folder,
            SHAPE_CALL_TYPE,
            ":aincient_brand_specialist_shape",
            ":aincient_brand_specialist_shpae",
        )
        found = {item[0]: item[3] for item in site_findings(loaded(folder), "FD-CALL")}
        (fix,) = found[SHAPE_CALL_TYPE].fixes
        assert apply_edits(typo, fix.edits) == original
        plant(folder, SHAPE_CALL_TYPE, written.replace("shape", "shpae"), full)


def test_several_close_ids_are_unsafe_choices(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    plant(
        folder, SHAPE_CALL_TYPE, SHAPE_PLUGIN, "flowdrop_workflow:aincient_brand_specialist_colo'"
    )
    # `…_colo` is one letter from `…_color` (planted) and two from `…_colour`.
    (folder / WORKFLOW.format("aincient_brand_specialist_color")).write_text(
        "id: aincient_brand_specialist_color\nlabel: Color\nnodes: {  }\nedges: {  }\n",
        encoding="utf-8",
    )
    found = {item[0]: item[3] for item in site_findings(loaded(folder), "FD-CALL")}
    finding = found[SHAPE_CALL_TYPE]
    assert (
        "(did you mean 'aincient_brand_specialist_color' or 'aincient_brand_specialist_colour'?)"
        in finding.message
    )
    assert [f.title for f in finding.fixes] == [
        "Call workflow 'aincient_brand_specialist_color'",
        "Call workflow 'aincient_brand_specialist_colour'",
    ]
    assert all(not f.is_safe and not f.preferred for f in finding.fixes)


def test_a_call_finds_its_callee_by_the_file_name_drupal_imports_it_by(tmp_path: Path) -> None:
    # Issue 29: the shape workflow's file says another id. Its callers name the file's id: the
    # call is found (FD-CONFIG-NAME reports the id); a call naming the id written is told the
    # truth, not "no such file".
    folder = copy_site(tmp_path)
    shape = WORKFLOW.format("aincient_brand_specialist_shape")
    plant(folder, shape, "id: aincient_brand_specialist_shape\n", "id: shape_specialist\n")
    index: SiteIndex = loaded(folder)
    assert places(index, "FD-CALL") == []
    plant(folder, SHAPE_CALL_TYPE, SHAPE_PLUGIN, "flowdrop_workflow:shape_specialist'")
    found = {item[0]: item[3] for item in site_findings(loaded(folder), "FD-CALL")}
    assert found[SHAPE_CALL_TYPE].message == (
        "executor_plugin calls workflow 'shape_specialist', which the site does not have: "
        f"{shape} says that id, but its file name says another"
    )


def test_the_fix_is_at_the_right_characters_after_emoji_and_cjk(tmp_path: Path) -> None:
    # Spans are code points: a label with an emoji (two UTF-16 units) and CJK before the plugin.
    folder = copy_site(tmp_path)
    label = "label: 'Run workflow: Brand shape & density specialist'"
    original = plant(folder, SHAPE_CALL_TYPE, label, "label: '🧩 形状 Run workflow: Brand shape'")
    typo = plant(folder, SHAPE_CALL_TYPE, SHAPE_PLUGIN, SHPAE_PLUGIN)
    found = {item[0]: item for item in site_findings(loaded(folder), "FD-CALL")}
    name, line, column, finding = found[SHAPE_CALL_TYPE]
    assert (line, column) == where_is(typo, "'flowdrop_workflow_executor:")
    (fix,) = finding.fixes
    assert apply_edits(typo, fix.edits) == original
