"""The settings every entry point shares: node-type roles, rule severities, ignored rules (for
every file, or per file: `per-file-ignores`, applied by `Settings.for_file`), globs.

One typed, frozen object built from plain mappings, whatever their origin: a `flowdrop-lsp.toml`,
a `[tool.flowdrop-lsp]` table in `pyproject.toml`, `--config`, or the editor's settings. Keys are
accepted in kebab-case, snake_case or camelCase (`passthrough-types`, `passthroughTypes`).

Settings are checked: an unknown key, or an unknown rule code where a code is expected (`ignore`,
`per-file-ignores`, the keys of `severity`), is a problem that names a close match ("did you
mean 'ignore'?"). The CLI treats it as an error; the server collects it as a warning and applies
the valid rest. The keys editors add to our section for themselves (`server.path`,
`trace.server`, `pullDiagnostics`) are accepted and ignored.

Config sits below the rules, so it does not know which rule codes exist: whoever parses settings
tells it, as the `rule_codes` keyword of `with_overrides` (and `with_file`, `from_file`), the
way Ruff's settings are told the rule catalogue. Without it, codes are taken as written,
unchecked (for tests and for settings built from trusted values). core/workspace/resolver.py,
the one resolver of the CLI and the server, always passes the registry's codes; it also owns
finding the project file (`find_project_settings` only searches).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from flowdrop_lsp.core.config.globs import glob_index
from flowdrop_lsp.core.config.project import PROJECT_FILE as PROJECT_FILE  # (re-exported)
from flowdrop_lsp.core.config.project import PYPROJECT_TABLE
from flowdrop_lsp.core.config.project import find_project_settings as find_project_settings
from flowdrop_lsp.core.config.renamed_codes import current_code
from flowdrop_lsp.core.findings import Severity
from flowdrop_lsp.core.text.suggestions import alike_names, did_you_mean, quoted

if TYPE_CHECKING:  # the registry module imports this one
    from flowdrop_lsp.core.domain.node_types import NodeTypeCatalog, NodeTypeRegistry

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

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
DEFAULT_FILES = (
    "**/*.flowdrop.json",
    # Drupal config entities, as sites keep them in git (config/sync).
    "**/flowdrop_workflow.flowdrop_workflow.*.yml",
    "**/flowdrop_workflow.flowdrop_workflow.*.yaml",
)
# Discovery already skips VCS/tool folders and .gitignored files, so nothing more by default.
DEFAULT_EXCLUDE: tuple[str, ...] = ()
# Empty: links go to the rule pages shipped in the package (core/rules: `rule_url`), which
# exist offline; the project has no public host to point at.
DEFAULT_DOCS_URL = ""

# Unknown keys, and unknown codes per setting, named one by one (with a close match) before the
# rest are counted in one problem.
MAX_UNKNOWN_REPORTED = 10


class SettingsError(ValueError):
    """A setting has a value of the wrong kind, or an unknown key or rule code; the message
    names it."""


@dataclass(frozen=True)
class Settings:
    passthrough_types: frozenset[str] = DEFAULT_PASSTHROUGH_TYPES
    tool_accepting_types: frozenset[str] = DEFAULT_TOOL_ACCEPTING_TYPES
    non_accepting_types: frozenset[str] = DEFAULT_NON_ACCEPTING_TYPES
    edge_types: frozenset[str] = DEFAULT_EDGE_TYPES
    severity: Mapping[str, Severity] = field(default_factory=dict)
    ignore: frozenset[str] = frozenset()
    # (glob, codes): rules turned off for the files a glob matches (the file or a folder above
    # it, relative to `config_dir` like `exclude`); JSON has no comments to suppress one in.
    per_file_ignores: tuple[tuple[str, frozenset[str]], ...] = ()
    files: tuple[str, ...] = DEFAULT_FILES
    # Globs of files not to check, even when they match `files`.
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    use_instance_title: bool = False
    docs_url: str = DEFAULT_DOCS_URL
    # Re-analyse from scratch on every change (the benchmark's baseline and the test oracle).
    full_recompute: bool = False
    # `check --fix` and `--diff` also apply a finding's only fix when that one is unsafe, as
    # `--unsafe-fixes` (Ruff's key); the command line's `--[no-]unsafe-fixes` wins. Read by
    # the CLI only: no finding depends on it.
    unsafe_fixes: bool = False
    # `check` fails (exit 1) when it reports more warnings than this, as ESLint's
    # `--max-warnings`; the command line's `--max-warnings` wins. None: warnings never fail a
    # run. Read by the CLI only.
    max_warnings: int | None = None
    # The folder of the settings file these values came from (None: defaults and editor settings
    # only), so that relative `files` and `exclude` globs mean the same wherever one runs from.
    config_dir: Path | None = None
    # Extra folders, definition files or globs of node-type definitions (core/workspace/node_types.py),
    # relative to `config_dir`, else the working directory. A workflow's own folder always counts.
    node_types: tuple[str, ...] = ()
    # The types the site's registry defines (None: no registry found, the defaults stand), and
    # where they came from, for messages. Set by `with_registry`, never by a user.
    known_node_types: frozenset[str] | None = None
    node_types_origin: str = ""
    # The site's definitions themselves (parameters, outputs): what the launch checks read.
    node_type_catalog: NodeTypeCatalog | None = None
    # What the user's settings said about the role sets, so that `with_registry` lets them win:
    # the role fields a user replaced, and the (field, type) pairs a user's `extend-*` added.
    user_replaced: frozenset[str] = frozenset()
    user_extended: frozenset[tuple[str, str]] = frozenset()
    # What a site's own modules add to the expression engines (Twig extensions, expression
    # functions): names known beside FlowDrop's and Twig's own (core/domain/expressions.py).
    twig_filters: frozenset[str] = frozenset()
    twig_functions: frozenset[str] = frozenset()
    twig_tests: frozenset[str] = frozenset()
    twig_tags: frozenset[str] = frozenset()
    expression_functions: frozenset[str] = frozenset()
    # Whether the Twig names known are all a site's templates may use, so that any other name
    # is refused as Twig refuses it (R11's error) rather than reported as one a module may add
    # (a warning): `twig-extensions-complete`. None: decided from the site, `site_twig_complete`.
    twig_extensions_complete: bool | None = None
    # What the site's own modules' code was read to add to Twig (core/workspace/twig_extensions.py),
    # merged into `twig_*` above; whether it was the whole story (module code found, every
    # extension read) and where it was read, for messages. Set by `with_site_twig`, never by a user.
    site_twig_complete: bool = False
    site_twig_origin: str = ""

    def __hash__(self) -> int:
        # `severity` is a dict, unhashable: hash its items (equality already compares it).
        return hash(
            tuple(
                frozenset(self.severity.items()) if f.name == "severity" else getattr(self, f.name)
                for f in fields(self)
            )
        )

    @classmethod
    def from_file(
        cls,
        path: Path,
        *,
        rule_codes: Sequence[str] | None = None,
        problems: list[str] | None = None,
    ) -> Settings:
        """The defaults with the settings file `path` applied (see `with_file`)."""
        return cls().with_file(path, rule_codes=rule_codes, problems=problems)

    def with_file(
        self,
        path: Path,
        *,
        rule_codes: Sequence[str] | None = None,
        problems: list[str] | None = None,
    ) -> Settings:
        """These settings with the flowdrop-lsp table of `path` applied, `config_dir` its folder.

        One file on its own; the CLI and the server resolve theirs with core/workspace.
        Errors name the file. With `problems`, unknown keys and codes are collected there
        (each naming the file) instead of raised, as in `with_overrides`."""
        values = read_settings_file(path)
        found: list[str] | None = None if problems is None else []
        try:
            settings = self.with_overrides(values, rule_codes=rule_codes, problems=found)
        except SettingsError as error:
            raise SettingsError(f"{path}: {error}") from None
        if problems is not None and found:
            problems.extend(f"{path}: {problem}" for problem in found)
        return replace(settings, config_dir=path.resolve().parent)

    def with_overrides(  # noqa: C901 - one branch per setting, every setting read in one place
        self,
        values: Mapping[str, Any],
        *,
        rule_codes: Sequence[str] | None = None,
        problems: list[str] | None = None,
    ) -> Settings:
        """These settings with `values` (a plain mapping, any key style) applied on top.

        `rule_codes`: every rule code, in the documented order (the caller's rule catalogue);
        a code not among them is unknown. None: codes are not checked.

        A value of the wrong kind raises SettingsError. So does an unknown key or rule code,
        unless `problems` is given: then each is described there and skipped, and the valid rest
        applies (the server warns and goes on; the CLI stops)."""
        unknown_keys: list[object] = []
        # Per setting, its unknown codes; named (a few of them) once all are read.
        unknown_by_setting: dict[str, list[str]] = {}
        catalogue = frozenset(rule_codes) if rule_codes is not None else None

        def known_only(name: str, codes: Iterable[str]) -> list[str]:
            """`codes` without the unknown ones, which are kept to become problems; a renamed
            code as it is called today."""
            codes = [current_code(code) for code in codes]
            if catalogue is None:
                return codes
            kept = [code for code in codes if code in catalogue]
            if len(kept) < len(codes):
                misses = unknown_by_setting.setdefault(name, [])
                misses.extend(code for code in codes if code not in catalogue)
            return kept

        changes: dict[str, Any] = {}
        # Replacements before `extend-*`, so that `extend-files` adds to this source's `files`
        # whatever order the keys come in.
        items = sorted(values.items(), key=lambda item: _normal_key(item[0]).startswith("extend_"))
        for raw_key, value in items:
            key = _normal_key(raw_key)
            extends = key[len("extend_") :] if key.startswith("extend_") else None
            if key not in KNOWN_KEYS and key not in EDITOR_KEYS:
                unknown_keys.append(raw_key)  # even when null: a typo all the same
                continue
            if value is None or key in EDITOR_KEYS:
                continue
            if key in _SET_FIELDS:
                changes[key] = frozenset(_strings(raw_key, value))
                replaced = changes.get("user_replaced", self.user_replaced)
                changes["user_replaced"] = replaced | {key}
            elif extends in _SET_FIELDS:
                base = changes.get(extends, getattr(self, extends))
                added = frozenset(_strings(raw_key, value))
                changes[extends] = frozenset(base) | added
                extended = changes.get("user_extended", self.user_extended)
                changes["user_extended"] = extended | {(extends, name) for name in added}
            elif key in _GLOB_FIELDS:
                changes[key] = tuple(dict.fromkeys(_strings(raw_key, value)))
            elif extends in _GLOB_FIELDS:
                base = changes.get(extends, getattr(self, extends))
                changes[extends] = tuple(dict.fromkeys((*base, *_strings(raw_key, value))))
            elif key == "ignore":
                changes["ignore"] = frozenset(known_only(raw_key, _strings(raw_key, value)))
            elif key in ("per_file_ignores", "extend_per_file_ignores"):
                table = _per_file_ignores(raw_key, value)
                entries = tuple(
                    (pattern, frozenset(known_only(raw_key, codes)))
                    for pattern, codes in table.items()
                )
                if key == "extend_per_file_ignores":
                    entries = changes.get("per_file_ignores", self.per_file_ignores) + entries
                changes["per_file_ignores"] = entries
            elif key == "severity":
                levels = {current_code(c): s for c, s in _severities(raw_key, value).items()}
                known = known_only(raw_key, levels)
                changes["severity"] = {**self.severity, **{code: levels[code] for code in known}}
            elif key in (
                "use_instance_title",
                "full_recompute",
                "unsafe_fixes",
                "twig_extensions_complete",
            ):
                if not isinstance(value, bool):
                    raise SettingsError(f"setting '{raw_key}' must be true or false")
                changes[key] = value
            elif key == "max_warnings":
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise SettingsError(f"setting '{raw_key}' must be a whole number, 0 or more")
                changes[key] = value
            elif key == "docs_url":
                if not isinstance(value, str):
                    raise SettingsError(f"setting '{raw_key}' must be a string")
                changes[key] = value
        unknown = unknown_key_problems(unknown_keys)
        for name, codes in unknown_by_setting.items():
            unknown.extend(unknown_codes(name, codes, rule_codes or ()))
        if unknown and problems is None:
            raise SettingsError("; ".join(unknown))
        if problems is not None:
            problems.extend(unknown)
        return replace(self, **changes)

    def for_file(self, path: PurePath, fallback_base: PurePath | None) -> Settings:
        """These settings for the file `path`: its `per-file-ignores` added to `ignore`. Globs
        are relative to `config_dir`, else `fallback_base` (the working directory, or the
        workspace folder); these very settings when no glob matches. Each glob is compiled
        once per table and only the globs that can match `path` are tried (globs.GlobIndex);
        the server keeps the answer per file (core/workspace/resolver.py)."""
        if not self.per_file_ignores:
            return self
        base = self.config_dir if self.config_dir is not None else fallback_base
        table = self.per_file_ignores
        index = glob_index(tuple(pattern for pattern, _ in table))
        extra = frozenset(code for i in index.matching(path, base) for code in table[i][1])
        return replace(self, ignore=self.ignore | extra) if extra - self.ignore else self

    def severity_of(self, code: str, default: Severity) -> Severity:
        return self.severity.get(code, default)

    def with_site_twig(
        self,
        filters: Iterable[str],
        functions: Iterable[str],
        tests: Iterable[str],
        tags: Iterable[str],
        *,
        complete: bool,
        origin: str,
    ) -> Settings:
        """These settings with the Twig names a site's modules register added to the declared
        ones; `complete`: the site's module code was found and read whole (`origin`: where)."""
        return replace(
            self,
            twig_filters=self.twig_filters | frozenset(filters),
            twig_functions=self.twig_functions | frozenset(functions),
            twig_tests=self.twig_tests | frozenset(tests),
            twig_tags=self.twig_tags | frozenset(tags),
            site_twig_complete=complete,
            site_twig_origin=origin,
        )

    @property
    def twig_names_complete(self) -> bool:
        """Whether a Twig name none of the known lists has is refused (see the fields)."""
        if self.twig_extensions_complete is not None:
            return self.twig_extensions_complete
        return self.site_twig_complete

    def with_registry(self, registry: NodeTypeRegistry | None) -> Settings:
        """These settings with a site's node-type registry applied to the node-type roles.

        Precedence, lowest first: the built-in defaults; the registry, which decides every type
        it defines (a defined type is a passthrough, accepts tools, or is known not to, as its
        definition says; the defaults stand for the types it does not define); the user's
        settings: a replaced list (`passthrough-types = [...]`) is kept as it is, and a type
        named in an `extend-*` list gets that role whatever the registry says. None: no
        registry, these settings unchanged."""
        if registry is None:
            return self
        defined = registry.types
        toolbox = registry.toolbox_types
        accepting = registry.tool_accepting_types - toolbox
        derived = {
            "passthrough_types": toolbox | (DEFAULT_PASSTHROUGH_TYPES - defined),
            "tool_accepting_types": accepting | (DEFAULT_TOOL_ACCEPTING_TYPES - defined),
            "non_accepting_types": (defined - accepting - toolbox)
            | (DEFAULT_NON_ACCEPTING_TYPES - defined),
        }
        extended: dict[str, frozenset[str]] = {
            name: frozenset(t for f, t in self.user_extended if f == name) for name in derived
        }
        # A type the user calls accepting is not non-accepting, and the other way round.
        derived["tool_accepting_types"] -= extended["non_accepting_types"]
        derived["non_accepting_types"] -= extended["tool_accepting_types"]
        changes: dict[str, Any] = {
            name: value | extended[name]
            for name, value in derived.items()
            if name not in self.user_replaced
        }
        return replace(
            self,
            **changes,
            known_node_types=defined,
            node_types_origin=registry.describe(Path.cwd()),
            node_type_catalog=registry.catalog,
        )


_SET_FIELDS = {
    "passthrough_types",
    "tool_accepting_types",
    "non_accepting_types",
    "edge_types",
    "twig_filters",
    "twig_functions",
    "twig_tests",
    "twig_tags",
    "expression_functions",
}
_GLOB_FIELDS = {"files", "exclude", "node_types"}
# Every analysis key, normalised; `extend_*` adds to the field of that name.
KNOWN_KEYS = frozenset(
    {
        *_SET_FIELDS,
        *(f"extend_{name}" for name in (*_SET_FIELDS, *_GLOB_FIELDS)),
        *_GLOB_FIELDS,
        "severity",
        "ignore",
        "per_file_ignores",
        "extend_per_file_ignores",
        "use_instance_title",
        "docs_url",
        "full_recompute",
        "unsafe_fixes",
        "max_warnings",
        "twig_extensions_complete",
    }
)
# Keys editors keep in our section for themselves (VS Code: `flowdrop.server.path`,
# `flowdrop.server.args`, `flowdrop.trace.server`, sent nested or dotted; our extension's
# `pullDiagnostics` initialization option). Accepted and ignored, so that they never warn.
EDITOR_KEYS = frozenset(
    {"server", "server.path", "server.args", "trace", "trace.server", "pull_diagnostics"}
)
_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")


def _normal_key(key: object) -> str:
    return _CAMEL.sub(r"_\1", str(key)).replace("-", "_").lower()


def _in_style_of(key: str, example: str) -> str:
    """A normalised `key` written the way the user wrote `example` (kebab, snake or camel)."""
    if "_" in example:
        return key
    if any(c.isupper() for c in example):
        head, *rest = key.split("_")
        return head + "".join(part.capitalize() for part in rest)
    return key.replace("_", "-")


# How alike a near miss of a setting or a code must be to be offered (difflib's own default).
DIFFLIB_CUTOFF = 0.6


def _unknown_key(raw_key: object) -> str:
    matches = alike_names(_normal_key(raw_key), KNOWN_KEYS, cutoff=DIFFLIB_CUTOFF, limit=1)
    hint = f" ({did_you_mean(quoted([_in_style_of(matches[0], str(raw_key))]))})" if matches else ""
    return f"unknown setting '{raw_key}'{hint}"


def unknown_key_problems(raw_keys: Sequence[object]) -> list[str]:
    """A problem for each unknown key (the first MAX_UNKNOWN_REPORTED, then one for the rest)."""
    problems = [_unknown_key(key) for key in raw_keys[:MAX_UNKNOWN_REPORTED]]
    if len(raw_keys) > MAX_UNKNOWN_REPORTED:
        problems.append(f"{len(raw_keys) - MAX_UNKNOWN_REPORTED} more unknown settings")
    return problems


def _loose_code(code: str) -> str:
    """Codes are case-sensitive, but a near miss is found ignoring case, `-` and `_`."""
    return code.upper().replace("-", "").replace("_", "")


def near_code(code: str, known: Iterable[str]) -> str | None:
    """The "did you mean" for `code`, not among the codes `known` (rule codes, or the spec's
    locator codes), when one is close ignoring case, `-` and `_`; of two alike so, the later."""
    by_loose = {_loose_code(name): name for name in known}
    matches = alike_names(_loose_code(code), by_loose, cutoff=DIFFLIB_CUTOFF, limit=1)
    return did_you_mean(quoted([by_loose[matches[0]]])) if matches else None


def unknown_codes(name: object, codes: Iterable[str], known: Sequence[str]) -> list[str]:
    """A problem for each distinct code of `codes` that is not among the rule codes `known` (in
    the documented order), with the closest match; `name` says where the codes were given (a
    setting; None when the caller says it). Only the first MAX_UNKNOWN_REPORTED are named, the
    rest counted in one more problem: a pasted list of thousands is a few warnings, and the
    search for a close match (difflib, the costly part) runs for those few only."""
    known_set = frozenset(known)
    unknown = list(
        dict.fromkeys(
            code for code in codes if code not in known_set and current_code(code) not in known_set
        )
    )
    if not unknown:
        return []
    where = f" in '{name}'" if name is not None else ""
    problems = []
    for code in unknown[:MAX_UNKNOWN_REPORTED]:
        hint = near_code(code, known) or f"known codes: {', '.join(known)}"
        problems.append(f"unknown rule code '{code}'{where} ({hint})")
    if len(unknown) > MAX_UNKNOWN_REPORTED:
        problems.append(f"{len(unknown) - MAX_UNKNOWN_REPORTED} more unknown rule codes{where}")
    return problems


def _strings(name: str, value: Any) -> list[str]:
    if (
        isinstance(value, str)
        or not isinstance(value, Iterable)
        or not all(isinstance(v, str) for v in value)
    ):
        raise SettingsError(f"setting '{name}' must be a list of strings")
    return list(value)


def _per_file_ignores(name: str, value: Any) -> dict[str, list[str]]:
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise SettingsError(f"setting '{name}' must be a table of glob = [rule codes]")
    return {pattern: _strings(f"{name}.{pattern}", codes) for pattern, codes in value.items()}


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
    top level (or a `[flowdrop-lsp]` table) elsewhere — or `[tool.flowdrop-lsp]` there too when
    it is all the file holds. Raises SettingsError when unreadable or mixed."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise SettingsError(f"cannot read settings from {path}: {error}") from None
    tool = data.get("tool")
    ours = tool.get(PYPROJECT_TABLE) if isinstance(tool, dict) else None
    if path.name == "pyproject.toml":
        table = ours if ours is not None else {}
    elif ours is not None and set(data) == {"tool"}:
        # pyproject.toml's table copied into a settings file of its own: read as it was meant.
        table = ours
    elif ours is not None:
        raise SettingsError(
            f"{path}: [tool.{PYPROJECT_TABLE}] is pyproject.toml's table; in this file write "
            "the settings at the top level (or under [flowdrop-lsp]), not beside other keys"
        )
    else:
        table = data.get(PYPROJECT_TABLE, data)
    if not isinstance(table, dict):
        raise SettingsError(f"{path}: the flowdrop-lsp settings must be a table")
    return table
