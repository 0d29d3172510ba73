"""The expression languages a node's config holds (spec LANG-*): Twig, Symfony ExpressionLanguage,
JSONPath and Symfony property paths, each parsed into the same plain facts (`base.Parsed`): what
is broken, which names the expression reads from its context, which filters/functions/tests/tags
it calls, which names it binds itself. Offsets are code points into the expression string;
nothing here knows the document (JSON or YAML) the string was written in."""
