"""How the shipped Neovim config finds `flowdrop-lsp`, in real headless Neovim 0.11 with the
config as shipped (no `cmd` override; tests/editors/test_neovim.py overrides it):

- missing (not on PATH, no project `.venv`): no client starts and the user gets exactly one
  `vim.notify` warning, naming how to install (`pipx install <this checkout>`), however many
  workflow buffers are opened; the same for a `settings.flowdrop.server.path` that is not
  executable;
- `settings.flowdrop.server.path` is used before anything else;
- a project-root `.venv/bin/flowdrop-lsp` is found and used, before one on PATH;
- without a project `.venv`, `flowdrop-lsp` on PATH is used.

The server the config finds is a wrapper script that records its own path, then runs this venv's
`flowdrop-lsp`: the test knows which one Neovim started. The Lua side is
tests/editors/nvim/flowdrop_setup.lua.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.support.editors import (
    DRUPAL_WORKFLOW,
    EXAMPLE,
    REPO,
    SYSTEM_PATH,
    assert_no_server_on_system_path,
    copy_workflows,
    run_nvim,
    venv_bin,
)

SCRIPT = Path(__file__).resolve().parent / "nvim" / "flowdrop_setup.lua"
SHIPPED = REPO / "editors" / "nvim"
TIMEOUT_S = 60  # hard limit per nvim run; a passing run takes about a second


def _wrapper(bin_dir: Path, record: Path) -> Path:
    """A `flowdrop-lsp` in `bin_dir` that appends its path to `record`, then runs the real one."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    script = bin_dir / "flowdrop-lsp"
    script.write_text(
        f'#!/bin/sh\necho "$0" >> "{record}"\nexec "{venv_bin("flowdrop-lsp")}" "$@"\n',
        encoding="utf-8",
    )
    script.chmod(0o755)
    return script


def _cmp9_lines(text: str) -> list[int]:
    """0-based lines of the two colliding labels of the research-agent example."""
    return [
        n
        for n, line in enumerate(text.split("\n"))
        if '"label": "Web Search"' in line or '"label": "web-search"' in line
    ]


def _run(tmp_path: Path, workflow: Path, path_env: str, params: dict[str, object]) -> str:
    return run_nvim(
        tmp_path,
        SCRIPT,
        workflow,
        {"rtp": str(SHIPPED), "timeout_ms": 15000, **params},
        cwd=workflow.parent,
        timeout_s=TIMEOUT_S,
        path_env=path_env,
    )


def _project(tmp_path: Path) -> Path:
    """A project (root marker `flowdrop-lsp.toml`) holding a JSON and a YAML workflow."""
    project = tmp_path / "project"
    copy_workflows(project)
    (project / "flowdrop-lsp.toml").write_text("", encoding="utf-8")
    return project


def test_missing_server_is_reported_once_with_how_to_install(tmp_path: Path) -> None:
    assert_no_server_on_system_path()
    project = _project(tmp_path)
    second = tmp_path / "other" / "second.flowdrop.json"  # another root: root_dir runs again
    second.parent.mkdir()
    shutil.copyfile(EXAMPLE, second)
    stdout = _run(
        tmp_path,
        project / EXAMPLE.name,
        SYSTEM_PATH,
        {
            "expect": "missing",
            "reopen": [str(second), str(project / "config" / "sync" / DRUPAL_WORKFLOW.name)],
        },
    )
    notes = [line for line in stdout.splitlines() if line.startswith("[nvim] notify ")]
    assert len(notes) == 1, notes
    # The config was loaded from this checkout, so the hint names it.
    assert f"pipx install {REPO}" in notes[0], notes[0]
    assert f"`flowdrop-lsp` is neither on PATH nor in {project}/.venv/bin" in notes[0], notes[0]
    assert ":checkhealth vim.lsp" in notes[0], notes[0]


def test_missing_configured_server_path_is_reported_once(tmp_path: Path) -> None:
    project = _project(tmp_path)
    missing = tmp_path / "nowhere" / "flowdrop-lsp"
    stdout = _run(
        tmp_path,
        project / EXAMPLE.name,
        f"{Path(venv_bin('flowdrop-lsp')).parent}:{SYSTEM_PATH}",  # PATH has one: not used
        {
            "expect": "missing",
            "settings": {"flowdrop": {"server": {"path": str(missing)}}},
            "reopen": [str(project / "config" / "sync" / DRUPAL_WORKFLOW.name)],
        },
    )
    notes = [line for line in stdout.splitlines() if line.startswith("[nvim] notify ")]
    assert len(notes) == 1, notes
    assert f"settings.flowdrop.server.path `{missing}` is not executable" in notes[0], notes[0]


def test_configured_server_path_is_used(tmp_path: Path) -> None:
    project = _project(tmp_path)
    record = tmp_path / "started.txt"
    configured = _wrapper(tmp_path / "elsewhere", record)
    _wrapper(project / ".venv" / "bin", record)  # present, but the setting wins
    workflow = project / EXAMPLE.name
    _run(
        tmp_path,
        workflow,
        SYSTEM_PATH,
        {
            "expect": "attach",
            "settings": {"flowdrop": {"server": {"path": str(configured)}}},
            "lines": _cmp9_lines(workflow.read_text(encoding="utf-8")),
        },
    )
    assert record.read_text(encoding="utf-8").split() == [str(configured)]


def test_project_venv_server_is_found_before_path(tmp_path: Path) -> None:
    project = _project(tmp_path)
    record = tmp_path / "started.txt"
    in_venv = _wrapper(project / ".venv" / "bin", record)
    on_path = _wrapper(tmp_path / "path-bin", record)
    workflow = project / EXAMPLE.name
    _run(
        tmp_path,
        workflow,
        f"{on_path.parent}:{SYSTEM_PATH}",
        {"expect": "attach", "lines": _cmp9_lines(workflow.read_text(encoding="utf-8"))},
    )
    assert record.read_text(encoding="utf-8").split() == [str(in_venv)]


def test_server_on_path_is_used_without_project_venv(tmp_path: Path) -> None:
    project = _project(tmp_path)
    record = tmp_path / "started.txt"
    on_path = _wrapper(tmp_path / "path-bin", record)
    workflow = project / EXAMPLE.name
    _run(
        tmp_path,
        workflow,
        f"{on_path.parent}:{SYSTEM_PATH}",
        {"expect": "attach", "lines": _cmp9_lines(workflow.read_text(encoding="utf-8"))},
    )
    assert record.read_text(encoding="utf-8").split() == [str(on_path)]
