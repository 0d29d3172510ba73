"""A site's facts joined: ids to files, who calls whom, who uses which node type, which
workflows list a config, the call cycles. The site index (core/workspace/site.py) keeps the
facts one file at a time and makes this view again, when next asked, after any change."""

from __future__ import annotations

from collections.abc import Iterator

from flowdrop_lsp.core.domain.node_types import NodeTypeDefinition
from flowdrop_lsp.core.domain.site_facts import SiteNode, WorkflowFacts
from flowdrop_lsp.core.domain.site_view import CallStep, SiteNodeType, SiteWorkflow, workflow_key


class JoinedSite:
    """The site's facts joined: ids to files, who calls whom, who uses what. Rebuilt after a
    change (a pass over the facts: a millisecond for a thousand workflows)."""

    def __init__(
        self,
        workflows: dict[str, WorkflowFacts],
        node_types: dict[str, NodeTypeDefinition],
        config_names: set[str],
    ) -> None:
        self._workflows = workflows
        self._by_workflow_id: dict[str, SiteWorkflow] = {}
        self._declaring: dict[str, list[str]] = {}
        for path in sorted(workflows):
            workflow_id = workflow_key(path, workflows[path])
            if workflow_id is not None and workflow_id not in self._by_workflow_id:
                self._by_workflow_id[workflow_id] = SiteWorkflow(path, workflows[path])
            declared = workflows[path].workflow_id
            if declared is not None:
                self._declaring.setdefault(declared, []).append(path)
        self._by_type_id: dict[str, SiteNodeType] = {}
        for path in sorted(node_types):
            type_id = node_types[path].id
            if type_id not in self._by_type_id:
                self._by_type_id[type_id] = SiteNodeType(path, node_types[path])
        self._users: dict[str, list[tuple[str, SiteNode]]] = {}
        self._listing: dict[str, set[str]] = {}
        for path in sorted(workflows):
            facts = workflows[path]
            for node in facts.nodes:
                if node.type_id is not None:
                    self._users.setdefault(node.type_id.value, []).append((path, node))
            for entry in facts.dependencies.entries:
                self._listing.setdefault(entry.value, set()).add(path)
        # Calls: workflow file → (node, callee id).
        self._calls: dict[str, list[tuple[SiteNode, str]]] = {}
        self._callers: dict[str, list[tuple[str, SiteNode]]] = {}
        for path in sorted(workflows):
            for node in workflows[path].nodes:
                callee = self.callee_of(node)
                if callee is not None:
                    self._calls.setdefault(path, []).append((node, callee))
                    self._callers.setdefault(callee, []).append((path, node))
        self._calling_types: dict[str, list[tuple[str, NodeTypeDefinition]]] = {}
        for path in sorted(node_types):
            callee = node_types[path].called_workflow
            if callee is not None:
                self._calling_types.setdefault(callee, []).append((path, node_types[path]))
        self._cycles: dict[str, tuple[CallStep, ...]] | None = None

    def workflow(self, workflow_id: str) -> SiteWorkflow | None:
        return self._by_workflow_id.get(workflow_id)

    def node_type(self, type_id: str) -> SiteNodeType | None:
        return self._by_type_id.get(type_id)

    def workflow_ids(self) -> frozenset[str]:
        return frozenset(self._by_workflow_id)

    def declaring(self, workflow_id: str) -> tuple[str, ...]:
        return tuple(self._declaring.get(workflow_id, ()))

    def callee_of(self, node: SiteNode) -> str | None:
        if node.type_id is None:
            return None
        node_type = self._by_type_id.get(node.type_id.value)
        if node_type is None:
            return None
        called = node_type.definition.called_workflow
        if called is not None:
            return called
        if node_type.definition.is_generic_call and node.workflow_id is not None:
            return node.workflow_id.value
        return None

    def users_of(self, type_id: str) -> list[tuple[str, SiteNode]]:
        return list(self._users.get(type_id, ()))

    def callers_of(self, workflow_id: str) -> list[tuple[str, SiteNode]]:
        return list(self._callers.get(workflow_id, ()))

    def calling_types(self, workflow_id: str) -> list[tuple[str, NodeTypeDefinition]]:
        return list(self._calling_types.get(workflow_id, ()))

    def listing(self, name: str) -> set[str]:
        return set(self._listing.get(name, ()))

    def transitive_callers(self, workflow_id: str) -> set[str]:
        """The workflow files calling this workflow, directly or through other workflows."""
        found: set[str] = set()
        pending = [workflow_id]
        seen_ids = {workflow_id}
        while pending:
            for path, _node in self._callers.get(pending.pop(), ()):
                if path in found:
                    continue
                found.add(path)
                caller_id = workflow_key(path, self._workflows[path])
                if caller_id is not None and caller_id not in seen_ids:
                    seen_ids.add(caller_id)
                    pending.append(caller_id)
        return found

    def call_cycle(self, workflow_id: str) -> tuple[CallStep, ...]:
        if self._cycles is None:
            self._cycles = dict(self._find_cycles())
        return self._cycles.get(workflow_id, ())

    def _find_cycles(self) -> Iterator[tuple[str, tuple[CallStep, ...]]]:
        """For each workflow on a call cycle, one shortest cycle through it (breadth-first from
        it over the calls), as the steps from it back to it."""
        for start in sorted(self._by_workflow_id):
            path = self.call_path(start, start)
            if path:
                yield start, path

    def call_path(self, start: str, goal: str) -> tuple[CallStep, ...]:
        """One shortest chain of calls from workflow `start` to workflow `goal` (breadth-first
        over the calls; at least one call, so `start == goal` asks for a cycle)."""
        parents: dict[str, CallStep | None] = {}
        frontier = [start]
        while frontier:
            following: list[str] = []
            for current in frontier:
                at = self._by_workflow_id.get(current)
                if at is None:
                    continue
                for node, callee in self._calls.get(at.path, ()):
                    step = CallStep(current, at.path, node, callee)
                    if callee == goal:
                        steps = [step]
                        back = parents.get(current)
                        while back is not None:
                            steps.append(back)
                            back = parents.get(back.caller)
                        return tuple(reversed(steps))
                    if callee not in parents and callee != start and callee in self._by_workflow_id:
                        parents[callee] = step
                        following.append(callee)
            frontier = following
        return ()
