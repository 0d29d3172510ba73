"""`flowdrop-lsp check` stops on a settings file with an unknown key or rule code: exit code 2,
and one line on stderr naming the key or code, the file, and the likely intended spelling."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from flowdrop_lsp.entry import main
from tests.support.builders import FIXTURES

COLLISION = FIXTURES / "collision-nested-drupal.flowdrop.json"

CASES = [
    ('ignroe = ["CMP-9"]\n', "unknown setting 'ignroe' (did you mean 'ignore'?)"),
    ('ignore = ["CMP9"]\n', "unknown rule code 'CMP9' in 'ignore' (did you mean 'CMP-9'?)"),
    (
        '[severity]\ncmp-9 = "warning"\n',
        "unknown rule code 'cmp-9' in 'severity' (did you mean 'CMP-9'?)",
    ),
    (
        'extend-exlude = ["out/**"]\n',
        "unknown setting 'extend-exlude' (did you mean 'extend-exclude'?)",
    ),
]


def check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def workflow_in(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(COLLISION, folder / COLLISION.name))


@pytest.mark.parametrize(("content", "expected"), CASES)
def test_project_file_beside_the_workflow(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, expected: str
) -> None:
    settings = tmp_path / "flowdrop-lsp.toml"
    settings.write_text(content, encoding="utf-8")
    code, out, err = check(capsys, str(workflow_in(tmp_path)))
    assert code == 2
    assert out == ""
    assert err == f"flowdrop-lsp: {settings}: {expected}\n"


@pytest.mark.parametrize(("content", "expected"), CASES)
def test_explicit_config(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, expected: str
) -> None:
    config = tmp_path / "settings" / "ci.toml"
    config.parent.mkdir()
    config.write_text(content, encoding="utf-8")
    code, out, err = check(capsys, "--config", str(config), str(workflow_in(tmp_path / "flows")))
    assert code == 2
    assert out == ""
    assert err == f"flowdrop-lsp: {config}: {expected}\n"


def test_pyproject_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        '[project]\nname = "x"\n\n[tool.flowdrop-lsp]\nignroe = ["CMP-9"]\n', encoding="utf-8"
    )
    code, out, err = check(capsys, str(workflow_in(tmp_path / "flows")))
    assert code == 2
    assert out == ""
    assert err == (
        f"flowdrop-lsp: {pyproject}: unknown setting 'ignroe' (did you mean 'ignore'?)\n"
    )


def test_directory_argument(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "flowdrop-lsp.toml").write_text('ignore = ["CMP9"]\n', encoding="utf-8")
    workflow_in(tmp_path / "flows")
    code, out, err = check(capsys, str(tmp_path))
    assert code == 2
    assert out == ""
    assert "did you mean 'CMP-9'?" in err


def test_editor_keys_in_a_project_file_are_not_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "flowdrop-lsp.toml").write_text(
        'ignore = ["CMP-9"]\npullDiagnostics = false\n[trace]\nserver = "off"\n',
        encoding="utf-8",
    )
    code, _, err = check(capsys, str(workflow_in(tmp_path)))
    assert code == 0
    assert "flowdrop-lsp:" not in err
