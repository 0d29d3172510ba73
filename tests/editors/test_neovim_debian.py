"""The README's Neovim lines on the Neovim a Debian 12 user has: `require('flowdrop').setup()`
(editors/nvim/lua/flowdrop.lua) in Debian's own `neovim` 0.7.2 (no `vim.lsp.enable`, no
`vim.lsp.start`, no `vim.fs`), headless: the CMP-9 errors of a JSON and of a Drupal YAML
workflow arrive on their lines, one client serves a project, and the first error's quick fixes
are offered. The same lines in the test extra's Neovim 0.11 go through `vim.lsp.enable`.

Without Debian's Neovim these tests are skipped with a reason naming the package; `make
editors-deps` (run by `.ci/run`) installs it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.support.editors import (
    DRUPAL_WORKFLOW,
    EXAMPLE,
    REPO,
    SYSTEM_PATH,
    copy_workflows,
    run_nvim_json,
    venv_bin,
)

SCRIPT = Path(__file__).resolve().parent / "nvim" / "flowdrop_legacy.lua"
DEBIAN_NVIM = Path("/usr/bin/nvim")
TIMEOUT_S = 60


def _version(nvim: Path) -> tuple[int, int] | None:
    if not nvim.is_file():
        return None
    first = subprocess.run(
        [str(nvim), "--version"], capture_output=True, text=True, timeout=30, check=False
    ).stdout.split("\n", 1)[0]
    found = re.match(r"NVIM v(\d+)\.(\d+)", first)
    return (int(found[1]), int(found[2])) if found else None


VERSION = _version(DEBIAN_NVIM)
needs_debian_nvim = pytest.mark.skipif(
    VERSION is None or VERSION >= (0, 11),
    reason="needs Debian's neovim (0.7.2 on Debian 12): apt-get install neovim "
    "(or `make editors-deps`)",
)


def _cmp9_lines(text: str, labels: tuple[str, ...]) -> list[int]:
    return [n for n, line in enumerate(text.split("\n")) if any(label in line for label in labels)]


def _see(tmp_path: Path, workflow: Path, lines: list[int], nvim: str) -> tuple[dict, str]:
    server_bin = str(Path(venv_bin("flowdrop-lsp")).parent)
    return run_nvim_json(
        tmp_path,
        SCRIPT,
        workflow,
        {"rtp": str(REPO / "editors" / "nvim"), "timeout_ms": 20000, "lines": lines},
        cwd=workflow.parent,
        timeout_s=TIMEOUT_S,
        nvim=nvim,
        path_env=f"{server_bin}:{SYSTEM_PATH}",
    )


@needs_debian_nvim
def test_json_workflow_in_debian_neovim(tmp_path: Path) -> None:
    project = tmp_path / "project"
    copy_workflows(project)
    (project / "flowdrop-lsp.toml").write_text("", encoding="utf-8")
    workflow = project / EXAMPLE.name
    lines = _cmp9_lines(workflow.read_text(encoding="utf-8"), ('"Web Search"', '"web-search"'))
    seen, report = _see(tmp_path, workflow, lines, str(DEBIAN_NVIM))
    assert sorted(d["line"] for d in seen["diagnostics"]) == lines, report
    assert all("web_search" in d["message"] for d in seen["diagnostics"]), report
    assert [c["name"] for c in seen["clients"]] == ["flowdrop"], report
    assert seen["clients"][0]["root"] == str(project), report
    assert any(title.startswith("Rename") for title in seen["actions"]), report


@needs_debian_nvim
def test_drupal_yaml_workflow_in_debian_neovim(tmp_path: Path) -> None:
    project = tmp_path / "project"
    copy_workflows(project)
    (project / "flowdrop-lsp.toml").write_text("", encoding="utf-8")
    workflow = project / "config" / "sync" / DRUPAL_WORKFLOW.name
    text = workflow.read_text(encoding="utf-8")
    lines = _cmp9_lines(text, ("label: 'Web Search 🔎'", "label: web-search"))
    assert len(lines) == 2, "the Drupal example holds the two colliding labels"
    seen, report = _see(tmp_path, workflow, lines, str(DEBIAN_NVIM))
    assert sorted(d["line"] for d in seen["diagnostics"]) == lines, report


def test_setup_in_neovim_011_enables_the_shipped_config(tmp_path: Path) -> None:
    project = tmp_path / "project"
    copy_workflows(project)
    (project / "flowdrop-lsp.toml").write_text("", encoding="utf-8")
    workflow = project / EXAMPLE.name
    lines = _cmp9_lines(workflow.read_text(encoding="utf-8"), ('"Web Search"', '"web-search"'))
    seen, report = _see(tmp_path, workflow, lines, venv_bin("nvim"))
    assert sorted(d["line"] for d in seen["diagnostics"]) == lines, report
    assert seen["clients"][0]["root"] == str(project), report
