<?php
// The oracle of tests/core/expressions/test_twig_oracle.py: Twig's own lexer and parser
// (Debian's php-twig), as a plain `new Environment(new ArrayLoader())` has them (the loader
// knows 'x' only so that compiling can name the template's class). Reads a JSON array of
// templates on stdin; writes a JSON array with, for each, ["ok"] or ["error", message, line]
// (the 1-based line Twig reports). With the argument `vocabulary` it writes the environment's
// filters, functions, tests and tags instead.
require '/usr/share/php/Twig/autoload.php';

$env = new \Twig\Environment(new \Twig\Loader\ArrayLoader(['x' => '']), ['autoescape' => 'html']);

if (($argv[1] ?? '') === 'vocabulary') {
    echo json_encode([
        'filters' => array_keys($env->getFilters()),
        'functions' => array_keys($env->getFunctions()),
        'tests' => array_keys($env->getTests()),
        'tags' => array_keys($env->getTokenParsers()),
    ]), "\n";
    exit(0);
}

$templates = json_decode(stream_get_contents(STDIN), true);
$results = [];
foreach ($templates as $template) {
    try {
        $module = $env->parse($env->tokenize(new \Twig\Source($template, 'x')));
        // Compiling catches the few refusals made after parsing; it is cheap (no PHP is run).
        $env->compile($module);
        $results[] = ['ok'];
    } catch (\Twig\Error\Error $error) {
        $results[] = ['error', $error->getRawMessage(), $error->getTemplateLine()];
    } catch (\Throwable $error) {
        $results[] = ['crash', get_class($error) . ': ' . $error->getMessage(), 0];
    }
}
echo json_encode($results, JSON_INVALID_UTF8_SUBSTITUTE), "\n";
