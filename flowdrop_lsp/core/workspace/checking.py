"""What only the CLI asks of the host (core/workspace/host.py): a run's files checked at once
(their own analyses through the batch: cached, in parallel; then the site of each site file's
folder joined once), a fixed file analysed again, the node types of the folders walked (with
their cross-file findings), and the little a run needs besides (its cache and processes, the
registry's fingerprint). The host owns a `Checking` over its state and answers the CLI through
it, so that the CLI, like the server, asks the host."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from flowdrop_lsp.core.collector import collector_paused
from flowdrop_lsp.core.config.project import check_cache_folder
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.config.site_files import (
    NODE_TYPE_CONFIG_PREFIX,
    WORKFLOW_CONFIG_PREFIX,
    is_node_type_file,
    is_workflow_config_file,
)
from flowdrop_lsp.core.domain.site_view import config_id
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.workspace.batch import AnalysisJob, Batch, Facts, analyse_file
from flowdrop_lsp.core.workspace.cache import (
    CACHE_DIR_ENV,
    ResultCache,
    registry_fingerprint,
)
from flowdrop_lsp.core.workspace.host_state import HostState, OwnFindings
from flowdrop_lsp.core.workspace.resolver import SettingsResolver

SettingsFor = Callable[[Path], Settings]


def check_batch(
    resolver: SettingsResolver, *, cache: bool, cache_dir: str | None, jobs: int | None
) -> Batch:
    """The CLI's batch: its result cache (`cache_dir`, else $FLOWDROP_LSP_CACHE_DIR, else
    `.flowdrop_lsp_cache` in the project's folder — the settings file's, else the top of the
    repository, else the working directory: `check_cache_folder`; none without `cache`) and its
    worker processes (`jobs`, default: the cores)."""
    store = None
    if cache:
        chosen = cache_dir or os.environ.get(CACHE_DIR_ENV)
        if chosen:
            store = ResultCache(Path(chosen))
        else:
            store = ResultCache(check_cache_folder(Path.cwd(), resolver.config))
    return Batch(store, jobs, node_types=resolver.node_types.files)


@dataclass(frozen=True)
class CheckedFile:
    """A file the CLI checks: `path` (resolved; `-` for standard input without a name), its
    text and bytes as read, its settings, syntax, and its node-type registry's fingerprint (a
    cache key). `stdin`: the text came from standard input (`check -`), so it is never written
    back; with `--stdin-filename` its `path` is the file it stands for, and it is judged as that
    file would be: in its site, with its node types, in place of the file's text on disk."""

    path: Path
    text: str
    data: bytes
    settings: Settings
    syntax: str
    allow_comments: bool = False
    registry: str = ""
    stdin: bool = False

    @property
    def is_stdin(self) -> bool:
        """Standard input, named or not: the fixed text goes to stdout, never to a file."""
        return self.stdin or self.is_anonymous

    @property
    def is_anonymous(self) -> bool:
        """Standard input with no name: no site, no folder."""
        return str(self.path) == "-"

    @property
    def is_node_type(self) -> bool:
        """A node-type definition (named explicitly): judged by its site's checks only."""
        return not self.is_anonymous and is_node_type_file(self.path)

    def job(self, text: str | None = None) -> AnalysisJob:
        text = self.text if text is None else text
        return AnalysisJob(
            text,
            self.data if text is self.text else text.encode("utf-8", "surrogatepass"),
            self.settings,
            self.syntax,
            self.allow_comments,
            site_file=not self.is_anonymous and is_workflow_config_file(self.path),
            registry=self.registry,
        )


class Checking:
    """The CLI's part of the host (see the module docstring): the host owns one and asks it.
    It reads and writes the host's state (`HostState`: the files' records, the site folders)
    and asks the host's `findings` of a node type it walked."""

    def __init__(
        self,
        state: HostState,
        resolver: SettingsResolver,
        batch: Batch,
        settings_for: SettingsFor,
        findings: Callable[[str], tuple[Finding, ...]],
    ) -> None:
        self.state = state
        self.resolver = resolver
        self.batch = batch
        self.settings_for = settings_for
        self.findings = findings

    def check(self, files: Sequence[CheckedFile]) -> None:
        """Each file's own analysis (through the batch: cached, in parallel), then the site of
        each site file's folder joined once (its other files read for their facts).

        Without the cyclic collector: the analyses unpickled from the workers and the site's
        facts are a million objects that are all kept (none is garbage), and each collection
        as they arrive walked all of them again (a fifth of the main process's time on a
        1,000-workflow site, measured). What was made is then handed to the oldest generation
        (freeze + unfreeze), which only a full collection walks."""
        with collector_paused():
            self._check(files)

    def _check(self, files: Sequence[CheckedFile]) -> None:
        on_disk = [f for f in files if not f.is_anonymous and not is_node_type_file(f.path)]
        analyses = self.batch.analyse([f.job() for f in on_disk])
        by_folder: dict[Path, dict[str, tuple[str, Facts]]] = {}
        for checked, analysis in zip(on_disk, analyses, strict=True):
            record = self.state.file(str(checked.path))
            record.own = OwnFindings(checked.text, checked.settings, analysis.findings)
            record.given = checked.settings
            if is_workflow_config_file(checked.path):
                known = by_folder.setdefault(checked.path.parent, {})
                known[str(checked.path)] = (checked.text, analysis.facts)
        for checked in files:
            if checked.is_anonymous:
                analysis = analyse_file(checked.job())
                own = OwnFindings(checked.text, checked.settings, analysis.findings)
                self.state.file("-").own = own
            elif is_node_type_file(checked.path):
                known = by_folder.setdefault(checked.path.parent, {})
                if checked.stdin:  # the definition as given, in place of the file's text
                    self.resolver.node_types.set_overlay(checked.path, checked.text)
                    self.resolver.node_types_changed()
                    known[str(checked.path)] = (checked.text, None)
        for folder, known in by_folder.items():
            site = self.state.folder(folder)
            if site is None or site.index is None:
                self.state.add_site(folder, self.batch.site(folder, known))

    def dependents(self, path: Path) -> list[str]:
        """The workflows of the site of `path` whose cross-file findings a change to the site
        file `path` (added, changed or deleted) can change: those using it (a node type) or
        calling it (a workflow), as the site on disk says. `check --staged` asks it."""
        folder = path.parent
        index = self.state.index_of(path)
        if index is None:
            if not folder.is_dir():
                return []
            index = self.batch.site(folder, {})
            self.state.add_site(folder, index)
        if is_node_type_file(path):
            type_id = config_id(str(path), NODE_TYPE_CONFIG_PREFIX)
            using = index.users_of(type_id) if type_id else []
        elif is_workflow_config_file(path):
            workflow_id = config_id(str(path), WORKFLOW_CONFIG_PREFIX)
            using = index.callers_of(workflow_id) if workflow_id else []
        else:
            return []
        return sorted({file for file, _ in using})

    def registry_print(self, path: Path) -> str:
        """The fingerprint of the node-type registry a file is checked against (part of its
        cache key)."""
        return registry_fingerprint(self.resolver.registry_for(path))

    def stdin_findings(self) -> tuple[Finding, ...]:
        record = self.state.files.get("-")
        return record.own.findings if record is not None and record.own is not None else ()

    def refresh(self, checked: CheckedFile, text: str) -> CheckedFile:
        """A file changed (`--fix`): analysed afresh (never from the cache), its site told. A
        node-type definition is no workflow to analyse: the registries read its new text (in
        memory: `--diff` writes nothing) and its site re-reads it; the workflows judged with
        it are judged again by `rejudge`."""
        if checked.is_node_type:
            return self._refresh_node_type(checked, text)
        analysis = analyse_file(checked.job(text))
        key = "-" if checked.is_anonymous else str(checked.path)
        self.state.file(key).own = OwnFindings(text, checked.settings, analysis.findings)
        index = None if checked.is_anonymous else self.state.index_of(checked.path)
        if index is not None:
            index.update(key, text, analysis.facts)
        return CheckedFile(
            checked.path,
            text,
            text.encode("utf-8", "surrogatepass"),
            checked.settings,
            checked.syntax,
            checked.allow_comments,
            checked.registry,
            checked.stdin,
        )

    def _refresh_node_type(self, checked: CheckedFile, text: str) -> CheckedFile:
        self.resolver.node_types.set_overlay(checked.path, text)
        self.resolver.node_types_changed()
        index = self.state.index_of(checked.path)
        if index is not None:
            index.update(str(index.root / checked.path.name), text, None)
        return replace(checked, text=text, data=text.encode("utf-8", "surrogatepass"))

    def rejudge(self, checked: CheckedFile) -> CheckedFile:
        """A workflow whose folder's node types changed (`--fix` of a definition): its
        settings made again (their registry), and its text analysed afresh under them."""
        if checked.is_anonymous or checked.is_node_type:
            return checked
        settings = self.settings_for(checked.path)
        registry = registry_fingerprint(self.resolver.registry_for(checked.path))
        self.state.file(str(checked.path)).given = settings
        return self.refresh(replace(checked, settings=settings, registry=registry), checked.text)

    def walked_node_types(
        self, walked: Iterable[Path], checked: set[str]
    ) -> list[tuple[str, tuple[Finding, ...]]]:
        """The node-type definitions inside a folder walked and not checked themselves, each
        with its cross-file findings (settings applied; often none): (path, findings), sorted
        by path. The run counts them among the files it checked."""
        walked = list(walked)
        found = []
        for site in self.state.folders.values():
            index = site.index
            if index is None:
                continue
            root = index.root
            if not any(root == top or root.is_relative_to(top) for top in walked):
                continue
            for path in index.files:
                if path in checked or not is_node_type_file(path):
                    continue
                found.append((path, self.findings(path)))
        return sorted(found)
