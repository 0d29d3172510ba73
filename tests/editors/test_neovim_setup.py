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

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).resolve().parent / "nvim" / "flowdrop_setup.lua"
SHIPPED = REPO / "editors" / "nvim"
EXAMPLE = REPO / "examples" / "research-agent.flowdrop.json"
DRUPAL_WORKFLOW = (
    Path(__file__).resolve().parent
    / "fixtures"
    / "config"
    / "sync"
    / "flowdrop_workflow.flowdrop_workflow.research.yml"
)
TIMEOUT_S = 60  # hard limit per nvim run; a passing run takes about a second
SYSTEM_PATH = "/usr/bin:/bin"  # no venv, no ~/.local/bin: where a stray flowdrop-lsp is unlikely


def _venv_bin(name: str) -> str:
    """`name` next to this interpreter (the venv's bin; not resolved, so symlinks keep it)."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.is_file() and os.access(beside, os.X_OK) else shutil.which(name)
    assert found, f"`{name}` not found next to {sys.executable} or on PATH; install '.[test]'"
    return found


def _wrapper(bin_dir: Path, record: Path) -> Path:
    """A `flowdrop-lsp` in `bin_dir` that appends its path to `record`, then runs the real one."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    script = bin_dir / "flowdrop-lsp"
    script.write_text(
        f'#!/bin/sh\necho "$0" >> "{record}"\nexec "{_venv_bin("flowdrop-lsp")}" "$@"\n',
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
    params_file = tmp_path / "params.json"
    params_file.write_text(
        json.dumps({"rtp": str(SHIPPED), "timeout_ms": 15000, **params}), encoding="utf-8"
    )
    home = tmp_path / "home"  # keep Neovim's state, log and cache out of the user's home
    env = {
        **os.environ,
        "PATH": path_env,
        "VIRTUAL_ENV": "",
        "FLOWDROP_NVIM_PARAMS": str(params_file),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CACHE_HOME": str(home / "cache"),
    }
    cmd = [_venv_bin("nvim"), "--headless", "--clean", "-u", str(SCRIPT), str(workflow)]
    try:
        proc = subprocess.run(
            cmd, cwd=workflow.parent, env=env, capture_output=True, text=True, timeout=TIMEOUT_S
        )
    except subprocess.TimeoutExpired as error:
        raise AssertionError(f"nvim did not finish within {TIMEOUT_S} s: {error}") from None
    log = home / "state" / "nvim" / "lsp.log"
    report = f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}\n--- lsp.log\n" + (
        log.read_text(encoding="utf-8", errors="replace")[-4000:] if log.exists() else ""
    )
    print(report)  # shown by pytest -s or on failure
    assert proc.returncode == 0, f"nvim exited {proc.returncode}\n{report}"
    assert proc.stdout.rstrip().endswith("OK"), f"nvim did not report OK\n{report}"
    return proc.stdout


def _project(tmp_path: Path) -> Path:
    """A project (root marker `flowdrop-lsp.toml`) holding a JSON and a YAML workflow."""
    project = tmp_path / "project"
    (project / "config" / "sync").mkdir(parents=True)
    (project / "flowdrop-lsp.toml").write_text("", encoding="utf-8")
    shutil.copyfile(EXAMPLE, project / EXAMPLE.name)
    shutil.copyfile(DRUPAL_WORKFLOW, project / "config" / "sync" / DRUPAL_WORKFLOW.name)
    return project


def test_missing_server_is_reported_once_with_how_to_install(tmp_path: Path) -> None:
    assert shutil.which("flowdrop-lsp", path=SYSTEM_PATH) is None, (
        f"a flowdrop-lsp is installed in {SYSTEM_PATH}: this test cannot hide it"
    )
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
        f"{Path(_venv_bin('flowdrop-lsp')).parent}:{SYSTEM_PATH}",  # PATH has one: not used
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
