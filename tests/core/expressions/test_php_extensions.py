"""The one reader of PHP Twig extensions (core/expressions/twig/php_extensions.py), on small
PHP and services texts: both quote styles, `\\Twig\\TwigFilter` and imported or aliased class
names, names registered outside the get-methods or in comments left out, a name no literal
gives counted, token parsers resolved to their tags, services tagged `twig.extension`."""

from __future__ import annotations

from flowdrop_lsp.core.expressions.twig.php_extensions import (
    class_file,
    read_extensions,
    registered_names,
    token_parser_tag,
    twig_extension_services,
)

EXTENSION = r"""<?php

namespace Drupal\atelier\Twig;

use Twig\Extension\AbstractExtension;
use Twig\TwigFunction;
use Twig\TwigTest as Test;
use Drupal\atelier\Twig\Parser\CapabilityTokenParser;

/**
 * new TwigFilter('in_a_doc_comment')
 */
class AtelierTwigExtension extends AbstractExtension {

  public function getFilters(): array {
    return [
      new \Twig\TwigFilter('brand_colour', [$this, 'colour']),
      new \Twig\TwigFilter(
        "slug_{it}", [$this, 'slug']),
      // new \Twig\TwigFilter('commented_out', 'x'),
      # new \Twig\TwigFilter('hash_commented', 'x'),
      new \Twig\TwigFilter($this->dynamicName(), 'x'),
    ];
  }

  public function getFunctions(): array {
    $braces = '{ not a block }';
    return [new TwigFunction('component_catalog', [$this, 'catalog'], ['is_safe' => ['html']])];
  }

  public function getTests(): array {
    return [new Test('a brand', [$this, 'isBrand'])];
  }

  public function getTokenParsers(): array {
    return [new CapabilityTokenParser(), new Parser\OtherTokenParser()];
  }

  private function helper(): void {
    $fake = new TwigFunction('not_registered', fn () => NULL);
  }

}
"""


def test_the_names_each_get_method_registers() -> None:
    names = registered_names(EXTENSION)
    assert names.filters == ("brand_colour", "slug_{it}")
    assert names.functions == ("component_catalog",)
    assert names.tests == ("a brand",)
    assert names.token_parsers == (
        "Drupal\\atelier\\Twig\\Parser\\CapabilityTokenParser",
        "Drupal\\atelier\\Twig\\Parser\\OtherTokenParser",
    )
    assert names.dynamic == 1  # the filter named by a method call


def test_a_class_of_another_name_is_no_registration() -> None:
    php = """<?php
namespace Drupal\\x;
class TwigFilter {}
class E { public function getFilters() { return [new TwigFilter('local_class', 'x')]; } }
"""
    assert registered_names(php).filters == ()  # Drupal\x\TwigFilter is not Twig's


def test_a_token_parser_tag_is_the_literal_get_tag_returns() -> None:
    assert (
        token_parser_tag(
            "<?php class P { public function getTag(): string { return 'capability'; } }"
        )
        == "capability"
    )
    assert (
        token_parser_tag('<?php class P { public function getTag() {\n  return "grant";\n} }')
        == "grant"
    )
    assert (
        token_parser_tag("<?php class P { public function getTag() { return self::TAG; } }") is None
    )
    assert token_parser_tag("<?php class P {}") is None


SERVICES = """\
services:
  atelier.twig_extension:
    class: Drupal\\atelier\\Twig\\AtelierTwigExtension
    arguments: ['@renderer']
    tags:
      - { name: twig.extension }
  Drupal\\atelier\\Twig\\AutowiredExtension:
    tags:
      - name: 'twig.extension'
        priority: 10
  atelier.collector:
    class: Drupal\\atelier\\Collector
    tags:
      - { name: service_collector, tag: 'twig.extension', call: addExtension }
  atelier.other:
    class: Drupal\\atelier\\Other
    tags:
      - { name: twig.extension.not }
  # atelier.commented:
  #   class: Drupal\\atelier\\Commented
  #   tags: [{ name: twig.extension }]
parameters:
  twig.extension: 1
"""


def test_the_services_tagged_twig_extension() -> None:
    assert twig_extension_services(SERVICES) == (
        "Drupal\\atelier\\Twig\\AtelierTwigExtension",
        "Drupal\\atelier\\Twig\\AutowiredExtension",
    )


def test_classes_are_found_by_psr4_and_their_parsers_read() -> None:
    psr4 = [("Drupal\\atelier\\", "modules/atelier/src"), ("Drupal\\", "elsewhere")]
    assert (
        class_file("Drupal\\atelier\\Twig\\X", psr4) == "modules/atelier/src/Twig/X.php"
    )  # the longest prefix wins
    files = {
        "modules/atelier/src/Twig/AtelierTwigExtension.php": EXTENSION,
        "modules/atelier/src/Twig/Parser/CapabilityTokenParser.php": (
            "<?php class CapabilityTokenParser { function getTag() { return 'capability'; } }"
        ),
    }
    read = read_extensions(["Drupal\\atelier\\Twig\\AtelierTwigExtension"], psr4, files.get)
    assert read.filters == {"brand_colour", "slug_{it}"}
    assert read.functions == {"component_catalog"}
    assert read.tests == {"a brand"}
    assert read.tags == {"capability"}
    # What could not be read is said: the dynamic filter, the parser no file holds.
    assert read.unread == (
        "Drupal\\atelier\\Twig\\AtelierTwigExtension registers 1 name(s) no literal gives",
        "no file holds Drupal\\atelier\\Twig\\Parser\\OtherTokenParser",
    )
