"""`check --max-warnings N` (ESLint's option; the settings' `max-warnings`): a run reporting more
than N warnings fails (exit 1) and says why on stderr, even with `--quiet`; within the limit,
warnings never fail a run; `--exit-zero` still wins; a baselined warning does not count. And a
`flowdrop-lsp.toml` holding the README's `[tool.flowdrop-lsp]` table is read as meant."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import route_copy, run


@pytest.fixture
def route(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return route_copy(tmp_path)


def test_more_warnings_than_allowed_fail_the_run(
    route: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "--no-cache", route.name)
    assert code == 0 and "1 warning in 1 file" in out  # warnings alone never fail a run
    code, out, err = run(capsys, "--no-cache", "--max-warnings", "0", route.name)
    assert code == 1
    assert "flowdrop-lsp: 1 warning, more than the 0 allowed (max-warnings)" in err
    code, _out, err = run(capsys, "--no-cache", "--max-warnings", "0", "--quiet", route.name)
    assert code == 1 and "more than the 0 allowed" in err
    code, _out, err = run(capsys, "--no-cache", "--max-warnings", "1", route.name)
    assert code == 0 and "max-warnings" not in err
    code, _out, _err = run(capsys, "--no-cache", "--max-warnings", "0", "--exit-zero", route.name)
    assert code == 0


def test_a_baselined_warning_does_not_count(
    route: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, _err = run(capsys, "--no-cache", "--write-baseline", "base.json", route.name)
    assert code == 0
    code, _out, err = run(
        capsys, "--no-cache", "--baseline", "base.json", "--max-warnings", "0", route.name
    )
    assert code == 0, err


@pytest.mark.parametrize("value", ["-1", "x", "1.5"])
def test_a_limit_that_is_no_whole_number_is_a_usage_error(
    route: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    with pytest.raises(SystemExit) as stop:  # argparse's own usage error
        run(capsys, "--no-cache", f"--max-warnings={value}", route.name)
    assert stop.value.code == 2
    assert "--max-warnings: expected a whole number" in capsys.readouterr().err


def test_the_settings_limit(route: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Path("flowdrop-lsp.toml").write_text("max-warnings = 0\n", encoding="utf-8")
    code, _out, err = run(capsys, "--no-cache", route.name)
    assert code == 1 and "more than the 0 allowed" in err
    code, _out, _err = run(capsys, "--no-cache", "--max-warnings", "5", route.name)
    assert code == 0  # the command line wins
    Path("flowdrop-lsp.toml").write_text("max-warnings = -2\n", encoding="utf-8")
    code, _out, err = run(capsys, "--no-cache", route.name)
    assert code == 2 and "whole number" in err


def test_the_readme_table_in_a_settings_file_of_its_own(
    route: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # pyproject.toml's table, copied as the README shows it into flowdrop-lsp.toml.
    Path("flowdrop-lsp.toml").write_text(
        '[tool.flowdrop-lsp]\nignore = ["FD-TOOL-ROUTE"]\n', encoding="utf-8"
    )
    code, out, err = run(capsys, "--no-cache", route.name)
    assert code == 0 and "FD-TOOL-ROUTE" not in out, err
    # Beside top-level keys it is refused, saying what to write instead.
    Path("flowdrop-lsp.toml").write_text(
        'select = ["CMP-9"]\n[tool.flowdrop-lsp]\nignore = ["FD-TOOL-ROUTE"]\n',
        encoding="utf-8",
    )
    code, _out, err = run(capsys, "--no-cache", route.name)
    assert code == 2 and "write the settings at the top level" in err
