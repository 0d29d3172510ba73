"""The expressions a node's config holds, where they are and which engine reads them (spec R11,
LANG-1…29).

R11 names the expression-bearing keys: a data extractor's `path`, the `value` of each dynamic
output of a data mapper, the sources of a data shaper's `mapping` (reserved values — the
LANG-25 sentinels — skipped, nested `_source` and `_each` walked) and a prompt template's
`template`. Which of these a node has follows from its processor: the plugin after the ':' of its
type's `executor_plugin` (a site may define its own type on FlowDrop's processor), else its type
id. The engine is the node's `config.engine` (LANG-2), else its type's `engine` default, else the
processor's own default (the one FlowDrop's definitions declare); a prompt template is always
Twig (its type has no `engine` parameter).

Parsing is cached by (engine, text, vocabulary): a keystroke elsewhere in a node re-checks it, and
its unchanged expressions cost a dictionary look-up."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.domain.model import Node
from flowdrop_lsp.core.domain.node_types import NodeTypeDefinition
from flowdrop_lsp.core.expressions.base import Parsed
from flowdrop_lsp.core.expressions.expression_language import (
    EL_FUNCTIONS,
    hash_literal_keys,
    parse_expression_language,
)
from flowdrop_lsp.core.expressions.jsonpath import parse_jsonpath
from flowdrop_lsp.core.expressions.property_path import parse_property_path
from flowdrop_lsp.core.expressions.twig import (
    DRUPAL_TWIG_EXTENSION,
    TWIG_CORE,
    TwigVocabulary,
    parse_twig,
)
from flowdrop_lsp.core.text.positions import Span
from flowdrop_lsp.core.text.suggestions import alike_names

TWIG = "twig"
EXPRESSION_LANGUAGE = "expression_language"
JSONPATH = "jsonpath"
PROPERTY_PATH = "property_path"

MAPPER = "data_mapper"
EXTRACTOR = "data_extractor"
SHAPER = "data_shaper"
PROMPT_TEMPLATE = "prompt_template"
# Each expression-bearing processor's engine when neither the node nor its type names one: the
# defaults FlowDrop's own node-type definitions declare (the prompt template has no choice).
PROCESSOR_ENGINES: Mapping[str, str] = {
    MAPPER: EXPRESSION_LANGUAGE,
    EXTRACTOR: JSONPATH,
    SHAPER: PROPERTY_PATH,
    PROMPT_TEMPLATE: TWIG,
}
# The shaper's reserved source values (LANG-25): never expressions.
SENTINELS = frozenset({"_NOW_", "_NULL_", "_EMPTY_ARRAY_", "_EMPTY_OBJECT_"})
LITERAL_PREFIX = "_LITERAL:"
CONFIG = ("data", "config")


@dataclass(frozen=True)
class ConfigExpression:
    """One expression of a node's config: where it is (`path` below the node's element, and
    `key`, the dotted config key the spec's locator names), which engine reads it and its text.
    `role` says what it is for: "output" (a mapper's dynamic output, `name` its output name),
    "path" (an extractor's), "source" (a shaper's mapping, `name` its target field),
    "template" (a prompt template's)."""

    path: tuple[str | int, ...]
    key: str
    engine: str
    source: str
    role: str
    name: str | None = None

    @property
    def identity(self) -> tuple[str, ...]:
        """Its path, as a finding on it is told apart from one on another expression of the
        node (`Finding.identity`): a config key may hold several (a mapper's outputs)."""
        return tuple(str(step) for step in self.path)

    @property
    def where(self) -> str:
        """The expression as a message names it."""
        if self.role == "output" and self.name:
            return f"the value of dynamic output '{self.name}'"
        if self.role == "source" and self.name:
            return f"the mapping source of '{self.name}'"
        return f"config '{self.key}'"


def definition_of(node: Node, settings: Settings) -> NodeTypeDefinition | None:
    """The site's definition of a node's type (None: no site, or a type it does not define)."""
    catalog = settings.node_type_catalog
    return catalog.get(node.type_id) if catalog is not None and node.type_id else None


def processor_of(type_id: str | None, definition: NodeTypeDefinition | None) -> str | None:
    """The processor a node runs: its type's executor plugin id (after the provider's ':'),
    else its type id."""
    if definition is not None and definition.executor_plugin:
        return definition.executor_plugin.rpartition(":")[2]
    return type_id


def engine_of(
    config: Mapping[str, Any], processor: str, definition: NodeTypeDefinition | None
) -> str:
    """The engine that reads a node's expressions (see the module)."""
    if processor == PROMPT_TEMPLATE:
        return TWIG
    chosen = config.get("engine")
    if isinstance(chosen, str) and chosen.strip():
        return chosen
    declared = definition.parameter("engine") if definition is not None else None
    if declared is not None and isinstance(declared.default, str) and declared.default.strip():
        return declared.default
    return PROCESSOR_ENGINES[processor]


def node_expressions(
    type_id: str | None, config: Any, definition: NodeTypeDefinition | None
) -> tuple[ConfigExpression, ...]:
    """The expressions of a node's config, in document order (none for a node that holds none,
    or whose config is no mapping)."""
    processor = processor_of(type_id, definition)
    if processor is None or processor not in PROCESSOR_ENGINES or not isinstance(config, dict):
        return ()
    engine = engine_of(config, processor, definition)
    return tuple(_expressions(processor, engine, config))


def _expressions(processor: str, engine: str, config: dict[str, Any]) -> Iterator[ConfigExpression]:
    if processor == PROMPT_TEMPLATE:
        template = config.get("template")
        if isinstance(template, str):
            yield ConfigExpression((*CONFIG, "template"), "template", engine, template, "template")
    elif processor == EXTRACTOR:
        path = config.get("path")
        if isinstance(path, str):
            yield ConfigExpression((*CONFIG, "path"), "path", engine, path, "path")
    elif processor == MAPPER:
        outputs = config.get("dynamicOutputs")
        if isinstance(outputs, list):
            for index, output in enumerate(outputs):
                if isinstance(output, dict) and isinstance(output.get("value"), str):
                    name = output.get("name")
                    yield ConfigExpression(
                        (*CONFIG, "dynamicOutputs", index, "value"),
                        f"dynamicOutputs.{index}.value",
                        engine,
                        output["value"],
                        "output",
                        name if isinstance(name, str) else None,
                    )
    elif processor == SHAPER:
        mapping = config.get("mapping")
        if isinstance(mapping, dict):
            yield from _mapping_sources(engine, mapping, ("mapping",))


def _mapping_sources(
    engine: str, mapping: dict[str, Any], where: tuple[str, ...]
) -> Iterator[ConfigExpression]:
    """A shaper mapping's sources: a string is a source unless it is a sentinel; a mapping with
    `_source` names its source there and its items' mapping in `_each`; any other mapping is a
    nested mapping (R11: nested `_source` and `_each` sources walked)."""
    for target, source in mapping.items():
        here = (*where, target)
        if isinstance(source, str):
            if not is_sentinel(source):
                yield _source(engine, here, source, target)
        elif isinstance(source, dict):
            inner = source.get("_source")
            if isinstance(inner, str) and not is_sentinel(inner):
                yield _source(engine, (*here, "_source"), inner, target)
            each = source.get("_each")
            if isinstance(each, dict):
                yield from _mapping_sources(engine, each, (*here, "_each"))
            if "_source" not in source and "_each" not in source:
                yield from _mapping_sources(engine, source, here)


def _source(engine: str, here: tuple[str, ...], text: str, target: str) -> ConfigExpression:
    return ConfigExpression((*CONFIG, *here), ".".join(here), engine, text, "source", target)


def is_sentinel(value: str) -> bool:
    """A shaper's reserved source value (LANG-25), not an expression."""
    return value in SENTINELS or value.startswith(LITERAL_PREFIX)


def parse(
    expression: ConfigExpression, vocabulary: TwigVocabulary, functions: frozenset[str]
) -> Parsed | None:
    """The expression parsed by its engine's grammar; None for an engine we do not know
    (LANG-2 reports it) and for what the engine does not validate: an empty expression (LANG-3),
    a JSONPath engine's path not rooted at `$` (LANG-12)."""
    return parse_text(expression.engine, expression.source, vocabulary, functions)


@lru_cache(maxsize=1024)  # a prompt template may be many kB: what typing needs, not every version
def parse_text(
    engine: str, text: str, vocabulary: TwigVocabulary, functions: frozenset[str]
) -> Parsed | None:
    if not text.strip():
        return None  # LANG-3: an empty expression is valid
    if engine == TWIG:
        return parse_twig(text, vocabulary)
    if engine == EXPRESSION_LANGUAGE:
        return parse_expression_language(text, functions)
    if engine == JSONPATH:
        return parse_jsonpath(text) if text.strip().startswith("$") else None
    if engine == PROPERTY_PATH:
        return parse_property_path(text)
    return None


__all__ = ["EL_FUNCTIONS", "ConfigExpression", "node_expressions", "parse", "parse_text"]


def twig_vocabulary_of(settings: Settings) -> TwigVocabulary:
    """The Twig names a node's templates may use: Twig's own, Drupal's extension's (FlowDrop
    renders through Drupal's `twig` service), and what the settings say a site's modules add."""
    return _twig_vocabulary(
        settings.twig_filters, settings.twig_functions, settings.twig_tests, settings.twig_tags
    )


@lru_cache(maxsize=64)
def _twig_vocabulary(
    filters: frozenset[str], functions: frozenset[str], tests: frozenset[str], tags: frozenset[str]
) -> TwigVocabulary:
    return TWIG_CORE.extended(
        filters=DRUPAL_TWIG_EXTENSION.filters | filters,
        functions=DRUPAL_TWIG_EXTENSION.functions | functions,
        tests=DRUPAL_TWIG_EXTENSION.tests | tests,
        tags=DRUPAL_TWIG_EXTENSION.tags | tags,
    )


def expression_functions(settings: Settings) -> frozenset[str]:
    """The functions an ExpressionLanguage expression may call: Symfony's own and the
    settings' (a site's providers)."""
    extra = settings.expression_functions
    return EL_FUNCTIONS | extra if extra else EL_FUNCTIONS


def document_span(node: Node, expression: ConfigExpression, start: int, end: int) -> Span:
    """Where the characters `[start, end)` of an expression are written in the document: the
    exact characters through the format's quoting, escapes and block scalars; the whole string
    when that cannot be told; the node's anchor when not even the string is found."""
    mapped = node.editor.string_offsets(expression.path) if node.editor is not None else None
    if mapped is None:
        located = node.editor.locate(expression.path) if node.editor is not None else None
        return located.value if located is not None else node.anchor
    whole, offsets = mapped
    last = len(offsets) - 1
    start = min(max(start, 0), last)
    end = min(max(end, start), last)
    first = offsets[start]
    if end == start:
        stop = first
    else:
        # The character before `end` ends where the next one starts, unless what lies between
        # is no part of it (a folded line's indentation): then one character past its start.
        stop = (
            offsets[end]
            if offsets[end] - offsets[end - 1] <= _LONGEST_ESCAPE
            else offsets[end - 1] + 1
        )
    return Span(first, stop, whole.base)


# `\UXXXXXXXX` (YAML) or a JSON surrogate pair `\uXXXX\uXXXX`: the most text one character takes.
_LONGEST_ESCAPE = 12


def mapper_context(config: Any, definition: NodeTypeDefinition | None) -> frozenset[str] | None:
    """The names a data mapper's expressions are evaluated with: its dynamic inputs' names
    (the map of its inputs, LANG-1's transformation context), and its type's parameters; None
    when its `dynamicInputs` is no list (the context cannot be told)."""
    inputs = config.get("dynamicInputs") if isinstance(config, dict) else None
    if not isinstance(inputs, list):
        return None
    names = {
        item["name"]
        for item in inputs
        if isinstance(item, dict) and isinstance(item.get("name"), str)
    }
    if definition is not None:
        names |= definition.parameter_names
    return frozenset(names)


def mapper_output_keys(
    config: Any, definition: NodeTypeDefinition | None, port: str
) -> frozenset[str] | None:
    """The keys of the map a data mapper's dynamic output `port` delivers, when its value says
    them: an ExpressionLanguage value that is one hash literal with its keys written out
    (`{'brief': brief, tone: tone}`: what the mapper evaluates is that map). None when it is not
    known: another engine (Twig renders a string), any other expression, a port its type
    declares (a declared port wins over a dynamic one, DYN-5) or a type without dynamic outputs
    (DYN-1), no such output or two of that name (DYN-3)."""
    if not isinstance(config, dict):
        return None
    if definition is not None and (
        definition.output(port) is not None or definition.parameter("dynamicOutputs") is None
    ):
        return None
    if engine_of(config, MAPPER, definition) != EXPRESSION_LANGUAGE:
        return None
    outputs = config.get("dynamicOutputs")
    values = [
        output.get("value")
        for output in (outputs if isinstance(outputs, list) else ())
        if isinstance(output, dict) and output.get("name") == port
    ]
    if len(values) != 1 or not isinstance(values[0], str):
        return None
    return hash_literal_keys(values[0])


# How alike (core/text/suggestions.py `likeness`) a name of an expression's context must be to
# a name read outside it to be offered for it.
NAMES_ALIKE = 0.75


def names_alike(name: str, known: frozenset[str] | set[str]) -> list[str]:
    """The names of a context a read outside it most likely meant, most alike first."""
    return alike_names(name, known, cutoff=NAMES_ALIKE)
