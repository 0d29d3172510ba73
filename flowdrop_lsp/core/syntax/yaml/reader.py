"""Drupal config YAML (`flowdrop_workflow.flowdrop_workflow.<id>.yml`) read into the same syntax
tree as JSON (core.syntax.tree: JObject, JArray, JString… with code-point spans), so that the
workflow model, the graph, the rules and the schema never know which format they read.

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
)

try:
    _LOADER: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _LOADER = yaml.SafeLoader

MAX_YAML_CHARS = 20 * 1024 * 1024
MAX_DEPTH = 200
# Values a document may stand for once aliases are expanded (a "billion laughs" document holds
# a few lines and stands for 10^9 values): past this the document is refused.
MAX_EXPANDED_VALUES = 2_000_000

_CORE = "tag:yaml.org,2002:"
_SCALAR_TAGS = {f"{_CORE}{name}" for name in ("int", "float", "bool", "null")}
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_PROPERTY_END = re.compile(r"\S+\s+")


class _TooLarge(Exception):
    pass


class _Reader:
    def __init__(self, text: str, offset: int) -> None:
        self.text = text
        self.offset = offset  # the BOM libyaml leaves out of its marks
        self.problems: list[SyntaxProblem] = []
        self.converted: dict[int, JsonValue] = {}  # id(node) → value: aliases read once
        self.sizes: dict[int, int] = {}
        self.aliased = False  # a node was met twice: an alias (edits cannot stay local)

    def span(self, node: yaml.Node) -> tuple[int, int]:
        start = node.start_mark.index + self.offset
        end = node.end_mark.index + self.offset
        return start, end

    def value(self, node: yaml.Node, depth: int = 0) -> JsonValue:
        known = self.converted.get(id(node))
        if known is not None:
            self.aliased = True
            return known
        if depth > MAX_DEPTH:
            raise _TooLarge(f"nesting deeper than {MAX_DEPTH} levels")
        start, end = self.span(node)
        if not isinstance(node, yaml.ScalarNode):
            # A block collection's end mark is where the next token starts (the next item's
            # indentation): the span ends with its content, so that typing in the indentation
            # that follows is not an edit inside it.
            end = start + len(self.text[start:end].rstrip())
        result: JsonValue
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
        self.converted[id(node)] = result
        return result

    def key(self, node: yaml.Node) -> JString:
        start, end = self.span(node)
        if isinstance(node, yaml.ScalarNode):
            value = self.scalar(node, start, end)
            text = value.value if isinstance(value, JString) else node.value
            return JString(start, end, str(text))
        # A mapping or sequence as a key: no FlowDrop document has one; keep its text.
        return JString(start, end, f"<{type(node).__name__}>")

    def scalar(self, node: yaml.ScalarNode, start: int, end: int) -> JsonValue:
        # An anchor or a tag before the scalar (`&name 'Web Search'`) is not part of its value:
        # the span (and a rename) covers the scalar itself.
        while start < end and self.text[start] in "&!":
            gap = _PROPERTY_END.search(self.text, start, end)
            if gap is None:
                break
            start = gap.end()
        if node.style in ("|", ">"):
            # A block scalar's end mark is the start of the line after its content: the span
            # (where a diagnostic shows, what a rename replaces) ends with the content.
            end = start + len(self.text[start:end].rstrip("\r\n"))
        if node.tag in _SCALAR_TAGS:
            try:
                value = _CONSTRUCTOR.construct_object(node)
            except (yaml.YAMLError, ValueError):
                return JString(start, end, node.value)
            if value is None or isinstance(value, bool):
                return JLiteral(start, end, value)
            return JNumber(start, end, repr(value) if isinstance(value, float) else str(value))
        return JString(start, end, node.value)

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


def read_yaml(text: str, column: int = 0) -> tuple[ParsedJson, bool]:
    """`parse_yaml`, and whether the document uses aliases. With `column`, `text` is a stretch
    of a document that starts `column` characters into its line (an element of a block
    sequence, re-read alone): it is read as if indented so, spans still relative to `text`."""
    offset = 1 if text.startswith("\ufeff") else 0
    if len(text) > MAX_YAML_CHARS:
        message = f"document larger than {MAX_YAML_CHARS // (1024 * 1024)} MiB: not read"
        return ParsedJson(None, (SyntaxProblem("syntax", message, 0, 1),)), False
    reader = _Reader(text, offset - column)
    source = " " * column + text[offset:]
    try:
        node = yaml.compose(source, Loader=_LOADER)
        if node is None:
            return ParsedJson(None, ()), False
        if reader.expanded_size(node) > MAX_EXPANDED_VALUES:
            raise _TooLarge(f"aliases expand to more than {MAX_EXPANDED_VALUES:,} values: not read")
        root = reader.value(node)
    except yaml.MarkedYAMLError as error:
        return ParsedJson(None, (_syntax_problem(error, text, offset - column),)), False
    except yaml.YAMLError as error:
        problem = SyntaxProblem("syntax", f"YAML: {error}", 0, min(1, len(text)))
        return ParsedJson(None, (problem,)), False
    except (_TooLarge, RecursionError) as error:
        message = str(error) if isinstance(error, _TooLarge) else "nesting too deep"
        return ParsedJson(None, (SyntaxProblem("syntax", message, 0, min(1, len(text))),)), False
    if not column:
        _empty_lists_as_arrays(root)
    return ParsedJson(root, tuple(reader.problems)), reader.aliased


def _empty_lists_as_arrays(root: JsonValue) -> None:
    """Drupal's dumper writes an empty PHP array as `{  }`, so a workflow without edges says
    `edges: {  }`: for the two lists a workflow is made of, that is an empty list."""
    if not isinstance(root, JObject):
        return
    for name in ("nodes", "edges"):
        member = root.member(name)
        value = member.value if member is not None else None
        if member is not None and isinstance(value, JObject) and not value.members:
            member.value = JArray(value.start, value.end, [])


def _syntax_problem(error: yaml.MarkedYAMLError, text: str, offset: int) -> SyntaxProblem:
    mark = error.problem_mark or error.context_mark
    at = max(0, min(mark.index + offset, len(text))) if mark is not None else 0
    problem = error.problem or "invalid YAML"
    context = f" ({error.context})" if error.context else ""
    end = at + 1 if at < len(text) and text[at] not in "\r\n" else at
    return SyntaxProblem("syntax", f"YAML: {problem}{context}", at, end)
