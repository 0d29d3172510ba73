"""How the host (core/workspace/host.py) reads a site file from disk: through the house's one
reader (core/workspace/reading.py, as the site's node types carry it: a `check`'s `ReadOnce`,
the server's fresh reads), a file that is not UTF-8 kept with the reader's one finding, and a
file read into its site's index
(`read_into`): a workflow analysed in the same read — or taken, for the same text and settings,
from what a buffer closed as saved told of it or from the analyses preloaded for its site
(core/workspace/preloading.py) — its own findings kept in its record."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.config.site_files import is_workflow_config_file
from flowdrop_lsp.core.domain.site_facts import WorkflowFacts
from flowdrop_lsp.core.workspace.batch import AnalysisJob, FileAnalysis, analyse_file
from flowdrop_lsp.core.workspace.host_state import HostedFile, HostState, OwnFindings, Undecodable
from flowdrop_lsp.core.workspace.node_types import NodeTypeFiles
from flowdrop_lsp.core.workspace.reading import SiteFile
from flowdrop_lsp.core.workspace.site import SiteIndex, syntax_of_path


class HostReading:
    """The host's part that reads site files from disk into their indexes (see the module
    docstring); it writes the files' records of the host's state (`HostState`)."""

    def __init__(
        self, state: HostState, settings_for: Callable[[Path], Settings], node_types: NodeTypeFiles
    ) -> None:
        self.state = state
        self.settings_for = settings_for
        self.node_types = node_types

    def read_file(self, path: Path) -> SiteFile:
        """A site file as the house reads one (its text, or why it has none): the one way the
        host and its parts read one."""
        return self.node_types.read_file(path)

    def disk_text(self, path: Path) -> str | None:
        """The file's text on disk, None when it has none (unreadable, too large, not UTF-8)."""
        return self.read_file(path).text

    def new_index(self, root: Path) -> SiteIndex:
        """An empty index of the site folder `root`, reading its files as the host does."""
        return SiteIndex(root, self.read_file, self.node_types)

    def read_into(self, index: SiteIndex, path: Path, *, update: bool = False) -> set[str]:
        """Read a site file from disk into its index (a workflow analysed in the same read);
        with `update`, answer the files it makes stale."""
        key = str(path)
        record = self.state.file(key)
        kept_own, kept_facts = record.own, record.closed
        record.own = record.closed = record.undecodable = None
        file = self.read_file(path)
        text = file.text
        if text is None:
            if file.undecodable is not None:
                record.undecodable = Undecodable(file.shown, file.undecodable)
            # In the site all the same, without facts: a call of it is no call of a missing
            # workflow (its own finding says what is wrong).
            return index.update(key) if update else set()
        facts: WorkflowFacts | None = None
        if is_workflow_config_file(path):
            settings = self.settings_for(path)
            if (
                kept_own is not None
                and kept_facts is not None
                and kept_own.made_under(text, settings)
                and kept_facts.text == text
            ):
                # A buffer closed as it was saved told us what this text holds: no re-read.
                record.own = OwnFindings(text, settings, kept_own.findings)
                facts = kept_facts.facts
            else:
                analysis = self._preloaded(record, text, settings)
                if analysis is None:
                    analysis = self.analyse(text, settings, syntax_of_path(path), site_file=True)
                record.own = OwnFindings(text, settings, analysis.findings)
                facts = analysis.facts if isinstance(analysis.facts, WorkflowFacts) else None
        if update:
            return index.update(key, text, facts)
        index.read(key, text, facts)
        return set()

    @staticmethod
    def _preloaded(record: HostedFile, text: str, settings: Settings) -> FileAnalysis | None:
        """The analysis preloaded for the file, if it was made for this text and settings; it
        is dropped either way (a site's read takes it once)."""
        preloaded, record.preloaded = record.preloaded, None
        if preloaded is not None and preloaded.text == text and preloaded.settings == settings:
            return preloaded.taken()
        return None

    def analyse(self, text: str, settings: Settings, syntax: str, site_file: bool) -> FileAnalysis:
        """A text's own analysis, computed here (never from the cache)."""
        return analyse_file(AnalysisJob(text, b"", settings, syntax, site_file=site_file))
