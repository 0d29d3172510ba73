"""Settings: one typed object from plain mappings of any key style; ignore and severity apply to
findings."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import (
    DEFAULT_FILES,
    Settings,
    SettingsError,
    find_project_settings,
    read_settings_file,
)
from flowdrop_lsp.core.findings import Severity
from flowdrop_lsp.core.workspace.resolver import RULE_CODES, SettingsResolver
from tests.support.builders import node, tool_edge, workflow

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
        {"unsafe-fixes": "yes"},
        {"twig-extensions-complete": "yes"},
        {"docs-url": 5},
        {"ignore": "CMP-9"},
    ],
)
def test_bad_values_raise_settings_error(values: dict[str, object]) -> None:
    with pytest.raises(SettingsError):
        Settings().with_overrides(values)


def test_unsafe_fixes_is_read_in_any_key_style() -> None:
    """Issue 29: Ruff's `unsafe-fixes` key, off by default (the CLI's flags override it)."""
    assert Settings().unsafe_fixes is False
    for key in ("unsafe-fixes", "unsafe_fixes", "unsafeFixes"):
        assert Settings().with_overrides({key: True}).unsafe_fixes is True
    problems: list[str] = []
    Settings().with_overrides({"unsafe-fix": True}, problems=problems)
    assert problems == ["unknown setting 'unsafe-fix' (did you mean 'unsafe-fixes'?)"]


def test_twig_extensions_complete_is_the_settings_word_over_the_sites() -> None:
    """Unset, the site decides (`site_twig_complete`, set by the resolver); set, it wins."""
    site_read = Settings().with_site_twig((), ("site_fn",), (), (), complete=True, origin="web")
    assert Settings().twig_names_complete is False
    assert site_read.twig_names_complete is True
    assert site_read.twig_functions == {"site_fn"}
    for key in ("twig-extensions-complete", "twigExtensionsComplete"):
        assert site_read.with_overrides({key: False}).twig_names_complete is False
        assert Settings().with_overrides({key: True}).twig_names_complete is True


def test_nulls_are_ignored() -> None:
    assert Settings().with_overrides({"ignore": None, "files": None}) == Settings()


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"ignroe": ["CMP-9"]}, "unknown setting 'ignroe' (did you mean 'ignore'?)"),
        # The suggestion is written in the style of the key the user wrote.
        (
            {"passthroughTypo": []},
            "unknown setting 'passthroughTypo' (did you mean 'passthroughTypes'?)",
        ),
        ({"extend_exlude": []}, "unknown setting 'extend_exlude' (did you mean 'extend_exclude'?)"),
        ({"edge-typse": []}, "unknown setting 'edge-typse' (did you mean 'edge-types'?)"),
        ({"someFutureSetting": None}, "unknown setting 'someFutureSetting'"),
        # Codes are case-sensitive; near misses are found ignoring case, `-` and `_`.
        ({"ignore": ["CMP9"]}, "unknown rule code 'CMP9' in 'ignore' (did you mean 'CMP-9'?)"),
        ({"ignore": ["cmp-9"]}, "unknown rule code 'cmp-9' in 'ignore' (did you mean 'CMP-9'?)"),
        ({"ignore": ["fd_syntax"]}, "in 'ignore' (did you mean 'FD-SYNTAX'?)"),
        (
            {"severity": {"CMP_10": "hint"}},
            "unknown rule code 'CMP_10' in 'severity' (did you mean 'CMP-10'?)",
        ),
        ({"ignore": ["XYZZY"]}, "unknown rule code 'XYZZY' in 'ignore' (known codes: "),
    ],
)
def test_unknown_keys_and_codes_raise_with_a_suggestion(
    values: dict[str, object], expected: str
) -> None:
    with pytest.raises(SettingsError) as raised:
        Settings().with_overrides(values, rule_codes=RULE_CODES)
    assert expected in str(raised.value)


def test_without_a_catalogue_codes_are_not_checked() -> None:
    settings = Settings().with_overrides({"ignore": ["XYZZY"], "severity": {"CMP9": "hint"}})
    assert settings.ignore == frozenset({"XYZZY"})
    assert dict(settings.severity) == {"CMP9": Severity.HINT}


def test_every_unknown_is_named_at_once() -> None:
    with pytest.raises(SettingsError) as raised:
        Settings().with_overrides(
            {"ignroe": [], "severity": {"CMP9": "hint"}}, rule_codes=RULE_CODES
        )
    assert "'ignroe'" in str(raised.value) and "'CMP9'" in str(raised.value)


def test_collected_unknowns_keep_the_valid_rest() -> None:
    problems: list[str] = []
    settings = Settings().with_overrides(
        {
            "ignroe": ["CMP-9"],
            "ignore": ["CMP9", "R8"],
            "severity": {"cmp-10": "hint", "CMP-9": "warning"},
            "useInstanceTitle": True,
        },
        rule_codes=RULE_CODES,
        problems=problems,
    )
    assert settings.ignore == frozenset({"R8"})
    assert dict(settings.severity) == {"CMP-9": Severity.WARNING}
    assert settings.use_instance_title
    assert len(problems) == 3
    assert any("did you mean 'ignore'" in p for p in problems)
    assert any("did you mean 'CMP-9'" in p for p in problems)
    assert any("did you mean 'CMP-10'" in p for p in problems)


def test_wrong_values_still_raise_when_collecting() -> None:
    with pytest.raises(SettingsError):
        Settings().with_overrides({"ignore": "CMP-9"}, problems=[])


@pytest.mark.parametrize(
    "values",
    [
        # VS Code sends its own settings nested; other clients may flatten them.
        {"server": {"path": "/x", "args": []}, "trace": {"server": "off"}},
        {"server.path": "/x", "server.args": ["-v"], "trace.server": "verbose"},
        {"pullDiagnostics": False},
        {"pull-diagnostics": True},
    ],
)
def test_editor_keys_are_accepted_and_ignored(values: dict[str, object]) -> None:
    problems: list[str] = []
    assert Settings().with_overrides(values, problems=problems) == Settings()
    assert problems == []
    assert Settings().with_overrides(values) == Settings()


def test_exclude_extend_exclude_and_extend_files() -> None:
    assert Settings().exclude == ()
    settings = Settings().with_overrides(
        {"exclude": ["build/**"], "extend-exclude": ["tmp/*.json", "build/**"]}
    )
    assert settings.exclude == ("build/**", "tmp/*.json")
    settings = settings.with_overrides({"extendExclude": ["more/**"]})
    assert settings.exclude == ("build/**", "tmp/*.json", "more/**")
    # `extend-*` adds to this source's replacement whatever order the keys come in.
    settings = Settings().with_overrides({"extend_files": ["flows/*.json"], "files": ["*.wf.json"]})
    assert settings.files == ("*.wf.json", "flows/*.json")
    assert Settings().with_overrides({"extend-files": ["x.json"]}).files == (
        *DEFAULT_FILES,
        "x.json",
    )
    with pytest.raises(SettingsError):
        Settings().with_overrides({"exclude": "build/**"})


def test_settings_stay_comparable() -> None:
    assert Settings().with_overrides({"exclude": ["a"]}) == Settings(exclude=("a",))
    assert Settings(config_dir=Path("/a")) != Settings(config_dir=Path("/b"))
    warning = Settings().with_overrides({"severity": {"CMP-9": "warning"}})
    same = Settings().with_overrides({"severity": {"CMP-9": "WARNING"}})
    assert warning == same and hash(warning) == hash(same)
    assert len({Settings(), Settings(), warning, same}) == 2


def _load(start: Path | None = None, config: Path | None = None) -> Settings:
    """The settings the CLI would use for the folder `start`, or for `--config`."""
    return SettingsResolver(config=config, canonical=Path.resolve).for_folder(start)


def test_project_files(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.flowdrop-lsp]\nignore = ["R8"]\n', encoding="utf-8"
    )
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    assert find_project_settings(nested) == tmp_path / "pyproject.toml"
    assert _load(nested).ignore == frozenset({"R8"})
    (tmp_path / "a" / "flowdrop-lsp.toml").write_text('ignore = ["R13"]\n', encoding="utf-8")
    assert _load(nested).ignore == frozenset({"R13"})
    (tmp_path / "a" / "flowdrop-lsp.toml").write_text(
        '[flowdrop-lsp]\nignore = ["R12"]\n', encoding="utf-8"
    )
    assert _load(nested).ignore == frozenset({"R12"})


def test_config_dir_is_the_settings_file_folder(tmp_path: Path) -> None:
    assert _load(tmp_path).config_dir is None
    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    (project / "flowdrop-lsp.toml").write_text('exclude = ["out/**"]\n', encoding="utf-8")
    found = _load(project / "sub")
    assert found.config_dir == project
    assert found.exclude == ("out/**",)
    assert _load(config=project / "flowdrop-lsp.toml").config_dir == project
    assert Settings.from_file(project / "flowdrop-lsp.toml") == found
    (tmp_path / "pyproject.toml").write_text(
        '[tool.flowdrop-lsp]\nfiles = ["*.json"]\n', encoding="utf-8"
    )
    assert _load(config=tmp_path / "pyproject.toml").config_dir == tmp_path


def test_settings_file_errors_name_the_file(tmp_path: Path) -> None:
    config = tmp_path / "flowdrop-lsp.toml"
    config.write_text('ignroe = ["CMP-9"]\n', encoding="utf-8")
    with pytest.raises(SettingsError) as raised:
        _load(config=config)
    assert str(raised.value) == f"{config}: unknown setting 'ignroe' (did you mean 'ignore'?)"
    config.write_text('ignore = "CMP-9"\n', encoding="utf-8")
    with pytest.raises(SettingsError) as raised:
        _load(tmp_path)
    assert str(raised.value).startswith(f"{config}: setting 'ignore' must be")


def test_settings_file_unknowns_collected_name_the_file(tmp_path: Path) -> None:
    config = tmp_path / "flowdrop-lsp.toml"
    config.write_text('ignroe = ["CMP-9"]\nuse-instance-title = true\n', encoding="utf-8")
    problems: list[str] = []
    settings = Settings.from_file(config, problems=problems)
    assert settings.use_instance_title and settings.config_dir == tmp_path
    assert problems == [f"{config}: unknown setting 'ignroe' (did you mean 'ignore'?)"]


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


# ----- per-file-ignores ----------------------------------------------------------------------


def test_per_file_ignores_add_to_ignore_for_matching_files_only(tmp_path: Path) -> None:
    settings = Settings().with_overrides(
        {"per-file-ignores": {"legacy": ["CMP-9"], "**/*.old.flowdrop.json": ["R8", "R13"]}}
    )
    settings = replace(settings, config_dir=tmp_path, ignore=frozenset({"R12"}))
    in_folder = settings.for_file(tmp_path / "legacy" / "deep" / "a.flowdrop.json", None)
    assert in_folder.ignore == {"R12", "CMP-9"}
    by_name = settings.for_file(tmp_path / "x" / "b.old.flowdrop.json", None)
    assert by_name.ignore == {"R12", "R8", "R13"}
    elsewhere = settings.for_file(tmp_path / "current.flowdrop.json", None)
    assert elsewhere is settings  # no glob matched: the same settings, cached analyses reused


def test_per_file_ignores_without_a_settings_file_are_relative_to_the_fallback(
    tmp_path: Path,
) -> None:
    settings = Settings().with_overrides({"perFileIgnores": {"legacy/*.json": ["CMP-9"]}})
    assert "CMP-9" in settings.for_file(tmp_path / "legacy" / "a.json", tmp_path).ignore
    assert "CMP-9" not in settings.for_file(tmp_path / "other" / "a.json", tmp_path).ignore


def test_extend_per_file_ignores_adds_to_the_table() -> None:
    settings = Settings().with_overrides(
        {"per-file-ignores": {"a/**": ["R8"]}, "extend-per-file-ignores": {"b/**": ["R13"]}}
    )
    assert settings.per_file_ignores == (("a/**", frozenset({"R8"})), ("b/**", frozenset({"R13"})))
    assert hash(settings) == hash(
        Settings().with_overrides({"per-file-ignores": {"a/**": ["R8"], "b/**": ["R13"]}})
    )


def test_per_file_ignores_codes_and_shape_are_checked() -> None:
    with pytest.raises(
        SettingsError,
        match=r"unknown rule code 'CMP9' in 'per-file-ignores' \(did you mean 'CMP-9'\?\)",
    ):
        Settings().with_overrides(
            {"per-file-ignores": {"legacy/**": ["CMP9"]}}, rule_codes=RULE_CODES
        )
    with pytest.raises(SettingsError, match="must be a table of glob = \\[rule codes\\]"):
        Settings().with_overrides({"per-file-ignores": ["legacy/**"]})
    with pytest.raises(SettingsError, match="'per-file-ignores.legacy' must be a list of strings"):
        Settings().with_overrides({"per-file-ignores": {"legacy": "CMP-9"}})
    problems: list[str] = []
    kept = Settings().with_overrides(
        {"per-file-ignores": {"legacy": ["CMP9", "R8"]}}, rule_codes=RULE_CODES, problems=problems
    )
    assert kept.per_file_ignores == (("legacy", frozenset({"R8"})),)
    assert len(problems) == 1
