"""One line per core Twig filter, function, test and tag (Twig 3.15's documentation, shortened):
its call shape and what it gives, for hover."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from flowdrop_lsp.core.expressions.base import SymbolKind

_FILTERS = {
    "abs": "abs — the absolute value of a number",
    "batch": "batch(size, fill = null, preserve_keys = true) — the sequence cut into lists of `size`",
    "capitalize": "capitalize — the first character uppercase, the others lowercase",
    "column": "column(name, index = null) — the values of one column of a list of rows",
    "convert_encoding": "convert_encoding(to, from) — the string converted between charsets",
    "date": "date(format = null, timezone = null) — a date formatted (`d/m/Y`, …)",
    "date_modify": "date_modify(modifier) — a date moved (`+1 day`)",
    "default": "default(value = '') — the value, or `value` when it is undefined or empty",
    "e": "e(strategy = 'html', charset = null) — alias of `escape`",
    "escape": "escape(strategy = 'html', charset = null) — the string escaped for html, js, css, url, html_attr",
    "filter": "filter(arrow) — the items for which the arrow function is true",
    "find": "find(arrow) — the first item for which the arrow function is true (3.11)",
    "first": "first — the first item of a sequence or mapping, or first character of a string",
    "format": "format(...values) — the string with its `%s` placeholders replaced (sprintf)",
    "join": "join(glue = '', and = null) — the items joined into a string",
    "json_encode": "json_encode(options = null) — the JSON of the value",
    "keys": "keys — the keys of a mapping or sequence",
    "last": "last — the last item of a sequence or mapping, or last character of a string",
    "length": "length — the number of items, or of characters of a string",
    "lower": "lower — the string lowercase",
    "map": "map(arrow) — each item transformed by the arrow function",
    "merge": "merge(other) — the two sequences or mappings merged",
    "nl2br": "nl2br — the string with `<br />` before each newline",
    "number_format": "number_format(decimals = 0, decimal_point = '.', thousand_sep = ',') — the number formatted",
    "raw": "raw — the value marked safe: not escaped",
    "reduce": "reduce(arrow, initial = null) — the items folded into one value",
    "replace": "replace(from) — the string with the keys of `from` replaced by its values",
    "reverse": "reverse(preserve_keys = false) — the sequence, mapping or string reversed",
    "round": "round(precision = 0, method = 'common') — the number rounded (common, ceil, floor)",
    "shuffle": "shuffle — the sequence in random order (3.11)",
    "slice": "slice(start, length = null, preserve_keys = false) — a part of a sequence or string",
    "sort": "sort(arrow = null) — the sequence sorted",
    "spaceless": "spaceless — the HTML without whitespace between tags (deprecated in 3.12)",
    "split": "split(delimiter, limit = null) — the string cut into a list",
    "striptags": "striptags(allowable_tags = null) — the string without SGML/XML tags",
    "title": "title — each word capitalized",
    "trim": "trim(character_mask = null, side = 'both') — the string without surrounding whitespace",
    "upper": "upper — the string uppercase",
    "url_encode": "url_encode — the string (or the mapping, as a query string) URL-encoded",
}
_FUNCTIONS = {
    "attribute": "attribute(object, method, arguments = []) — a dynamic attribute of a variable",
    "block": "block(name, template = null) — the content of a block",
    "constant": "constant(name, object = null) — the value of a PHP constant",
    "cycle": "cycle(values, position) — the value of a list at a position, cycling",
    "date": "date(date = null, timezone = null) — a date object, to compare dates",
    "enum": "enum(class) — a PHP enum, to reach its cases (3.15)",
    "enum_cases": "enum_cases(class) — the cases of a PHP enum (3.12)",
    "include": "include(template, variables = [], with_context = true, ignore_missing = false, sandboxed = false) — another template, rendered",
    "max": "max(...values) — the largest value",
    "min": "min(...values) — the smallest value",
    "parent": "parent() — the parent template's content of the current block",
    "random": "random(values = null, max = null) — a random item, character or number",
    "range": "range(low, high, step = 1) — a list of numbers or letters",
    "source": "source(name, ignore_missing = false) — a template's source, not rendered",
}
_TESTS = {
    "constant": "constant(name) — whether the value equals a PHP constant",
    "defined": "defined — whether the variable exists in the context",
    "divisible by": "divisible by(number) — whether the number is a multiple of `number`",
    "empty": "empty — whether the value is an empty string or list, null or false",
    "even": "even — whether the number is even",
    "iterable": "iterable — whether the value is a list, mapping or Traversable",
    "mapping": "mapping — whether the value is a mapping (3.11)",
    "none": "none — whether the value is null",
    "null": "null — whether the value is null",
    "odd": "odd — whether the number is odd",
    "same as": "same as(value) — whether the value is identical (===) to `value`",
    "sequence": "sequence — whether the value is a list (3.11)",
}
_TAGS = {
    "apply": "apply filter|… %}…{% endapply — the body's output through filters",
    "autoescape": "autoescape strategy %}…{% endautoescape — the body escaped with `strategy` (or not: false)",
    "block": "block name %}…{% endblock — a block a child template may override",
    "deprecated": "deprecated 'message' — a deprecation notice when the template is compiled",
    "do": "do expression — the expression evaluated, nothing printed",
    "embed": "embed template with vars only %}…{% endembed — a template included, its blocks overridden",
    "extends": "extends template — the parent template this one extends",
    "flush": "flush — the output buffer flushed",
    "for": "for key, value in sequence %}…{% else %}…{% endfor — the body for each item (`loop` inside)",
    "from": "from template import macro as alias — macros imported as functions",
    "guard": "guard function|filter|test name %}…{% else %}…{% endguard — a body only if the callable exists (3.15)",
    "if": "if condition %}…{% elseif … %}…{% else %}…{% endif — a body on a condition",
    "import": "import template as alias — the macros of a template, as `alias.macro()`",
    "include": "include template with vars only — another template, rendered",
    "macro": "macro name(args) %}…{% endmacro — a reusable piece of template, called like a function",
    "set": "set name = value — a variable assigned (or `set name %}…{% endset` for a captured body)",
    "types": "types {name: 'type'} — the types of the context's variables, declared (3.13)",
    "use": "use template with block as alias — the blocks of another template, reused",
    "with": "with vars only %}…{% endwith — a body with its own scope",
}

SIGNATURES: Mapping[tuple[SymbolKind, str], str] = MappingProxyType(
    {
        **{(SymbolKind.FILTER, name): text for name, text in _FILTERS.items()},
        **{(SymbolKind.FUNCTION, name): text for name, text in _FUNCTIONS.items()},
        **{(SymbolKind.TEST, name): text for name, text in _TESTS.items()},
        **{(SymbolKind.TAG, name): text for name, text in _TAGS.items()},
    }
)
