"""Navigation across the files of a site: what a node type or a called workflow is, where it is
defined, who uses it, and the site's symbols — answered from a site index
(core/workspace/site.py) as plain frozen data: a file's path and a code-point span into the text
the index read for that file (`SiteIndex.text(path)`), or hover text.

- Definition: from a node's type token (`node_type_id`) to its node type's `id`; from a call
  node's label, a generic call's `config.workflow_id`, or a calling type's `executor_plugin`, to
  the called workflow's `id`.
- References: of a node type (from a node's type token or the type's own `id`), every node of
  the site's workflows naming it (the type token); of a workflow (from its own `id`, a calling
  type's `executor_plugin`, or a call node's label), the nodes calling it and the types whose
  `executor_plugin` names it.
- Hover on a call node (its label or its type token) or a calling type's `executor_plugin`:
  the callee's label, description and contract, and where it is defined.
- Symbols: the workflows, node types and nodes of a site matching a query.

The one-document answers (core/ide/navigation.py, core/ide/hover.py) are kept as they are; these
add what needs the other files.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from flowdrop_lsp.core.domain.node_types import Located, NodeTypeDefinition
from flowdrop_lsp.core.domain.site_facts import PortBinding, SiteNode, WorkflowFacts
from flowdrop_lsp.core.domain.site_view import SiteWorkflow
from flowdrop_lsp.core.domain.wording import id_text, short_text
from flowdrop_lsp.core.ide.hover import HoverText, MarkdownWriter, Writer, wrapped
from flowdrop_lsp.core.ide.symbols import matches_query
from flowdrop_lsp.core.text.positions import LineIndex, Span
from flowdrop_lsp.core.workspace.site import SiteIndex

# A callee's description in a hover (a description may be a page long).
DESCRIPTION_LIMIT = 600
# Ports and parameters named in a hover's contract.
MAX_CONTRACT_NAMES = 30


class TargetKind(str, Enum):
    """What the token under the cursor names, for the site."""

    NODE_TYPE = "node type"  # a node's type token, in a workflow
    TYPE_DECLARATION = "node type declaration"  # a node type's own `id`
    CALL = "call"  # a call node's label: the called workflow
    WORKFLOW_SETTING = "workflow setting"  # a generic call's `config.workflow_id`
    PLUGIN = "executor plugin"  # a calling type's `executor_plugin`: the called workflow
    WORKFLOW_DECLARATION = "workflow declaration"  # a workflow's own `id`


@dataclass(frozen=True, slots=True)
class SiteTarget:
    """The token at the cursor: its kind, its span, and the node type or workflow id it names
    (`name`); `node` is the workflow's node it belongs to, if any."""

    kind: TargetKind
    span: Span
    name: str
    node: SiteNode | None = None

    @property
    def is_workflow(self) -> bool:
        return self.kind in (
            TargetKind.CALL,
            TargetKind.WORKFLOW_SETTING,
            TargetKind.PLUGIN,
            TargetKind.WORKFLOW_DECLARATION,
        )


@dataclass(frozen=True, slots=True)
class SiteLocation:
    """A span in a file of the site (offsets into `SiteIndex.text(path)`)."""

    path: str
    span: Span


class SymbolKind(str, Enum):
    WORKFLOW = "workflow"
    NODE_TYPE = "node type"
    NODE = "node"


@dataclass(frozen=True, slots=True)
class SiteSymbol:
    """A workflow, node type or node of a site: its name (label, else id), what it is, where
    (`path`, `span`: its id, or a node's label), and its id (`detail`)."""

    name: str
    kind: SymbolKind
    detail: str
    path: str
    span: Span


def _on(located: Located | None, offset: int) -> bool:
    return located is not None and located.span.contains(offset)


def _workflow_target(index: SiteIndex, facts: WorkflowFacts, offset: int) -> SiteTarget | None:
    if facts.id is not None and _on(facts.id, offset):
        return SiteTarget(TargetKind.WORKFLOW_DECLARATION, facts.id.span, facts.id.value)
    for node in facts.nodes:
        if node.type_id is not None and _on(node.type_id, offset):
            return SiteTarget(TargetKind.NODE_TYPE, node.type_id.span, node.type_id.value, node)
        if node.workflow_id is not None and _on(node.workflow_id, offset):
            callee = index.callee_of(node)
            if callee == node.workflow_id.value:
                return SiteTarget(TargetKind.WORKFLOW_SETTING, node.workflow_id.span, callee, node)
        if node.label is not None and node.anchor.contains(offset):
            callee = index.callee_of(node)
            if callee is not None:
                return SiteTarget(TargetKind.CALL, node.anchor, callee, node)
    return None


def _node_type_target(definition: NodeTypeDefinition, offset: int) -> SiteTarget | None:
    declared = definition.located_id
    if definition.spans.id is not None and _on(declared, offset):
        return SiteTarget(TargetKind.TYPE_DECLARATION, declared.span, declared.value)
    plugin = definition.located_plugin
    callee = definition.called_workflow
    if plugin is not None and callee is not None and _on(plugin, offset):
        return SiteTarget(TargetKind.PLUGIN, plugin.span, callee)
    return None


class SiteNavigation:
    """The navigation queries over one site index. Spans in and out are code-point offsets into
    the texts the index holds (`index.text(path)`)."""

    def __init__(self, index: SiteIndex) -> None:
        self.index = index

    def target_at(self, path: str | Path, offset: int) -> SiteTarget | None:
        """The token of file `path` at `offset` (its ends included) that names something of the
        site, if any."""
        facts = self.index.facts(path)
        if isinstance(facts, WorkflowFacts):
            return _workflow_target(self.index, facts, offset)
        if isinstance(facts, NodeTypeDefinition):
            return _node_type_target(facts, offset)
        return None

    # ----- definition ---------------------------------------------------------------------
    def definitions(self, path: str | Path, offset: int) -> list[SiteLocation]:
        """Where what the token at `offset` names is defined: a node type's `id`, or a called
        workflow's `id`. None is said where the site does not define it."""
        target = self.target_at(path, offset)
        if target is None:
            return []
        if target.kind is TargetKind.NODE_TYPE:
            return self._type_declaration(target.name)
        if target.kind in (TargetKind.CALL, TargetKind.WORKFLOW_SETTING, TargetKind.PLUGIN):
            return self._workflow_declaration(target.name)
        return []

    def _type_declaration(self, type_id: str) -> list[SiteLocation]:
        found = self.index.node_type(type_id)
        if found is None or found.definition.spans.id is None:
            return []
        return [SiteLocation(found.path, found.definition.spans.id)]

    def _workflow_declaration(self, workflow_id: str) -> list[SiteLocation]:
        found = self.index.workflow(workflow_id)
        if found is None or found.facts.id is None:
            return []
        return [SiteLocation(found.path, found.facts.id.span)]

    # ----- references ---------------------------------------------------------------------
    def references(
        self, path: str | Path, offset: int, include_declaration: bool
    ) -> list[SiteLocation]:
        """Every use of the node type or workflow the token at `offset` names, in every file of
        the site (the declaration first when asked for)."""
        target = self.target_at(path, offset)
        if target is None:
            return []
        if target.is_workflow:
            found = self.callers(target.name)
            declaration = self._workflow_declaration(target.name)
        else:
            found = self.users(target.name)
            declaration = self._type_declaration(target.name)
        return (declaration if include_declaration else []) + found

    def users(self, type_id: str) -> list[SiteLocation]:
        """The type token of every node of the site's workflows of this type."""
        return [
            SiteLocation(path, node.type_id.span)
            for path, node in self.index.users_of(type_id)
            if node.type_id is not None
        ]

    def callers(self, workflow_id: str) -> list[SiteLocation]:
        """The nodes calling this workflow (a generic call's `config.workflow_id`, else the
        node's label or id), then the node types whose `executor_plugin` names it."""
        found = [
            SiteLocation(path, _call_span(node, workflow_id))
            for path, node in self.index.callers_of(workflow_id)
        ]
        found += [
            SiteLocation(path, plugin.span)
            for path, definition in self.index.joined.calling_types(workflow_id)
            if (plugin := definition.located_plugin) is not None
        ]
        return found

    # ----- hover ----------------------------------------------------------------------------
    def hover(self, path: str | Path, offset: int, markdown: bool) -> HoverText | None:
        """On a call node (its label or its type token) or a calling type's `executor_plugin`:
        the called workflow, its contract, where it is defined."""
        target = self.target_at(path, offset)
        if target is None:
            return None
        if target.kind is TargetKind.NODE_TYPE:
            callee = self.index.callee_of(target.node) if target.node is not None else None
        elif target.kind in (TargetKind.CALL, TargetKind.WORKFLOW_SETTING, TargetKind.PLUGIN):
            callee = target.name
        else:
            callee = None
        if callee is None:
            return None
        w = MarkdownWriter() if markdown else Writer()
        lines = [piece for line in self._callee_lines(w, callee) for piece in wrapped(line)]
        return HoverText(target.span, "\n".join(lines), w.markdown)

    def _callee_lines(self, w: Writer, workflow_id: str) -> list[str]:
        callee = self.index.workflow(workflow_id)
        ident = w.code(id_text(workflow_id))
        if callee is None:
            return [f"{w.strong('Calls workflow')} {ident}: not defined in this site."]
        facts = callee.facts
        label = w.text(f'"{short_text(facts.label)}"') if facts.label else None
        lines = [f"{w.strong('Calls workflow')} {f'{label} ({ident})' if label else ident}"]
        if facts.description:
            lines += ["", w.text(short_text(facts.description, DESCRIPTION_LIMIT))]
        lines += ["", *self._contract_lines(w, facts)]
        lines += ["", f"Defined in {w.code(Path(callee.path).name)}, line {self._line(callee)}"]
        return lines

    def _contract_lines(self, w: Writer, facts: WorkflowFacts) -> list[str]:
        if not facts.has_contract:
            keys = ", ".join(w.code(k) for k in ("input_ports", "output_ports", "parameter_schema"))
            return [f"No contract (none of {keys})."]

        def names(items: Iterable[str | None]) -> str:
            shown = [w.code(short_text(n)) for n in dict.fromkeys(n for n in items if n)]
            if not shown:
                return "none"
            more = len(shown) - MAX_CONTRACT_NAMES
            return ", ".join(shown[:MAX_CONTRACT_NAMES]) + (f" and {more} more" if more > 0 else "")

        def port_names(ports: Iterable[PortBinding]) -> Iterator[str | None]:
            return (port.name.value if port.name is not None else None for port in ports)

        return [
            f"- Inputs: {names(port_names(facts.input_ports))}",
            f"- Outputs: {names(port_names(facts.output_ports))}",
            f"- Required parameters: {names(p.value for p in facts.required_parameters)}",
        ]

    def _line(self, workflow: SiteWorkflow) -> int:
        """The 1-based line of a workflow's `id` in its file (1 without one)."""
        text = self.index.text(workflow.path)
        if text is None or workflow.facts.id is None:
            return 1
        return LineIndex(text).line_of(workflow.facts.id.span.start) + 1

    # ----- symbols ------------------------------------------------------------------------------
    def symbols(
        self,
        query: str,
        limit: int,
        skip_nodes_of: frozenset[str] = frozenset(),
        kinds: frozenset[SymbolKind] = frozenset(SymbolKind),
    ) -> list[SiteSymbol]:
        """Up to `limit` workflows, node types and nodes (of `kinds`) of the site whose id or
        label matches `query` (the query's characters in order, ignoring case), in that order;
        the nodes of the files in `skip_nodes_of` (open buffers, searched on their own) are left
        out."""
        found: list[SiteSymbol] = []
        for symbol in self._all_symbols(query, skip_nodes_of, kinds):
            if len(found) >= limit:
                break
            found.append(symbol)
        return found

    def _all_symbols(
        self, query: str, skip_nodes_of: frozenset[str], kinds: frozenset[SymbolKind]
    ) -> Iterator[SiteSymbol]:
        workflows = sorted(self.index.workflow_files().items())
        for path, facts in workflows if SymbolKind.WORKFLOW in kinds else ():
            if facts.id is not None and matches_query(query, facts.id.value, facts.label):
                name = facts.label or facts.id.value
                yield SiteSymbol(name, SymbolKind.WORKFLOW, facts.id.value, path, facts.id.span)
        node_types = self.index.node_type_definitions() if SymbolKind.NODE_TYPE in kinds else {}
        for path, definition in sorted(node_types.items()):
            type_id = definition.located_id
            if matches_query(query, type_id.value, definition.label):
                name = definition.label or type_id.value
                yield SiteSymbol(name, SymbolKind.NODE_TYPE, type_id.value, path, type_id.span)
        for path, facts in workflows if SymbolKind.NODE in kinds else ():
            if path in skip_nodes_of:
                continue
            for node in facts.nodes:
                if node.id is not None and matches_query(query, node.id, node.label):
                    detail = node.id + (f" · {node.type_id.value}" if node.type_id else "")
                    name = node.label or node.id
                    yield SiteSymbol(name, SymbolKind.NODE, detail, path, node.anchor)


def _call_span(node: SiteNode, workflow_id: str) -> Span:
    if node.workflow_id is not None and node.workflow_id.value == workflow_id:
        return node.workflow_id.span
    return node.anchor


def combined_hover(local: HoverText | None, site: HoverText | None) -> HoverText | None:
    """The document's own hover and the site's about the same token, one after the other."""
    if local is None or site is None:
        return local or site
    separator = "\n\n---\n\n" if local.markdown else "\n\n"
    return HoverText(local.span, local.text + separator + site.text, local.markdown)
