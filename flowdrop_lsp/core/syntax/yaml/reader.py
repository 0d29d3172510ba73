"""Drupal config YAML (`flowdrop_workflow.flowdrop_workflow.<id>.yml`) read into the same syntax
tree as JSON (core.syntax.tree: JObject, JArray, JString… with code-point spans), so that the
workflow model, the graph, the rules and the schema never know which format they read.

A text in the shape Drupal's dumper writes is read by core.syntax.yaml.dump_reader, twice as
fast and to the same tree; this reader reads what it declines (and tells every error).

Why PyYAML's `compose` with libyaml (CSafeLoader): it gives every node its start and end marks
(character indexes: code points, CRLF counted as two, as our spans) and reads a 1k-node workflow
in ~0.17 s (shared performance facts); it never constructs objects from tags — a scalar is
turned into a value only for the YAML core tags (str, int, float, bool, null), anything else
(`!!python/object…`, custom tags) stays its text. tree-sitter-yaml was faster to re-parse but
refuses documents past line 32,767; ruamel.yaml round-trip loading is ~10× slower.

Tolerance: a YAML syntax error is one problem at its mark (the document is then not read,
as libyaml cannot recover); duplicate keys are problems (the last one wins, as for JSON and
Symfony's YAML parser); a leading BOM is skipped (libyaml does not count it in its marks);
aliases are read once (shared subtrees) and an alias explosion is refused, not expanded.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import yaml

from flowdrop_lsp.core.syntax.tree import (
    JArray,
    JLiteral,
    JMember,
    JNumber,
    JObject,
    JsonValue,
    JString,
    ParsedJson,
    SyntaxProblem,
    move_spans,
)
from flowdrop_lsp.core.syntax.yaml.dump_reader import (
    MOST_OPEN,
    ElementShapes,
    empty_lists_as_arrays,
    read_dump,
)
from flowdrop_lsp.core.syntax.yaml.items import (
    BLANKS,
    Body,
    blank,
    block_bodies,
    dumped_items_align,
    error_place,
    has_other_line_break,
    id_line,
    items_align,
    line_bounds,
    scan_items,
    unclosed_quote,
    value_start,
)
from flowdrop_lsp.core.syntax.yaml.scalars import is_plain_string, plain_node, tagged_node

try:
    _LOADER: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _LOADER = yaml.SafeLoader

MAX_YAML_CHARS = 20 * 1024 * 1024
MAX_DEPTH = 200
# Values a document may stand for once aliases are expanded (a "billion laughs" document holds
# a few lines and stands for 10^9 values): past this the document is refused.
MAX_EXPANDED_VALUES = 2_000_000

_QUOTED_STYLES = frozenset({"'", '"'})
_PROPERTY_END = re.compile(r"\S+\s+")
_ALIAS_AFTER_KEY = re.compile(r"['\"]?[ \t]*:[ \t]+(\*[^\s,\[\]{}]+)")
# An anchor is `&name`, after the start of a line, a space or a flow indicator (libyaml reads
# no anchor elsewhere): `_may_anchor` finds `&` + a name character, then looks before it.
_AMPERSAND_NAME = re.compile(r"&[^\s,\[\]{}]")


def _may_anchor(source: str) -> bool:
    """Whether `source` may hold an anchor (conservative: never False when it does)."""
    for found in _AMPERSAND_NAME.finditer(source):
        at = found.start()
        if at == 0 or source[at - 1] in " \t\r\n[{,:":
            return True
    return False


class _TooLarge(Exception):
    pass


# What libyaml's reader refuses wherever it appears (YAML 1.1's printable set); a lone surrogate
# cannot even be handed to it (not encodable as UTF-8).
_UNPRINTABLE = re.compile(r"[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


class _Unprintable(yaml.MarkedYAMLError):
    """A character libyaml refuses, at its place. libyaml reports it where its reader met it,
    chunk by chunk (at 1:1, or after some other error, depending on how much it had read): a
    composition that fails is told the first one found instead, so that a document and each
    of its items read alone agree on it."""

    def __init__(self, source: str, at: int) -> None:
        line = source.count("\n", 0, at)
        mark = yaml.Mark("<text>", at, line, at - (source.rfind("\n", 0, at) + 1), None, None)
        char = ord(source[at])
        why = (
            "a lone surrogate is not a character"
            if 0xD800 <= char <= 0xDFFF
            else "control characters are not allowed"  # libyaml's words
        )
        super().__init__(problem=f"unacceptable character #x{char:04x}: {why}", problem_mark=mark)


class _Reader:
    def __init__(self, text: str, offset: int) -> None:
        self.text = text
        self.offset = offset  # the BOM libyaml leaves out of its marks
        self.problems: list[SyntaxProblem] = []
        self.converted: dict[int, JsonValue] = {}  # id(node) → value: aliases read once
        self.sizes: dict[int, int] = {}
        self.aliased = False  # a node was met twice: an alias (edits cannot stay local)
        self.shared: list[tuple[int, int]] = []  # the spans of the values met twice
        # Whether the text may hold an anchor (`_may_anchor`): without one no node is met
        # twice, and the bookkeeping of aliases is skipped.
        self.track = True

    def span(self, node: yaml.Node) -> tuple[int, int]:
        start = node.start_mark.index + self.offset
        end = node.end_mark.index + self.offset
        return start, end

    def value(self, node: yaml.Node, depth: int = 0) -> JsonValue:
        if self.track:
            known = self.converted.get(id(node))
            if known is not None:
                self.aliased = True
                self.shared.append((known.start, known.end))
                return known
        if depth > MAX_DEPTH:
            raise _TooLarge(f"nesting deeper than {MAX_DEPTH} levels")
        offset = self.offset
        start = node.start_mark.index + offset
        end = node.end_mark.index + offset
        if isinstance(node, yaml.ScalarNode) and self.plain_string(node, start, end):
            result: JsonValue = JString(start, end, node.value)
            if self.track:
                self.converted[id(node)] = result
            return result
        if not isinstance(node, yaml.ScalarNode):
            # A block collection's end mark is where the next token starts (the next item's
            # indentation): the span ends with its content, so that typing in the indentation
            # that follows is not an edit inside it. (Scanned back from the end, not by
            # rstrip on a slice: a slice copies the collection's whole text, at every level.)
            # YAML's blanks only: a no-break space is content, as a read by items reads it.
            text = self.text
            while end > start and text[end - 1] in BLANKS:
                end -= 1
        if isinstance(node, yaml.ScalarNode):
            result = self.scalar(node, start, end)
        elif isinstance(node, yaml.SequenceNode):
            result = JArray(start, end, [self.value(item, depth + 1) for item in node.value])
        else:
            assert isinstance(node, yaml.MappingNode)
            members: list[JMember] = []
            last: dict[str, JMember] = {}
            for key_node, value_node in node.value:
                key = self.key(key_node)
                member = JMember(key, self.value(value_node, depth + 1))
                if isinstance(value_node, yaml.ScalarNode) and self.shared:
                    member.value = self.alias_scalar(key, member.value)
                if key.value in last:
                    self.problems.append(
                        SyntaxProblem(
                            "duplicate-key",
                            f"duplicate key '{key.value[:40]}': the last one wins",
                            key.start,
                            key.end,
                            last[key.value].key.start,
                            last[key.value].key.end,
                        )
                    )
                last[key.value] = member
                members.append(member)
            result = JObject(start, end, members, last)
        if self.track:
            self.converted[id(node)] = result
        return result

    def plain_string(self, node: yaml.ScalarNode, start: int, end: int) -> bool:
        """Whether a scalar is a string read as it stands (the usual case, taken fast): quoted,
        or plain and a string as Drupal reads it (`is_plain_string`: `on` is, `12` is not),
        no anchor or tag before it, not a block scalar."""
        style, text = node.style, self.text
        quoted_or_string = style in _QUOTED_STYLES or (not style and is_plain_string(node.value))
        return start < end and quoted_or_string and text[start] not in "&!"

    def alias_scalar(self, key: JString, value: JsonValue | None) -> JsonValue | None:
        """A scalar given through an alias (`label: *name`) as its own value at the alias's
        text, so that a rename replaces the alias, never the anchored scalar others read."""
        alias = _ALIAS_AFTER_KEY.match(self.text, key.end)
        if alias is None or value is None or self.shared[-1] != (value.start, value.end):
            return value
        start, end = alias.span(1)
        if isinstance(value, JString):
            return JString(start, end, value.value)
        if isinstance(value, JNumber):
            return JNumber(start, end, value.text)
        if isinstance(value, JLiteral):
            return JLiteral(start, end, value.value)
        return value

    def key(self, node: yaml.Node) -> JString:
        start, end = self.span(node)
        if isinstance(node, yaml.ScalarNode):
            if self.plain_string(node, start, end):
                return JString(start, end, node.value)
            value = self.scalar(node, start, end)
            text = value.value if isinstance(value, JString) else node.value
            return JString(start, end, str(text))
        # A mapping or sequence as a key: no FlowDrop document has one; keep its text.
        return JString(start, end, f"<{type(node).__name__}>")

    def scalar(self, node: yaml.ScalarNode, start: int, end: int) -> JsonValue:
        # An anchor or a tag before the scalar (`&name 'Web Search'`) is not part of its value:
        # the span (and a rename) covers the scalar itself.
        tagged = False
        while start < end and self.text[start] in "&!":
            tagged = tagged or self.text[start] == "!"
            gap = _PROPERTY_END.search(self.text, start, end)
            if gap is None:
                break
            start = gap.end()
        if node.style in ("|", ">"):
            # A block scalar's end mark is the start of the line after its content: the span
            # (where a diagnostic shows, what a rename replaces) ends with the content.
            end = start + len(self.text[start:end].rstrip("\r\n"))
        if not node.style and not tagged:  # plain: style None, or '' from libyaml
            return self.plain_scalar(node, start, end)
        if tagged:
            return tagged_node(node, start, end)
        return JString(start, end, node.value)

    def plain_scalar(self, node: yaml.ScalarNode, start: int, end: int) -> JsonValue:
        """A plain scalar's value as Drupal reads it (core.syntax.yaml.scalars)."""
        value, problem = plain_node(node.value, start, end)
        self.problems.extend([problem] if problem is not None else [])
        return value

    def expanded_size(self, node: yaml.Node) -> int:
        """How many values `node` stands for with every alias expanded (memoised: linear)."""
        known = self.sizes.get(id(node))
        if known is not None:
            return known
        self.sizes[id(node)] = 1  # a recursive alias counts once (PyYAML refuses those anyway)
        if isinstance(node, yaml.SequenceNode):
            size = 1 + sum(self.expanded_size(item) for item in node.value)
        elif isinstance(node, yaml.MappingNode):
            size = 1 + sum(self.expanded_size(k) + self.expanded_size(v) for k, v in node.value)
        else:
            size = 1
        self.sizes[id(node)] = size
        return size


def parse_yaml(text: str) -> ParsedJson:
    """The syntax tree of a YAML document (one document), with its problems."""
    return read_yaml(text)[0]


_Composed = tuple[
    JsonValue | None, list[SyntaxProblem], bool, Exception | None, list[tuple[int, int]]
]


def _compose(text: str, offset: int, source: str, dumped: bool = True) -> _Composed:
    """`source` composed into the tree, spans `mark + offset` (indexes of `text`): the root, the
    problems met, whether an alias was read, and the error that stopped it (or None). Read by
    the reader of Drupal's dump shape first (unless `dumped` is False: it declined already),
    else by libyaml."""
    if dumped:
        fast = read_dump(source, offset)
        if fast is not None:
            return fast[0], fast[1], False, None, []
    reader = _Reader(text, offset)
    try:
        node = yaml.compose(source, Loader=_LOADER)
        if node is None:
            return None, [], False, None, []
        # Only an anchored node can be repeated by an alias: without a `&name` anchor in the
        # text (a cheap, conservative test) there is nothing to expand, and the walk is skipped.
        reader.track = _may_anchor(source)
        if reader.track and reader.expanded_size(node) > MAX_EXPANDED_VALUES:
            raise _TooLarge(f"aliases expand to more than {MAX_EXPANDED_VALUES:,} values: not read")
        return reader.value(node), reader.problems, reader.aliased, None, reader.shared
    except (yaml.YAMLError, _TooLarge, RecursionError, UnicodeEncodeError) as error:
        # (Searched only once it failed: a composed text holds no such character.)
        unprintable = _UNPRINTABLE.search(source)
        if unprintable is not None:
            return None, [], False, _Unprintable(source, unprintable.start()), []
        return None, [], False, error, []


def read_dumped(
    text: str, most_open: int = MOST_OPEN, shapes: ElementShapes | None = None
) -> tuple[ParsedJson, bool] | None:
    """What `read_yaml` answers for a whole document in the shape of Drupal's dumper with at
    most `most_open` collections open at once (core.syntax.yaml.dump_reader); None for any
    other (not read). Never recursing, it may run before STORE-1's door measures the depth.
    With `shapes`, the elements of `nodes` and `edges` are read as they say (the rest of
    each read whole into `YamlOpaque` values)."""
    offset = 1 if text.startswith("\ufeff") else 0
    if len(text) > MAX_YAML_CHARS:
        return None
    fast = read_dump(text[offset:], offset, most_open, shapes)
    if fast is None:
        return None
    # (No alias, no line break but LF: only the keys can tell whether the items align.)
    empty_lists_as_arrays(fast[0])
    return ParsedJson(fast[0], tuple(fast[1])), not dumped_items_align(text, fast[0])


def read_yaml(text: str, column: int = 0, dump_tried: bool = False) -> tuple[ParsedJson, bool]:
    """`parse_yaml`, and whether edits cannot stay local (the document uses aliases, is
    broken across items, or has a line break the reads by lines do not see). With `column`,
    `text` is a stretch of a document that starts `column` characters into its line (an
    element of a block sequence, re-read alone): it is read as if indented so, spans still
    relative to `text`.

    A document that does not compose is read item by item when its `nodes`/`edges` are block
    sequences and the rest composes: each item alone, a broken one recovered as far as it can
    be (`_read_item`), its error on the line at fault (core.syntax.yaml.items).

    `dump_tried`: `read_dumped` declined the text already (the general reader reads what it
    reads alike, so it is not asked again)."""
    offset = 1 if text.startswith("\ufeff") else 0
    if len(text) > MAX_YAML_CHARS:
        message = f"document larger than {MAX_YAML_CHARS // (1024 * 1024)} MiB: not read"
        return ParsedJson(None, (SyntaxProblem("syntax", message, 0, 1),)), False
    if not column and not dump_tried:
        dumped = read_dumped(text)
        if dumped is not None:
            return dumped
    source = " " * column + text[offset:]
    root, problems, aliased, error, shared = _compose(text, offset - column, source, bool(column))
    if error is None:
        if root is None:
            return ParsedJson(None, ()), False
        if not column:
            empty_lists_as_arrays(root)
            aliased = aliased or not items_align(text, root) or has_other_line_break(text)
        return ParsedJson(root, tuple(problems), tuple(shared)), aliased
    if not column and isinstance(error, yaml.MarkedYAMLError):
        by_items = _read_by_items(text, offset, error)
        if by_items is not None:
            return by_items[0], by_items[1] or has_other_line_break(text)
    return ParsedJson(None, (_problem_of(error, text, offset - column),)), False


def _problem_of(
    error: Exception,
    text: str,
    offset: int,
    start: int = 0,
    stop: int | None = None,
    block_from: int | None = None,
) -> SyntaxProblem:
    """The syntax problem of a compose error (marks `+ offset` index `text`), placed on the
    line at fault within `text[start:stop]`."""
    if isinstance(error, _Unprintable):  # the character itself, as the JSON parser says it
        assert error.problem_mark is not None
        at = error.problem_mark.index + offset
        return SyntaxProblem("syntax", f"YAML: {error.problem}", at, at + 1)
    if isinstance(error, yaml.MarkedYAMLError):
        problem_at = error.problem_mark.index + offset if error.problem_mark else None
        context_at = error.context_mark.index + offset if error.context_mark else None
        place = error_place(
            text,
            error.problem or "invalid YAML",
            error.context,
            problem_at,
            context_at,
            start,
            stop,
            block_from,
        )
        if place.gave_up < 0:
            return SyntaxProblem("syntax", place.message, place.start, place.end)
        gave_up_end = max(place.gave_up, line_bounds(text, place.gave_up)[1])
        return SyntaxProblem(
            "syntax", place.message, place.start, place.end, place.gave_up, gave_up_end
        )
    if isinstance(error, _TooLarge | RecursionError):
        message = str(error) if isinstance(error, _TooLarge) else "nesting too deep"
    else:
        message = f"YAML: {error}"
    return SyntaxProblem("syntax", message, start, min(start + 1, len(text)))


def _read_by_items(
    text: str, offset: int, error: yaml.MarkedYAMLError
) -> tuple[ParsedJson, bool] | None:
    """A document that does not compose, read with its `nodes`/`edges` items each alone (None
    when it has no such block sequence, or what surrounds them does not compose)."""
    bodies = block_bodies(text)
    if not bodies:
        return None
    skeleton = blank(text, [(body.dashes[0], body.end) for _, body in bodies])
    root, problems, aliased, skeleton_error, shared = _compose(skeleton, offset, skeleton[offset:])
    if skeleton_error is not None or not isinstance(root, JObject):
        return None
    local = not aliased
    broken = False
    read: set[str] = set()
    for key_start, body in bodies:
        member = next((m for m in root.members if m.key.start == key_start), None)
        if member is None:
            return None
        read.add(member.key.value)
        items, item_problems, items_local = read_items(text, body)
        local = local and items_local
        broken = broken or any(p.kind == "syntax" for p in item_problems)
        problems.extend(item_problems)
        end = body.dashes[0] + len(text[body.dashes[0] : body.end].rstrip(BLANKS))
        member.value = JArray(body.dashes[0], end, items)
    empty_lists_as_arrays(root)
    # A list of items not found by its lines (`'nodes':` quoted) was read with the skeleton:
    # an item broken there breaks the skeleton, which only a whole read can tell.
    for name in ("nodes", "edges"):
        value = root.get(name)
        local = local and not (isinstance(value, JArray) and value.items and name not in read)
    if not broken:  # every item reads alone, yet the whole does not: an error across items
        problems.append(_problem_of(error, text, offset))
        local = False
    problems.sort(key=lambda problem: (problem.start, problem.end))
    return ParsedJson(root, tuple(problems), tuple(shared)), not local


def read_items(text: str, body: Body) -> tuple[list[JsonValue], list[SyntaxProblem], bool]:
    """The items of a block sequence of `text`, each read alone: their values, the problems
    met, and whether edits in them can stay local (no alias read or missed).

    An item whose `-` is off the items' column reads alone (at the column), and its `-` line
    is a problem of its own, between the items: libyaml cannot read the sequence past it, yet
    what it says is the item's (reported whatever the other items say, so that it stays
    local to its lines, as a stray comma between JSON elements)."""
    items: list[JsonValue] = []
    problems: list[SyntaxProblem] = []
    local = True
    dashes = body.dashes
    for index, dash in enumerate(dashes):
        stop = dashes[index + 1] if index + 1 < len(dashes) else body.end
        value, found, item_local = _read_item(text, dash, stop, body.column)
        items.append(value)
        problems.extend(found)
        local = local and item_local
        line_start, line_end = line_bounds(text, dash)
        if dash - line_start != body.column:
            message = (
                f"YAML: this item's '-' is at column {dash - line_start + 1}, the other items' at"
                f" column {body.column + 1}: the list does not load past it"
            )
            problems.append(SyntaxProblem("syntax", message, dash, line_end))
    return items, problems, local


def reread_items(text: str, column: int) -> tuple[list[JsonValue], list[SyntaxProblem]] | None:
    """The items of a stretch of a block sequence: `text` starts at an item's `-` at `column`
    and ends where an item's `-` starts or the sequence ends. Read as a whole read reads them
    (each alone; spans relative to `text`); None when the sequence ends inside the stretch or
    an item reads (or misses) an alias."""
    if has_other_line_break(text):
        return None  # the lines split here are not libyaml's
    source = " " * column + text
    body = scan_items(source, 0, column)
    if body is None or body.dashes[0] != column or body.end != len(source):
        return None
    # A stretch that reads whole must hold as many items as its `-` lines (a multi-line scalar
    # could hide one): else the split by lines is not what a whole read would see.
    root, _, aliased, error, _ = _compose(source, 0, source)
    if aliased or (
        error is None and not (isinstance(root, JArray) and len(root.items) == len(body.dashes))
    ):
        return None
    items, problems, local = read_items(source, body)
    if not local:
        return None
    if error is not None and not any(p.kind == "syntax" for p in problems):
        # Every item reads alone, yet the stretch does not: a whole read reports that across
        # the items, where the document first fails, unless an item elsewhere is broken.
        return None
    for item in items:
        move_spans(item, lambda p: p - column, set())
    shifted = [
        replace(
            p,
            start=p.start - column,
            end=p.end - column,
            related_start=p.related_start - column if p.related_start >= 0 else -1,
            related_end=p.related_end - column if p.related_start >= 0 else -1,
        )
        for p in problems
    ]
    return items, shifted


def _read_item(
    text: str, dash: int, stop: int, column: int
) -> tuple[JsonValue, list[SyntaxProblem], bool]:
    """The item whose `-` is at `dash` (its text runs to `stop`), read alone as a one-item
    sequence: exactly what a whole read reads of it. A broken item is what can be recovered of
    it (`_recover`), spanning its value's text, with its one syntax problem inside."""
    source = " " * column + text[dash:stop]
    root, problems, aliased, error, _ = _compose(text, dash - column, source)
    if error is None and isinstance(root, JArray) and len(root.items) == 1:
        return root.items[0], problems, not aliased
    content_end = dash + len(text[dash:stop].rstrip(BLANKS))
    start = min(value_start(text, dash, stop), content_end)
    if error is None:  # cannot be: the item's text is one `-` item
        error = yaml.YAMLError("not one sequence item")
    dash_line = line_bounds(text, dash)[0]
    problem = _problem_of(error, text, dash - column, start, content_end, dash_line)
    # Read alone, the item's end is the end of the text PyYAML was given.
    problem = replace(problem, message=problem.message.replace("end of stream", "end of its item"))
    if start < content_end and not start <= problem.start < content_end:
        problem = replace(problem, start=start, end=max(start + 1, min(problem.end, content_end)))
    quote = unclosed_quote(text, start, problem.start + 1)
    value = _recover(text, dash, stop, column, problem.start, quote)
    if not isinstance(value, JObject):
        value = JObject(start, content_end, [], {})
    if value.member("id") is None:
        value = _with_id(text, dash, stop, column, value)
    value.start, value.end = start, content_end
    missed_alias = "alias" in str(error)
    return value, [problem], not missed_alias


def _recover(
    text: str, dash: int, stop: int, column: int, at: int, quote: int | None
) -> JsonValue | None:
    """What a broken item still says: with an unterminated quote closed at the end of its line
    (a label being typed counts for its text so far, as in JSON), else without the line at
    fault; None when neither reads."""
    item = text[dash:stop]
    if quote is not None:
        _, close = line_bounds(text, quote)
        inserted = close - dash
        patched = item[:inserted] + text[quote] + item[inserted:]
        value = _patched_item(patched, column)
        if value is not None:
            move_spans(value, lambda p: dash + (p - 1 if p > inserted else p), set())
            return value
    line_start, line_end = line_bounds(text, at)
    if dash <= line_start and line_end <= stop:
        first, last = line_start - dash, line_end - dash
        patched = item[:first] + " " * (last - first) + item[last:]
        value = _patched_item(patched, column)
        if value is not None:
            move_spans(value, lambda p: dash + p, set())
            return value
    return None


def _with_id(text: str, dash: int, stop: int, column: int, value: JObject) -> JObject:
    """A broken item read without its `id:` line, with the id that line still says (`id_line`)."""
    place = id_line(text, dash, stop)
    if place is None:
        return value
    at, end = place
    root, _, _, error, _ = _compose(text, at - column, " " * column + text[at:end])
    if error is not None or not isinstance(root, JString | JNumber | JLiteral):
        return value
    id_value = JString(
        root.start,
        root.end,
        root.value if isinstance(root, JString) else text[root.start : root.end],
    )
    key_at = text.rfind("id", 0, at)
    member = JMember(JString(key_at, key_at + 2, "id"), id_value)
    members = sorted([*value.members, member], key=lambda m: m.key.start)
    last = {m.key.value: m for m in members}
    return JObject(value.start, value.end, members, last)


def _patched_item(item: str, column: int) -> JsonValue | None:
    root, _, aliased, error, _ = _compose(item, -column, " " * column + item)
    if error is not None or aliased or not isinstance(root, JArray) or len(root.items) != 1:
        return None
    return root.items[0]
