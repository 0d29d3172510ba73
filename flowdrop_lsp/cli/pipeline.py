"""The files of one `check` run, from their bytes to their findings, site included.

`Checked` is one file read (its text, bytes, settings); `analyse_all` gives every file its
single-file findings through the batch (core/workspace/batch.py: cached, in parallel), and
`SitePass` joins the files of each site folder (a Drupal `config/sync`) in a site index and adds
each file's cross-file findings, settings applied. The site's node-type definitions that get
cross-file findings are reported too, under their own path, when they are inside a folder that
was checked (`extra_results`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from flowdrop_lsp.core.analysis import apply_settings
from flowdrop_lsp.core.config.node_types import is_definition_file
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.workspace.batch import AnalysisJob, Batch, FileAnalysis, analyse_file
from flowdrop_lsp.core.workspace.site import SiteIndex, is_site_file, is_workflow_config_file


@dataclass
class Checked:
    """One file to check: `path` as walked (`-`: standard input), `display` as reported."""

    path: Path
    display: str
    settings: Settings
    text: str
    data: bytes
    syntax: str
    allow_comments: bool
    registry: str = ""  # the node-type registry's fingerprint (cache.registry_fingerprint)
    folder: Path | None = None  # its folder, resolved (None: standard input)
    analysis: FileAnalysis | None = None
    # Its cross-file findings (settings applied) and the site it belongs to.
    site_findings: tuple[Finding, ...] = ()
    site: SiteIndex | None = None

    @property
    def is_stdin(self) -> bool:
        return str(self.path) == "-"

    @property
    def absolute(self) -> str:
        """The path the site index knows the file by (its folder resolved, as `scan` gives)."""
        folder = self.folder if self.folder is not None else self.path.parent.resolve()
        return str(folder / self.path.name)

    @property
    def in_site(self) -> bool:
        return not self.is_stdin and is_site_file(self.path)

    @property
    def is_node_type(self) -> bool:
        """A node-type definition named on the command line: no workflow, so no single-file
        analysis; its findings are its cross-file ones (FD-CALL, FD-CONTRACT)."""
        return not self.is_stdin and is_definition_file(self.path)

    def job(self, text: str | None = None) -> AnalysisJob:
        text = self.text if text is None else text
        return AnalysisJob(
            text,
            self.data if text is self.text else text.encode("utf-8", "surrogatepass"),
            self.settings,
            self.syntax,
            self.allow_comments,
            site_file=not self.is_stdin and is_workflow_config_file(self.path),
            registry=self.registry,
        )

    def findings(self) -> tuple[Finding, ...]:
        """Every finding: the file's own and its cross-file ones, sorted."""
        own = self.analysis.findings if self.analysis is not None else ()
        if not self.site_findings:
            return own
        return tuple(sorted((*own, *self.site_findings), key=Finding.sort_key))


def analyse_all(batch: Batch, files: Sequence[Checked]) -> None:
    """Each file's single-file analysis: standard input in this process and never cached, the
    others through the batch (cache, pool)."""
    on_disk = [f for f in files if not f.is_stdin and not f.is_node_type]
    for checked, analysis in zip(on_disk, batch.analyse([f.job() for f in on_disk]), strict=True):
        checked.analysis = analysis
    for checked in files:
        if checked.is_stdin:
            checked.analysis = analyse_file(checked.job())


@dataclass
class _Folder:
    display: str  # the folder as the checked files' paths show it
    files: list[Checked] = field(default_factory=list)


class SitePass:
    """The site folders of a run, each joined once in a site index."""

    def __init__(self, batch: Batch) -> None:
        self.batch = batch
        self.folders: dict[Path, _Folder] = {}
        self.sites: dict[Path, SiteIndex] = {}

    def run(self, files: Sequence[Checked]) -> None:
        for checked in files:
            if not checked.in_site:
                continue
            folder = checked.folder or checked.path.parent.resolve()
            entry = self.folders.setdefault(folder, _Folder(os.path.dirname(checked.display)))
            entry.files.append(checked)
        for folder, entry in self.folders.items():
            known = {
                f.absolute: (f.text, f.analysis.facts if f.analysis is not None else None)
                for f in entry.files
                if is_workflow_config_file(f.path)
            }
            site = self.sites[folder] = self.batch.site(folder, known)
            for checked in entry.files:
                checked.site = site
                checked.site_findings = apply_settings(
                    site.findings(checked.absolute), checked.settings
                )

    def refresh(self, checked: Checked, text: str, analysis: FileAnalysis) -> None:
        """A file changed (`--fix`): its new text and analysis, its cross-file findings anew."""
        checked.text, checked.analysis = text, analysis
        if checked.site is None:
            return
        checked.site.update(checked.absolute, text, analysis.facts)
        checked.site_findings = apply_settings(
            checked.site.findings(checked.absolute), checked.settings
        )

    def extra_results(
        self, walked: Sequence[Path], settings_of: Callable[[Path], Settings]
    ) -> list[tuple[str, str, tuple[Finding, ...], Settings, SiteIndex]]:
        """The node-type definitions with cross-file findings, inside a folder walked and not
        checked themselves: (display, text, findings, settings, site), sorted by display."""
        found = []
        for folder, entry in self.folders.items():
            if not any(folder == top or folder.is_relative_to(top) for top in walked):
                continue
            site = self.sites[folder]
            checked = {f.absolute for f in entry.files}
            for path in site.files:
                if path in checked or not is_definition_file(path):
                    continue
                raw = site.findings(path)
                if not raw:
                    continue
                settings = settings_of(Path(path))
                findings = apply_settings(raw, settings)
                text = site.text(path)
                if findings and text is not None:
                    display = os.path.join(entry.display, os.path.basename(path))
                    found.append((display, text, findings, settings, site))
        return sorted(found, key=lambda item: item[0])
