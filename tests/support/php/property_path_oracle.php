<?php
// The oracle of tests/core/expressions/test_property_path.py: Symfony PropertyAccess's
// PropertyPath (Debian's php-symfony-property-access). Reads a JSON array of paths on stdin;
// writes a JSON array with, for each, ["ok"] or ["error", message, position].
require '/usr/share/php/Symfony/Component/PropertyAccess/autoload.php';

use Symfony\Component\PropertyAccess\PropertyPath;

$results = [];
foreach (json_decode(stream_get_contents(STDIN), true) as $path) {
    try {
        new PropertyPath($path);
        $results[] = ['ok'];
    } catch (\Throwable $error) {
        $message = $error->getMessage();
        $position = preg_match('/ at position (\d+)\.$/', $message, $match) ? (int) $match[1] : null;
        $results[] = ['error', $message, $position];
    }
}
echo json_encode($results, JSON_INVALID_UTF8_SUBSTITUTE), "\n";
