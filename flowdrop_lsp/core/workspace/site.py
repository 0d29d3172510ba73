"""The site index: a folder of workflows and node-type definitions read as one system.

A FlowDrop site keeps its workflows (`flowdrop_workflow.flowdrop_workflow.<id>.yml`) and node
types (`flowdrop_node_type.flowdrop_node_type.<id>.yml`) side by side in one folder (Drupal's
`config/sync`). Workflows call workflows through node types (`executor_plugin` naming the
callee), share a contract with the node type that calls them, and list the config they depend
on. The index keeps each file's facts (core/domain/site_facts.py), who calls whom and who uses
what, and answers the cross-file rules (`SiteView`). The CLI and the server share it.

It is updated one file at a time: `update` / `remove` return the files whose cross-file
findings may have changed (the file itself, the workflows calling a changed workflow — at any
depth, for the call cycles —, the users of a changed node type, the workflows listing a config
that appeared or went), and `findings` recomputes only those, on demand.

Spans in the findings are offsets into the text the index read for that file (`text`): an open
buffer is given to `update` with its text, so the editor's findings match what it shows.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from flowdrop_lsp.core.config.selection import syntax_of
from flowdrop_lsp.core.config.site_files import (
    CONFIG_SUFFIXES,
    EXTENSION_CONFIG,
    MAX_SITE_FILE_BYTES,
    WORKFLOW_CONFIG_PREFIX,
    config_kind,
    config_name,
    is_node_type_file,
    is_site_file,
)
from flowdrop_lsp.core.domain.node_types import NodeTypeDefinition
from flowdrop_lsp.core.domain.site_facts import SiteNode, WorkflowFacts
from flowdrop_lsp.core.domain.site_reading import workflow_facts
from flowdrop_lsp.core.domain.site_view import (
    CallStep,
    SiteContext,
    SiteNodeType,
    SiteWorkflow,
    workflow_key,
)
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.rules.registry import SITE_RULES
from flowdrop_lsp.core.syntax.door import may_be_too_large, utf8_size
from flowdrop_lsp.core.syntax.reader import reader_for
from flowdrop_lsp.core.syntax.tree import JObject
from flowdrop_lsp.core.workspace.node_types import NodeTypeFiles
from flowdrop_lsp.core.workspace.reading import ReadSiteFile, read_site_file
from flowdrop_lsp.core.workspace.site_join import JoinedSite

Facts = WorkflowFacts | NodeTypeDefinition | None


def syntax_of_path(path: os.PathLike[str] | str) -> str:
    """The syntax of a site file, judged by its name as the CLI's selection judges it."""
    return syntax_of(os.fspath(path))


def read_workflow_facts(text: str, syntax: str) -> WorkflowFacts | None:
    """The facts of a workflow's text read for them alone. Never raises."""
    try:
        return workflow_facts(reader_for(syntax).read(text).parsed.root, text)
    except (RecursionError, ValueError, MemoryError):  # pragma: no cover - defensive
        return None


def enabled_modules_of(text: str) -> frozenset[str] | None:
    """The modules a `core.extension.yml` text enables (the keys of its `module` mapping), or
    None when it holds no such mapping (then nothing is judged by it)."""
    root = reader_for("yaml").read(text).parsed.root
    modules = root.get("module") if isinstance(root, JObject) else None
    if not isinstance(modules, JObject):
        return None
    return frozenset(member.key.value for member in modules.members)


def read_facts(path: Path | str, text: str, node_types: NodeTypeFiles) -> Facts:
    """The facts of one site file's text: a workflow's, or a node type's definition (read
    through `node_types`, which reads each definition once). Never raises."""
    if is_node_type_file(path):
        read = node_types.definition(Path(path), text)
        return read if isinstance(read, NodeTypeDefinition) else None
    return read_workflow_facts(text, syntax_of_path(path))


def _too_large(text: str) -> bool:
    """Over the limit every reader of site files keeps, in UTF-8 bytes (STORE-1's)."""
    return may_be_too_large(len(text)) and utf8_size(text) > MAX_SITE_FILE_BYTES


class SiteIndex:
    """The files of one site folder and what joins them. Paths are kept as given (absolute
    paths, as the CLI and the server use them); `root` is the site's folder."""

    def __init__(
        self,
        root: Path,
        read_file: ReadSiteFile = read_site_file,
        node_types: NodeTypeFiles | None = None,
    ) -> None:
        self.root = root
        self._read_file = read_file
        self.node_type_files = node_types if node_types is not None else NodeTypeFiles()
        self._texts: dict[str, str] = {}
        self._workflows: dict[str, WorkflowFacts] = {}
        self._node_types: dict[str, NodeTypeDefinition] = {}
        self._config_names: set[str] = set()
        # How many config names of each kind the site holds, kept with `_config_names`: the
        # site's state is asked at every update, and recounting the names made reading a site
        # quadratic (1,420 files: 4 M `config_kind` calls, 2 s of a 4.5 s check).
        self._kind_counts: Counter[str] = Counter()
        # How many workflows list config dependencies (`dependencies.config` with an entry):
        # a FlowDrop release that writes `dependencies: {  }` for every workflow lists none,
        # and then a node type missing from a list is no finding (FD-DEPENDENCY).
        self._listing_workflows = 0
        # The modules `core.extension.yml` enables (None: the site has no such file), read from
        # disk when first asked after a change of that file (R1.a).
        self._modules: frozenset[str] | None = None
        self._modules_known = False
        self._findings: dict[str, tuple[Finding, ...]] = {}
        # Derived, rebuilt lazily after any change (cheap: a pass over the facts).
        self._joined: JoinedSite | None = None

    # ----- filling it ---------------------------------------------------------------------------
    def scan(self) -> list[Path]:
        """The site files of the folder (workflows and node types, sorted), recording every
        config name present. Reading them is the caller's (`update`), so it can show progress."""
        found: list[Path] = []
        try:
            entries = sorted(os.scandir(self.root), key=lambda e: e.name)
        except OSError:
            return found
        for entry in entries:
            name = config_name(entry.name)
            if name is None:
                continue
            try:
                if not entry.is_file():
                    continue
            except OSError:
                continue
            self._add_name(name)
            if is_site_file(entry.name):
                found.append(Path(entry.path))
        return found

    def load(self, paths: Iterable[Path] | None = None) -> None:
        """Read `paths` (default: every site file of the folder) from disk."""
        for path in self.scan() if paths is None else paths:
            self.read(path)

    def read_text(self, path: Path | str) -> str | None:
        """A file's text from disk as the index reads it (None: unreadable, or too large: the
        reader keeps the limit)."""
        return self._read_file(Path(path)).text

    def read(self, path: Path | str, text: str | None = None, facts: Facts = None) -> None:
        """Read one file while the site is being filled (the one way to fill it: `scan`, then
        `read` each file, the host's first read and a check's, batch.py, alike): from disk
        unless `text` is given, its facts unless given. As `update`, without telling who
        depends on it (that would join the whole site again for every file read — a quadratic
        load; all is new anyway). A file that cannot be read (too large too) stays a name."""
        key = str(path)
        if text is None:
            text = self.read_text(key)
        if text is None or _too_large(text):
            return
        if facts is None:
            facts = read_facts(key, text, self.node_type_files)
        self._forget(key)
        self._texts[key] = text
        if isinstance(facts, NodeTypeDefinition):
            self._node_types[key] = facts
        elif isinstance(facts, WorkflowFacts):
            self._keep_workflow(key, facts)
        name = config_name(key)
        if name is not None and Path(key).parent == self.root:
            self._add_name(name)
        self._joined = None
        self._findings.clear()

    def update(self, path: Path | str, text: str | None = None, facts: Facts = None) -> set[str]:
        """(Re)read one file — `text` when given (an open buffer), else from disk; `facts` when
        the caller already has them — and answer the files whose findings may have changed.
        A config file that is neither a workflow nor a node type only counts by its name (a
        dependency may name it); a site file that cannot be read (not UTF-8, too large) is
        there all the same, without facts."""
        key = str(path)
        if facts is None and not is_site_file(key):
            return self._changing(key, lambda: self._name(key, present=True))
        if text is None:
            text = self.read_text(key)
        if text is not None and _too_large(text):
            text = None  # (an open buffer's: in bytes, as the door counts it)
        if text is not None and facts is None:
            facts = read_facts(key, text, self.node_type_files)

        def store() -> None:
            self._forget(key)
            if text is not None:
                self._texts[key] = text
            if isinstance(facts, NodeTypeDefinition):
                self._node_types[key] = facts
            elif isinstance(facts, WorkflowFacts):
                self._keep_workflow(key, facts)
            self._name(key, present=True)

        return self._changing(key, store)

    def remove(self, path: Path | str) -> set[str]:
        """Forget a file (deleted): answer the files whose findings may have changed (the file
        itself has none any more)."""
        key = str(path)

        def forget() -> None:
            self._forget(key)
            self._name(key, present=False)

        return self._changing(key, forget)

    def _name(self, key: str, present: bool) -> None:
        name = config_name(key)
        if name == EXTENSION_CONFIG:
            self._modules_known = False  # read again when next asked
        if name is not None and Path(key).parent == self.root:
            if present:
                self._add_name(name)
            else:
                self._discard_name(name)

    def _add_name(self, name: str) -> None:
        if name not in self._config_names:
            self._config_names.add(name)
            self._kind_counts[config_kind(name)] += 1

    def _discard_name(self, name: str) -> None:
        if name in self._config_names:
            self._config_names.discard(name)
            self._kind_counts[config_kind(name)] -= 1

    def _changing(self, key: str, change: Callable[[], None]) -> set[str]:
        """Make `change` to file `key`, and answer the files whose findings it may change: the
        file, what depended on it before and after — and every file when what the whole site
        is changed (the kinds of config it holds, whether it has workflows at all: rules judge
        some things only then)."""
        before = self._dependants(key)
        state = self._site_state()
        change()
        self._joined = None
        changed = before | self._dependants(key) | {key}
        if self._site_state() != state:
            changed |= set(self._texts) | set(self._findings)
        self._invalidate(changed)
        return changed

    def _site_state(self) -> tuple[frozenset[str], bool, bool, frozenset[str] | None]:
        kinds = frozenset(kind for kind, count in self._kind_counts.items() if count > 0)
        return kinds, bool(self._workflows), self._listing_workflows > 0, self.enabled_modules()

    def _keep_workflow(self, key: str, facts: WorkflowFacts) -> None:
        self._workflows[key] = facts
        self._listing_workflows += bool(facts.dependencies.entries)

    def _forget(self, key: str) -> None:
        self._texts.pop(key, None)
        forgotten = self._workflows.pop(key, None)
        if forgotten is not None:
            self._listing_workflows -= bool(forgotten.dependencies.entries)
        self._node_types.pop(key, None)

    def _invalidate(self, keys: Iterable[str]) -> None:
        for key in keys:
            self._findings.pop(key, None)

    # ----- what it knows --------------------------------------------------------------------
    def __contains__(self, path: object) -> bool:
        return str(path) in self._texts

    @property
    def files(self) -> list[str]:
        """Every file read, sorted."""
        return sorted(self._texts)

    def text(self, path: Path | str) -> str | None:
        return self._texts.get(str(path))

    def workflow_files(self) -> dict[str, WorkflowFacts]:
        return dict(self._workflows)

    def node_type_definitions(self) -> dict[str, NodeTypeDefinition]:
        return dict(self._node_types)

    def node_type_ids(self) -> frozenset[str]:
        return frozenset(definition.id for definition in self._node_types.values())

    def workflows_with_undefined_types(self) -> set[str]:
        """The workflow files with a node whose type the site does not define (their R9
        findings name the site's types: they change when a type comes or goes)."""
        defined = self.node_type_ids()
        return {
            path
            for path, facts in self._workflows.items()
            if any(n.type_id is not None and n.type_id.value not in defined for n in facts.nodes)
        }

    def facts(self, path: Path | str) -> Facts:
        key = str(path)
        return self._workflows.get(key) or self._node_types.get(key)

    @property
    def joined(self) -> JoinedSite:
        if self._joined is None:
            self._joined = JoinedSite(self._workflows, self._node_types, self._config_names)
        return self._joined

    def workflow(self, workflow_id: str) -> SiteWorkflow | None:
        return self.joined.workflow(workflow_id)

    def node_type(self, type_id: str) -> SiteNodeType | None:
        return self.joined.node_type(type_id)

    def workflow_ids(self) -> frozenset[str]:
        return self.joined.workflow_ids()

    def declaring(self, workflow_id: str) -> tuple[str, ...]:
        return self.joined.declaring(workflow_id)

    def has_config(self, name: str) -> bool:
        return name in self._config_names

    def has_node_types(self) -> bool:
        return bool(self._node_types)

    def has_workflows(self) -> bool:
        return bool(self._workflows)

    def unreadable_workflow(self, workflow_id: str) -> bool:
        """Whether the site holds `flowdrop_workflow.flowdrop_workflow.<workflow_id>.yml` but
        could not read it (broken YAML, not UTF-8, too large): its own check says what is wrong,
        and a call of it is not a call of a missing workflow."""
        name = WORKFLOW_CONFIG_PREFIX + workflow_id
        if name not in self._config_names:
            return False
        return not any(
            str(self.root / (name + suffix)) in self._workflows for suffix in CONFIG_SUFFIXES
        )

    def has_config_kind(self, name: str) -> bool:
        return self._kind_counts[config_kind(name)] > 0

    def lists_dependencies(self) -> bool:
        return self._listing_workflows > 0

    def enabled_modules(self) -> frozenset[str] | None:
        if not self._modules_known:
            self._modules_known = True
            self._modules = None
            if EXTENSION_CONFIG in self._config_names:
                text = self.read_text(self.root / f"{EXTENSION_CONFIG}.yml")
                self._modules = enabled_modules_of(text) if text is not None else None
        return self._modules

    def call_cycle(self, workflow_id: str) -> tuple[CallStep, ...]:
        return self.joined.call_cycle(workflow_id)

    def call_path(self, start: str, goal: str) -> tuple[CallStep, ...]:
        return self.joined.call_path(start, goal)

    def callee_of(self, node: SiteNode) -> str | None:
        return self.joined.callee_of(node)

    def calling_types(self, workflow_id: str) -> list[tuple[str, NodeTypeDefinition]]:
        return self.joined.calling_types(workflow_id)

    def callers_of(self, workflow_id: str) -> list[tuple[str, SiteNode]]:
        """Every node of the site calling this workflow, with its workflow file."""
        return self.joined.callers_of(workflow_id)

    def users_of(self, type_id: str) -> list[tuple[str, SiteNode]]:
        """Every node of the site of this type, with its workflow file."""
        return self.joined.users_of(type_id)

    # ----- findings ---------------------------------------------------------------------------
    def findings(self, path: Path | str) -> tuple[Finding, ...]:
        """The cross-file findings of one file of the site (spans: offsets into `text(path)`),
        before any settings are applied; none for a file the index did not read."""
        key = str(path)
        cached = self._findings.get(key)
        if cached is not None:
            return cached
        workflow = self._workflows.get(key)
        node_type = self._node_types.get(key)
        if workflow is None and node_type is None:
            return ()
        context = SiteContext(key, self, workflow, node_type, self._texts.get(key, ""))
        found = tuple(
            sorted(
                (finding for _rule, check in SITE_RULES for finding in check(context)),
                key=Finding.sort_key,
            )
        )
        self._findings[key] = found
        return found

    # ----- who depends on whom -----------------------------------------------------------------
    def _dependants(self, key: str) -> set[str]:
        """The files whose findings depend on file `key` as the index knows it now: for a
        workflow, the workflows calling it at any depth and the node types calling it; for a
        node type, the workflows using it (and their callers) and the workflow it calls; for
        any config file, the workflows listing it."""
        if key not in self._texts and config_name(key) is None:
            return set()
        joined = self.joined
        found: set[str] = set()
        workflow = self._workflows.get(key)
        # Known by its name's id and saying its own `id`: the calls of either, and the files
        # saying the same `id` (FD-CONFIG-NAME), depend on it.
        ids = {workflow_key(key, workflow), workflow.workflow_id} if workflow is not None else ()
        for workflow_id in ids:
            if workflow_id is not None:
                found |= joined.transitive_callers(workflow_id)
                found |= {path for path, _ in joined.calling_types(workflow_id)}
                found |= set(joined.declaring(workflow_id))
        node_type = self._node_types.get(key)
        if node_type is not None:
            users = {path for path, _ in joined.users_of(node_type.id)}
            found |= users
            # The files saying the same `id` (FD-CONFIG-NAME: a copy and its original).
            found |= {p for p, d in self._node_types.items() if d.id == node_type.id}
            for user in users:
                user_id = (
                    workflow_key(user, self._workflows[user]) if user in self._workflows else None
                )
                if user_id is not None:
                    found |= joined.transitive_callers(user_id)
            callee = node_type.called_workflow
            if callee is not None:
                target = joined.workflow(callee)
                if target is not None:
                    found.add(target.path)
        name = config_name(key)
        if name is not None:
            found |= joined.listing(name)
            if name.startswith(WORKFLOW_CONFIG_PREFIX):
                # The workflow its file name says (read or not: a file that does not parse is
                # no missing callee, `unreadable_workflow`): its callers, its calling types.
                by_name = name[len(WORKFLOW_CONFIG_PREFIX) :]
                found |= joined.transitive_callers(by_name)
                found |= {path for path, _ in joined.calling_types(by_name)}
        found.discard(key)
        return found
