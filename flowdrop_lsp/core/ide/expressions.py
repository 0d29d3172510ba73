"""Editor features inside an expression string: hover on a name (where it comes from) and on a
filter, function, test or tag (its signature); completion of the names in scope, and of
filters, tests and tags where one is being typed; definition from a data mapper's name to the
dynamic input that declares it.

An offset in the document becomes a character of the expression through the reader's map of
the string (core/domain/expressions.py, `ElementEditor.string_offsets`): JSON escapes, YAML
quoting and block scalars are seen through, and every answer's range is mapped back the same
way. Only the node under the cursor is looked at, and only its expressions are parsed (the
parse is cached: the one the rules made is reused)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flowdrop_lsp.core.domain.expressions import (
    EXPRESSION_LANGUAGE,
    MAPPER,
    TWIG,
    ConfigExpression,
    definition_of,
    expression_functions,
    node_expressions,
    parse,
    processor_of,
    twig_vocabulary_of,
)
from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.wording import short_text
from flowdrop_lsp.core.expressions.base import Binding, CompletionPlace, Parsed, Place, SymbolKind
from flowdrop_lsp.core.expressions.expression_language import (
    SIGNATURES as EL_SIGNATURES,
)
from flowdrop_lsp.core.expressions.expression_language import (
    expression_language_completion_place,
)
from flowdrop_lsp.core.expressions.twig import (
    SIGNATURES as TWIG_SIGNATURES,
)
from flowdrop_lsp.core.expressions.twig import (
    names_in_scope,
    twig_completion_place,
)
from flowdrop_lsp.core.ide.insight import nodes_in
from flowdrop_lsp.core.text.positions import Span

if TYPE_CHECKING:
    from flowdrop_lsp.core.engine.document import WorkflowDocument

ENGINE_TITLES = {
    TWIG: "Twig",
    EXPRESSION_LANGUAGE: "ExpressionLanguage",
    "jsonpath": "JSONPath",
    "property_path": "property path",
}


@dataclass(frozen=True)
class InputName:
    """A name a data mapper's context holds: one of its dynamic inputs (with what its entry
    says), or a parameter of its type; `span` where the name is declared, when it is."""

    name: str
    what: str
    span: Span | None


@dataclass(frozen=True)
class ExpressionAt:
    """The expression under an offset: its node, where it is in the config, its parse, and
    where each of its characters is written in the document now (`offsets`, one more than
    characters)."""

    node: Node
    expression: ConfigExpression
    parsed: Parsed | None
    offsets: tuple[int, ...]

    def index_at(self, offset: int) -> int:
        """The character under `offset` (the one it is on; a caret after the last one counts
        as on the end)."""
        return max(0, min(bisect_right(self.offsets, offset) - 1, len(self.offsets) - 1))

    def caret_at(self, offset: int) -> int:
        """The caret position `offset` is, as a character index (between characters)."""
        return min(bisect_left(self.offsets, offset), len(self.offsets) - 1)

    def span(self, start: int, end: int) -> Span:
        """The document range of characters `[start, end)` (resolved, as of now)."""
        last = len(self.offsets) - 1
        start, end = min(max(start, 0), last), min(max(end, start), last)
        stop = self.offsets[end] if end > start else self.offsets[start]
        if end > start and self.offsets[end] - self.offsets[end - 1] > 12:
            stop = self.offsets[end - 1] + 1  # a folded line's indentation is no part of it
        return Span(self.offsets[start], stop)


@dataclass(frozen=True, slots=True)
class ExpressionHover:
    span: Span
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ExpressionCompletion:
    """What may be typed at a caret inside an expression: `items` (value, what it is, kind)
    replacing `replace`."""

    replace: Span
    items: tuple[tuple[str, str, SymbolKind | None], ...]


def expression_at(document: WorkflowDocument, offset: int) -> ExpressionAt | None:
    """The expression whose string holds `offset`, if any."""
    node = next(nodes_in(document, offset, offset), None)
    if node is None or node.editor is None or node.id is None:
        return None
    settings = document.settings
    definition = definition_of(node, settings)
    for expression in node_expressions(node.type_id, node.config, definition):
        mapped = node.editor.string_offsets(expression.path)
        if mapped is None:
            continue
        whole, offsets = mapped
        at = whole.resolve().start - whole.start
        moved = tuple(o + at for o in offsets)
        if not moved or not moved[0] <= offset <= moved[-1]:
            continue
        parsed = parse(expression, twig_vocabulary_of(settings), expression_functions(settings))
        return ExpressionAt(node, expression, parsed, moved)
    return None


def mapper_names(document: WorkflowDocument, node: Node) -> dict[str, InputName] | None:
    """A data mapper's context, each name with what declares it; None for another node."""
    definition = definition_of(node, document.settings)
    if processor_of(node.type_id, definition) != MAPPER or not isinstance(node.config, dict):
        return None
    names: dict[str, InputName] = {}
    inputs = node.config.get("dynamicInputs")
    for index, item in enumerate(inputs if isinstance(inputs, list) else ()):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            continue
        where = (
            node.editor.locate(("data", "config", "dynamicInputs", index, "name"))
            if node.editor
            else None
        )
        names[item["name"]] = InputName(
            item["name"], _input_words(item), where.value if where else None
        )
    if definition is not None:
        for spec in definition.parameters:
            names.setdefault(
                spec.name, InputName(spec.name, f"parameter of node type '{definition.id}'", None)
            )
    return names


def _input_words(item: dict[str, Any]) -> str:
    label, kind = item.get("label"), item.get("dataType")
    words = "dynamic input"
    if isinstance(label, str) and label:
        words += f" '{short_text(label)}'"
    if isinstance(kind, str) and kind:
        words += f" ({short_text(kind)})"
    return words + " of this data mapper"


def expression_hover(document: WorkflowDocument, offset: int) -> ExpressionHover | None:
    at = expression_at(document, offset)
    if at is None or at.parsed is None:
        return None
    index = at.index_at(offset)
    engine = ENGINE_TITLES.get(at.expression.engine, at.expression.engine)
    for symbol in at.parsed.symbols:
        if symbol.start <= index < symbol.end:
            signatures = TWIG_SIGNATURES if at.expression.engine == TWIG else EL_SIGNATURES
            said = signatures.get((symbol.kind, symbol.name))
            line = (
                said
                or f"{symbol.kind.value} `{symbol.name}`: not one of {engine}'s own (a site extension)"
            )
            return ExpressionHover(
                at.span(symbol.start, symbol.end),
                (f"{engine} {symbol.kind.value} `{symbol.name}`", line),
            )
    for binding in at.parsed.bindings:
        if binding.start <= index < binding.end:
            return ExpressionHover(at.span(binding.start, binding.end), (_binding_words(binding),))
    for read in at.parsed.reads:
        if read.start <= index < read.end:
            return ExpressionHover(
                at.span(read.start, read.end), _read_words(document, at, read.name, read.guarded)
            )
    return None


def _binding_words(binding: Binding) -> str:
    return f"`{binding.name}`: {binding.kind} in this template"


def _read_words(
    document: WorkflowDocument, at: ExpressionAt, name: str, guarded: bool
) -> tuple[str, ...]:
    names = mapper_names(document, at.node)
    if names is None:
        return (f"`{name}`: read from the node's context (not known from the workflow)",)
    found = names.get(name)
    if found is not None:
        return (f"`{name}`: {found.what}",)
    if guarded:
        return (f"`{name}`: not in this data mapper's inputs, and guarded",)
    consequence = "renders as ''" if at.expression.engine == TWIG else "fails the node"
    return (f"`{name}`: not in this data mapper's inputs: it {consequence} at run time",)


def expression_definition(document: WorkflowDocument, offset: int) -> list[Span]:
    """From a data mapper's read of an input to the input's declared name."""
    at = expression_at(document, offset)
    if at is None or at.parsed is None:
        return []
    index = at.index_at(offset)
    for read in at.parsed.reads:
        if read.start <= index < read.end:
            names = mapper_names(document, at.node) or {}
            found = names.get(read.name)
            return [found.span.resolve()] if found is not None and found.span is not None else []
    for binding in at.parsed.bindings:
        if binding.start <= index < binding.end:
            return [at.span(binding.start, binding.end)]
    return []


def expression_completion(document: WorkflowDocument, offset: int) -> ExpressionCompletion | None:
    at = expression_at(document, offset)
    if at is None:
        return None
    caret = at.caret_at(offset)
    source, engine = at.expression.source, at.expression.engine
    place: CompletionPlace
    if engine == TWIG:
        place = twig_completion_place(source, caret)
    elif engine == EXPRESSION_LANGUAGE:
        place = expression_language_completion_place(source, caret)
    else:
        return None
    settings = document.settings
    items: list[tuple[str, str, SymbolKind | None]] = []
    if engine == TWIG:
        vocabulary = twig_vocabulary_of(settings)
        by_place = {
            Place.FILTER: (vocabulary.filters, SymbolKind.FILTER),
            Place.TEST: (vocabulary.tests, SymbolKind.TEST),
            Place.TAG: (vocabulary.tags, SymbolKind.TAG),
        }
        if place.place in by_place:
            names, kind = by_place[place.place]
            items = [(n, _signature(TWIG_SIGNATURES, kind, n), kind) for n in sorted(names)]
    if place.place is Place.NAME:
        items = _names_here(document, at, caret)
        functions = (
            twig_vocabulary_of(settings).functions
            if engine == TWIG
            else expression_functions(settings)
        )
        signatures = TWIG_SIGNATURES if engine == TWIG else EL_SIGNATURES
        items += [
            (n, _signature(signatures, SymbolKind.FUNCTION, n), SymbolKind.FUNCTION)
            for n in sorted(functions)
        ]
    if not items:
        return None
    return ExpressionCompletion(at.span(place.start, place.end), tuple(items))


def _signature(signatures: Any, kind: SymbolKind, name: str) -> str:
    return signatures.get((kind, name)) or kind.value


def _names_here(
    document: WorkflowDocument, at: ExpressionAt, caret: int
) -> list[tuple[str, str, SymbolKind | None]]:
    found: dict[str, str] = {}
    for name, declared in (mapper_names(document, at.node) or {}).items():
        found[name] = declared.what
    if at.parsed is not None and at.expression.engine == TWIG:
        for name in names_in_scope(at.parsed, caret):
            found.setdefault(name, "set in this template")
    return [(name, what, None) for name, what in sorted(found.items())]
