"""Settings: one typed object from plain mappings of any key style; ignore and severity apply to
findings."""

from __future__ import annotations

from pathlib import Path

import pytest

from flowdrop_lsp.core import Settings, Severity, analyze
from flowdrop_lsp.core.settings import (
    SettingsError,
    find_project_settings,
    load_settings,
    read_settings_file,
)
from tests.core.builders import node, tool_edge, workflow

TEXT = workflow(
    [
        node("a", label="Search"),
        node("b", label="search"),
        node("kit", "my_kit", "Kit"),
        node("agent", "agent"),
    ],
    [tool_edge("a", "kit"), tool_edge("b", "kit"), tool_edge("kit", "agent")],
)


@pytest.mark.parametrize("key", ["passthrough-types", "passthrough_types", "passthroughTypes"])
def test_key_styles(key: str) -> None:
    settings = Settings().with_overrides({key: ["my_kit"]})
    assert settings.passthrough_types == frozenset({"my_kit"})


def test_passthrough_types_decide_what_a_toolbox_is() -> None:
    # By default "my_kit" is a consumer: same name at one consumer → collision there.
    default = [f for f in analyze(TEXT).findings if f.code == "CMP-9"]
    assert {c["consumer"] for f in default for c in dict(f.extra)["consumers"]} == {"kit"}
    settings = Settings().with_overrides({"extend-passthrough-types": ["my_kit"]})
    assert "toolbox" in settings.passthrough_types
    found = [f for f in analyze(TEXT, settings).findings if f.code == "CMP-9"]
    assert {c["consumer"] for f in found for c in dict(f.extra)["consumers"]} == {"agent"}
    assert all(c["route"] == ("kit",) for f in found for c in dict(f.extra)["consumers"])


def test_severity_override_and_ignore() -> None:
    settings = Settings().with_overrides({"severity": {"CMP-9": "warning"}})
    assert {f.severity for f in analyze(TEXT, settings).findings if f.code == "CMP-9"} == {
        Severity.WARNING
    }
    settings = Settings().with_overrides({"ignore": ["CMP-9"]})
    assert [f.code for f in analyze(TEXT, settings).findings] == []


@pytest.mark.parametrize(
    "values",
    [
        {"passthrough-types": "toolbox"},
        {"passthrough-types": [1]},
        {"severity": {"CMP-9": "fatal"}},
        {"severity": ["CMP-9"]},
        {"use-instance-title": "yes"},
        {"docs-url": 5},
        {"ignore": "CMP-9"},
    ],
)
def test_bad_values_raise_settings_error(values: dict[str, object]) -> None:
    with pytest.raises(SettingsError):
        Settings().with_overrides(values)


def test_unknown_keys_and_nulls_are_ignored() -> None:
    assert Settings().with_overrides({"someFutureSetting": 1, "ignore": None}) == Settings()


def test_project_files(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.flowdrop-lsp]\nignore = ["R8"]\n', encoding="utf-8"
    )
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    assert find_project_settings(nested) == tmp_path / "pyproject.toml"
    assert load_settings(nested).ignore == frozenset({"R8"})
    (tmp_path / "a" / "flowdrop-lsp.toml").write_text('ignore = ["R13"]\n', encoding="utf-8")
    assert load_settings(nested).ignore == frozenset({"R13"})
    (tmp_path / "a" / "flowdrop-lsp.toml").write_text(
        '[flowdrop-lsp]\nignore = ["R12"]\n', encoding="utf-8"
    )
    assert load_settings(nested).ignore == frozenset({"R12"})


def test_pyproject_without_the_table_is_not_a_settings_file(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.other]\nx = 1\n", encoding="utf-8")
    assert find_project_settings(tmp_path) != tmp_path / "pyproject.toml"


def test_unreadable_settings_file(tmp_path: Path) -> None:
    bad = tmp_path / "flowdrop-lsp.toml"
    bad.write_text("ignore = [", encoding="utf-8")
    with pytest.raises(SettingsError):
        read_settings_file(bad)
    with pytest.raises(SettingsError):
        read_settings_file(tmp_path / "missing.toml")
