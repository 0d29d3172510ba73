"""A renamed rule's old code keeps working (FD-TOOLBOX-CYCLE is DATA-10 since issue 26): in
settings, on the command line, and in a baseline written before the rename."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.baseline import fingerprints
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.findings import Severity
from flowdrop_lsp.core.workspace.resolver import RULE_CODES
from flowdrop_lsp.entry import main
from tests.support.builders import node, tool_edge, workflow

CYCLE = workflow(
    [node("box_a", "toolbox", label="Box A"), node("box_b", "toolbox", label="Box B")],
    [tool_edge("box_a", "box_b"), tool_edge("box_b", "box_a")],
)


def _settings(values: dict[str, object]) -> tuple[Settings, list[str]]:
    problems: list[str] = []
    settings = Settings().with_overrides(values, rule_codes=RULE_CODES, problems=problems)
    return settings, problems


def test_the_cycle_is_data_10_an_error() -> None:
    found = [f for f in analyze(CYCLE).findings if f.code == "DATA-10"]
    assert len(found) == 1 and found[0].severity is Severity.ERROR


@pytest.mark.parametrize("key", ["ignore"])
def test_the_old_code_in_a_code_list_is_the_new_one(key: str) -> None:
    settings, problems = _settings({key: ["FD-TOOLBOX-CYCLE"]})
    assert problems == []
    assert getattr(settings, key.replace("-", "_")) == frozenset({"DATA-10"})


def test_the_old_code_in_severity_and_per_file_ignores() -> None:
    settings, problems = _settings(
        {
            "severity": {"FD-TOOLBOX-CYCLE": "warning"},
            "per-file-ignores": {"*.json": ["FD-TOOLBOX-CYCLE"]},
        }
    )
    assert problems == []
    assert settings.severity == {"DATA-10": Severity.WARNING}
    assert settings.per_file_ignores[0][1] == frozenset({"DATA-10"})
    found = analyze(CYCLE, settings).findings
    assert [f.severity for f in found if f.code == "DATA-10"] == [Severity.WARNING]


def test_a_fingerprint_is_taken_with_the_first_code() -> None:
    """A baseline written before the rename (code FD-TOOLBOX-CYCLE) still matches."""
    finding = next(f for f in analyze(CYCLE).findings if f.code == "DATA-10")
    from dataclasses import replace

    before = replace(finding, code="FD-TOOLBOX-CYCLE")
    assert fingerprints([finding], "w.json") == fingerprints([before], "w.json")


def test_the_command_line_takes_the_old_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "w.flowdrop.json"
    path.write_text(CYCLE, encoding="utf-8")
    assert (
        main(["check", "--no-cache", "--format", "json", "--ignore", "FD-TOOLBOX-CYCLE", str(path)])
        == 0
    )
    assert json.loads(capsys.readouterr().out) == []
    assert (
        main(["check", "--no-cache", "--format", "json", "--select", "FD-TOOLBOX-CYCLE", str(path)])
        == 1
    )
    assert {f["code"] for f in json.loads(capsys.readouterr().out)} == {"DATA-10"}
