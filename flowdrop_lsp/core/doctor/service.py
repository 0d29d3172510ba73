"""The Doctor facade: a site's drafts judged as `check` judges the same workflows, answered as
FlowDrop's visual editor reads them (docs/doctor.md).

A draft is given to the host as an open buffer of the site file its workflow id names
(`config/sync/flowdrop_workflow.flowdrop_workflow.<id>.yml`), so it is judged with the site's
node types and against its other workflows, in place of the file on disk, exactly as an editor's
buffer is. Its text is the draft's JSON, one element per line (core.doctor.drafts): the next
draft of the same workflow reaches the incremental engine as the lines that changed. The site
on disk is looked at before every request: a file changed, added or deleted counts at once.

A problem's id is made of what the finding says and what it is about (its code, node, edge,
locator and message), never of a position: the same finding keeps its id across requests and
unrelated edits (a node moved), and a remedy names the problem by it."""

from __future__ import annotations

import hashlib
import os
import re
from collections import OrderedDict
from pathlib import Path
from typing import Any

from flowdrop_lsp.core.config.site_files import WORKFLOW_CONFIG_PREFIX, is_site_file
from flowdrop_lsp.core.doctor.drafts import Draft
from flowdrop_lsp.core.findings import Finding, Fix, Severity
from flowdrop_lsp.core.ide.service import WorkflowService
from flowdrop_lsp.core.operations import (
    ElementRef,
    Operation,
    Remove,
    TextOnly,
    apply_to_element,
    editor_operations,
    with_picked,
)
from flowdrop_lsp.core.workspace.host import Host, find_site_folders
from flowdrop_lsp.core.workspace.resolver import SettingsResolver

# How many workflows' drafts are kept (each holds its analysis); the least recently judged goes.
MAX_DRAFTS = 16
# A workflow id that names a site file (anything else is judged alone, never as a path).
_FILE_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,200}")
_EDGE_LOCATOR = re.compile(r"edge\.(\d+)")
_SEVERITIES = {Severity.ERROR: "error", Severity.WARNING: "warning"}
# What a draft is not judged on: Drupal computes a config entity's `dependencies` when it saves
# it (ConfigEntityBase::calculateDependencies), so a draft carries none to check; in a config
# export on disk they are what the site imports (FD-DEPENDENCY judges them there).
NOT_OF_A_DRAFT = frozenset({"FD-DEPENDENCY"})
# The name FlowDrop's editor gives the value picked from a remedy's `params.choices`.
EDITOR_CHOICE_PARAM = "node_type_id"


class ProblemGone(Exception):
    """The remedy's target is no longer a problem of that draft (HTTP 409)."""


class BadRemedy(Exception):
    """A remedy request that names no remedy of its problem, or lacks a choice it needs (400).
    `error_code` is stable (API-8)."""

    def __init__(self, error_code: str, message: str) -> None:
        super().__init__(message)
        self.error_code = error_code
        self.message = message


class _DraftBuffer:
    """A draft as the host asks an open buffer (core.workspace.host_state.OpenFile)."""

    def __init__(self, draft: dict[str, Any], settings_of: Any) -> None:
        self.draft = Draft(draft)
        # Closed when dropped (`close`, `reconfigure`): its analysis kept out of the collector's
        # way (frozen, as the server's buffers: a 10,000-node analysis is millions of objects).
        self.service = WorkflowService(
            self.draft.text, settings_of(), syntax="json", site_facts=True, release_on_close=True
        )
        self.site_edits: list[tuple[int, int, int]] | None = None

    @property
    def text(self) -> str:
        return self.service.text

    @property
    def settings(self) -> Any:
        return self.service.settings

    def own_findings(self) -> tuple[Finding, ...]:
        return self.service.findings()

    def site_facts(self) -> Any:
        return self.service.site_facts()

    def reconfigure(self, settings: Any) -> None:
        """New settings (a node type or a settings file changed): the draft read under them."""
        if settings == self.service.settings:
            return
        text = self.service.text
        self.service.close()
        self.service = WorkflowService(
            text, settings, syntax="json", site_facts=True, release_on_close=True
        )
        self.site_edits = None  # the site reads it again

    def take(self, draft: dict[str, Any]) -> bool:
        """The next draft, fed to the engine as the lines that changed. Whether its site must
        read it again (anything but how elements are drawn changed): otherwise its cross-file
        findings are carried through the edit (the host's `site_edits`), as an editor's buffer
        between two reads of its site."""

        def edit(start: int, end: int, text: str) -> None:
            made = self.service.apply_edit(start, end, text)
            if self.site_edits is not None:
                self.site_edits.append(made)

        return self.draft.update(draft, edit)

    def close(self) -> None:
        self.service.close()


class DoctorService:
    """One site's Doctor. Not thread-safe: the front calls it from one worker thread at a
    time (analysis is CPU-bound; requests are queued, never run at once)."""

    def __init__(self, site: Path | None) -> None:
        """`site`: a folder (a site's root, its `config/sync`, or any folder `check` accepts);
        None judges drafts alone. A bad settings file raises SettingsError, as `check` stops."""
        base = Path(site) if site is not None else Path.cwd()
        self.folder = _site_folder(site) if site is not None else None
        self._resolver = SettingsResolver.for_check(None, base.resolve())
        self._host = Host(self._resolver, workers=1)
        self._drafts: OrderedDict[str, tuple[Path, _DraftBuffer]] = OrderedDict()
        self._stamps: dict[str, tuple[int, int]] = {}
        self._workflows = 0
        if self.folder is not None:
            files = self._host.open_site(self.folder)
            for path in files:
                self._host.load(path)
            self._host.finish(self.folder)
            self._stamps = self._disk_stamps()
            self._workflows = sum(
                1 for name in self._stamps if name.startswith(WORKFLOW_CONFIG_PREFIX)
            )

    @property
    def site_label(self) -> str:
        """The site as the front names it on its first lines."""
        if self.folder is None:
            return "no site: drafts are judged alone (no node types)"
        return f"site {self.folder}: {self._workflows} workflows, {len(self._stamps) - self._workflows} node types and other config files"

    # ----- the two routes ---------------------------------------------------------------------
    def diagnose(self, workflow_id: str, draft: dict[str, Any]) -> list[dict[str, Any]]:
        """The draft's problems, JSON-ready: `{id, code, severity, message, node?, port?, edge?,
        remedies: [{id, label, description?, destructive, params?}]}`."""
        return [problem for problem, _finding in self._problems(workflow_id, draft)]

    def remedy(
        self,
        workflow_id: str,
        draft: dict[str, Any],
        target: str,
        remedy: str,
        params: dict[str, Any] | None,
    ) -> list[dict[str, Any]]:
        """The operations (JSON-ready, the editor's vocabulary) of remedy `remedy` of problem
        `target` on `draft`. Raises ProblemGone (409) when `target` is not a problem of the
        draft, BadRemedy (400) when `remedy` is not one of its remedies or lacks a param."""
        for problem, finding in self._problems(workflow_id, draft):
            if problem["id"] != target:
                continue
            for fix in _remedies(finding):
                if _remedy_id(fix) != remedy:
                    continue
                return _operations_of(fix, draft, params)
            raise BadRemedy("UNKNOWN_REMEDY", f"problem {target!r} has no remedy {remedy!r}")
        raise ProblemGone(f"problem {target!r} is not in the draft")

    def close(self) -> None:
        for _path, buffer in self._drafts.values():
            buffer.close()
        self._drafts.clear()

    # ----- judging a draft --------------------------------------------------------------------
    def _problems(
        self, workflow_id: str, draft: dict[str, Any]
    ) -> list[tuple[dict[str, Any], Finding]]:
        self._look_at_disk()
        path, buffer, for_site = self._buffer(workflow_id, draft)
        buffer.reconfigure(self._host.settings_for(path))
        in_site = self._host.in_site(path) or self.folder is not None and path.parent == self.folder
        if in_site and (for_site or buffer.site_edits is None):
            self._host.sync_buffer(path, now=True)
        findings = self._host.findings(path)
        edges = draft.get("edges")
        answer: list[tuple[dict[str, Any], Finding]] = []
        seen: dict[str, int] = {}
        elements = _Elements(draft)
        for finding in findings:
            if finding.code in NOT_OF_A_DRAFT and "dependencies" not in draft:
                continue
            problem = _problem(finding, edges if isinstance(edges, list) else [], elements)
            # Two findings alike in every word (rare): numbered in document order.
            count = seen.get(problem["id"], 0)
            seen[problem["id"]] = count + 1
            if count:
                problem["id"] = f"{problem['id']}.{count + 1}"
            answer.append((problem, finding))
        return answer

    def _buffer(self, workflow_id: str, draft: dict[str, Any]) -> tuple[Path, _DraftBuffer, bool]:
        """The draft's buffer given `draft`, and whether its site must read it again."""
        kept = self._drafts.get(workflow_id)
        if kept is not None:
            self._drafts.move_to_end(workflow_id)
            path, buffer = kept
            return path, buffer, buffer.take(draft)
        path = self._path_of(workflow_id)
        buffer = _DraftBuffer(draft, lambda: self._host.settings_for(path))
        self._host.open(path, buffer)
        buffer.site_edits = []
        self._drafts[workflow_id] = (path, buffer)
        while len(self._drafts) > MAX_DRAFTS:
            _old_id, (old_path, old) = self._drafts.popitem(last=False)
            self._host.close(old_path)
            old.close()
        return path, buffer, True

    def _path_of(self, workflow_id: str) -> Path:
        """The site file the workflow id names; a path in no site for an id that names none."""
        if self.folder is not None and _FILE_ID.fullmatch(workflow_id):
            return self.folder / f"{WORKFLOW_CONFIG_PREFIX}{workflow_id}.yml"
        digest = hashlib.sha256(workflow_id.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        return Path(os.sep, "flowdrop-doctor-drafts", f"{digest}.flowdrop.json")

    # ----- the site on disk -------------------------------------------------------------------
    def _disk_stamps(self) -> dict[str, tuple[int, int]]:
        stamps: dict[str, tuple[int, int]] = {}
        if self.folder is None:
            return stamps
        try:
            entries = list(os.scandir(self.folder))
        except OSError:
            return stamps
        for entry in entries:
            if not is_site_file(entry.name):
                continue
            try:
                stat = entry.stat()
            except OSError:
                continue
            stamps[entry.name] = (stat.st_mtime_ns, stat.st_size)
        return stamps

    def _look_at_disk(self) -> None:
        """Tell the host of every site file changed, added or deleted since the last look."""
        if self.folder is None:
            return
        now = self._disk_stamps()
        if now == self._stamps:
            return
        for name in sorted(now.keys() | self._stamps.keys()):
            if now.get(name) != self._stamps.get(name):
                self._host.disk_changed(self.folder / name, deleted=name not in now)
        self._stamps = now
        self._workflows = sum(1 for name in now if name.startswith(WORKFLOW_CONFIG_PREFIX))


def _site_folder(site: Path) -> Path | None:
    """The folder holding the site's config files, as `check` finds it: `site` itself when it
    holds them, else the one below it (`config/sync` preferred)."""
    site = Path(os.path.abspath(site))
    if site.is_file():
        site = site.parent
    folders = find_site_folders(site)
    if not folders:
        return None
    if site in folders:
        return site
    synced = [folder for folder in folders if folder.parts[-2:] == ("config", "sync")]
    return (synced or folders)[0]


# ----- findings as the editor reads them ---------------------------------------------------------
def _problem(finding: Finding, edges: list[Any], elements: _Elements) -> dict[str, Any]:
    code = finding.locator_code or finding.code
    problem: dict[str, Any] = {
        "id": "",
        "code": code,
        "severity": _SEVERITIES.get(finding.severity, "info"),
        "message": finding.message,
    }
    if finding.node is not None:
        problem["node"] = finding.node
    edge = _edge_of(finding, edges)
    if edge is not None:
        problem["edge"] = edge
    port = finding.extra_dict().get("port")
    if isinstance(port, str) and port and "node" in problem:
        problem["port"] = port
    said = "\x00".join(
        (finding.code, finding.node or "", edge or "", finding.locator or "", finding.message)
    )
    problem["id"] = (
        f"{code}:{hashlib.sha256(said.encode('utf-8', 'surrogatepass')).hexdigest()[:16]}"
    )
    problem["remedies"] = [
        remedy for fix in _remedies(finding) if (remedy := _remedy(fix, elements)) is not None
    ]
    return problem


def _edge_of(finding: Finding, edges: list[Any]) -> str | None:
    """The edge a finding is about (its locator `edge.<n>`), as the editor addresses it."""
    match = _EDGE_LOCATOR.fullmatch(finding.locator or "")
    if match is None:
        return None
    index = int(match.group(1))
    if index >= len(edges):
        return None
    edge = edges[index]
    edge_id = edge.get("id") if isinstance(edge, dict) else None
    return edge_id if isinstance(edge_id, str) and edge_id else f"#{index}"


def _remedies(finding: Finding) -> tuple[Fix, ...]:
    return (*finding.fixes, *finding.choices)


def _remedy_id(fix: Fix) -> str:
    return "r" + hashlib.sha256(fix.title.encode("utf-8", "surrogatepass")).hexdigest()[:12]


def _remedy(fix: Fix, elements: _Elements) -> dict[str, Any] | None:
    """The fix as a remedy, when the editor can apply it (operations it knows, aimed at
    elements of the draft); None otherwise."""
    if not fix.operations:
        return None
    probe = fix.operations
    if fix.choice is not None:
        if not fix.choice.options:
            return None
        probe = with_picked(fix.operations, fix.choice.options[0][0])
    if not elements.apply(probe):
        return None
    remedy: dict[str, Any] = {
        "id": _remedy_id(fix),
        "label": fix.title,
        "destructive": fix.destructive is not None,
    }
    if fix.destructive is not None:
        remedy["description"] = f"Destructive: {fix.destructive}."
    elif not fix.is_safe:
        remedy["description"] = "Changes what the workflow does: check the result."
    if fix.choice is not None:
        remedy["params"] = {"choices": dict(fix.choice.options), "name": fix.choice.param}
    return remedy


class _Elements:
    """The draft's nodes and edges by the editor's addresses, made once per request: whether a
    fix's operations apply to the draft is asked for every remedy, and a 10,000-node draft is
    not copied for each (only the elements an operation touches are)."""

    def __init__(self, draft: dict[str, Any]) -> None:
        self.draft = draft
        self.items: dict[str, list[Any]] = {}
        self.by_id: dict[str, dict[str, int]] = {}
        for kind, key in (("node", "nodes"), ("edge", "edges")):
            items = draft.get(key)
            self.items[kind] = items if isinstance(items, list) else []
            ids: dict[str, int] = {}
            for index, item in enumerate(self.items[kind]):
                item_id = item.get("id") if isinstance(item, dict) else None
                if isinstance(item_id, str):
                    ids.setdefault(item_id, index)  # the editor takes the first
            self.by_id[kind] = ids

    def index(self, target: ElementRef) -> int | None:
        address = target.address
        if address.startswith("#") and address[1:].isdigit():
            at = int(address[1:])
            return at if at < len(self.items[target.kind]) else None
        return self.by_id[target.kind].get(address)

    def apply(self, operations: tuple[Operation, ...]) -> bool:
        """Whether the editor would apply `operations` to the draft, all of them (each touched
        element changed on a copy of its own, in order)."""
        changed: dict[tuple[str, int], Any] = {}
        for op in operations:
            if isinstance(op, TextOnly):
                return False
            at = self.index(op.target)
            if at is None:
                return False  # no such element
            key = (op.target.kind, at)
            if key in changed and changed[key] is None:
                return False  # one an operation before removed
            if isinstance(op, Remove):
                changed[key] = None
                continue
            current = changed.get(key, self.items[op.target.kind][at])
            new = apply_to_element(current, (op,))
            if new is None:
                return False
            changed[key] = new
        return True


def _operations_of(
    fix: Fix, draft: dict[str, Any], params: dict[str, Any] | None
) -> list[dict[str, Any]]:
    operations = fix.operations
    if fix.choice is not None:
        # FlowDrop's editor sends any pick as `params.node_type_id` (its DoctorMenu), whatever
        # the choice is of; a client that names it as `params.name` says is heard too.
        given = params or {}
        picked = given.get(fix.choice.param, given.get(EDITOR_CHOICE_PARAM))
        if not isinstance(picked, str) or picked not in dict(fix.choice.options):
            raise BadRemedy(
                "CHOICE_REQUIRED",
                f"the remedy needs params.{fix.choice.param}: one of its choices",
            )
        operations = with_picked(operations, picked)
    written = editor_operations(operations, draft)
    if written is None:
        raise BadRemedy("NOT_APPLICABLE", "the remedy does not apply to this draft")
    return written
