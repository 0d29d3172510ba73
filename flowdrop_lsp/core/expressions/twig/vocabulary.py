"""The names Twig knows: its filters, functions, tests and tags, as data (which Twig version each
list comes from is said beside it), and a one-line signature of each for hover."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from flowdrop_lsp.core.expressions.twig.names_generated import (
    DRUPAL_NAMES,
    TWIG_35_NAMES,
    TWIG_CORE_NAMES,
)


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


def _vocabulary(names: Mapping[str, tuple[str, ...]]) -> TwigVocabulary:
    return TwigVocabulary(
        filters=frozenset(names["filters"]),
        functions=frozenset(names["functions"]),
        tests=frozenset(names["tests"]),
        tags=frozenset(names["tags"]),
    )


# Every list is read from the PHP sources by scripts/generate_twig_vocabulary.py
# (names_generated.py says which project, version, commit and files each comes from).

# Exactly what Debian's php-twig 3.5.1 `new Environment(new ArrayLoader())` has (CoreExtension
# and EscaperExtension; test_twig_oracle.py asks php and asserts equality).
TWIG_35 = _vocabulary(TWIG_35_NAMES)

# Twig's plain Environment as twigphp/Twig's 3.x branch had it at 3.15.0-DEV (Drupal 11.2 asks
# for a later 3.x: a name a later Twig adds is missing here, and is declared in the settings).
# 3.5's names plus the filters `find` and `shuffle`, the functions `enum_cases`, `enum` and the
# parser-handled `parent`, `block`, `attribute`, the tests `sequence` and `mapping`, the tags
# `types` and `guard`.
TWIG_CORE = _vocabulary(TWIG_CORE_NAMES)

# What Drupal core's `twig` service adds (drupal/core 11.2.x): TwigExtension and its `trans`
# tag, the components', icons' and debug extensions, the help module's, and the sandbox
# extension TwigEnvironment adds itself. The caller decides whether a template runs in Drupal.
DRUPAL_TWIG_EXTENSION = _vocabulary(DRUPAL_NAMES)
