"""The names Twig and Drupal core register, GENERATED from their PHP sources by
scripts/generate_twig_vocabulary.py (do not edit; run it again). Each list says where it
was read: the project, its version, commit and files; vocabulary.py makes them vocabularies."""

from __future__ import annotations

from collections.abc import Mapping

# Twig 3.5.1 as Debian's php-twig installs it (/usr/share/php/Twig): the plain
# `new Environment(new ArrayLoader())` of the oracle tests (Environment::__construct).
#   Twig\Extension\CoreExtension: ./Extension/CoreExtension.php
#   Twig\TokenParser\ApplyTokenParser: ./TokenParser/ApplyTokenParser.php
#   Twig\TokenParser\ForTokenParser: ./TokenParser/ForTokenParser.php
#   Twig\TokenParser\IfTokenParser: ./TokenParser/IfTokenParser.php
#   Twig\TokenParser\ExtendsTokenParser: ./TokenParser/ExtendsTokenParser.php
#   Twig\TokenParser\IncludeTokenParser: ./TokenParser/IncludeTokenParser.php
#   Twig\TokenParser\BlockTokenParser: ./TokenParser/BlockTokenParser.php
#   Twig\TokenParser\UseTokenParser: ./TokenParser/UseTokenParser.php
#   Twig\TokenParser\MacroTokenParser: ./TokenParser/MacroTokenParser.php
#   Twig\TokenParser\ImportTokenParser: ./TokenParser/ImportTokenParser.php
#   Twig\TokenParser\FromTokenParser: ./TokenParser/FromTokenParser.php
#   Twig\TokenParser\SetTokenParser: ./TokenParser/SetTokenParser.php
#   Twig\TokenParser\FlushTokenParser: ./TokenParser/FlushTokenParser.php
#   Twig\TokenParser\DoTokenParser: ./TokenParser/DoTokenParser.php
#   Twig\TokenParser\EmbedTokenParser: ./TokenParser/EmbedTokenParser.php
#   Twig\TokenParser\WithTokenParser: ./TokenParser/WithTokenParser.php
#   Twig\TokenParser\DeprecatedTokenParser: ./TokenParser/DeprecatedTokenParser.php
#   Twig\Extension\EscaperExtension: ./Extension/EscaperExtension.php
#   Twig\TokenParser\AutoEscapeTokenParser: ./TokenParser/AutoEscapeTokenParser.php
#   Twig\Extension\OptimizerExtension: ./Extension/OptimizerExtension.php
TWIG_35_NAMES: Mapping[str, tuple[str, ...]] = {
    "filters": (
        "abs",
        "batch",
        "capitalize",
        "column",
        "convert_encoding",
        "date",
        "date_modify",
        "default",
        "e",
        "escape",
        "filter",
        "first",
        "format",
        "join",
        "json_encode",
        "keys",
        "last",
        "length",
        "lower",
        "map",
        "merge",
        "nl2br",
        "number_format",
        "raw",
        "reduce",
        "replace",
        "reverse",
        "round",
        "slice",
        "sort",
        "spaceless",
        "split",
        "striptags",
        "title",
        "trim",
        "upper",
        "url_encode",
    ),
    "functions": (
        "constant",
        "cycle",
        "date",
        "include",
        "max",
        "min",
        "random",
        "range",
        "source",
    ),
    "tests": (
        "constant",
        "defined",
        "divisible by",
        "empty",
        "even",
        "iterable",
        "none",
        "null",
        "odd",
        "same as",
    ),
    "tags": (
        "apply",
        "autoescape",
        "block",
        "deprecated",
        "do",
        "embed",
        "extends",
        "flush",
        "for",
        "from",
        "if",
        "import",
        "include",
        "macro",
        "set",
        "use",
        "with",
    ),
}

# twigphp/Twig, branch 3.x at commit f3db1d1a0c5cc21fad255bd6690bbde16d378459
# (Environment::VERSION 3.15.0-DEV): what `new Environment()` registers.
#   Twig\Extension\CoreExtension: ./Extension/CoreExtension.php
#   Twig\TokenParser\ApplyTokenParser: ./TokenParser/ApplyTokenParser.php
#   Twig\TokenParser\ForTokenParser: ./TokenParser/ForTokenParser.php
#   Twig\TokenParser\IfTokenParser: ./TokenParser/IfTokenParser.php
#   Twig\TokenParser\ExtendsTokenParser: ./TokenParser/ExtendsTokenParser.php
#   Twig\TokenParser\IncludeTokenParser: ./TokenParser/IncludeTokenParser.php
#   Twig\TokenParser\BlockTokenParser: ./TokenParser/BlockTokenParser.php
#   Twig\TokenParser\UseTokenParser: ./TokenParser/UseTokenParser.php
#   Twig\TokenParser\MacroTokenParser: ./TokenParser/MacroTokenParser.php
#   Twig\TokenParser\ImportTokenParser: ./TokenParser/ImportTokenParser.php
#   Twig\TokenParser\FromTokenParser: ./TokenParser/FromTokenParser.php
#   Twig\TokenParser\SetTokenParser: ./TokenParser/SetTokenParser.php
#   Twig\TokenParser\TypesTokenParser: ./TokenParser/TypesTokenParser.php
#   Twig\TokenParser\FlushTokenParser: ./TokenParser/FlushTokenParser.php
#   Twig\TokenParser\DoTokenParser: ./TokenParser/DoTokenParser.php
#   Twig\TokenParser\EmbedTokenParser: ./TokenParser/EmbedTokenParser.php
#   Twig\TokenParser\WithTokenParser: ./TokenParser/WithTokenParser.php
#   Twig\TokenParser\DeprecatedTokenParser: ./TokenParser/DeprecatedTokenParser.php
#   Twig\TokenParser\GuardTokenParser: ./TokenParser/GuardTokenParser.php
#   Twig\Extension\EscaperExtension: ./Extension/EscaperExtension.php
#   Twig\TokenParser\AutoEscapeTokenParser: ./TokenParser/AutoEscapeTokenParser.php
#   Twig\Extension\YieldNotReadyExtension: ./Extension/YieldNotReadyExtension.php
#   Twig\Extension\OptimizerExtension: ./Extension/OptimizerExtension.php
TWIG_CORE_NAMES: Mapping[str, tuple[str, ...]] = {
    "filters": (
        "abs",
        "batch",
        "capitalize",
        "column",
        "convert_encoding",
        "date",
        "date_modify",
        "default",
        "e",
        "escape",
        "filter",
        "find",
        "first",
        "format",
        "join",
        "json_encode",
        "keys",
        "last",
        "length",
        "lower",
        "map",
        "merge",
        "nl2br",
        "number_format",
        "raw",
        "reduce",
        "replace",
        "reverse",
        "round",
        "shuffle",
        "slice",
        "sort",
        "spaceless",
        "split",
        "striptags",
        "title",
        "trim",
        "upper",
        "url_encode",
    ),
    "functions": (
        "attribute",
        "block",
        "constant",
        "cycle",
        "date",
        "enum",
        "enum_cases",
        "include",
        "max",
        "min",
        "parent",
        "random",
        "range",
        "source",
    ),
    "tests": (
        "constant",
        "defined",
        "divisible by",
        "empty",
        "even",
        "iterable",
        "mapping",
        "none",
        "null",
        "odd",
        "same as",
        "sequence",
    ),
    "tags": (
        "apply",
        "autoescape",
        "block",
        "deprecated",
        "do",
        "embed",
        "extends",
        "flush",
        "for",
        "from",
        "guard",
        "if",
        "import",
        "include",
        "macro",
        "set",
        "types",
        "use",
        "with",
    ),
}

# drupal/core at commit cd7af2c6fbf2a388cbd74b596722ca95194ef6d2 (Drupal::VERSION 11.2.14-dev):
# the extensions tagged `twig.extension` in core.services.yml and core modules'
# services files, and those TwigEnvironment::__construct adds; Twig's classes read
# from twigphp/Twig at f3db1d1a0c5cc21fad255bd6690bbde16d378459.
#   Drupal\Core\Template\TwigExtension: lib/Drupal/Core/Template/TwigExtension.php
#   Drupal\Core\Template\TwigTransTokenParser: lib/Drupal/Core/Template/TwigTransTokenParser.php
#   Drupal\Core\Template\ComponentsTwigExtension: lib/Drupal/Core/Template/ComponentsTwigExtension.php
#   Drupal\Core\Template\IconsTwigExtension: lib/Drupal/Core/Template/IconsTwigExtension.php
#   Twig\Extension\DebugExtension: @twig/Extension/DebugExtension.php
#   Drupal\Core\Template\DebugExtension: lib/Drupal/Core/Template/DebugExtension.php
#   Drupal\help\HelpTwigExtension: modules/help/src/HelpTwigExtension.php
#   Twig\Extension\SandboxExtension: @twig/Extension/SandboxExtension.php
#   Twig\TokenParser\SandboxTokenParser: @twig/TokenParser/SandboxTokenParser.php
DRUPAL_NAMES: Mapping[str, tuple[str, ...]] = {
    "filters": (
        "add_class",
        "add_suggestion",
        "clean_class",
        "clean_id",
        "clean_unique_id",
        "drupal_escape",
        "format_date",
        "placeholder",
        "render",
        "safe_join",
        "set_attribute",
        "t",
        "trans",
        "without",
    ),
    "functions": (
        "active_theme",
        "active_theme_path",
        "add_component_context",
        "attach_library",
        "create_attribute",
        "dump",
        "file_url",
        "help_route_link",
        "help_topic_link",
        "icon",
        "link",
        "path",
        "render_var",
        "url",
        "validate_component_props",
    ),
    "tests": (),
    "tags": (
        "sandbox",
        "trans",
    ),
}
