"""The Twig names a site's own modules add, read from their code when it is in the repository.

A Drupal site keeps its config in `config/sync` and its code beside it: modules under
`modules/` (`custom/`, `contrib/` or directly) and install profiles under `profiles/`, at the
site's root or in its web root (`web/`, `docroot/`, `html/`). From a workflow's folder, the
site's root is the nearest folder (that folder or one above it, not above a `.git`) holding
one of those. Themes are not read: Drupal loads no services from a theme, so no theme adds to
Twig.

A module is a folder holding `<name>.info.yml`; its classes are `Drupal\\<name>\\…` under
`src/` (PSR-4). Its `<name>.services.yml` says which classes are Twig extensions (the services
tagged `twig.extension`); core/expressions/twig/php_extensions.py reads the names each one
registers. `tests/` folders are not walked (test modules are never enabled on a site), nor
the folders every walk skips (core/config/site_files.py).

`SiteTwigNames.complete` is whether what was read is the whole story: module folders were
found and every extension class, token parser and name was read. Only then is a Twig name
none of them has refused as Twig refuses it (R11, core/rules/expression_invalid.py).

What each site root holds is read once and kept until `invalidate` (the resolver forgets it
with the settings: a project settings file or a services file changed)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from flowdrop_lsp.core.config.site_files import (
    SERVICES_SUFFIX,
    code_folder_candidates,
    skipped_folder,
)
from flowdrop_lsp.core.expressions.twig.php_extensions import (
    read_extensions,
    twig_extension_services,
)
from flowdrop_lsp.core.workspace.reading import read_site_file

# Inside a module: only `modules/` may hold more modules (submodules); the rest is its code.
_NOT_WALKED = frozenset({"tests", "src", "config", "templates", "js", "css", "assets"})


@dataclass(frozen=True)
class SiteTwigNames:
    """What a site's modules add to Twig, and whether that is all they add (see the module)."""

    filters: frozenset[str] = frozenset()
    functions: frozenset[str] = frozenset()
    tests: frozenset[str] = frozenset()
    tags: frozenset[str] = frozenset()
    # The folders of module code found (none: the site's code is not in the repository).
    code_folders: tuple[Path, ...] = ()
    # What could not be read (a class no file holds, a name no literal gives).
    unread: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return bool(self.code_folders) and not self.unread


NO_SITE_CODE = SiteTwigNames()


class TwigExtensionScanner:
    """The site Twig names of each workflow folder, read once per site root."""

    def __init__(self) -> None:
        self._roots: dict[Path, Path | None] = {}
        self._names: dict[Path, SiteTwigNames] = {}

    def invalidate(self) -> None:
        self._roots.clear()
        self._names.clear()

    def for_folder(self, folder: Path) -> SiteTwigNames:
        """The names the site holding `folder` adds (NO_SITE_CODE: no module code found)."""
        root = self.site_root(folder)
        if root is None:
            return NO_SITE_CODE
        names = self._names.get(root)
        if names is None:
            names = self._names[root] = read_site(root)
        return names

    def site_root(self, folder: Path) -> Path | None:
        folder = Path(os.path.abspath(folder))
        if folder not in self._roots:
            self._roots[folder] = _site_root(folder)
        return self._roots[folder]


def _site_root(folder: Path) -> Path | None:
    for candidate in (folder, *folder.parents):
        if code_folders(candidate):
            return candidate
        if (candidate / ".git").exists():
            return None
    return None


def code_folders(root: Path) -> tuple[Path, ...]:
    """The folders of module code at a site's root (see the module)."""
    return tuple(Path(path) for path in code_folder_candidates(root) if os.path.isdir(path))


def read_site(root: Path) -> SiteTwigNames:
    """The Twig names the modules under the site root `root` register."""
    folders = code_folders(root)
    modules = [module for folder in folders for module in _modules(folder)]
    if not modules:
        return NO_SITE_CODE
    psr4 = [(f"Drupal\\{name}\\", str(path / "src")) for name, path in modules]
    classes: list[str] = []
    unread: list[str] = []
    for name, path in modules:
        services = path / f"{name}{SERVICES_SUFFIX}"
        if services.is_file():
            text = _read(str(services))
            if text is None:
                unread.append(f"cannot read {services}")
            else:
                classes += twig_extension_services(text)
    read = read_extensions(classes, psr4, _read)
    return SiteTwigNames(
        filters=read.filters,
        functions=read.functions,
        tests=read.tests,
        tags=read.tags,
        code_folders=folders,
        unread=(*unread, *read.unread),
    )


def _modules(folder: Path) -> list[tuple[str, Path]]:
    """Each module (or profile) below `folder`: its name and its folder."""
    found: list[tuple[str, Path]] = []
    for current, dirs, files in os.walk(folder):
        info = [f[: -len(".info.yml")] for f in files if f.endswith(".info.yml")]
        here = Path(current)
        for name in info:
            if name == here.name or len(info) == 1:
                found.append((name, here))
        dirs[:] = sorted(
            d
            for d in dirs
            if not skipped_folder(d) and d not in _NOT_WALKED and (not info or d == "modules")
        )
    return found


def _read(path: str) -> str | None:
    """A PHP or services file's text, bytes that are not UTF-8 replaced (None: absent,
    unreadable or over the size limit): core/workspace/reading.py's read."""
    file = read_site_file(Path(path))
    return None if file.too_large or file.unreadable else file.shown
