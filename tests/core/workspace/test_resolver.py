"""The one settings resolver (core/workspace/resolver.py): project files found and cached per
folder, override layers in their order, the folder's node-type registry, per-file-ignores, and
the two policies (strict for the CLI, lenient for the server)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from flowdrop_lsp.core.config import settings as settings_module
from flowdrop_lsp.core.config.settings import SettingsError
from flowdrop_lsp.core.findings import Severity
from flowdrop_lsp.core.workspace.resolver import RULE_CODES, SettingsResolver, unknown_rule_codes
from tests.support.imports import type_checking_only as _type_checking_only

PREFIX = "flowdrop_node_type.flowdrop_node_type."
CORE = Path(__file__).resolve().parents[3] / "flowdrop_lsp" / "core"


def _lenient(**options: Any) -> tuple[SettingsResolver, list[str]]:
    """A resolver with the server's policy, and the problems it reported."""
    problems: list[str] = []
    return SettingsResolver(report=problems.append, **options), problems


def _project(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "flowdrop-lsp.toml"
    path.write_text(text, encoding="utf-8")
    return path


# ----- discovery and caching -------------------------------------------------------------------
def test_the_nearest_project_file_of_each_folder(tmp_path: Path) -> None:
    outer = _project(tmp_path, 'ignore = ["R8"]\n')
    inner = _project(tmp_path / "inner", 'ignore = ["R13"]\n')
    (tmp_path / "inner" / "deep").mkdir()
    resolver = SettingsResolver()
    assert resolver.project_file(tmp_path / "other") == outer
    assert resolver.project_file(tmp_path / "inner" / "deep") == inner
    assert resolver.for_file(tmp_path / "a.flowdrop.json").ignore == {"R8"}
    assert resolver.for_file(tmp_path / "inner" / "deep" / "a.flowdrop.json").ignore == {"R13"}
    assert resolver.for_file(tmp_path / "a.flowdrop.json").config_dir == tmp_path


def test_project_files_are_found_and_read_once_per_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path, 'ignore = ["R8"]\n')
    searched: list[Path] = []
    find = settings_module.find_project_settings

    def counting(start: Path) -> Path | None:
        searched.append(start)
        return find(start)

    monkeypatch.setattr("flowdrop_lsp.core.workspace.resolver.find_project_settings", counting)
    resolver = SettingsResolver()
    first = resolver.for_file(tmp_path / "a.flowdrop.json")
    project.write_text('ignore = ["R13"]\n', encoding="utf-8")
    assert resolver.for_file(tmp_path / "b.flowdrop.json") is first  # same project, same folder
    assert searched == [tmp_path]
    # A folder first met reads the project file afresh (the server does not watch it).
    assert resolver.for_file(tmp_path / "sub" / "a.flowdrop.json").ignore == {"R13"}
    assert resolver.for_file(tmp_path / "a.flowdrop.json").ignore == {"R8"}
    resolver.invalidate()  # the file changed on disk: read again
    assert resolver.for_file(tmp_path / "a.flowdrop.json").ignore == {"R13"}


def test_an_explicit_settings_file_wins_over_discovery(tmp_path: Path) -> None:
    _project(tmp_path / "project", 'ignore = ["R8"]\n')
    config = _project(tmp_path / "elsewhere", 'ignore = ["R12"]\n')
    resolver = SettingsResolver(config=config)
    settings = resolver.for_file(tmp_path / "project" / "a.flowdrop.json")
    assert settings.ignore == {"R12"}
    assert settings.config_dir == tmp_path / "elsewhere"


def test_no_folder_no_project_file(tmp_path: Path) -> None:
    _project(tmp_path, 'ignore = ["R8"]\n')
    resolver, problems = _lenient(layers=("editor",))
    resolver.set_layer("editor", {"ignore": ["R13"]})
    assert resolver.for_folder(None).ignore == {"R13"}
    assert resolver.for_folder(None).known_node_types is None
    assert problems == []


# ----- layers ------------------------------------------------------------------------------------
def test_layers_apply_over_the_project_file_in_their_declared_order(tmp_path: Path) -> None:
    _project(tmp_path, 'ignore = ["R8"]\nseverity = { CMP-9 = "hint" }\n')
    resolver, problems = _lenient(layers=("initializationOptions", "workspace/configuration"))
    path = tmp_path / "a.flowdrop.json"
    resolver.set_layer("workspace/configuration", {"severity": {"CMP-9": "warning"}})
    resolver.set_layer("initializationOptions", {"severity": {"CMP-9": "info"}, "ignore": []})
    settings = resolver.for_file(path)
    assert settings.severity_of("CMP-9", Severity.ERROR) == Severity.WARNING
    assert settings.ignore == frozenset()  # replaced by a layer
    resolver.set_layer("workspace/configuration", {})  # a new layer value: the cache is dropped
    assert resolver.for_file(path).severity_of("CMP-9", Severity.ERROR) == Severity.INFO
    assert problems == []


# ----- the node-type registry and per-file-ignores ----------------------------------------------
def test_the_registry_of_the_folder_is_attached(tmp_path: Path) -> None:
    site, other = tmp_path / "site", tmp_path / "other"
    site.mkdir()
    other.mkdir()
    (site / f"{PREFIX}my_box.yml").write_text("id: my_box\nexecutor_plugin: 'm:toolbox'\n")
    resolver = SettingsResolver()
    settings = resolver.for_file(site / "a.flowdrop.json")
    assert settings.known_node_types == {"my_box"}
    assert "my_box" in settings.passthrough_types
    assert resolver.for_file(other / "a.flowdrop.json").known_node_types is None
    assert resolver.for_folder(site).known_node_types is None  # a folder's: no registry
    registry = resolver.registry_for(site / "b.flowdrop.json")
    assert registry is not None and registry.types == {"my_box"}


def test_per_file_ignores_are_relative_to_the_project_file(tmp_path: Path) -> None:
    _project(tmp_path, 'per-file-ignores = { "legacy/**" = ["CMP-9"] }\n')
    resolver = SettingsResolver()
    assert "CMP-9" in resolver.for_file(tmp_path / "legacy" / "a.flowdrop.json").ignore
    assert "CMP-9" not in resolver.for_file(tmp_path / "a.flowdrop.json").ignore
    # Before them, the workflow's settings: the CLI applies its rule choice in between.
    assert "CMP-9" not in resolver.for_workflow(tmp_path / "legacy" / "a.flowdrop.json").ignore


def test_per_file_ignores_without_a_settings_file_use_the_fallback(tmp_path: Path) -> None:
    resolver, _ = _lenient(layers=("editor",), fallback_base=tmp_path / "ws")
    resolver.set_layer("editor", {"per-file-ignores": {"legacy/*.json": ["R8"]}})
    assert "R8" in resolver.for_file(tmp_path / "ws" / "legacy" / "a.json").ignore
    assert "R8" not in resolver.for_file(tmp_path / "legacy" / "a.json").ignore


def test_a_files_per_file_ignores_are_matched_once_per_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Requests ask for a document's settings again and again: the globs are matched once per
    # file, until the settings change. Counted through Settings.for_file, which matches them.
    calls: list[Path] = []
    for_file = settings_module.Settings.for_file

    def counting(self: settings_module.Settings, path: Any, base: Any) -> Any:
        calls.append(path)
        return for_file(self, path, base)

    monkeypatch.setattr(settings_module.Settings, "for_file", counting)
    resolver, _ = _lenient(layers=("editor",))
    table = {f"dir{i}/**": ["R8"] for i in range(1000)} | {"**/legacy/**": ["CMP-9"]}
    resolver.set_layer("editor", {"per-file-ignores": table})
    legacy, other = tmp_path / "legacy" / "a.flowdrop.json", tmp_path / "b.flowdrop.json"
    first = resolver.for_file(legacy)
    assert "CMP-9" in first.ignore and "CMP-9" not in resolver.for_file(other).ignore
    assert len(calls) == 2
    assert resolver.for_file(legacy) is first
    resolver.for_file(other)
    assert len(calls) == 2  # the second time, no glob is matched
    resolver.set_layer("editor", {"per-file-ignores": {"**/b.*": ["CMP-9"]}})  # new settings
    assert "CMP-9" not in resolver.for_file(legacy).ignore
    assert "CMP-9" in resolver.for_file(other).ignore
    resolver.invalidate()  # project files changed on disk
    resolver.for_file(legacy)
    assert len(calls) == 5


# ----- the two policies --------------------------------------------------------------------------
def test_strict_raises_naming_the_source(tmp_path: Path) -> None:
    config = _project(tmp_path, 'ignore = ["CMP9"]\n')
    with pytest.raises(SettingsError) as raised:
        SettingsResolver(config=config)  # checked at once
    assert str(raised.value) == (
        f"{config}: unknown rule code 'CMP9' in 'ignore' (did you mean 'CMP-9'?)"
    )
    with pytest.raises(SettingsError, match=r"flowdrop-lsp.toml: setting 'ignore' must be"):
        config.write_text('ignore = "CMP-9"\n', encoding="utf-8")
        SettingsResolver().for_file(tmp_path / "a.flowdrop.json")
    with pytest.raises(SettingsError, match="cannot read settings from"):
        config.write_text("ignore = [", encoding="utf-8")
        SettingsResolver().for_folder(tmp_path)
    with pytest.raises(SettingsError, match=r"^editor: unknown setting 'ignroe'"):
        SettingsResolver(layers=("editor",)).set_layer("editor", {"ignroe": []})


def test_lenient_reports_and_applies_the_rest(tmp_path: Path) -> None:
    config = _project(tmp_path, 'ignore = ["CMP9", "R8"]\nexclude = ["out/**"]\n')
    resolver, problems = _lenient(layers=("editor",))
    settings = resolver.for_file(tmp_path / "a.flowdrop.json")
    assert settings.ignore == {"R8"} and settings.exclude == ("out/**",)
    assert problems == [f"{config}: unknown rule code 'CMP9' in 'ignore' (did you mean 'CMP-9'?)"]
    problems.clear()
    resolver.set_layer("editor", {"ignore": "R8", "useInstanceTitle": True})
    assert problems == ["ignoring settings from editor: setting 'ignore' must be a list of strings"]
    assert not resolver.for_file(tmp_path / "a.flowdrop.json").use_instance_title


def test_lenient_keeps_the_folder_of_a_refused_or_unreadable_file(tmp_path: Path) -> None:
    config = _project(tmp_path, 'ignore = "CMP-9"\n')
    resolver, problems = _lenient()
    assert resolver.for_folder(tmp_path).config_dir == tmp_path
    assert problems == [
        f"ignoring settings from {config}: setting 'ignore' must be a list of strings"
    ]
    config.write_text("ignore = [", encoding="utf-8")
    resolver.invalidate()
    problems.clear()
    settings = resolver.for_folder(tmp_path)
    assert settings.config_dir == tmp_path and settings.ignore == frozenset()
    assert len(problems) == 1 and problems[0].startswith(f"cannot read settings from {config}")


def test_registry_problems_are_reported_when_lenient_only(tmp_path: Path) -> None:
    (tmp_path / f"{PREFIX}broken.yml").write_text("id: [\n")
    resolver, problems = _lenient()
    resolver.for_file(tmp_path / "a.flowdrop.json")
    assert len(problems) == 1 and problems[0].startswith("node types: ")
    assert "broken.yml: not valid YAML" in problems[0]
    strict = SettingsResolver()
    strict.for_file(tmp_path / "a.flowdrop.json")  # no error: the caller reads them
    registry = strict.registry_for(tmp_path / "a.flowdrop.json")
    assert registry is not None and len(registry.problems) == 1


# ----- the rule catalogue ------------------------------------------------------------------------
def test_unknown_rule_codes_name_the_closest() -> None:
    assert unknown_rule_codes(None, ["CMP-9", "cmp10"]) == [
        "unknown rule code 'cmp10' (did you mean 'CMP-10'?)"
    ]
    assert "CMP-9" in RULE_CODES and "FD-SYNTAX" in RULE_CODES


def test_config_imports_nothing_above_it() -> None:
    """Config sits below the rules: not even a function-local import reaches up. (An import for
    annotations only, under TYPE_CHECKING, names the domain's node-type records the resolver
    hands the settings: no dependency at run time.)"""
    above = ("domain", "rules", "engine", "workspace", "ide", "analysis")
    for module in sorted((CORE / "config").glob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        hidden = _type_checking_only(tree)
        for node in ast.walk(tree):
            if id(node) in hidden:
                continue
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                assert not any(name.startswith(f"flowdrop_lsp.core.{up}") for up in above), (
                    f"{module.name} imports {name}"
                )
