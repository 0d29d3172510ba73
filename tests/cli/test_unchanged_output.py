"""The CLI's output on the shipped examples and the vendored real site, byte for byte, as it was
before the core was split into layers (issue 17: "behaviour unchanged").

The files in golden/unchanged/ were written by the CLI of the commit before the move. A change
that alters them on purpose regenerates them with `UPDATE_GOLDEN=1 pytest
tests/cli/test_unchanged_output.py` and says why in its commit message."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from flowdrop_lsp.cli.formats import root_uri
from flowdrop_lsp.entry import main
from tests.support.builders import REPO

GOLDEN = Path(__file__).resolve().parent / "golden" / "unchanged"
PLACEHOLDER_ROOT = "file:///checkout/"

EXAMPLE = "examples/research-agent.flowdrop.json"
SITE = "examples/drupal-site"
CORPUS = "tests/corpus/atelier-cms"

# name -> the command line after `flowdrop-lsp` (run from the repository root).
RUNS: dict[str, list[str]] = {
    "example.text": ["check", "--color", "never", EXAMPLE],
    "example.verbose": ["check", "--color", "never", "-v", EXAMPLE],
    "example.json": ["check", "--format", "json", EXAMPLE],
    "example.sarif": ["check", "--format", "sarif", EXAMPLE],
    "example.github": ["check", "--format", "github", EXAMPLE],
    "example.diff": ["check", "--diff", EXAMPLE],
    "example.statistics": ["check", "--statistics", EXAMPLE],
    "site.text": ["check", "--color", "never", SITE],
    "site.json": ["check", "--format", "json", SITE],
    "site.diff": ["check", "--diff", SITE],
    "corpus.text": ["check", "--color", "never", "-v", CORPUS],
    "corpus.json": ["check", "--format", "json", CORPUS],
    "corpus.sarif": ["check", "--format", "sarif", CORPUS],
    "corpus.diff": ["check", "--diff", CORPUS],
    "rule.list": ["rule"],
    "rule.FD-SYNTAX": ["rule", "FD-SYNTAX"],
    "rule.FD-DUPLICATE-KEY": ["rule", "FD-DUPLICATE-KEY"],
    "rule.FD-NOT-WORKFLOW": ["rule", "FD-NOT-WORKFLOW"],
    "rule.FD-SCHEMA": ["rule", "FD-SCHEMA"],
    "rule.CMP-9": ["rule", "CMP-9"],
    "rule.CMP-10": ["rule", "CMP-10"],
    "rule.R2": ["rule", "R2"],
    "rule.R8": ["rule", "R8"],
    "rule.EDGE-5": ["rule", "EDGE-5"],
    "rule.DATA-10": ["rule", "DATA-10"],
    "rule.FD-LLM-NAME": ["rule", "FD-LLM-NAME"],
    "rule.R12": ["rule", "R12"],
    "rule.R13": ["rule", "R13"],
    "rule.FD-UNKNOWN-NODE-TYPE": ["rule", "FD-UNKNOWN-NODE-TYPE"],
    "rule.FD-TOOL-ROUTE": ["rule", "FD-TOOL-ROUTE"],
}


@pytest.mark.parametrize("name", RUNS)
def test_cli_output_is_unchanged(
    name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    monkeypatch.delenv("NO_COLOR", raising=False)
    try:
        code = main(RUNS[name])
    except SystemExit as stop:  # argparse's own exits
        code = stop.code if isinstance(stop.code, int) else 2
    captured = capsys.readouterr()
    out = f"exit {code}\n--- stdout\n{captured.out}--- stderr\n{captured.err}"
    out = out.replace(root_uri(REPO), PLACEHOLDER_ROOT).replace(str(REPO), "/checkout")
    golden = GOLDEN / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden.write_bytes(out.encode("utf-8"))
    assert golden.exists(), f"{golden} is missing: run with UPDATE_GOLDEN=1"
    assert out == golden.read_bytes().decode("utf-8")
