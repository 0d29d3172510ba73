"""The names Twig knows: its filters, functions, tests and tags, as data (which Twig version each
list comes from is said beside it), and a one-line signature of each for hover."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class TwigVocabulary:
    """What an environment accepts; a name outside it is refused at compile ("Unknown "x" filter.")."""

    filters: frozenset[str]
    functions: frozenset[str]
    tests: frozenset[str]
    tags: frozenset[str]

    def extended(
        self,
        filters: Iterable[str] = (),
        functions: Iterable[str] = (),
        tests: Iterable[str] = (),
        tags: Iterable[str] = (),
    ) -> TwigVocabulary:
        return TwigVocabulary(
            filters=self.filters | frozenset(filters),
            functions=self.functions | frozenset(functions),
            tests=self.tests | frozenset(tests),
            tags=self.tags | frozenset(tags),
        )


# Exactly what Debian's php-twig 3.5.1 `new Environment(new ArrayLoader())` has (CoreExtension
# and EscaperExtension; test_twig_oracle.py asks php and asserts equality).
TWIG_35 = TwigVocabulary(
    filters=frozenset(
        [
            "date",
            "date_modify",
            "format",
            "replace",
            "number_format",
            "abs",
            "round",
            "url_encode",
            "json_encode",
            "convert_encoding",
            "title",
            "capitalize",
            "upper",
            "lower",
            "striptags",
            "trim",
            "nl2br",
            "spaceless",
            "join",
            "split",
            "sort",
            "merge",
            "batch",
            "column",
            "filter",
            "map",
            "reduce",
            "reverse",
            "length",
            "slice",
            "first",
            "last",
            "default",
            "keys",
            "escape",
            "e",
            "raw",
        ]
    ),
    functions=frozenset(
        ["max", "min", "range", "constant", "cycle", "random", "date", "include", "source"]
    ),
    tests=frozenset(
        ["even", "odd", "defined", "same as", "none", "null", "divisible by", "constant"]
        + ["empty", "iterable"]
    ),
    tags=frozenset(
        [
            "apply",
            "for",
            "if",
            "extends",
            "include",
            "block",
            "use",
            "macro",
            "import",
            "from",
            "set",
            "flush",
            "do",
            "embed",
            "with",
            "deprecated",
            "autoescape",
        ]
    ),
)

# Twig 3.15's plain Environment (Drupal 11 requires 3.15+; 10.3 allows it), written from its
# CoreExtension: 3.5's names plus the filters `find` and `shuffle` (3.11), the functions
# `enum_cases` (3.12) and `enum` (3.15), the tests `sequence` and `mapping` (3.11), the tags
# `types` (3.13) and `guard` (3.15); `parent`, `block` and `attribute` are registered functions
# since 3.15 (3.5's parser handles them itself). Not verified against a 3.15 install here.
TWIG_CORE = TWIG_35.extended(
    filters=("find", "shuffle"),
    functions=("enum_cases", "enum", "parent", "block", "attribute"),
    tests=("sequence", "mapping"),
    tags=("guard", "types"),
)

# Drupal core's TwigExtension (core/lib/Drupal/Core/Template/TwigExtension.php, 10.x/11.x) and
# its `trans` tag (TwigTransTokenParser); the caller decides whether a template runs in Drupal.
DRUPAL_TWIG_EXTENSION = TwigVocabulary(
    filters=frozenset(
        [
            "t",
            "trans",
            "placeholder",
            "drupal_escape",
            "safe_join",
            "without",
            "clean_class",
            "clean_id",
            "render",
            "format_date",
            "add_suggestion",
            "add_class",
            "set_attribute",
        ]
    ),
    functions=frozenset(
        [
            "render_var",
            "url",
            "path",
            "link",
            "file_url",
            "attach_library",
            "active_theme_path",
            "active_theme",
            "create_attribute",
            "add_component_context",
        ]
    ),
    tests=frozenset(),
    tags=frozenset(["trans"]),
)
