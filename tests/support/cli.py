"""Running `flowdrop-lsp check` in-process, and the fixtures the CLI suites share."""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

import pytest

from flowdrop_lsp.entry import main
from tests.support.builders import (
    FIXTURES,
    node,
    tool_edge,
    workflow,
)

COLLISION = FIXTURES / "collision-nested-drupal.flowdrop.json"


UNICODE = FIXTURES / "collision-unicode.flowdrop.json"


CLEAN = FIXTURES / "clean.flowdrop.json"


WARNINGS_ONLY = workflow([node("a", label="A")], [tool_edge("a", "ghost")])


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def copy(tmp_path: Path, source: Path, name: str | None = None) -> Path:
    target = tmp_path / (name or source.name)
    shutil.copyfile(source, target)
    return target


def set_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
