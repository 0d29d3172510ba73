"""What a cross-file rule sees of the site (core/rules/site_*.py): the id the site knows a
config file by, its workflows and node types with their files, a call between them, and the
`SiteView` a rule asks (core/workspace/site.py answers it) with the `SiteContext` of the file
checked. The facts themselves are core/domain/site_facts.py's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from flowdrop_lsp.core.config.site_files import WORKFLOW_CONFIG_PREFIX, config_name
from flowdrop_lsp.core.domain.node_types import NodeTypeDefinition
from flowdrop_lsp.core.domain.site_facts import SiteNode, WorkflowFacts


def config_id(path: str, prefix: str) -> str | None:
    """The id a Drupal config file's name gives its entity (`<prefix><id>.yml` → `<id>`; None:
    not named so). Drupal reads a file as the config its name says, and keeps its entity as
    `<prefix>.<its id>`: the two must agree (FD-CONFIG-NAME)."""
    name = config_name(path)
    if name is None or not name.startswith(prefix) or len(name) == len(prefix):
        return None
    return name[len(prefix) :]


def workflow_key(path: str, facts: WorkflowFacts) -> str | None:
    """The id the site knows a workflow by: its config name's when its file is named like one
    (the config Drupal reads it as; one whose `id` differs is reported at its source), else its `id`."""
    return config_id(path, WORKFLOW_CONFIG_PREFIX) or facts.workflow_id


@dataclass(frozen=True, slots=True)
class SiteWorkflow:
    """A workflow of the site: its file and its facts."""

    path: str
    facts: WorkflowFacts

    @property
    def workflow_id(self) -> str | None:
        return workflow_key(self.path, self.facts)


@dataclass(frozen=True, slots=True)
class SiteNodeType:
    """A node type of the site: its definition file and its definition (the one record every
    reader of node types shares, core/domain/node_types.py)."""

    path: str
    definition: NodeTypeDefinition


@dataclass(frozen=True, slots=True)
class CallStep:
    """One call on a call cycle: in workflow `caller` (its file `path`), node `node` calls
    workflow `callee`."""

    caller: str
    path: str
    node: SiteNode
    callee: str


class SiteView(Protocol):
    """What the cross-file rules may ask of the site (core/workspace/site.py answers)."""

    def workflow(self, workflow_id: str) -> SiteWorkflow | None:
        """The workflow the site knows by this id (`workflow_key`; the first by path when
        several share it)."""
        ...

    def declaring(self, workflow_id: str) -> tuple[str, ...]:
        """The workflow files whose `id` says this id, by path (whatever their names say)."""
        ...

    def node_type(self, type_id: str) -> SiteNodeType | None: ...

    def workflow_ids(self) -> frozenset[str]:
        """The ids of the site's workflows (what a call may name)."""
        ...

    def has_config(self, name: str) -> bool:
        """Whether config `name` (a file `<name>.yml` of the site's folder) exists."""
        ...

    def has_node_types(self) -> bool:
        """Whether the site defines any node type (without them, types are not judged)."""
        ...

    def has_workflows(self) -> bool:
        """Whether the site holds any workflow."""
        ...

    def unreadable_workflow(self, workflow_id: str) -> bool:
        """Whether the file of this workflow is in the site but could not be read (its own
        check reports why): a call of it is not a call of a missing workflow."""
        ...

    def has_config_kind(self, name: str) -> bool:
        """Whether the site holds any config of the kind of config `name` (the same name but
        its last segment: `flowdrop_node_type.flowdrop_node_type.*`, `system.*`)."""
        ...

    def enabled_modules(self) -> frozenset[str] | None:
        """The modules the site's `core.extension.yml` enables; None when it has none."""
        ...

    def lists_dependencies(self) -> bool:
        """Whether any workflow of the site lists config dependencies: the site's FlowDrop
        release writes them (some write `dependencies: {  }` for every workflow)."""
        ...

    def call_cycle(self, workflow_id: str) -> tuple[CallStep, ...]:
        """The calls of one cycle through this workflow, starting at it (empty: none)."""
        ...

    def call_path(self, start: str, goal: str) -> tuple[CallStep, ...]:
        """The calls of one shortest chain from workflow `start` to workflow `goal` (empty:
        `goal` is not reached; a workflow reaches itself only through at least one call)."""
        ...

    def calling_types(self, workflow_id: str) -> list[tuple[str, NodeTypeDefinition]]:
        """The node types calling this workflow (`executor_plugin`), with their files."""
        ...

    def callee_of(self, node: SiteNode) -> str | None:
        """The workflow a node calls: its type's workflow, or a generic executor's literal
        `config.workflow_id`; None when it calls none."""
        ...


@dataclass(frozen=True, slots=True)
class SiteContext:
    """One file checked against its site: a workflow or a node-type definition."""

    path: str
    site: SiteView
    workflow: WorkflowFacts | None = None
    node_type: NodeTypeDefinition | None = None
    # The file's text as the index read it (the facts' spans are offsets into it).
    text: str = ""
