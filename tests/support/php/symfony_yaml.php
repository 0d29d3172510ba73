<?php
// The oracle of tests/core/syntax/yaml/test_symfony_scalars.py: Symfony YAML's parser, as
// Drupal calls it (Drupal\Component\Serialization\YamlSymfony::decode's flags). Reads a JSON
// array of YAML documents on stdin; writes a JSON array with, for each, ["ok", value] (floats
// as {"float": "<repr>"} so that INF and 1.0 survive JSON) or ["error", message].
require '/usr/share/php/Symfony/Component/Yaml/autoload.php';

use Symfony\Component\Yaml\Yaml;

function tagged($value) {
    if (is_float($value)) {
        if (is_nan($value)) {
            return ['float' => 'nan'];
        }
        if (is_infinite($value)) {
            return ['float' => $value > 0 ? 'inf' : '-inf'];
        }
        return ['float' => var_export($value, true)];
    }
    if (is_array($value)) {
        $out = [];
        foreach ($value as $key => $item) {
            $out[] = [is_int($key) ? ['int' => $key] : $key, tagged($item)];
        }
        return ['map' => $out];
    }
    if (is_object($value)) {
        return ['object' => get_class($value)];
    }
    return $value;
}

$documents = json_decode(stream_get_contents(STDIN), true);
$results = [];
foreach ($documents as $document) {
    try {
        $value = Yaml::parse($document, Yaml::PARSE_EXCEPTION_ON_INVALID_TYPE | Yaml::PARSE_CUSTOM_TAGS);
        $results[] = ['ok', tagged($value)];
    } catch (\Throwable $error) {
        $results[] = ['error', $error->getMessage()];
    }
}
echo json_encode($results, JSON_INVALID_UTF8_SUBSTITUTE | JSON_PRESERVE_ZERO_FRACTION), "\n";
