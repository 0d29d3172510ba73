"""`flowdrop-lsp rule --standing`: the standing against the FlowDrop spec, the very text of
docs/spec-standing.md (tests/core/rules/test_spec_standing.py keeps that file current)."""

from __future__ import annotations

import pytest

from flowdrop_lsp.entry import main
from tests.support.builders import REPO


def test_standing_prints_the_docs_page(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "--standing"]) == 0
    captured = capsys.readouterr()
    page = (REPO / "docs" / "spec-standing.md").read_text(encoding="utf-8")
    assert captured.out == page
    assert captured.err == ""


def test_standing_with_a_rule_code_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "CMP-9", "--standing"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "--standing takes no rule code (got 'CMP-9')" in captured.err


def test_the_rule_list_is_unchanged_without_the_flag(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule"]) == 0
    assert "Standing against" not in capsys.readouterr().out
