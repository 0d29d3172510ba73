<?php
// The YAML twins of tests/cases (tests/support/rule_cases.py): each value written as Drupal
// writes config, Drupal\Component\Serialization\YamlSymfony::encode — Symfony YAML's dumper,
// indentation 2, every level as a block, multi-line strings as literal blocks. Reads a JSON
// array of values on stdin (objects decoded as PHP arrays, as Drupal decodes the editor's JSON);
// writes a JSON array of their YAML texts.
require '/usr/share/php/Symfony/Component/Yaml/autoload.php';

use Symfony\Component\Yaml\Dumper;
use Symfony\Component\Yaml\Yaml;

$values = json_decode(file_get_contents('php://stdin'), true, 512, JSON_THROW_ON_ERROR);
$dumper = new Dumper(2);
$flags = Yaml::DUMP_EXCEPTION_ON_INVALID_TYPE | Yaml::DUMP_MULTI_LINE_LITERAL_BLOCK;
$texts = [];
foreach ($values as $value) {
    $texts[] = $dumper->dump($value, PHP_INT_MAX, 0, $flags);
}
echo json_encode($texts, JSON_THROW_ON_ERROR | JSON_UNESCAPED_UNICODE);
