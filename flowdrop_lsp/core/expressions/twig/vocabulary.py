"""The names Twig knows: its filters, functions, tests and tags, as data (which Twig version each
list comes from is said beside it), and a one-line signature of each for hover."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from flowdrop_lsp.core.expressions.base import SymbolKind


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
        "date date_modify format replace number_format abs round url_encode json_encode "
        "convert_encoding title capitalize upper lower striptags trim nl2br spaceless join split "
        "sort merge batch column filter map reduce reverse length slice first last default keys "
        "escape e raw".split()
    ),
    functions=frozenset("max min range constant cycle random date include source".split()),
    tests=frozenset(
        ["even", "odd", "defined", "same as", "none", "null", "divisible by", "constant"]
        + ["empty", "iterable"]
    ),
    tags=frozenset(
        "apply for if extends include block use macro import from set flush do embed with "
        "deprecated autoescape".split()
    ),
)

# Twig 3.15 (what Drupal 11 requires; Drupal 10.3 allows it too), a plain Environment:
# CoreExtension adds `find`, `shuffle`, `invoke`-less 3.11 filters, `enum_cases`/`enum`
# functions, the `sequence`/`mapping`/`true`-less 3.11 tests, `guard` and `types` tags; `parent`,
# `block` and `attribute` became registered functions (3.5 handles them in the parser).
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
        "t trans placeholder drupal_escape safe_join without clean_class clean_id render "
        "format_date add_suggestion add_class set_attribute".split()
    ),
    functions=frozenset(
        "render_var url path link file_url attach_library active_theme_path active_theme "
        "create_attribute add_component_context".split()
    ),
    tests=frozenset(),
    tags=frozenset(["trans"]),
)
