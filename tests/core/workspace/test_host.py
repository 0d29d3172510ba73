"""The host (core/workspace/host.py): the one answer to "the findings of this file", on copies of
the real site. A keystroke in an open node-type buffer makes stale the files that use the type,
not the site; each definition is parsed once however many readers ask; a file that is not
UTF-8 has its FD-SYNTAX finding (told as the CLI tells it); a site is one site however its
folder is spelled; a buffer saved and closed costs no read. Its state is records
(core/workspace/host_state.py): what the host and its parts hold of a file is its `HostedFile`
and of a folder its `SiteFolder`, nothing beside; a record's fields follow a buffer through
open, sync and close; the preload, run in a thread, fills the records the loop made and adds
none."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain import node_types as node_types_module
from flowdrop_lsp.core.domain.site_facts import WorkflowFacts
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Edit, Finding
from flowdrop_lsp.core.workspace.host import Host
from flowdrop_lsp.core.workspace.host_state import HostedFile, HostState, SiteFolder
from flowdrop_lsp.core.workspace.reading import read_site_file
from flowdrop_lsp.core.workspace.resolver import SettingsResolver
from tests.support.site import BRAND_STUDIO, COLOUR, NODE_TYPE, copy_site


class Buffer:
    """An open buffer as an editor gives it (the server's OpenBuffer, without a server)."""

    def __init__(self, text: str, settings: Settings, workflow: bool) -> None:
        self.document = WorkflowDocument(text, settings, syntax="yaml")
        self.workflow = workflow
        self.site_edits: list[Edit] | None = []

    @property
    def text(self) -> str:
        return self.document.text

    @property
    def settings(self) -> Settings:
        return self.document.settings

    def edit(self, start: int, end: int, new: str) -> None:
        self.document.apply_edit(start, end, new)
        assert self.site_edits is not None
        self.site_edits.append((start, end, len(new)))

    def own_findings(self) -> tuple[Finding, ...]:
        return self.document.findings() if self.workflow else ()

    def site_facts(self) -> WorkflowFacts | None:
        return self.document.site_facts()


def _host(folder: Path) -> Host:
    host = Host(SettingsResolver(report=lambda _problem: None))
    for path in host.open_site(folder):
        host.load(path)
    host.finish(folder)
    return host


def _names(paths: set[str]) -> set[str]:
    return {Path(path).name for path in paths}


def test_a_keystroke_in_a_node_type_buffer_makes_its_users_stale_not_the_site(
    tmp_path: Path,
) -> None:
    folder = copy_site(tmp_path)
    host = _host(folder)
    index = host.index_of(folder / COLOUR)
    assert index is not None and len(index.files) == 105
    users = {Path(p).name for p, _node in index.users_of("aincient_reason")}
    assert users  # a type used by few workflows
    path = folder / NODE_TYPE.format("aincient_reason")
    buffer = Buffer(path.read_text(encoding="utf-8"), Settings(), workflow=False)
    host.open(path, buffer)
    assert host.sync_buffer(path).stale == set()  # the same text: nothing changed
    at = buffer.text.index("configurable: false")
    buffer.edit(at + len("configurable: "), at + len("configurable: false"), "true")
    changes = host.sync_buffer(path)
    assert changes.settings_changed
    stale = _names(changes.stale)
    assert users <= stale and len(stale) < 10, stale
    # The settings' registry reads the buffer: the users are judged with the change.
    definition = host.settings_for(folder / next(iter(users))).node_type_catalog
    assert definition is not None
    spec = definition.get("aincient_reason")
    assert spec is not None and any(p.configurable is True for p in spec.parameters)


def test_a_node_type_coming_or_going_makes_stale_the_workflows_with_undefined_types(
    tmp_path: Path,
) -> None:
    folder = copy_site(tmp_path)
    text = (folder / COLOUR).read_text(encoding="utf-8")
    (folder / COLOUR).write_text(text.replace("node_type_id: chat_input", "node_type_id: ghost", 1))
    host = _host(folder)
    definition = folder / NODE_TYPE.format("ghost")
    definition.write_text("id: ghost\nlabel: Ghost\n", encoding="utf-8")
    changes = host.disk_changed(definition)
    assert COLOUR in _names(changes.stale)
    own = [f.code for f in host.findings(folder / COLOUR)]
    assert "FD-UNKNOWN-NODE-TYPE" not in own


def test_each_definition_is_parsed_once_for_the_registry_and_the_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed: list[str] = []
    original = node_types_module.read_node_type

    def counting(text: str, path: Path) -> node_types_module.NodeTypeRead:
        parsed.append(path.name)
        return original(text, path)

    monkeypatch.setattr("flowdrop_lsp.core.workspace.node_types.read_node_type", counting)
    folder = copy_site(tmp_path)
    host = _host(folder)
    for name in (COLOUR, BRAND_STUDIO):
        host.findings(folder / name)
    assert len(parsed) == 90 and len(set(parsed)) == 90
    # The node-type rules judge each definition on the tree that read made: no parse more.
    definitions = sorted(folder.glob("flowdrop_node_type.flowdrop_node_type.*.yml"))
    assert len(definitions) == 90
    assert all(host.findings(path) == () for path in definitions)
    assert len(parsed) == 90


def test_a_file_that_is_not_utf8_gets_its_finding_and_stays_in_the_site(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    host = _host(folder)
    path = folder / COLOUR
    data = path.read_bytes().replace(b"Colour", b"Col\xffour", 1)
    path.write_bytes(data)
    changes = host.disk_changed(path)
    assert COLOUR in _names(changes.stale)
    assert [f.code for f in host.findings(path)] == ["FD-SYNTAX"]
    assert "not UTF-8" in host.findings(path)[0].message
    assert str(path) in host.site_files()
    # Its callers do not call a missing workflow: it is there, unreadable.
    assert "FD-CALL" not in {f.code for f in host.findings(folder / BRAND_STUDIO)}


def test_a_site_is_one_site_however_its_folder_is_spelled(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    link = tmp_path / "linked"
    os.symlink(folder, link)
    host = _host(link)
    other = folder.parent / "sync" / ".." / "sync" / COLOUR
    assert host.index_of(other) is host.index_of(link / COLOUR) is not None
    assert host.key(folder / COLOUR) == str(link / COLOUR)
    (folder / COLOUR).unlink()
    changes = host.disk_changed(folder / COLOUR, deleted=True)
    assert str(link / BRAND_STUDIO) in changes.stale
    assert "FD-CALL" in {f.code for f in host.findings(link / BRAND_STUDIO)}
    assert len(host.indexes()) == 1


def test_a_saved_buffer_closing_reads_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = copy_site(tmp_path)
    host = _host(folder)
    path = folder / COLOUR
    buffer = Buffer(path.read_text(encoding="utf-8"), host.settings_for(path), workflow=True)
    host.open(path, buffer)
    host.sync_buffer(path)
    before = host.findings(path)
    monkeypatch.setattr(host._reading, "read_into", None)  # any read would fail
    host.close(path)
    assert host.findings(path) == before


def test_a_workflow_closed_before_its_site_is_read_is_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Opened and closed as saved while its site was not read yet (the server reads it in the
    # background after the buffer's own publish): the site's read takes the buffer's findings
    # and facts for the same text instead of analysing the file again.
    folder = copy_site(tmp_path)
    host = Host(SettingsResolver(report=lambda _problem: None))
    path = folder / COLOUR
    buffer = Buffer(path.read_text(encoding="utf-8"), host.settings_for(path), workflow=True)
    host.open(path, buffer)
    assert host.sync_buffer(path).needs_site == folder
    host.close(path)
    analysed: list[str] = []
    original = host._reading.analyse

    def counting(text: str, settings: Settings, syntax: str, site_file: bool):
        analysed.append(text[:40])
        return original(text, settings, syntax, site_file)

    monkeypatch.setattr(host._reading, "analyse", counting)
    for file in host.open_site(folder):
        host.load(file)
    host.finish(folder)
    assert len(analysed) == 14  # every other workflow of the site, not this one
    fresh = _host(folder)
    assert host.findings(path) == fresh.findings(path)


# ----- the host's state as records ---------------------------------------------------------


def _maps_beside_the_state(host: Host) -> dict[str, str]:
    """Each attribute of the host or of a part it owns that is a map, set or list of its own."""
    parts = [host, host._reading, host._checking, host._preloading]
    return {
        f"{type(part).__name__}.{name}": type(value).__name__
        for part in parts
        for name, value in vars(part).items()
        if isinstance(value, dict | set | frozenset | list)
    }


def test_the_host_and_its_parts_hold_files_in_its_records_alone(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    host = _host(folder)
    path = folder / COLOUR
    host.open(path, Buffer(path.read_text(encoding="utf-8"), host.settings_for(path), True))
    host.sync_buffer(path)
    host.findings(folder / BRAND_STUDIO)
    assert _maps_beside_the_state(host) == {}
    assert isinstance(host.state, HostState)
    assert all(isinstance(record, HostedFile) for record in host.state.files.values())
    assert list(host.state.folders.values()) == [SiteFolder(host.index_of(path))]


def test_a_buffers_record_follows_it_through_open_sync_and_close(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    host = _host(folder)
    path = folder / COLOUR
    key = host.key(path)
    read = host.state.files[key]
    assert read.own is not None and read.buffer is None  # its own findings, as the site read it
    buffer = Buffer(path.read_text(encoding="utf-8"), host.settings_for(path), workflow=True)
    host.open(path, buffer)
    assert host.state.files[key] is read and read.buffer is buffer
    assert not read.site_holds_buffer
    host.sync_buffer(path)
    assert read.site_holds_buffer
    host.close(path)  # as saved: its findings and facts are the disk's
    assert (read.buffer, read.site_holds_buffer, read.closed) == (None, False, None)
    assert read.own is not None and read.own.made_under(buffer.text, buffer.settings)
    assert read.own.findings == buffer.own_findings()


def test_the_preload_fills_the_records_the_loop_made_and_adds_none(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    host = Host(SettingsResolver(report=lambda _problem: None))
    files = host.open_site(folder)
    jobs = host.preload_jobs(files)
    assert len(jobs) == 15
    made = dict(host.state.files)
    assert set(made) == {key for key, _ in jobs}
    host.preload(jobs)  # (the server runs it in a thread, while the loop reads the dicts)
    assert host.state.files == made and all(host.state.files[k] is made[k] for k in made)
    assert all(made[key].preloaded is not None for key, _ in jobs)
    for file in files:
        host.load(file)
    host.finish(folder)
    assert all(record.preloaded is None for record in host.state.files.values())
    assert host.findings(folder / BRAND_STUDIO) == _host(folder).findings(folder / BRAND_STUDIO)


def test_a_site_file_that_is_not_utf8_is_told_as_the_cli_tells_it(tmp_path: Path) -> None:
    folder = copy_site(tmp_path)
    path = folder / COLOUR
    raw = path.read_bytes().replace(b"Colour", b"Col\xe9our", 1)
    path.write_bytes(raw)
    host = _host(folder)
    told = read_site_file(path)  # what the CLI reads and reports of it
    assert told.text is None and told.undecodable is not None
    record = host.state.files[host.key(path)]
    assert record.undecodable == (told.shown, told.undecodable)
    assert host.text(path) == told.shown and "\ufffd" in told.shown
    assert host.findings(path) == told.findings(Settings())
