"""Golden output of `flowdrop-lsp check` in each format, byte for byte.

Regenerate with `UPDATE_GOLDEN=1 pytest tests/cli/test_golden.py` and review the diff."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from flowdrop_lsp.cli.formats import root_uri
from flowdrop_lsp.entry import main
from tests.support.builders import REPO

GOLDEN = Path(__file__).resolve().parent / "golden"
INPUT = "tests/fixtures/collision-golden.flowdrop.json"  # relative: the output names it so
PLACEHOLDER_ROOT = "file:///checkout/"
FORMATS = {"text": "txt", "json": "json", "sarif": "sarif", "github": "txt"}


@pytest.mark.parametrize("output_format", FORMATS)
def test_golden_output(
    output_format: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    code = main(["check", "--format", output_format, INPUT])
    # SARIF names the checkout's absolute path once (the %SRCROOT% base): the golden file has
    # a placeholder there, so it holds wherever the repository is cloned.
    out = capsys.readouterr().out.replace(root_uri(REPO), PLACEHOLDER_ROOT)
    assert code == 1
    golden = GOLDEN / f"collision.{output_format}.{FORMATS[output_format]}"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden.write_bytes(out.encode("utf-8"))
    assert golden.exists(), f"{golden} is missing: run with UPDATE_GOLDEN=1"
    assert out == golden.read_bytes().decode("utf-8")


def test_golden_json_and_sarif_are_valid_json() -> None:
    findings = json.loads((GOLDEN / "collision.json.json").read_text(encoding="utf-8"))
    assert [f["code"] for f in findings] == ["CMP-9", "CMP-9", "R8", "EDGE-5"]
    sarif = json.loads((GOLDEN / "collision.sarif.sarif").read_text(encoding="utf-8"))
    assert sarif["version"] == "2.1.0"
    assert sarif["runs"][0]["columnKind"] == "unicodeCodePoints"
    results = sarif["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["CMP-9", "CMP-9", "R8", "EDGE-5"]
    rules = sarif["runs"][0]["tool"]["driver"]["rules"]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in results)
    assert all(r["fixes"] for r in results if r["ruleId"] == "CMP-9")
    assert sarif["runs"][0]["originalUriBaseIds"] == {"%SRCROOT%": {"uri": PLACEHOLDER_ROOT}}
    assert {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"] for r in results
    } == {"%SRCROOT%"}
    assert sarif["runs"][0]["invocations"] == [{"executionSuccessful": True}]
