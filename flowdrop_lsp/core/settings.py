"""The settings every entry point shares: node-type roles, rule severities, ignored rules, globs.

One typed, frozen object built from plain mappings, whatever their origin: a `flowdrop-lsp.toml`,
a `[tool.flowdrop-lsp]` table in `pyproject.toml`, `--config`, or the editor's settings. Keys are
accepted in kebab-case, snake_case or camelCase (`passthrough-types`, `passthroughTypes`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from flowdrop_lsp.core.findings import Severity

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

# docs/domain.md §3: the spec's `toolbox` and Drupal's "Tool Box" forward tools.
DEFAULT_PASSTHROUGH_TYPES = frozenset({"toolbox", "flowdrop_node_processor_toolbox"})
DEFAULT_TOOL_ACCEPTING_TYPES = frozenset(
    {
        "agent",
        "aincient_reason",
        "aincient_flows_aincient_invoke",
        "flowdrop_node_processor_reason",
        "flowdrop_node_processor_tool_invoke",
        "flowdrop_workflow_react_agent_engine",
    }
)
# Types known to be tools that do not accept tools. Unknown types are never an error (CMP-10).
DEFAULT_NON_ACCEPTING_TYPES = frozenset({"http_request", "calculator", "html_to_markdown"})
# EDGE-5: a recognised declaration decides; anything else is refused at save.
DEFAULT_EDGE_TYPES = frozenset({"tool_availability", "data", "trigger", "loopback", "agent_result"})
DEFAULT_FILES = ("**/*.flowdrop.json",)
DEFAULT_DOCS_URL = "https://github.com/flowdrop/flowdrop-lsp/blob/main/README.md"

PROJECT_FILE = "flowdrop-lsp.toml"
PYPROJECT_TABLE = "flowdrop-lsp"


class SettingsError(ValueError):
    """A setting has a value of the wrong kind; the message names it."""


@dataclass(frozen=True)
class Settings:
    passthrough_types: frozenset[str] = DEFAULT_PASSTHROUGH_TYPES
    tool_accepting_types: frozenset[str] = DEFAULT_TOOL_ACCEPTING_TYPES
    non_accepting_types: frozenset[str] = DEFAULT_NON_ACCEPTING_TYPES
    edge_types: frozenset[str] = DEFAULT_EDGE_TYPES
    severity: Mapping[str, Severity] = field(default_factory=dict)
    ignore: frozenset[str] = frozenset()
    files: tuple[str, ...] = DEFAULT_FILES
    exclude: tuple[str, ...] = ()
    # The folder of the settings file these settings came from: globs are relative to it.
    config_dir: Path | None = None
    use_instance_title: bool = False
    docs_url: str = DEFAULT_DOCS_URL
    # Re-analyse from scratch on every change (the benchmark's baseline and the test oracle).
    full_recompute: bool = False

    def with_overrides(self, values: Mapping[str, Any]) -> Settings:
        """These settings with `values` (a plain mapping, any key style) applied on top."""
        changes: dict[str, Any] = {}
        for raw_key, value in values.items():
            key = _normal_key(raw_key)
            if value is None:
                continue
            if key in _SET_FIELDS:
                changes[key] = frozenset(_strings(raw_key, value))
            elif key.startswith("extend_") and key[len("extend_") :] in _SET_FIELDS:
                target = key[len("extend_") :]
                base = changes.get(target, getattr(self, target))
                changes[target] = frozenset(base) | frozenset(_strings(raw_key, value))
            elif key == "ignore":
                changes["ignore"] = frozenset(_strings(raw_key, value))
            elif key in ("files", "exclude"):
                changes[key] = tuple(_strings(raw_key, value))
            elif key == "extend_exclude":
                changes["exclude"] = (
                    *changes.get("exclude", self.exclude),
                    *_strings(raw_key, value),
                )
            elif key == "severity":
                changes["severity"] = {**self.severity, **_severities(raw_key, value)}
            elif key in ("use_instance_title", "full_recompute"):
                if not isinstance(value, bool):
                    raise SettingsError(f"setting '{raw_key}' must be true or false")
                changes[key] = value
            elif key == "docs_url":
                if not isinstance(value, str):
                    raise SettingsError(f"setting '{raw_key}' must be a string")
                changes[key] = value
            # Unknown keys are ignored so that newer editor settings never break an older server.
        return replace(self, **changes)

    def severity_of(self, code: str, default: Severity) -> Severity:
        return self.severity.get(code, default)


_SET_FIELDS = {"passthrough_types", "tool_accepting_types", "non_accepting_types", "edge_types"}
_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")


def _normal_key(key: str) -> str:
    return _CAMEL.sub(r"_\1", key).replace("-", "_").lower()


def _strings(name: str, value: Any) -> list[str]:
    if (
        isinstance(value, str)
        or not isinstance(value, Iterable)
        or not all(isinstance(v, str) for v in value)
    ):
        raise SettingsError(f"setting '{name}' must be a list of strings")
    return list(value)


def _severities(name: str, value: Any) -> dict[str, Severity]:
    if not isinstance(value, Mapping):
        raise SettingsError(f"setting '{name}' must be a table of rule code = severity")
    result = {}
    for code, level in value.items():
        try:
            result[str(code)] = Severity(str(level).lower())
        except ValueError:
            raise SettingsError(
                f"severity of '{code}' must be one of error, warning, info, hint (got {level!r})"
            ) from None
    return result


def read_settings_file(path: Path) -> dict[str, Any]:
    """The flowdrop-lsp table of a TOML file: `[tool.flowdrop-lsp]` in a pyproject.toml, the
    top level (or a `[flowdrop-lsp]` table) elsewhere. Raises SettingsError when unreadable."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise SettingsError(f"cannot read settings from {path}: {error}") from None
    if path.name == "pyproject.toml":
        table = data.get("tool", {}).get(PYPROJECT_TABLE, {})
    else:
        table = data.get(PYPROJECT_TABLE, data)
    if not isinstance(table, dict):
        raise SettingsError(f"{path}: the flowdrop-lsp settings must be a table")
    return table


def find_project_settings(start: Path) -> Path | None:
    """The nearest `flowdrop-lsp.toml`, or `pyproject.toml` with a `[tool.flowdrop-lsp]` table,
    in `start` or its parents."""
    directory = start if start.is_dir() else start.parent
    for folder in (directory, *directory.parents):
        candidate = folder / PROJECT_FILE
        if candidate.is_file():
            return candidate
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file():
            try:
                if PYPROJECT_TABLE in tomllib.loads(pyproject.read_text(encoding="utf-8")).get(
                    "tool", {}
                ):
                    return pyproject
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                continue
    return None


def load_settings(start: Path | None = None, config: Path | None = None) -> Settings:
    """Settings from an explicit config file, else the project file found from `start`."""
    path = config if config is not None else (find_project_settings(start) if start else None)
    if path is None:
        return Settings()
    return replace(Settings(), config_dir=path.resolve().parent).with_overrides(
        read_settings_file(path)
    )
