"""FD-DEPENDENCY on copies of the real site: missing and stale `dependencies.config` entries,
and their fixes (applied, re-indexed: the finding gone, nothing else changed, the YAML loadable
and written as Drupal writes it); none on the real site."""

from __future__ import annotations

from pathlib import Path

import yaml

from flowdrop_lsp.core.findings import Applicability, Severity, TextEdit
from flowdrop_lsp.core.fixes import apply_edits, preferred_edits
from flowdrop_lsp.core.workspace.site import SiteIndex
from tests.support.site import (
    COLOUR,
    all_findings,
    copy_site,
    loaded,
    places,
    plant,
    site_findings,
    where_is,
)

PREFIX = "    - flowdrop_node_type.flowdrop_node_type."
COLOUR_DEPENDENCIES = "dependencies:\n  config:\n" + "".join(
    f"{PREFIX}{name}\n"
    for name in (
        "aincient_flows_brand_validate_slice",
        "chat_input",
        "chat_output",
        "data_to_json",
        "flowdrop_ai_provider_simple_chat",
        "json_to_data",
        "prompt_template",
    )
)


def _fix_all(folder: Path, index: SiteIndex, name: str) -> str:
    """The file with every preferred fix of its FD-DEPENDENCY findings applied, written."""
    path = folder / name
    findings = [f for f in index.findings(path) if f.code == "FD-DEPENDENCY"]
    text = apply_edits(index.text(path) or "", preferred_edits(findings))
    path.write_text(text, encoding="utf-8")
    return text


def _apply(folder: Path, name: str, edits: tuple[TextEdit, ...]) -> str:
    path = folder / name
    text = apply_edits(path.read_text(encoding="utf-8"), edits)
    path.write_text(text, encoding="utf-8")
    return text


def test_the_real_site_has_no_dependency_findings(tmp_path: Path) -> None:
    assert places(loaded(copy_site(tmp_path)), "FD-DEPENDENCY") == []


def test_a_missing_node_type_is_a_warning_on_its_first_node_and_its_fix_restores_the_list(
    tmp_path: Path,
) -> None:
    folder = copy_site(tmp_path)
    original = (folder / COLOUR).read_text(encoding="utf-8")
    text = plant(folder, COLOUR, f"{PREFIX}chat_output\n", "")
    found = site_findings(loaded(folder), "FD-DEPENDENCY")
    assert [item[:3] for item in found] == [
        (COLOUR, *where_is(text, "chat_output", after="node_type_id: chat_output"))
    ]
    finding = found[0][3]
    assert finding.severity == Severity.WARNING
    assert "uses node type 'chat_output'" in finding.message
    fix = finding.preferred_fix
    assert fix is not None and fix.preferred
    assert fix.applicability is Applicability.SAFE and bool(fix.operations)  # written in YAML
    assert _apply(folder, COLOUR, fix.edits) == original
    assert all_findings(loaded(folder)) == []


def test_fix_all_of_several_missing_types_in_one_gap_and_at_the_end(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    original = (folder / COLOUR).read_text(encoding="utf-8")
    for name in ("chat_input", "chat_output", "data_to_json", "json_to_data", "prompt_template"):
        plant(folder, COLOUR, f"{PREFIX}{name}\n", "")
    index = loaded(folder)
    assert len(site_findings(index, "FD-DEPENDENCY")) == 5
    fixed = _fix_all(folder, index, COLOUR)
    assert fixed == original
    yaml.safe_load(fixed)
    assert all_findings(loaded(folder)) == []


def test_fix_all_with_more_missing_types_than_one_gap_has_places(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    original = (folder / COLOUR).read_text(encoding="utf-8")
    # Every entry but the first: six additions after it, before `id:` (a line without indent).
    plant(
        folder,
        COLOUR,
        COLOUR_DEPENDENCIES,
        COLOUR_DEPENDENCIES.split(PREFIX)[0] + PREFIX + "aincient_flows_brand_validate_slice\n",
    )
    index = loaded(folder)
    assert len(site_findings(index, "FD-DEPENDENCY")) == 6
    assert _fix_all(folder, index, COLOUR) == original
    assert all_findings(loaded(folder)) == []


def test_fix_all_creates_the_config_list_and_the_dependencies_drupal_style(
    tmp_path: Path,
) -> None:
    folder = copy_site(tmp_path)
    original = (folder / COLOUR).read_text(encoding="utf-8")
    module = "  module:\n    - flowdrop\n"
    for replacement, expected in (
        (
            "dependencies:\n" + module,
            original.replace(COLOUR_DEPENDENCIES, COLOUR_DEPENDENCIES + module),
        ),
        ("", original),
        ("dependencies: {  }\n", original),
    ):
        (folder / COLOUR).write_text(original, encoding="utf-8")
        plant(folder, COLOUR, COLOUR_DEPENDENCIES, replacement)
        index = loaded(folder)
        assert len(site_findings(index, "FD-DEPENDENCY")) == 7
        fixed = _fix_all(folder, index, COLOUR)
        assert fixed == expected, replacement
        yaml.safe_load(fixed)
        assert all_findings(loaded(folder)) == []


def test_a_stale_entry_is_an_error_on_it_and_its_fix_removes_its_line(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    original = (folder / COLOUR).read_text(encoding="utf-8")
    text = plant(folder, COLOUR, f"{PREFIX}data_to_json\n", f"{PREFIX}data_to_json\n{PREFIX}gone\n")
    found = site_findings(loaded(folder), "FD-DEPENDENCY")
    assert [item[:3] for item in found] == [
        (COLOUR, *where_is(text, "flowdrop_node_type.flowdrop_node_type.gone"))
    ]
    finding = found[0][3]
    assert finding.severity == Severity.ERROR
    assert "lists 'flowdrop_node_type.flowdrop_node_type.gone', which the site does not have" in (
        finding.message
    )
    # Not preferred, unsafe: `check --fix` leaves it (`--unsafe-fixes` applies it, the only
    # fix); the quick fix removes the whole line.
    assert finding.preferred_fix is None
    assert finding.fixes[0].applicability is Applicability.UNSAFE
    assert finding.applied_fix(unsafe=True) is finding.fixes[0]
    assert _apply(folder, COLOUR, finding.fixes[0].edits) == original
    assert all_findings(loaded(folder)) == []


def test_config_of_a_kind_the_site_does_not_hold_is_not_judged(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    plant(folder, COLOUR, f"{PREFIX}data_to_json\n", f"{PREFIX}data_to_json\n    - system.site\n")
    assert places(loaded(folder), "FD-DEPENDENCY") == []


def test_a_json_workflow_without_dependencies_is_not_judged(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    index = loaded(folder)
    text = '{"nodes": [{"id": "a", "type": "chat_input", "data": {"label": "A"}}], "edges": []}'
    index.update(folder / "workflow.json", text)
    assert index.findings(folder / "workflow.json") == ()


def test_removing_the_only_entry_writes_what_drupal_writes(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    name = "flowdrop_workflow.flowdrop_workflow.aincient_policy_seo.yml"
    text = (folder / name).read_text(encoding="utf-8")
    only = text[text.index("dependencies:\n") : text.index("\nid:") + 1]
    for block, expected in (
        ("dependencies:\n  config:\n" + PREFIX + "gone\n", "dependencies: {  }\n"),
        (
            "dependencies:\n  config:\n" + PREFIX + "gone\n  module:\n    - flowdrop\n",
            "dependencies:\n  module:\n    - flowdrop\n",
        ),
    ):
        (folder / name).write_text(text.replace(only, block), encoding="utf-8")
        index = loaded(folder)
        stale = [f for f in index.findings(folder / name) if f.severity == Severity.ERROR]
        assert len(stale) == 1
        fixed = _apply(folder, name, stale[0].fixes[0].edits)
        assert fixed == text.replace(only, expected)
        yaml.safe_load(fixed)


def test_fixes_write_the_line_ends_of_a_crlf_file(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    original = (folder / COLOUR).read_text(encoding="utf-8")
    for name in ("chat_input", "prompt_template"):
        plant(folder, COLOUR, f"{PREFIX}{name}\n", "")
    plant(folder, COLOUR, f"{PREFIX}json_to_data\n", f"{PREFIX}json_to_data\n{PREFIX}gone\n")
    index = loaded(folder)
    # The buffer as an editor holds a Windows checkout: every line ending in \r\n.
    crlf = (folder / COLOUR).read_text(encoding="utf-8").replace("\n", "\r\n")
    index.update(folder / COLOUR, crlf)
    findings = [f for f in index.findings(folder / COLOUR) if f.code == "FD-DEPENDENCY"]
    assert len(findings) == 3
    fixed = apply_edits(crlf, preferred_edits(findings))
    assert "\r\r" not in fixed and fixed.count("\n") == fixed.count("\r\n")
    assert fixed.replace("\r\n", "\n") == original.replace(
        f"{PREFIX}json_to_data\n", f"{PREFIX}json_to_data\n{PREFIX}gone\n"
    )
    index.update(folder / COLOUR, fixed)  # then, in the editor, the stale entry removed
    (stale,) = [f for f in index.findings(folder / COLOUR) if "gone" in f.message]
    removed = apply_edits(fixed, stale.fixes[0].edits)
    assert removed.replace("\r\n", "\n") == original
    assert removed.count("\n") == removed.count("\r\n")
    yaml.safe_load(removed)


def _empty_every_dependency_list(folder: Path) -> None:
    """Every workflow's `dependencies` as a FlowDrop release that writes no list leaves it."""
    for path in sorted(folder.glob("flowdrop_workflow.flowdrop_workflow.*.yml")):
        text = path.read_text(encoding="utf-8")
        start = text.index("dependencies:\n")
        end = text.index("\nid: ", start)
        path.write_text(text[:start] + "dependencies: {  }" + text[end:], encoding="utf-8")


def test_a_site_whose_release_writes_no_dependency_lists_gets_no_missing_type_warnings(
    tmp_path: Path,
) -> None:
    """Issue 26: a real site on a FlowDrop release writing `dependencies: {  }` for every
    workflow got one warning per node type of every workflow (51 of 70 findings), which the
    next `drush cex` would write again. Such a site gets none; once one workflow lists its
    dependencies, the others are judged again (the site's state changed)."""
    folder = copy_site(tmp_path)
    _empty_every_dependency_list(folder)
    index = loaded(folder)
    assert places(index, "FD-DEPENDENCY") == []
    # One workflow lists a dependency: the site's release writes lists, every other workflow
    # is judged — through the incremental update, as the server sees a save.
    path = folder / COLOUR
    text = path.read_text(encoding="utf-8").replace(
        "dependencies: {  }", f"dependencies:\n  config:\n{PREFIX}chat_input\n"
    )
    path.write_text(text, encoding="utf-8")
    changed = index.update(path)
    assert len(changed) > 1  # every file's findings may change
    found = places(index, "FD-DEPENDENCY")
    assert {name for name, *_ in found} >= {COLOUR}
    assert len({name for name, *_ in found}) > 5
    # And back: none again.
    path.write_text(
        text.replace(f"dependencies:\n  config:\n{PREFIX}chat_input\n", "dependencies: {  }\n"),
        encoding="utf-8",
    )
    index.update(path)
    assert places(index, "FD-DEPENDENCY") == []
    assert places(loaded(folder), "FD-DEPENDENCY") == []
