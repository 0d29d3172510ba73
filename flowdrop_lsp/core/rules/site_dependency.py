"""FD-DEPENDENCY: a workflow's `dependencies.config` that is not the config it needs.

Drupal imports a config entity only when every config its `dependencies.config` lists exists,
and removes nothing a listed dependency still needs. So:

- an entry for config the site does not have is an error: the import refuses the workflow.
  Judged only for config of a kind the site holds (any `<kind>.*` file): a folder holding only
  FlowDrop config is a partial export, not a broken site;
- a node type the workflow uses (defined by the site) and missing from the list is a warning:
  the site imports, but deleting that node type later breaks the workflow silently. One finding
  per type, on its first node's type, the other nodes of the type in related information.
  Only on a site whose FlowDrop release writes dependency lists (some workflow of the site lists
  one): releases that write `dependencies: {  }` for every workflow (FlowDrop 0.6 / 1.0-alpha
  sites) would get a warning per node type that the next `drush cex` writes again.

Only workflows with a `dependencies` key or named like Drupal workflow config files are judged
(a JSON workflow without `dependencies` has no list to keep).

Fixes, in Drupal config YAML (2-space style, `dependencies.config` sorted, `config` the first
key of `dependencies`): add the missing entry where Drupal would sort it (preferred: it is what
Drupal writes; safe); remove a stale entry's line (unsafe, never preferred: the config may be
meant to come). Both are written in YAML, text-only edits (`operations.TextOnly`): FlowDrop's editor
has no operation for a config entity's dependencies.
Several additions at once (fix-all) never conflict: each is anchored at its own offset of the
text — the end of the entry before it, then each column of the indentation of the line after
it, where it inserts a whole line and restores the indentation it split — and additions beyond
the offsets a gap has share one edit that adds them all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from flowdrop_lsp.core.config.site_files import (
    CONFIG_SUFFIXES,
    NODE_TYPE_CONFIG_PREFIX,
    is_workflow_config_file,
)
from flowdrop_lsp.core.domain.node_types import Located
from flowdrop_lsp.core.domain.site_facts import ConfigList, SiteNode, WorkflowFacts
from flowdrop_lsp.core.domain.site_view import SiteContext
from flowdrop_lsp.core.domain.wording import id_text
from flowdrop_lsp.core.findings import (
    Applicability,
    Finding,
    Fix,
    RelatedLocation,
    Severity,
    TextEdit,
)
from flowdrop_lsp.core.operations import TextOnly
from flowdrop_lsp.core.rules.base import Rule
from flowdrop_lsp.core.syntax.reader import reader_for
from flowdrop_lsp.core.text.positions import Span

# Two arms, two severities: an entry for config the site lacks is an error (Drupal's import
# refuses the workflow), a node type used but not listed a warning (it imports; a later
# deletion breaks it). The rule's default severity (its page's and the index's) is the error
# arm's; the title says which arm warns, so the index does not call a missing listing an error.
# What these fixes edit: Drupal's config entity metadata, outside the workflow's graph (FlowDrop's
# editor has no operation for it; Drupal writes the list when it saves the workflow).
DEPENDENCIES = "the config entity's dependencies list"

RULE = Rule(
    "FD-DEPENDENCY",
    "Dependency list that is not the config the workflow needs",
    Severity.ERROR,
    "A workflow's dependencies.config lists config the site does not have (error), or misses a "
    "node type the workflow uses (warning).",
    other_severities="a node type missing from the list: warning",
)

BLOCK_ITEM = re.compile(r" *- ")
INDENT = "  "  # Drupal's YAML dumper


def check_site(ctx: SiteContext) -> Iterator[Finding]:
    workflow = ctx.workflow
    if workflow is None:
        return
    dependencies = workflow.dependencies
    if dependencies.key_span is None and not is_workflow_config_file(ctx.path):
        return
    editor = (
        _Editor(ctx.text, dependencies, workflow) if ctx.path.endswith(CONFIG_SUFFIXES) else None
    )
    newline = "\r\n" if "\r\n" in ctx.text else "\n"  # a fix writes the file's own line ends
    for entry in dependencies.entries:
        if ctx.site.has_config(entry.value) or not ctx.site.has_config_kind(entry.value):
            continue
        removal = _line_ends(editor.removal(entry), newline) if editor is not None else None
        yield RULE.finding(
            entry.span,
            f"dependencies.config lists '{id_text(entry.value)}', which the site does not "
            f"have (no {id_text(entry.value)}.yml): Drupal's config import refuses this "
            "workflow",
            identity=(entry.value,),
            fixes=(
                (
                    Fix(
                        f"Remove the dependency on '{id_text(entry.value)}'",
                        removal,
                        applicability=Applicability.UNSAFE,  # the config may be meant to come
                        operations=(TextOnly(DEPENDENCIES),),
                        destructive=f"the dependency on '{id_text(entry.value)}' is deleted",
                    ),
                )
                if removal
                else ()
            ),
        )
    if not ctx.site.lists_dependencies():
        # The site's FlowDrop release writes no dependency list (every workflow has
        # `dependencies: {  }`; the next `drush cex` writes them so again): a missing node
        # type is nothing its builder could keep fixed, so it is not reported.
        return
    listed = {entry.value for entry in dependencies.entries}
    users: dict[str, list[SiteNode]] = {}
    for node in workflow.nodes:
        if node.type_id is None:
            continue
        name = NODE_TYPE_CONFIG_PREFIX + node.type_id.value
        if name not in listed and ctx.site.node_type(node.type_id.value) is not None:
            users.setdefault(name, []).append(node)
    additions = editor.additions(sorted(users)) if editor is not None and users else {}
    for name, nodes in users.items():
        first = nodes[0]
        assert first.type_id is not None
        type_id = id_text(first.type_id.value)
        count = f"{len(nodes)} nodes" if len(nodes) > 1 else f"node {first.display}"
        edits = _line_ends(additions.get(name), newline)
        yield RULE.finding(
            first.type_id.span,
            f"this workflow uses node type '{type_id}' ({count}), but its dependencies.config "
            f"does not list '{id_text(name)}': deleting that node type later breaks the "
            "workflow silently",
            severity=Severity.WARNING,
            node=first.id,
            related=tuple(
                RelatedLocation(node.type_id.span, f"{node.display} is of type '{type_id}' too")
                for node in nodes[1:]
                if node.type_id is not None
            ),
            fixes=(
                (
                    Fix(
                        f"Add the dependency on node type '{type_id}'",
                        edits,
                        preferred=True,
                        operations=(TextOnly(DEPENDENCIES),),
                    ),
                )
                if edits
                else ()
            ),
        )


# ----- fixes ---------------------------------------------------------------------------------


def _line_ends(edits: tuple[TextEdit, ...] | None, newline: str) -> tuple[TextEdit, ...] | None:
    """`edits` writing `newline` at each line end (a CRLF file stays CRLF)."""
    if edits is None or newline == "\n":
        return edits
    return tuple(
        TextEdit(edit.span, edit.new_text.replace("\r\n", "\n").replace("\n", newline))
        for edit in edits
    )


@dataclass(frozen=True)
class _Slot:
    """A place one or more new entries may be inserted: at `offset`, `lead` before the lines
    (`\\n` at the end of an entry) and the first `cut` characters of the first line left out
    (they are the indentation the insertion splits, restored after the lines)."""

    offset: int
    lead: str
    cut: int

    def edit(self, lines: list[str]) -> TextEdit:
        if self.lead:
            return TextEdit(Span(self.offset, self.offset), "".join(self.lead + x for x in lines))
        block = "".join(line + "\n" for line in lines)
        return TextEdit(Span(self.offset, self.offset), block[self.cut :] + block[: self.cut])


class _Editor:
    """Edits of one workflow's `dependencies.config`, in Drupal's YAML style (None where the
    text is not laid out so: a flow list, a JSON document)."""

    def __init__(self, text: str, dependencies: ConfigList, workflow: WorkflowFacts) -> None:
        self.text = text
        self.dependencies = dependencies
        self.workflow = workflow
        entries = dependencies.entries
        prefixes = {text[_line_start(text, e.span.start) : e.span.start] for e in entries}
        self.prefix = prefixes.pop() if len(prefixes) == 1 else None
        if self.prefix is not None and not BLOCK_ITEM.fullmatch(self.prefix):
            self.prefix = None
        # The style of the entries' tokens (plain, as Drupal writes config names).
        self.token = text[entries[0].span.start : entries[0].span.end] if entries else "x"

    def _line(self, name: str, prefix: str) -> str:
        quoted = reader_for("yaml").quote_string(name, self.token) or name
        return prefix + quoted

    def removal(self, entry: Located) -> tuple[TextEdit, ...]:
        text, dependencies = self.text, self.dependencies
        if self.prefix is None:
            return ()
        start, end = _line_start(text, entry.span.start), _line_end(text, entry.span.end) + 1
        if len(dependencies.entries) > 1:
            return (TextEdit(Span(start, min(end, len(text))), ""),)
        # The last entry: Drupal writes no empty `config` list (and `{  }` for no dependency).
        config_key, key = dependencies.config_key, dependencies.key_span
        if dependencies.other_keys and config_key is not None:
            start = _line_start(text, config_key.start)
            return (TextEdit(Span(start, min(end, len(text))), ""),)
        if key is not None and text[key.end : key.end + 1] == ":":
            return (TextEdit(Span(key.end, min(end, len(text))), ": {  }\n"),)
        return ()

    def additions(self, names: list[str]) -> dict[str, tuple[TextEdit, ...]]:
        """The edit adding each name (sorted), such that all of them apply together."""
        dependencies = self.dependencies
        if dependencies.entries:
            return self._into_list(names) if self.prefix is not None else {}
        created = self._created(names)
        return {name: (created,) for name in names} if created is not None else {}

    def _into_list(self, names: list[str]) -> dict[str, tuple[TextEdit, ...]]:
        assert self.prefix is not None
        entries = self.dependencies.entries
        gaps: dict[int, list[str]] = {}
        for name in names:
            gap = next((i for i, e in enumerate(entries) if e.value > name), len(entries))
            gaps.setdefault(gap, []).append(name)
        found: dict[str, tuple[TextEdit, ...]] = {}
        for gap, in_gap in gaps.items():
            slots = self._slots(gap)
            for index, name in enumerate(in_gap):
                if index < len(slots) - 1 or len(in_gap) <= len(slots):
                    slot, lines = slots[index], [name]
                else:  # more than the gap has offsets: the last one adds the rest at once
                    slot, lines = slots[-1], in_gap[len(slots) - 1 :]
                found[name] = (slot.edit([self._line(n, self.prefix) for n in lines]),)
        return found

    def _slots(self, gap: int) -> list[_Slot]:
        """The offsets where an entry may go in the gap before entry `gap` (after the last one
        when `gap` is their count), in text order."""
        assert self.prefix is not None
        text, entries = self.text, self.dependencies.entries
        indent = len(self.prefix) - len(self.prefix.lstrip(" "))
        slots: list[_Slot] = []
        if gap > 0:
            slots.append(_Slot(_content_end(text, entries[gap - 1].span.end), "\n", 0))
        if gap < len(entries):
            start = _line_start(text, entries[gap].span.start)
            slots.extend(_Slot(start + cut, "", cut) for cut in range(len(self.prefix) + 1))
        else:
            after = _line_end(text, entries[-1].span.end) + 1
            if after < len(text):
                line = text[after : _line_end(text, after)]
                spaces = len(line) - len(line.lstrip(" "))
                slots.extend(_Slot(after + cut, "", cut) for cut in range(min(spaces, indent) + 1))
        return slots

    def _created(self, names: list[str]) -> TextEdit | None:
        """One edit creating the `config` list (in a `dependencies` it creates if need be)."""
        text, dependencies = self.text, self.dependencies
        if dependencies.config_key is not None:
            return None  # a `config` that is no block list: left to a person
        if dependencies.key_span is not None:
            if dependencies.other_keys:
                first = dependencies.other_keys[0].span.start
                start = _line_start(text, first)
                keys = text[start:first]
                if keys.strip():
                    return None
                lines = [self._line(n, keys + INDENT + "- ") for n in names]
                return TextEdit(
                    Span(start, start), keys + "config:\n" + "".join(x + "\n" for x in lines)
                )
            value, key = dependencies.dependencies_span, dependencies.key_span
            if value is None or text[value.start : value.end].replace(" ", "") != "{}":
                return None
            if text[key.end : key.end + 1] != ":":
                return None
            lines = [self._line(n, 2 * INDENT + "- ") for n in names]
            return TextEdit(
                Span(key.end, value.end), ":\n" + INDENT + "config:\n" + "\n".join(lines)
            )
        first_after = self.workflow.dependencies_at
        at = first_after.start if first_after is not None else None
        if at is None or _line_start(text, at) != at:
            return None
        lines = [self._line(n, 2 * INDENT + "- ") for n in names]
        return TextEdit(
            Span(at, at),
            "dependencies:\n" + INDENT + "config:\n" + "".join(x + "\n" for x in lines),
        )


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _line_end(text: str, offset: int) -> int:
    """Where the `\n` ending the line holding `offset` is (the text's end on its last line)."""
    end = text.find("\n", offset)
    return len(text) if end < 0 else end


def _content_end(text: str, offset: int) -> int:
    """Where the line holding `offset` ends: before its `\n`, or its `\r\n`."""
    end = _line_end(text, offset)
    return end - 1 if offset < end <= len(text) and text[end - 1] == "\r" else end


EXPLANATION = RULE.explained(
    "A Drupal workflow lists the config it needs in `dependencies.config` (its node types, "
    "as `flowdrop_node_type.flowdrop_node_type.<id>`). Config the site does not have makes "
    "Drupal's import refuse the workflow (an error); a node type the workflow uses but does "
    "not list imports fine, but nothing stops that node type from being deleted later, which "
    "breaks the workflow silently (a warning) — judged only on a site whose FlowDrop release "
    "writes dependency lists (some of its workflows list one; releases writing "
    "`dependencies: {  }` everywhere are left alone). The quick fixes add the missing entry "
    "where Drupal sorts it (`check --fix` applies it) or remove the stale one.",
    failing="""\
langcode: en
status: true
dependencies:
  config:
    - flowdrop_node_type.flowdrop_node_type.http_reqest
    - flowdrop_node_type.flowdrop_node_type.http_request
id: fetch
label: Fetch
nodes:
  -
    id: http_request.1
    data:
      label: Fetch
      metadata:
        node_type_id: http_request
edges: {  }
""",
    passing="""\
langcode: en
status: true
dependencies:
  config:
    - flowdrop_node_type.flowdrop_node_type.http_request
id: fetch
label: Fetch
nodes:
  -
    id: http_request.1
    data:
      label: Fetch
      metadata:
        node_type_id: http_request
edges: {  }
""",
    file_name="flowdrop_workflow.flowdrop_workflow.fetch.yml",
    site_files=(
        (
            "flowdrop_node_type.flowdrop_node_type.http_request.yml",
            "id: http_request\nlabel: 'HTTP Request'\n",
        ),
    ),
)
