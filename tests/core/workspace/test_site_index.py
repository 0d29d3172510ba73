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
    assert {name for name, *_ in places(index, "FD-CONTRACT")} == {COLOUR, COLOUR_CALL_TYPE}


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

    def counting(ctx):  # type: ignore[no-untyped-def]
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
