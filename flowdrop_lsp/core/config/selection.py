"""Which files are FlowDrop workflows: the one answer the CLI and the server share.

- **By name**: a path matching the `files` globs (default `**/*.flowdrop.json`) is a workflow,
  whatever it holds (a broken one gets its diagnostics). Globs are relative to the folder of the
  settings file that declares them (the workspace folder in the server, the working directory
  in the CLI when no settings file does); `*` does not cross `/`, `**` does; matching is
  wcmatch's, the library behind many tools' globbing.
- **By content**: any other `*.json` (or `*.yml`/`*.yaml`) file is a workflow only when its content is FlowDrop's
  shape: a top-level object with `nodes` AND `edges` arrays whose node items look like FlowDrop
  nodes (objects with a string `id` and a `data` object or a string `type`). A d3 graph
  (`nodes` + `links`), an n8n workflow (`nodes` + `connections`), networkx output (numeric or
  bare ids), cytoscape `elements`, JSON Graph Format, `package.json`: none is judged.
- **Node-type definitions** (`flowdrop_node_type.flowdrop_node_type.<id>.yml`, by name: core/
  config/site_files.py) are checked too, as what they are: the node-type rules judge them, and
  their site's cross-file rules (core/workspace/host.py).
- **Walks** of a directory skip `exclude` / `extend-exclude` globs (a pattern excludes the path
  it matches and everything under it), version-control and tool folders, and whatever the
  repository's `.gitignore` files ignore (as Ruff does). A file named explicitly is always
  checked.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePath

import pathspec

from flowdrop_lsp.core.config.globs import is_excluded, matches_globs
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.config.site_files import is_node_type_file
from flowdrop_lsp.core.syntax.reader import reader_for

# Folders no workflow lives in, skipped even outside a git repository.
SKIPPED_DIRECTORIES = frozenset(
    {".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache"}
)
MAX_SNIFF_BYTES = 64 * 1024 * 1024


def settings_base(settings: Settings, fallback: PurePath | None) -> PurePath | None:
    """The folder `settings`' globs are relative to: its settings file's folder, else
    `fallback` (the workspace folder, or the working directory)."""
    return settings.config_dir if settings.config_dir is not None else fallback


def named_as_workflow(path: PurePath, settings: Settings, base: PurePath | None) -> bool:
    return matches_globs(path, settings.files, settings_base(settings, base))


YAML_SUFFIXES = (".yml", ".yaml")


def syntax_of(name: str, language_id: str | None = None) -> str:
    """ "yaml" for a YAML document (by the editor's language, else the file name), else "json"."""
    if language_id is not None and language_id in ("yaml", "json", "jsonc"):
        return "yaml" if language_id == "yaml" else "json"
    return "yaml" if name.lower().endswith(YAML_SUFFIXES) else "json"


def syntax_of_text(text: str) -> str:
    """The syntax of a text with no name (standard input without --stdin-filename): JSON when
    it opens as JSON does (`{` or `[`, after a byte-order mark and blanks), else YAML (a Drupal
    config export piped in: `uuid:`, `langcode:`, a comment; JSON's "strings must be in double
    quotes" would say nothing useful of it)."""
    opening = text.lstrip("\ufeff \t\r\n")[:1]
    return "json" if opening in ("{", "[", "") else "yaml"


# ----- content ---------------------------------------------------------------------------------


def text_is_flowdrop(text: str, syntax: str = "json") -> bool:
    """Whether `text` is FlowDrop's shape (core.syntax.shape), read by the reader of its format."""
    return reader_for(syntax).looks_like_flowdrop(text)


# ----- walking ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    path: Path
    explicit: bool
    # A workflow found by its content: the bytes the content check read, so that the check
    # does not read the file again (core/workspace/reading.py `ReadOnce`).
    data: bytes | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Skipped:
    path: Path
    reason: str


class _GitIgnores:
    """The `.gitignore` files that apply inside one git repository, read as the walk meets
    them; the deepest file with a matching pattern decides, as in git."""

    def __init__(self, start: Path) -> None:
        self.root = next(
            (folder for folder in (start, *start.parents) if (folder / ".git").exists()), None
        )
        self.specs: dict[Path, pathspec.GitIgnoreSpec | None] = {}

    def _spec(self, folder: Path) -> pathspec.GitIgnoreSpec | None:
        if folder not in self.specs:
            try:
                lines = (folder / ".gitignore").read_text(encoding="utf-8").splitlines()
                self.specs[folder] = pathspec.GitIgnoreSpec.from_lines(lines)
            except (OSError, UnicodeDecodeError):
                self.specs[folder] = None
        return self.specs[folder]

    def ignored(self, path: Path, is_dir: bool) -> bool:
        if self.root is None:
            return False  # outside a repository, .gitignore files mean nothing (as for Ruff)
        folders = [f for f in path.parents if f == self.root or self.root in f.parents]
        for folder in folders:  # deepest first
            spec = self._spec(folder)
            if spec is None:
                continue
            relative = path.relative_to(folder).as_posix() + ("/" if is_dir else "")
            verdict = spec.check_file(relative).include
            if verdict is not None:
                return verdict
        return False


def _content_verdict(path: Path) -> tuple[bytes | None, str]:
    """A file judged by its content: its bytes when it is a workflow (the check takes them),
    else None and why it is skipped."""
    try:
        if path.stat().st_size > MAX_SNIFF_BYTES:
            return None, "larger than 64 MiB and not named like a workflow"
        data = path.read_bytes()
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return None, f"unreadable: {error}"
    if text_is_flowdrop(text, syntax_of(path.name)):
        return data, ""
    return None, "not a FlowDrop workflow (no top-level 'nodes' and 'edges' of FlowDrop nodes)"


def walk(
    raw: str, settings_for: Callable[[Path], Settings], cwd: Path
) -> Iterator[Candidate | Skipped]:
    """The files one command-line path stands for: itself when it is a file (or `-`), else the
    workflows and node-type definitions under it. `settings_for(path)` gives the settings in force for a path; globs
    without a settings file of their own are relative to `cwd`."""
    given = Path(raw)
    if raw == "-" or not given.is_dir():
        yield Candidate(given, explicit=True)
        return
    top = given.resolve()
    ignores = _GitIgnores(top)
    for folder, directories, files in os.walk(top):
        here = Path(folder)
        settings = settings_for(here)
        base = settings_base(settings, cwd)
        kept = []
        for name in sorted(directories):
            path = here / name
            if name in SKIPPED_DIRECTORIES:
                continue
            if is_excluded(path, settings.exclude, base) or ignores.ignored(path, True):
                continue
            kept.append(name)
        directories[:] = kept
        for name in sorted(files):
            path = here / name
            shown = _shown(path, given, top)
            if is_excluded(path, settings.exclude, base):
                yield Skipped(shown, "excluded by the `exclude` settings")
            elif ignores.ignored(path, False):
                yield Skipped(shown, "ignored by .gitignore")
            elif named_as_workflow(path, settings, base) or is_node_type_file(name):
                yield Candidate(shown, explicit=False)
            elif name.endswith((".json", *YAML_SUFFIXES)):
                data, reason = _content_verdict(path)
                yield Skipped(shown, reason) if data is None else Candidate(shown, False, data)


def _shown(path: Path, given: Path, top: Path) -> Path:
    """A found file as the user named its folder: `sub/x.json` for `check sub`."""
    return given / path.relative_to(top)
