"""`flowdrop-lsp rule CODE`: the explanation, offline, with examples that do what they say."""

from __future__ import annotations

import io
import json
import re

import pytest

from flowdrop_lsp.core.rules.registry import ALL_RULES, EXPLANATIONS, rule_page
from flowdrop_lsp.entry import main


def test_rule_prints_the_explanation_with_a_failing_and_a_passing_example(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rule", "CMP-9"]) == 0
    out = capsys.readouterr().out
    # The page without its anchor line: a terminal shows no HTML.
    assert out.startswith("# CMP-9 — Tool name collision (error)\n")
    assert "<a " not in out and "</" not in out
    assert rule_page("CMP-9").endswith(out)
    assert "## Fails" in out and "## Passes" in out
    assert '"label": "web-search"' in out


def test_rule_accepts_the_code_written_loosely(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "cmp9"]) == 0
    assert rule_page("CMP-9").endswith(capsys.readouterr().out)


def test_an_unknown_code_is_a_usage_error_with_a_suggestion(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rule", "FD-TOOLBOX-CYCEL"]) == 2
    assert "did you mean 'FD-TOOL-ROUTE'?" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("locator", "code"),
    [
        ("R6_CONFIG_REQUIRED", "R6.b"),
        ("r6_config_invalid", "R6.d"),
        ("R8_EDGE_TARGET_MISSING", "R8"),
        ("R9_NODE_TYPE_UNKNOWN", "FD-UNKNOWN-NODE-TYPE"),
        ("R4_NAME_RESERVED", "R4"),
    ],
)
def test_a_spec_locator_code_shows_the_rule_that_reports_it(
    locator: str, code: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 29: json and SARIF carry `locator_code` (R6_CONFIG_REQUIRED); `rule` takes it."""
    assert main(["rule", locator]) == 0
    captured = capsys.readouterr()
    assert rule_page(code).endswith(captured.out)
    assert f"locator code of rule {code}; its page:" in captured.err


def test_a_misspelt_locator_code_is_suggested(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "R6_CONFIG_REQUIRD"]) == 2
    assert "did you mean 'R6_CONFIG_REQUIRED'?" in capsys.readouterr().err


def test_every_locator_code_a_finding_carries_is_known() -> None:
    from flowdrop_lsp.cli.rule import locator_rules

    known = locator_rules()
    assert {"R6_CONFIG_REQUIRED", "R12_EDGE_SELF", "R13_EDGE_PARALLEL_DUPLICATE"} <= set(known)
    assert all(code in {rule.code for rule in ALL_RULES} for code in known.values())


def test_a_renamed_code_shows_the_rule_it_is_now(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "FD-TOOLBOX-CYCLE"]) == 0
    assert rule_page("DATA-10").endswith(capsys.readouterr().out)


def test_without_a_code_every_rule_is_listed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == [rule.code for rule in ALL_RULES]


@pytest.mark.parametrize("code", ["CMP-9", "FD-LLM-NAME"])
def test_the_printed_examples_check_as_they_say(
    code: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a user would do: copy the printed example into `check -`."""
    main(["rule", code])
    failing, passing = re.findall(r"```json\n(.*?)```", capsys.readouterr().out, re.S)
    assert failing == EXPLANATIONS[code].failing
    monkeypatch.setattr("sys.stdin", io.StringIO(failing))
    assert main(["check", "--format", "json", "-"]) == (1 if code == "CMP-9" else 0)
    assert code in {f["code"] for f in json.loads(capsys.readouterr().out)}
    monkeypatch.setattr("sys.stdin", io.StringIO(passing))
    assert main(["check", "--format", "json", "-"]) == 0
    assert json.loads(capsys.readouterr().out) == []
