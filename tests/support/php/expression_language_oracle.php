<?php
// The oracle of tests/core/expressions/test_expression_language_oracle.py: Symfony
// ExpressionLanguage's lint (Debian's php-symfony-expression-language), unknown variables
// allowed (names = null), as FlowDrop validates an expression. Reads a JSON object
// {"functions": [names registered besides the defaults], "expressions": [...]} on stdin; writes
// a JSON array with, for each expression, ["ok"] or ["error", message, cursor].
require '/usr/share/php/Symfony/Component/ExpressionLanguage/autoload.php';

use Symfony\Component\ExpressionLanguage\ExpressionFunction;
use Symfony\Component\ExpressionLanguage\ExpressionLanguage;
use Symfony\Component\ExpressionLanguage\SyntaxError;

$input = json_decode(stream_get_contents(STDIN), true);
$language = new ExpressionLanguage();
foreach ($input['functions'] as $name) {
    if ('constant' !== $name) {
        $language->addFunction(new ExpressionFunction($name, fn () => 'null', fn () => null));
    }
}
$results = [];
foreach ($input['expressions'] as $expression) {
    try {
        $language->lint($expression, null);
        $results[] = ['ok'];
    } catch (SyntaxError $error) {
        $message = $error->getMessage();
        $cursor = preg_match('/ around position (\d+)/', $message, $match) ? (int) $match[1] : null;
        $results[] = ['error', $message, $cursor];
    } catch (\Throwable $error) {
        $results[] = ['error', get_class($error).': '.$error->getMessage(), null];
    }
}
echo json_encode($results, JSON_INVALID_UTF8_SUBSTITUTE), "\n";
