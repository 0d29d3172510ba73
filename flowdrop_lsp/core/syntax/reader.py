"""The reader seam: the one place that knows a workflow's format.

A reader turns a document's text into the shared syntax tree (core.syntax.tree's JObject,
JArray, JString… with code-point spans), re-reads one element of `nodes`/`edges` after an
edit, and writes the fixes the rules planned (a label becomes a string) in its format. The
engine, the model, the graph, the rules, the CLI and the server only ever hold a reader:
JSON (`*.flowdrop.json`, API exports) and YAML (Drupal config entities) are two of them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.syntax.door import REFUSED_DEPTH, Refusal, may_be_too_large, refusal
from flowdrop_lsp.core.syntax.json.depth import json_depth
from flowdrop_lsp.core.syntax.json.members import json_member_insertion, json_member_removal
from flowdrop_lsp.core.syntax.json.offsets import json_string_offsets
from flowdrop_lsp.core.syntax.json.parser import parse_json, parse_value_at
from flowdrop_lsp.core.syntax.json.regions import REGION_CONTEXT, parse_array_region, parse_element
from flowdrop_lsp.core.syntax.json.scanner import scan_workflow
from flowdrop_lsp.core.syntax.json.shapes import EDGE_SHAPE, NODE_SHAPE
from flowdrop_lsp.core.syntax.json.strings import SPELLED_LENGTH, spell_json
from flowdrop_lsp.core.syntax.shape import root_is_flowdrop
from flowdrop_lsp.core.syntax.tree import JObject, JsonValue, JString, ParsedJson, SyntaxProblem
from flowdrop_lsp.core.syntax.yaml.depth import yaml_depth
from flowdrop_lsp.core.syntax.yaml.dump_reader import ElementShapes
from flowdrop_lsp.core.syntax.yaml.items import (
    has_line_left_of,
    has_other_line_break,
    item_start,
)
from flowdrop_lsp.core.syntax.yaml.members import (
    yaml_empty_mapping_filling,
    yaml_inline_value,
    yaml_member_insertion,
    yaml_member_removal,
    yaml_only_member_emptying,
)
from flowdrop_lsp.core.syntax.yaml.offsets import yaml_string_offsets
from flowdrop_lsp.core.syntax.yaml.opaque import YamlOpaque
from flowdrop_lsp.core.syntax.yaml.reader import read_dumped, read_yaml, reread_items
from flowdrop_lsp.core.syntax.yaml.writer import inside_shared, yaml_fixes, yaml_scalar
from flowdrop_lsp.core.text.literals import json_string, json_text
from flowdrop_lsp.core.text.positions import EditableText

_SHAPES = {"nodes": NODE_SHAPE, "edges": EDGE_SHAPE}
Region = tuple[list[JsonValue], Sequence[SyntaxProblem]]
# How much text after a stretch `reread_region` needs (what follows is looked at, not read).
__all__ = ["REGION_CONTEXT", "reader_for"]


@dataclass(frozen=True)
class WholeRead:
    """A whole text read: its tree and problems; `fast` when the elements were read whole by
    a fast path (values without inner spans, known valid JSON); `local_edits` when an edit
    inside one element may be re-read alone; `refused` when STORE-1's door refused the text
    (core/syntax/door.py): then nothing was parsed, and the tree is empty."""

    parsed: ParsedJson
    fast: bool
    local_edits: bool
    refused: Refusal | None = None


_NOTHING_READ = ParsedJson(None, ())


class WorkflowReader(Protocol):
    name: str
    # Whether re-reading an element needs the column it starts at (indentation matters).
    needs_column: bool
    # Whether a syntax error inside `nodes`/`edges` stays local: a document with one is still
    # edited incrementally (`reread_region` re-reads broken stretches as a whole read would).
    local_syntax_errors: bool
    # Whether a non-object item of `nodes`/`edges` (a number, a string…) reads alone exactly as
    # the whole read read it, so that its finding can be made again from its own text.
    plain_items_read_alone: bool
    # Whether the elements of `nodes`/`edges` are items of lines (a YAML block sequence: each
    # starts at a `-` line): a stretch is then re-read as whole items (`reread_items`).
    items_by_lines: bool

    def read(self, text: str) -> WholeRead:
        """The whole text read, unless STORE-1's door refuses it (`WholeRead.refused`): every
        whole read of a workflow, node type or site file comes here, so every front keeps the
        door without knowing it."""
        ...

    def read_around_arrays(self, pieces: Sequence[str]) -> WholeRead | None:
        """The text around `nodes` and `edges` read as `read` reads the whole: `pieces` are the
        text before the first array, between the two, after the last, and an empty array
        stands in each array's place (the engine re-reads the top level so after an edit
        there). None when the format cannot stand an empty array in for its elements' text."""
        ...

    def depth(self, text: str) -> int:
        """How deep `text` (a whole text, or an element's) nests, as the door measures it."""
        ...

    def reread_element(
        self, text: str, column: int, array: str
    ) -> tuple[JsonValue | None, Sequence[SyntaxProblem]]:
        """One element of `array` ("nodes"/"edges") alone: `text` is exactly its text,
        starting `column` characters into its line."""
        ...

    def reread_region(
        self, text: str, stop: int, array: str, after_element: bool, column: int
    ) -> Region | str | None:
        """The elements of the stretch `[0, stop)` of `array` (after an element when
        `after_element`; `text` goes on with what follows the stretch, and starts `column`
        characters into its line), with the problems met,
        exactly as a whole read reads them; a string (core.syntax.json.regions.OVERRUN) when what is read runs
        on past `stop` (re-read a longer stretch), None when it cannot be re-read alone."""
        ...

    def reread_value(self, text: str, column: int) -> JsonValue | None:
        """One element with every inner span (for its string values)."""
        ...

    def reread_items(self, text: str, column: int) -> Region | None:
        """(`items_by_lines`) The elements of the whole items of `text`, which starts at an
        item's `-` at `column` and ends where the next untouched item's `-` starts (or the
        sequence ends), with the problems met, exactly as a whole read reads them; None when
        they cannot be re-read alone (the sequence ends inside, an alias)."""
        ...

    def item_start(self, before: str, column: int) -> int | None:
        """(`items_by_lines`) Where in `before` the item starts whose element starts right after
        it (its `-` at `column`); None when that cannot be told."""
        ...

    def may_hold(self, text: str, values: frozenset[str]) -> bool:
        """False only when an element's `text` certainly holds no string equal to one of
        `values` (a cheap test before a re-read)."""
        ...

    def write_fixes(self, finding: Finding, buffer: EditableText) -> Finding: ...

    def member_removal(
        self, text: str, column: int, obj: JObject, key: str
    ) -> tuple[int, int, str] | None:
        """(A quick fix) The range of `text` (one element, starting `column` characters into
        its line; `obj` read from it) and its replacement (usually nothing) that remove member
        `key` of `obj`, the format's layout kept; None when it cannot be removed cleanly."""
        ...

    def member_insertion(
        self, text: str, column: int, obj: JObject, key: str, value: Any
    ) -> tuple[int, int, str] | None:
        """(A quick fix) The range of `text` to replace (usually empty: an insertion) and its
        replacement adding `key: value` as the last member of `obj`, written in the format's
        style; None when it cannot be."""
        ...

    def string_offsets(self, text: str, column: int, value: JString) -> tuple[int, ...] | None:
        """Where each character of a string is written: `text` is one element's text (starting
        `column` characters into its line, as `reread_value` reads it) and `value` a string read
        from it. Entry i is the offset in `text` of what writes `value.value[i]` (the character
        itself; an escape's backslash; a folded line break's break), the last entry the offset
        just after the last one written (a quoted string's closing quote): len(value.value) + 1
        entries, strictly increasing. None when that cannot be told exactly (a YAML alias): a
        caller then places what it found on the whole string."""
        ...

    def quote_string(self, value: str, replacing: str) -> str | None:
        """`value` written as a string in this format, in place of the text `replacing` (a
        string token, whose style is kept where it can hold `value`); None when the format
        cannot write it there. What a rename or a completion types."""
        ...

    def write_value(self, value: Any, replacing: str) -> str | None:
        """A scalar (or an empty container) written in place of the value text `replacing`,
        the way the format writes it there (a string keeps `replacing`'s quoting style where
        that style can hold it); None when the format cannot write it there. What a fix
        rendered from operations types (core.engine.rendering)."""
        ...

    def write_key(self, key: str, replacing: str) -> str | None:
        """`key` written as a mapping key in place of the key text `replacing` (a member
        renamed, its value kept as written); None when it cannot be written there."""
        ...

    def empty_mapping(self, replacing: str) -> str:
        """An empty mapping as the format writes it, in place of the value text `replacing`
        (a null: `null`, `~`, or nothing at all after a YAML key): JSON's `{}`, Drupal's `{  }`.
        What a fix types to make an emptied `config` a mapping again."""
        ...

    def spell(self, value: Any) -> str:
        """A value read from a document (a Python value) as this format writes it, for a
        message: JSON's `null`, `true`, `"x"`; containers abbreviated (`{…}`, `[…]`)."""
        ...

    def looks_like_flowdrop(self, text: str) -> bool: ...

    def repeated(self, start: int, end: int) -> bool:
        """Whether the text `[start, end)` of the last whole read is inside a value the document
        repeats elsewhere (YAML: an anchored value aliases read), so that rewriting it would
        change more than one place: a rename's plan treats such a label as one it must keep."""
        ...


class JsonReader:
    """JSON and JSONC. Whole valid documents go through the C scanner element by element (spans
    on demand); anything else through the tolerant parser, which recovers after errors."""

    name = "json"
    needs_column = False
    plain_items_read_alone = True
    items_by_lines = False

    def __init__(self, allow_comments: bool = False) -> None:
        self.allow_comments = allow_comments
        self.local_syntax_errors = not allow_comments

    def read(self, text: str) -> WholeRead:
        refused = refusal(text, self.depth)
        if refused is not None:
            return WholeRead(_NOTHING_READ, False, False, refused)
        fast = None if self.allow_comments else scan_workflow(text)
        if fast is not None:
            return WholeRead(ParsedJson(fast, ()), True, True)
        parsed = parse_json(text, allow_comments=self.allow_comments)
        return WholeRead(parsed, False, not self.allow_comments)

    def read_around_arrays(self, pieces: Sequence[str]) -> WholeRead | None:
        # `[]` reads as an empty array wherever an array's text stood: what is around it reads
        # as it read beside the elements.
        return self.read("[]".join(pieces))

    def depth(self, text: str) -> int:
        return json_depth(text, self.allow_comments)

    def reread_element(
        self, text: str, column: int, array: str
    ) -> tuple[JsonValue | None, Sequence[SyntaxProblem]]:
        return parse_element(text, _SHAPES[array])

    def reread_region(
        self, text: str, stop: int, array: str, after_element: bool, column: int
    ) -> Region | str | None:
        return parse_array_region(text, stop, _SHAPES[array], after_element, column)

    def reread_value(self, text: str, column: int) -> JsonValue | None:
        return parse_value_at(text, 0, len(text))

    def reread_items(self, text: str, column: int) -> Region | None:
        return None  # elements are delimited by brackets and commas (`reread_region`)

    def item_start(self, before: str, column: int) -> int | None:
        return None

    def may_hold(self, text: str, values: frozenset[str]) -> bool:
        # A string equal to a value is that value's JSON token, unless it holds an escape.
        return "\\" in text or any(f'"{value}"' in text for value in values)

    def write_fixes(self, finding: Finding, buffer: EditableText) -> Finding:
        return finding  # the rules write JSON string literals

    def member_removal(
        self, text: str, column: int, obj: JObject, key: str
    ) -> tuple[int, int, str] | None:
        removed = json_member_removal(text, obj, key)
        return (*removed, "") if removed is not None else None

    def member_insertion(
        self, text: str, column: int, obj: JObject, key: str, value: Any
    ) -> tuple[int, int, str] | None:
        inserted = json_member_insertion(text, obj, key, value)
        return (inserted[0], inserted[0], inserted[1]) if inserted is not None else None

    def string_offsets(self, text: str, column: int, value: JString) -> tuple[int, ...] | None:
        return json_string_offsets(text, value)

    def quote_string(self, value: str, replacing: str) -> str | None:
        return json_string(value)

    def write_value(self, value: Any, replacing: str) -> str | None:
        if isinstance(value, dict | list) and value:
            return None  # containers are rendered member by member
        try:
            return json_text(value)
        except (TypeError, ValueError):
            return None

    def write_key(self, key: str, replacing: str) -> str | None:
        return json_string(key)

    def empty_mapping(self, replacing: str) -> str:
        return "{}"

    def spell(self, value: Any) -> str:
        return spell_json(value)

    def looks_like_flowdrop(self, text: str) -> bool:
        parsed = parse_json(text, allow_comments=self.allow_comments)
        return root_is_flowdrop(parsed.root, parsed.problems)

    def repeated(self, start: int, end: int) -> bool:
        return False  # JSON has no aliases


# A YAML file is composed only when both keys start a line at the top level.
_YAML_TOP_KEYS = (re.compile(r"^nodes\s*:", re.M), re.compile(r"^edges\s*:", re.M))
# A whole read's elements as the JSON parser shapes them (core.syntax.json.shapes): spans for
# what the analysis locates, a node's config and metadata read whole (`YamlOpaque`).
_ELEMENT_SHAPES = ElementShapes(_SHAPES, YamlOpaque)


class YamlReader:
    """Drupal config YAML (core.syntax.yaml.reader, core.syntax.yaml.writer). Element re-reads cover block
    sequences (what Drupal writes); an alias makes an element depend on another's text, so a
    document with aliases is re-read whole on every edit."""

    name = "yaml"
    needs_column = True
    # A syntax error inside an item of `nodes`/`edges` stays in that item (items are lines: a
    # broken one cannot swallow its neighbours), which is re-read with the items around it.
    local_syntax_errors = True
    # An item's text alone is not what the whole read read (indentation, anchors).
    plain_items_read_alone = False
    items_by_lines = True

    def __init__(self) -> None:
        # The values aliases repeat, as of the last whole read (a document with aliases is
        # read whole on every edit): a fix never rewrites one (`write_fixes`).
        self.shared: tuple[tuple[int, int], ...] = ()

    def read(self, text: str) -> WholeRead:
        dump_tried = not may_be_too_large(len(text))
        if dump_tried:
            # Drupal's dump shape nesting below the door's bound is read without measuring its
            # depth first (a quarter of a site file's read, line by line): the door would pass
            # it, under the size bound and nesting less than `REFUSED_DEPTH` (`read_dump`).
            dumped = read_dumped(text, REFUSED_DEPTH - 2, _ELEMENT_SHAPES)
            if dumped is not None:
                self.shared = ()
                return WholeRead(dumped[0], False, not dumped[1])
        refused = refusal(text, self.depth, at_least=True)
        if refused is not None:
            self.shared = ()
            return WholeRead(_NOTHING_READ, False, False, refused)
        parsed, aliased = read_yaml(text, dump_tried=dump_tried)
        self.shared = parsed.shared
        return WholeRead(parsed, False, not aliased)

    def read_around_arrays(self, pieces: Sequence[str]) -> WholeRead | None:
        # `[]` is a flow sequence where a block sequence's first `-` stood: the lines around
        # read as they read beside its items (the engine keeps edits off those lines).
        return self.read("[]".join(pieces))

    def depth(self, text: str) -> int:
        return yaml_depth(text, REFUSED_DEPTH)

    def reread_element(
        self, text: str, column: int, array: str
    ) -> tuple[JsonValue | None, Sequence[SyntaxProblem]]:
        if has_line_left_of(text, column) or has_other_line_break(text):
            return None, ()  # it might not be one item to a read by lines (`reread_items`)
        parsed, aliased = read_yaml(text, column)
        return (None, ()) if aliased else (parsed.root, parsed.problems)

    def reread_region(
        self, text: str, stop: int, array: str, after_element: bool, column: int
    ) -> Region | str | None:
        return None  # element boundaries in YAML are lines and indentation: re-read the whole

    def reread_value(self, text: str, column: int) -> JsonValue | None:
        return read_yaml(text, column)[0].root

    def reread_items(self, text: str, column: int) -> Region | None:
        return reread_items(text, column)

    def item_start(self, before: str, column: int) -> int | None:
        return item_start(before, column)

    def may_hold(self, text: str, values: frozenset[str]) -> bool:
        # A scalar's text holds its value, unless it is escaped ("\…", '…''…'). A value folded
        # over several lines of a plain or block scalar is not found (labels are one line).
        return "\\" in text or "''" in text or any(value in text for value in values)

    def write_fixes(self, finding: Finding, buffer: EditableText) -> Finding:
        return yaml_fixes(finding, buffer, self.shared)

    def member_removal(
        self, text: str, column: int, obj: JObject, key: str
    ) -> tuple[int, int, str] | None:
        removed = yaml_member_removal(text, obj, key, column)
        if removed is not None:
            return (*removed, "")
        # The only member: Drupal writes the empty mapping `{  }` (a bare key would be null).
        return yaml_only_member_emptying(text, obj, key, column)

    def member_insertion(
        self, text: str, column: int, obj: JObject, key: str, value: Any
    ) -> tuple[int, int, str] | None:
        # Drupal writes an empty mapping `{  }`: filled, it becomes a block mapping.
        filled = yaml_empty_mapping_filling(text, obj, key, value, column)
        if filled is not None:
            return filled
        inserted = yaml_member_insertion(text, obj, key, value, column)
        return (inserted[0], inserted[0], inserted[1]) if inserted is not None else None

    def string_offsets(self, text: str, column: int, value: JString) -> tuple[int, ...] | None:
        return yaml_string_offsets(text, column, value)

    def quote_string(self, value: str, replacing: str) -> str | None:
        # As `write_fixes` writes a planned label: in place of a scalar, never of nothing.
        return yaml_scalar(replacing, value) if replacing else None

    def write_value(self, value: Any, replacing: str) -> str | None:
        written = yaml_scalar(replacing, value) if isinstance(value, str) else None
        if written is None:
            written = yaml_inline_value(value)
        if written is None or replacing:
            return written
        return " " + written  # after a bare `key:` (null): the value follows a space

    def write_key(self, key: str, replacing: str) -> str | None:
        return yaml_scalar(replacing, key) if replacing else None

    def empty_mapping(self, replacing: str) -> str:
        # As Drupal's dumper writes an empty array; after a bare `key:`, a space first.
        return "{  }" if replacing else " {  }"

    def spell(self, value: Any) -> str:
        return _spell_yaml(value)

    def looks_like_flowdrop(self, text: str) -> bool:
        if not all(key.search(text) for key in _YAML_TOP_KEYS):
            return False
        parsed, _ = read_yaml(text)
        return root_is_flowdrop(parsed.root, parsed.problems)

    def repeated(self, start: int, end: int) -> bool:
        # Exactly what `write_fixes` would refuse to rewrite (core.syntax.yaml.writer).
        return inside_shared(self.shared, start, end)


def _spell_yaml(value: Any) -> str:
    """A value as YAML writes it, for a message: `null`, `true`, a string single-quoted
    (`'it''s'`; double-quoted when it holds a control character), `{…}`, `[…]`."""
    if isinstance(value, str):
        if len(value) > SPELLED_LENGTH:
            value = value[: SPELLED_LENGTH - 1] + "…"
        if any(ord(c) < 0x20 or ord(c) == 0x7F for c in value):
            return json_string(value)  # JSON's escapes are YAML double-quoted escapes
        return "'" + value.replace("'", "''") + "'"
    return spell_json(value)  # null, true, numbers, {…} and […] are YAML's spelling too


def reader_for(syntax: str, allow_comments: bool = False) -> WorkflowReader:
    """The reader of a format: "yaml", else JSON (JSONC with `allow_comments`)."""
    return YamlReader() if syntax == "yaml" else JsonReader(allow_comments)
