"""FD-CONFIG-NAME on copies of the real site: a workflow copied under a new name keeping its
`id` (a safe fix: the copy follows its name), an `id` edited alone (an unsafe fix: the file may
be the one to rename), a node type alike; none on the real site."""

from __future__ import annotations

from pathlib import Path

from flowdrop_lsp.core.fixes import apply_edits
from tests.support.site import (
    NODE_TYPE,
    WORKFLOW,
    copy_site,
    loaded,
    places,
    plant,
    site_findings,
    where_is,
)

WEATHER = WORKFLOW.format("aincient_weather")
WEATHER_COPY = WORKFLOW.format("aincient_weather_copy")


def test_the_real_site_has_no_config_name_findings(tmp_path: Path) -> None:
    assert places(loaded(copy_site(tmp_path)), "FD-CONFIG-NAME") == []


def test_a_copied_workflow_keeping_its_id_gets_a_safe_fix_to_its_name(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    text = (folder / WEATHER).read_text(encoding="utf-8")
    (folder / WEATHER_COPY).write_text(text, encoding="utf-8")
    found = site_findings(loaded(folder), "FD-CONFIG-NAME")
    assert [item[:3] for item in found] == [
        (WEATHER_COPY, *where_is(text, "aincient_weather", after="\nid: "))
    ]
    finding = found[0][3]
    assert finding.message == (
        "id 'aincient_weather' is not 'aincient_weather_copy', its file name's id: Drupal's "
        f"config import expects them equal ('aincient_weather' is {WEATHER})"
    )
    (fix,) = finding.fixes
    assert fix.is_safe and fix.preferred
    assert apply_edits(text, fix.edits) == text.replace(
        "\nid: aincient_weather\n", "\nid: aincient_weather_copy\n", 1
    )


def test_an_id_edited_alone_gets_an_unsafe_fix(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    text = plant(folder, WEATHER, "\nid: aincient_weather\n", "\nid: weather_agent\n")
    found = site_findings(loaded(folder), "FD-CONFIG-NAME")
    assert [item[:3] for item in found] == [(WEATHER, *where_is(text, "weather_agent"))]
    (fix,) = found[0][3].fixes
    assert not fix.is_safe and not fix.preferred
    assert apply_edits(text, fix.edits) == text.replace("weather_agent", "aincient_weather", 1)


def test_a_node_type_whose_id_is_not_its_file_name(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    name = NODE_TYPE.format("chat_input")
    text = plant(folder, name, "\nid: chat_input\n", "\nid: chat_inputs\n")
    found = site_findings(loaded(folder), "FD-CONFIG-NAME")
    assert [item[:3] for item in found] == [(name, *where_is(text, "chat_inputs"))]
    (fix,) = found[0][3].fixes
    assert not fix.is_safe
    assert apply_edits(text, fix.edits) == text.replace("chat_inputs", "chat_input", 1)


def test_a_fixed_copy_is_no_finding_and_a_rename_away_is_seen_by_the_original(
    tmp_path: Path,
) -> None:
    # The index tells the original when the copy's id changes (the copy's finding named it).
    folder = copy_site(tmp_path)
    text = (folder / WEATHER).read_text(encoding="utf-8")
    (folder / WEATHER_COPY).write_text(text, encoding="utf-8")
    index = loaded(folder)
    assert places(index, "FD-CONFIG-NAME") != []
    fixed = text.replace("\nid: aincient_weather\n", "\nid: aincient_weather_copy\n", 1)
    changed = index.update(folder / WEATHER_COPY, fixed)
    assert str(folder / WEATHER_COPY) in changed
    assert places(index, "FD-CONFIG-NAME") == []


def test_a_copied_node_type_keeping_its_id_gets_the_safe_fix(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    text = (folder / NODE_TYPE.format("chat_input")).read_text(encoding="utf-8")
    copy = NODE_TYPE.format("chat_input_2")
    (folder / copy).write_text(text, encoding="utf-8")
    found = site_findings(loaded(folder), "FD-CONFIG-NAME")
    assert [item[:3] for item in found] == [(copy, *where_is(text, "chat_input", after="\nid: "))]
    (fix,) = found[0][3].fixes
    assert fix.is_safe and fix.preferred
    assert apply_edits(text, fix.edits) == text.replace(
        "\nid: chat_input\n", "\nid: chat_input_2\n"
    )
