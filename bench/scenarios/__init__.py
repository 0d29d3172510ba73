"""What the benchmarks measure: one module per scenario, each owning its documents, its plan
(the edits or requests it sends), the check that the servers really did the work, and its part
of the report. The mechanics they share (client, sessions, peers, statistics, report files)
are in bench/harness/.

SCENARIOS below is the list of them and of the script that runs each; `make bench` runs every
script in it (a test holds the Makefile to that). A new scenario — e.g. "site", a folder of
Drupal config workflows checked by the CLI and indexed by the server — is a module here, a
small entry script in bench/ that parses its options and calls it, and a line in SCENARIOS.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Scenario:
    name: str
    module: str  # below bench/scenarios/
    script: str  # the entry script in bench/ that runs it
    summary: str


SCENARIOS = [
    Scenario(
        "edits", "edits", "run.py",
        "label / add edge / delete node / paste 20 nodes, JSON at 1k-50k, against vscode-json",
    ),
    Scenario(
        "typing", "keystrokes", "run.py",
        "a node object typed one keystroke (one didChange) at a time, JSON",
    ),
    Scenario(
        "minified", "minified", "run.py",
        "label edits in the one-line JSON document, ours vs ours pretty-printed",
    ),
    Scenario(
        "minified-unnamed", "minified_unnamed", "run.py",
        "the same one-line document named `.json`: judged by content, at no cost per edit",
    ),
    Scenario(
        "minified-header", "minified_header", "run.py",
        "the one-line document's top level typed into (name, id, metadata), ours vs a pretty label edit",
    ),
    Scenario(
        "export-open", "export_open", "run.py",
        "the open of a 10k export-shaped JSON document (another tool's shape), against vscode-json",
    ),
    Scenario(
        "yaml", "yaml_labels", "yaml_bench.py",
        "label edits in Drupal config-export YAML, against yaml-language-server",
    ),
    Scenario(
        "navigation", "navigation", "navigation_bench.py",
        "definition and references at 10k nodes, against the pygls floor",
    ),
    Scenario(
        "hover", "hover", "hover_bench.py",
        "hover, inlay hints and code lenses at 10k nodes, against the pygls floor",
    ),
    Scenario("site", "site", "site_bench.py", "a 1,000-workflow site: CLI cold/warm and server indexing vs PyYAML compose"),
    Scenario("site-open", "site_open", "site_open_bench.py", "a 5k-node Drupal workflow opened inside a site being indexed, against yaml-language-server"),
]  # fmt: skip
