"""What every rule module shares: the rule record and the context a rule checks."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.graph import FlatToolSet, ToolGraph
from flowdrop_lsp.core.domain.model import Edge, Node, edge_locator
from flowdrop_lsp.core.domain.node_types import NodeTypeDefinition
from flowdrop_lsp.core.domain.remedies import edge_ref, fix_from
from flowdrop_lsp.core.domain.site_view import SiteContext
from flowdrop_lsp.core.findings import (
    Applicability,
    Finding,
    Fix,
    RelatedLocation,
    Severity,
    TextEdit,
)
from flowdrop_lsp.core.operations import Remove, TextOnly
from flowdrop_lsp.core.syntax.reader import reader_for
from flowdrop_lsp.core.syntax.tree import JArray, JLiteral, JNumber, JObject, JsonValue, JString
from flowdrop_lsp.core.text.positions import Span


@dataclass(frozen=True)
class Explanation:
    """What `flowdrop-lsp rule CODE` prints and the shipped rule page says: why the rule exists,
    and two workflow documents, one the rule reports and one it does not (tests run both through
    the checker, so an example cannot drift from what the rule does).

    The examples are JSON workflow documents; `site_node_types` are the node types the examples' site defines (for a rule that only
    speaks with a node-type registry).

    A cross-file rule's examples are one file of a site (Drupal config YAML, named
    `file_name`: a workflow or a node type) and `site_files`, the other files of the example's
    site as (file name, text) pairs."""

    code: str
    why: str
    failing: str
    passing: str
    site_node_types: tuple[str, ...] = ()
    file_name: str = ""
    site_files: tuple[tuple[str, str], ...] = ()

    @property
    def is_site_example(self) -> bool:
        return bool(self.file_name)


@dataclass(frozen=True)
class Rule:
    """A stable code, a default severity, a one-line summary and the anchor of its page, and
    the FlowDrop spec rules it checks (`spec_ids`, ids of flowdrop-io/flowdrop-spec's
    `rules/<ID>.yml`: the standing table, docs/spec-standing.md, is generated from them; a rule
    of our own, such as FD-LLM-NAME, claims none)."""

    code: str
    title: str
    default_severity: Severity
    summary: str
    spec_ids: tuple[str, ...] = ()
    # Where some of its findings take another severity than the default, which (said beside it
    # on the rule's page and in the index: "error; a missing node type: warning").
    other_severities: str = ""
    # Whether a flood of its findings is cut to the first `FINDINGS_PER_GROUP` and a summary
    # (core/rules/capping.py). False for a rule that bounds its own output (CMP-9: each finding
    # about another tool name) or whose last finding must not be cut (FD-SYNTAX: why the
    # reader stopped).
    capped: bool = True
    # The groups its findings are capped in, when not its code alone: (code, what the summary
    # says they are in), e.g. FD-SCHEMA's per array (`document.py`).
    cap_group: Callable[[Finding], Hashable] | None = None
    # Its fixes rename tools (CMP-9): `--fix` says "renamed N tools" when every fix of a file
    # was one, "made N changes" otherwise (cli/text.py `fix_summary`).
    fixes_rename_tools: bool = False

    @property
    def severity_shown(self) -> str:
        """The default severity, and the findings that take another one."""
        default = self.default_severity.value
        return f"{default}; {self.other_severities}" if self.other_severities else default

    @property
    def anchor(self) -> str:
        return "rule-" + self.code.lower()

    def finding(
        self,
        span: Span,
        message: str,
        *,
        node: Node | str | None = None,
        edge: Edge | None = None,
        key: str | None = None,
        locator: str | None = None,
        severity: Severity | None = None,
        locator_code: str | None = None,
        related: tuple[RelatedLocation, ...] = (),
        fixes: tuple[Fix, ...] = (),
        extra: tuple[tuple[str, Any], ...] = (),
        identity: tuple[str, ...] = (),
        later_fixes: Callable[[], tuple[Fix, ...]] | None = None,
        choices: tuple[Fix, ...] = (),
    ) -> Finding:
        """A finding of this rule: its code, its default severity unless `severity` says
        otherwise, and the spec's locator made the one way every rule writes it: `edge` →
        `edge.{index}` (`model.edge_locator`, the edge's position now), `key` → the node's
        config key, `node.{id}.config.{key}`; any other locator (a node's own, a port's) is
        given as `locator`. `node` (a node or its id) is the node the finding is about, which
        for an edge is whichever end the rule names (so it never makes a locator by itself)."""
        node_id = node.id if isinstance(node, Node) else node
        if edge is not None:
            locator = edge_locator(edge)
        elif key is not None:
            locator = f"node.{node_id}.config.{key}"
        return Finding(
            self.code,
            self.default_severity if severity is None else severity,
            message,
            span,
            node=node_id,
            related=related,
            fixes=fixes,
            extra=extra,
            locator_code=locator_code,
            locator=locator,
            identity=identity,
            later_fixes=later_fixes,
            choices=choices,
        )

    def explained(
        self,
        why: str,
        *,
        failing: str,
        passing: str,
        site_node_types: tuple[str, ...] = (),
        file_name: str = "",
        site_files: tuple[tuple[str, str], ...] = (),
    ) -> Explanation:
        """This rule's explanation (a rule module's `EXPLANATION`; written this way so that a
        module needs no import of its own for it)."""
        return Explanation(self.code, why, failing, passing, site_node_types, file_name, site_files)


ConsumerCheck = Callable[["RuleContext", str], Any]
# A cross-file rule: one file of a site (a workflow or a node type) checked against the site.
SiteCheck = Callable[[SiteContext], Iterable[Finding]]


@dataclass(frozen=True)
class NodeTypeContext:
    """A node-type definition file judged by itself (core/rules/node_type_*.py): its text, the
    syntax tree the site's one read of it made (core/domain/node_types.py `NodeTypeRead`: no
    second parse) and the definition read from it (None when the text is none: its problem
    is `problem`). Spans are code points into `text`. Definition files are Drupal config YAML
    (core/config/site_files.py), so fixes are written as YAML."""

    path: str
    text: str
    root: JsonValue | None
    definition: NodeTypeDefinition | None
    problem: str | None = None

    @property
    def top(self) -> JObject | None:
        return self.root if isinstance(self.root, JObject) else None

    def removal(self, obj: JObject, key: str, title: str, why: str) -> Fix | None:
        """The unsafe fix removing member `key` of `obj` (Drupal's layout kept), None when the
        YAML cannot lose it cleanly. Unsafe: what the author wrote goes."""
        removed = reader_for("yaml").member_removal(self.text, 0, obj, key)
        if removed is None:
            return None
        start, end, replacement = removed
        return Fix(
            title,
            (TextEdit(Span(start, end), replacement),),
            applicability=Applicability.UNSAFE,
            operations=(TextOnly(why),),
            destructive=why,
        )

    def key_renaming(self, key_span: Span, name: str, title: str, why: str) -> Fix | None:
        """The unsafe fix writing `name` for the key at `key_span` (a misspelt key: what it
        holds starts to count, which changes what the type does)."""
        written = reader_for("yaml").write_key(name, self.text[key_span.start : key_span.end])
        if written is None:
            return None
        return Fix(
            title,
            (TextEdit(key_span, written),),
            applicability=Applicability.UNSAFE,
            operations=(TextOnly(why),),
        )


NodeTypeCheck = Callable[[NodeTypeContext], Iterable[Finding]]


@dataclass
class RuleContext:
    """Everything a graph rule may look at, and the results of the per-consumer rules (the
    expensive part: flattening). `refresh(consumers)` recomputes exactly those consumers; the
    incremental engine names the ones an edit affects, a from-scratch analysis all of them."""

    graph: ToolGraph
    settings: Settings
    consumer_rules: tuple[tuple[str, ConsumerCheck], ...] = ()
    results: dict[str, dict[str, Any]] = field(default_factory=dict)  # rule → consumer → result
    recomputed: set[str] = field(default_factory=set)  # consumers recomputed since last cleared
    # What a graph rule keeps between runs, by rule code (it must key it on immutable inputs:
    # a from-scratch analysis starts without it and must give the same findings).
    memo: dict[str, Any] = field(default_factory=dict)
    # The reader's say on whether a fix may rewrite the text [start, end) (core.syntax.reader:
    # YAML values aliases repeat may not be); never asked of JSON.
    repeated: Callable[[int, int], bool] = field(default=lambda start, end: False)
    # Where the `nodes` and `edges` arrays are in the current text ([start, end) in code points;
    # the engine's own, kept up to date by every edit): for a rule about a whole array (CMP-3,
    # a workflow without a node). An array the document lacks, or writes as no array, is absent.
    arrays: dict[str, list[int]] = field(default_factory=dict)
    # The node or edge read from item `index` of `nodes`/`edges` now (None: no such item, or
    # one that is no object): in constant time, for a rule about a position (R5's first node
    # past the bound).
    item_at: Callable[[str, int], Node | Edge | None] = field(default=lambda array, index: None)
    # The members of the top level named in `TOP_LEVEL_KEYS` that the document has, as of the
    # last read of its top level: for a rule about the workflow itself (STORE-2, its name).
    top_level: dict[str, TopMember] = field(default_factory=dict)
    # The first answers of per-node and per-edge rules found together in one walk
    # (core/rules/scoped.py), by rule code, until each rule asks (`scoped_findings`): the graph
    # version they are of, the checks they come from, the findings per model.
    walked: dict[str, Walked] = field(default_factory=dict)
    _flat: dict[str, FlatToolSet] = field(default_factory=dict)

    def flat(self, consumer: str) -> FlatToolSet:
        found = self._flat.get(consumer)
        if found is None:
            found = self._flat[consumer] = self.graph.flatten_tools(consumer)
        return found

    def refresh(self, consumers: Iterable[str]) -> None:
        consumers = list(consumers)
        for consumer in consumers:
            self._flat.pop(consumer, None)
            for per_rule in self.results.values():
                per_rule.pop(consumer, None)
        for consumer in consumers:
            if not self.graph.is_consumer(consumer):
                continue
            self.recomputed.add(consumer)
            for code, compute in self.consumer_rules:
                result = compute(self, consumer)
                if result:
                    self.results.setdefault(code, {})[consumer] = result

    def refresh_all(self) -> None:
        self._flat.clear()
        self.results.clear()
        self.refresh(self.graph.consumers)

    def node(self, node_id: str | None) -> Node | None:
        return self.graph.nodes_by_id.get(node_id) if node_id is not None else None

    def describe(self, node_id: str) -> str:
        """A node as messages name it; an id that no node defines says so."""
        node = self.node(node_id)
        return node.display if node is not None else f"{node_id} (not defined in nodes)"

    def results_of(self, code: str) -> dict[str, Any]:
        """consumer → non-empty result of the per-consumer rule `code`."""
        return self.results.get(code, {})


# The members of a workflow's top level the rules read (beside `nodes` and `edges`): the
# engine reads these at each whole read and again at each edit outside the arrays (it re-reads
# the top level then, core/engine/header.py).
TOP_LEVEL_KEYS = ("id", "name", "label", "schema_version")


@dataclass(frozen=True, slots=True)
class TopMember:
    """A member of the document's top level: its plain value, and where its key and its value
    are (anchored: they move with the edits inside the arrays before them)."""

    value: Any
    key: Span
    span: Span


GraphCheck = Callable[[RuleContext], Iterable[Finding]]
EdgeCheck = Callable[[Edge, Settings], Iterable[Finding]]


# ----- capped output ------------------------------------------------------------------------
# Cap exploding output (issue 10 §5): past a bound, one summary finding instead of thousands.
#
# A document with a million bad `edges` items or a million duplicate edges would otherwise give a
# million findings: tens of megabytes of CLI output and an editor that chokes on the diagnostics.
# Past `FINDINGS_PER_GROUP` findings of one group (a rule's code; FD-SCHEMA per array), the first
# ones by position are kept and one summary finding of the same code says how many more there are
# (core/rules/capping.py, which reads each rule's `capped` and `cap_group`; a rule may also cap
# its own costly findings as it makes them: `first_with_summary`).

T = TypeVar("T")

FINDINGS_PER_GROUP = 100


def node_locator(node_id: str | None) -> str:
    """The spec's locator of a node: `node.` and its id (a node check runs on nodes with one,
    `scoped_findings`)."""
    return f"node.{node_id}"


def edge_identity(edge: Edge) -> tuple[str, ...]:
    """What an edge is, whatever its position: its ends and their handles. A finding about the
    edge is told apart from one about another edge by it (its `Finding.identity`), since its
    locator `edge.{index}` moves when an edge is inserted above. Two edges alike are alike to it
    too: the fingerprint's occurrence count tells them apart."""
    return (
        edge.source or "",
        edge.source_handle or "",
        edge.target or "",
        edge.target_handle or "",
    )


def first_with_summary(
    items: Sequence[T],
    finding_of: Callable[[T], Finding],
    limit: int = FINDINGS_PER_GROUP,
    total: int | None = None,
) -> Iterator[Finding]:
    """The findings of the first `limit` of `items` (in document order), then one summary
    counting the rest: for a rule whose findings are costly to make (R13 re-reads each edge
    for its span), so that a million of them are never made. `total`: how many items there
    are in all, when `items` holds only the first ones (at least `limit + 1` of them)."""
    total = len(items) if total is None else total
    for item in items[:limit]:
        yield finding_of(item)
    if total > limit:
        first_left_out = finding_of(items[limit])
        yield summary_finding(first_left_out, total - limit, limit, first_left_out.code)


def capped_count(finding: Finding) -> int:
    return int(dict(finding.extra).get("capped", 0)) if finding.extra else 0


def resolved_sort_key(finding: Finding) -> tuple[int, int, str, str]:
    span = finding.span.resolve()
    return (span.start, span.end, finding.code, finding.message)  # as Finding.sort_key


def summary_finding(first_left_out: Finding, left_out: int, limit: int, group: Hashable) -> Finding:
    where = f" in `{group[1]}`" if isinstance(group, tuple) else ""
    return replace(
        first_left_out,
        message=(
            f"… and {left_out:,} more {first_left_out.code} findings{where} from here on "
            f"(only the first {limit:,} are listed one by one)"
        ),
        node=None,
        related=(),
        fixes=(),
        extra=(("capped", left_out),),
        locator=None,  # about many places (the kind of problem, `locator_code`, stays)
        identity=("capped", str(group[1]) if isinstance(group, tuple) else ""),
    )


# ----- findings kept per node and edge ------------------------------------------------------
# A launch check reads one node (its config against its type) or one edge (its ports against
# its ends' types): its findings are kept per node and edge and recomputed only for the ones a
# change reaches (a keystroke in a node: that node and its edges), never for the document.


def edge_removal_fixes(edge: Edge) -> tuple[Fix, ...]:
    """ "Remove the edge" (unsafe: it removes what the author drew), when it can be removed
    cleanly (not the only edge: an empty list may be written differently)."""
    removal = fix_from(
        "Remove the edge",
        [(edge, Remove(edge_ref(edge)))],
        applicability=Applicability.UNSAFE,
        destructive="the edge is deleted",
    )
    return () if removal is None else (removal,)


def half_typed(model: Node | Edge) -> bool:
    """Whether the element `model` was read from is half-typed (a syntax problem in it): its
    syntax finding says all there is to say, so a check of its members leaves it alone."""
    return model.editor is not None and model.editor.broken


NodeCheck = Callable[["RuleContext", Node], Iterable[Finding]]
EdgeScopedCheck = Callable[["RuleContext", Edge], Iterable[Finding]]
ScopedMemo = dict[int, tuple[Node | Edge, list[Finding]]]
Walked = tuple[int, "NodeCheck | None", "EdgeScopedCheck | None", ScopedMemo]


def scoped_findings(
    ctx: RuleContext,
    code: str,
    *,
    node_check: NodeCheck | None = None,
    edge_check: EdgeScopedCheck | None = None,
) -> list[Finding]:
    """The findings of a rule made of `node_check` (run per node with an id) and `edge_check`
    (per edge), kept in `ctx.memo[code]` and brought up to date from the graph's change log: a
    node or edge added or removed is checked again, and so are its neighbours (a node's edges,
    an edge's end nodes), since each check may read them. A from-scratch analysis checks every
    node and edge once, and gives the same findings."""
    graph = ctx.graph
    memo: ScopedMemo = ctx.memo.setdefault(code, {})
    if not graph.subscribed(code):
        nodes, edges = graph.everything(code)
        walked = ctx.walked.pop(code, None)
        if (
            walked is not None
            and walked[0] == graph.version
            and walked[1] is node_check
            and walked[2] is edge_check
        ):
            memo.update(walked[3])  # found with the other rules' (core/rules/scoped.py)
        else:
            _check_everything(ctx, nodes, edges, memo, node_check, edge_check)
        return [
            _current_locator(finding, model) for model, found in memo.values() for finding in found
        ]
    dirty = _reached(graph, code, memo, node_check is not None, edge_check is not None)
    for model in dirty:
        if half_typed(model):
            found = []  # its syntax finding says all there is to say (it is being typed)
        elif isinstance(model, Node):
            found = list(node_check(ctx, model)) if node_check is not None and model.id else []
        else:
            found = list(edge_check(ctx, model)) if edge_check is not None else []
        if found:
            memo[id(model)] = (model, found)
        else:
            memo.pop(id(model), None)
    return [_current_locator(finding, model) for model, found in memo.values() for finding in found]


def _check_everything(
    ctx: RuleContext,
    nodes: list[Node],
    edges: list[Edge],
    memo: ScopedMemo,
    node_check: NodeCheck | None,
    edge_check: EdgeScopedCheck | None,
) -> None:
    """The first question (a whole read): every node and edge there is, each once (no
    neighbour is left to add), only the kinds the rule checks, nodes first. Every model of a
    large document passes here once per rule, so the loops are kept tight: what `half_typed`
    asks, inline; a kind the rule does not check is not walked."""
    if node_check is not None:
        for node in nodes:
            if not node.id:
                continue
            editor = node.editor
            if editor is not None and editor.broken:
                continue  # half-typed: its syntax finding says all there is to say
            found = [*node_check(ctx, node)]
            if found:
                memo[id(node)] = (node, found)
    if edge_check is not None:
        for edge in edges:
            editor = edge.editor
            if editor is not None and editor.broken:
                continue
            found = [*edge_check(ctx, edge)]
            if found:
                memo[id(edge)] = (edge, found)


def scoped_with_node_types(
    ctx: RuleContext,
    code: str,
    *,
    node_check: NodeCheck | None = None,
    edge_check: EdgeScopedCheck | None = None,
) -> list[Finding]:
    """`scoped_findings` of a rule that compares elements with the site's node types: nothing
    (and no change log kept) when the site has none."""
    if ctx.settings.node_type_catalog is None:
        return []
    return scoped_findings(ctx, code, node_check=node_check, edge_check=edge_check)


def _reached(
    graph: ToolGraph,
    code: str,
    memo: dict[int, tuple[Node | Edge, list[Finding]]],
    nodes: bool,
    edges: bool,
) -> Iterable[Node | Edge]:
    """The nodes and edges to check again after the changes logged since `code` last asked:
    those added, and the neighbours of everything added or removed (a node's edges, an edge's
    end nodes); what was removed takes its findings with it."""
    final: dict[int, Node | Edge | None] = {}  # what the log says of each model, in the end
    logged = graph.changes(code)
    for added, model in logged:
        final[id(model)] = model if added else None
        if not added:
            memo.pop(id(model), None)
    dirty: dict[int, Node | Edge] = {key: m for key, m in final.items() if m is not None}
    # The neighbours of what came and of what went: a node renamed away leaves its edges
    # dangling, an edge re-pointed leaves its old source out of tool mode.
    for _added, model in logged:
        ends = (model.id,) if isinstance(model, Node) else (model.source, model.target)
        for end in ends:
            if end is None:
                continue
            if edges:
                for edge in graph.edges_by_endpoint.get(end, ()):
                    dirty[id(edge)] = edge
            if nodes:
                for node in graph.definitions.get(end, ()):
                    dirty[id(node)] = node
    return dirty.values()


def _current_locator(finding: Finding, model: Node | Edge) -> Finding:
    """A kept edge finding's `edge.{index}` locator as of now (edges before it may have come or
    gone since it was made)."""
    if (
        isinstance(model, Edge)
        and finding.locator is not None
        and finding.locator.startswith("edge.")
    ):
        locator = edge_locator(model)
        if locator != finding.locator:
            return replace(finding, locator=locator)
    return finding


def written_kind(value: JsonValue | None) -> str:
    """What a value is, as a message says it: `a string`, `a list`, `null`…"""
    if value is None or isinstance(value, JLiteral) and value.value is None:
        return "null"
    if isinstance(value, JObject):
        return "a mapping"
    if isinstance(value, JArray):
        return "a list"
    if isinstance(value, JString):
        return "a string"
    if isinstance(value, JLiteral):
        return "a boolean"
    if isinstance(value, JNumber):
        return "a number"
    return "a value"
