"""Drupal config YAML: read into the shared syntax tree, and written as Drupal's dumper would."""
