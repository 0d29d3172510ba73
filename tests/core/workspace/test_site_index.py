"""The site index's dependants and its findings cache, on copies of the real site: an edit
marks exactly the files whose cross-file findings may change, and only those are recomputed."""

from __future__ import annotations

from pathlib import Path

import pytest

from flowdrop_lsp.core.workspace import site as site_module
from flowdrop_lsp.core.workspace.site import SiteIndex
from tests.support.site import (
    BRAND_STUDIO,
    COLOUR,
    COLOUR_CALL_TYPE,
    NODE_TYPE,
    copy_site,
    loaded,
    places,
)


def _names(paths: set[str]) -> set[str]:
    return {Path(path).name for path in paths}


def test_editing_a_callee_contract_marks_its_callers_and_the_calling_type(
    tmp_path: Path,
) -> None:
    folder = copy_site(tmp_path)
    index = loaded(folder)
    text = (folder / COLOUR).read_text(encoding="utf-8").replace("name: ask", "name: question")
    changed = index.update(folder / COLOUR, text)
    assert _names(changed) == {COLOUR, BRAND_STUDIO, COLOUR_CALL_TYPE}
    assert {name for name, *_ in places(index, "FD-CONTRACT")} == {
        COLOUR,
        COLOUR_CALL_TYPE,
        BRAND_STUDIO,  # its call node: its type passes what the callee no longer takes
    }


def test_deleting_a_node_type_marks_its_users(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    index = loaded(folder)
    users = {Path(path).name for path, _node in index.users_of("chat_output")}
    assert COLOUR in users and len(users) > 1
    path = folder / NODE_TYPE.format("chat_output")
    path.unlink()
    assert _names(index.remove(path)) >= users | {path.name}


def test_creating_a_missing_callee_clears_its_call_findings(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    text = (folder / COLOUR).read_text(encoding="utf-8")
    (folder / COLOUR).unlink()
    index = loaded(folder)
    assert {name for name, *_ in places(index, "FD-CALL")} == {BRAND_STUDIO, COLOUR_CALL_TYPE}
    (folder / COLOUR).write_text(text, encoding="utf-8")
    changed = index.update(folder / COLOUR)
    assert _names(changed) >= {COLOUR, BRAND_STUDIO, COLOUR_CALL_TYPE}
    assert places(index, "FD-CALL") == []


def test_findings_are_cached_and_recomputed_only_for_the_files_an_edit_affects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = copy_site(tmp_path)
    index = loaded(folder)
    checked: list[str] = []

    def counting(ctx):
        checked.append(ctx.path)
        return ()

    rules = site_module.SITE_RULES
    monkeypatch.setattr(site_module, "SITE_RULES", ((rules[0][0], counting), *rules))
    for path in index.files:
        index.findings(path)
    assert sorted(checked) == index.files
    checked.clear()
    for path in index.files:
        index.findings(path)
    assert checked == []  # cached
    text = (folder / COLOUR).read_text(encoding="utf-8").replace("name: ask", "name: question")
    changed = index.update(folder / COLOUR, text)
    for path in index.files:
        index.findings(path)
    assert sorted(checked) == sorted(changed)
    assert len(changed) == 3 < len(index.files)


def test_an_index_of_an_empty_folder_has_nothing(tmp_path: Path) -> None:
    index = SiteIndex(tmp_path)
    index.load()
    assert index.files == [] and index.findings(tmp_path / COLOUR) == ()


def test_another_config_file_counts_by_its_name_only(tmp_path: Path) -> None:
    """`drush cex` rewrites Views and fields beside the workflows: such a file is config a
    dependency may name, never a workflow of the site."""
    folder = copy_site(tmp_path)
    plant_text = (folder / COLOUR).read_text(encoding="utf-8")
    entry = "    - flowdrop_node_type.flowdrop_node_type.chat_input\n"
    (folder / COLOUR).write_text(
        plant_text.replace(entry, entry + "    - views.view.content\n"), encoding="utf-8"
    )
    (folder / "views.view.frontpage.yml").write_text("id: frontpage\n", encoding="utf-8")
    index = loaded(folder)
    assert places(index, "FD-DEPENDENCY") == [
        (COLOUR, *_line_column(folder / COLOUR, "views.view.content"))
    ]
    view = folder / "views.view.content.yml"
    view.write_text("id: content\ndependencies:\n  config:\n    - field.gone\n", encoding="utf-8")
    changed = index.update(view)
    assert _names(changed) >= {COLOUR}
    assert str(view) not in index.files  # not a workflow, no findings of its own
    assert index.findings(view) == ()
    assert places(index, "FD-DEPENDENCY") == []
    view.unlink()
    index.remove(view)
    assert [name for name, *_ in places(index, "FD-DEPENDENCY")] == [COLOUR]


def test_a_kind_of_config_appearing_re_judges_every_file(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    text = (folder / COLOUR).read_text(encoding="utf-8")
    entry = "    - flowdrop_node_type.flowdrop_node_type.chat_input\n"
    (folder / COLOUR).write_text(text.replace(entry, entry + "    - views.view.content\n"))
    index = loaded(folder)
    assert places(index, "FD-DEPENDENCY") == []  # no Views at all: the kind is not judged
    view = folder / "views.view.frontpage.yml"
    view.write_text("id: frontpage\n", encoding="utf-8")
    changed = index.update(view)
    assert COLOUR in _names(changed)
    assert [name for name, *_ in places(index, "FD-DEPENDENCY")] == [COLOUR]
    assert places(index, "FD-DEPENDENCY") == places(loaded(folder), "FD-DEPENDENCY")


def test_a_kind_of_config_goes_with_its_last_file(tmp_path: Path) -> None:
    """The index counts the config names of each kind as files come and go (it no longer
    recounts them at every update): the kind stays while one file of it is left, and its
    going re-judges every file."""
    folder = copy_site(tmp_path)
    text = (folder / COLOUR).read_text(encoding="utf-8")
    entry = "    - flowdrop_node_type.flowdrop_node_type.chat_input\n"
    (folder / COLOUR).write_text(text.replace(entry, entry + "    - views.view.content\n"))
    views = [folder / "views.view.frontpage.yml", folder / "views.view.archive.yml"]
    for view in views:
        view.write_text(f"id: {view.stem.split('.')[-1]}\n", encoding="utf-8")
    index = loaded(folder)
    index.update(views[0])  # told twice of the same file: still one name of the kind
    assert [name for name, *_ in places(index, "FD-DEPENDENCY")] == [COLOUR]
    views[0].unlink()
    index.remove(views[0])
    index.remove(views[0])  # told twice of the same deletion: the other view keeps the kind
    assert [name for name, *_ in places(index, "FD-DEPENDENCY")] == [COLOUR]
    views[1].unlink()
    changed = index.remove(views[1])
    assert COLOUR in _names(changed)
    assert places(index, "FD-DEPENDENCY") == [] == places(loaded(folder), "FD-DEPENDENCY")


def test_a_callee_that_does_not_parse_is_not_a_missing_callee(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    (folder / COLOUR).write_text("id: x\nnodes: [\n", encoding="utf-8")
    index = loaded(folder)
    assert places(index, "FD-CALL") == []
    (folder / COLOUR).write_bytes(b"\xff\xfeid: x\n")
    index.update(folder / COLOUR)
    assert places(index, "FD-CALL") == []
    (folder / COLOUR).unlink()
    index.remove(folder / COLOUR)
    assert {name for name, *_ in places(index, "FD-CALL")} == {BRAND_STUDIO, COLOUR_CALL_TYPE}


def _line_column(path: Path, needle: str) -> tuple[int, int]:
    text = path.read_text(encoding="utf-8")
    at = text.index(needle)
    return text[:at].count("\n"), at - (text.rfind("\n", 0, at) + 1)


def test_renaming_the_call_type_s_parameter_too_clears_the_callee(tmp_path: Path) -> None:
    # The callee's finding (its input renamed) depends on the call type: renaming the type's
    # parameter the same way marks the callee and the caller, and the site is whole again.
    folder = copy_site(tmp_path)
    index = loaded(folder)
    colour = (folder / COLOUR).read_text(encoding="utf-8").replace("name: ask", "name: question")
    index.update(folder / COLOUR, colour)
    assert {name for name, *_ in places(index, "FD-CONTRACT")} == {
        COLOUR,
        COLOUR_CALL_TYPE,
        BRAND_STUDIO,  # its call node: its type passes what the callee no longer takes
    }
    call_type = (folder / COLOUR_CALL_TYPE).read_text(encoding="utf-8")
    renamed = call_type.replace("\n  ask:\n", "\n  question:\n", 1)
    changed = index.update(folder / COLOUR_CALL_TYPE, renamed)
    assert {COLOUR, BRAND_STUDIO, COLOUR_CALL_TYPE} <= _names(changed)
    # (`required: [ask]` in the callee is the callee's own business, still reported)
    assert {name for name, *_ in places(index, "FD-CONTRACT")} == {COLOUR}


def test_a_copy_keeping_the_original_s_id_marks_the_original(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    index = loaded(folder)
    weather = folder / "flowdrop_workflow.flowdrop_workflow.aincient_weather.yml"
    copy = folder / "flowdrop_workflow.flowdrop_workflow.aincient_weather_copy.yml"
    copy.write_text(weather.read_text(encoding="utf-8"), encoding="utf-8")
    changed = index.update(copy)
    assert _names(changed) >= {copy.name, weather.name}
    assert [name for name, *_ in places(index, "FD-CONFIG-NAME")] == [copy.name]


def test_deleting_the_original_of_a_copied_node_type_marks_the_copy(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    original = folder / NODE_TYPE.format("chat_input")
    copy = folder / NODE_TYPE.format("chat_input_2")
    copy.write_text(original.read_text(encoding="utf-8"), encoding="utf-8")
    index = loaded(folder)
    (finding,) = [f for f in index.findings(copy) if f.code == "FD-CONFIG-NAME"]
    assert finding.fixes[0].is_safe
    original.unlink()
    assert copy.name in _names(index.remove(original))
    (finding,) = [f for f in index.findings(copy) if f.code == "FD-CONFIG-NAME"]
    assert not finding.fixes[0].is_safe  # no original any more: the id may be the one meant
