"""The pre-commit hook (`.pre-commit-hooks.yaml`), run in a git repository of workflows as a
project's `.pre-commit-config.yaml` naming it runs it (`pre-commit run --files …`, or as a commit
runs it), and the way pre-commit's docs say to try a hook: `pre-commit try-repo <repo>
flowdrop-lsp --files …`.

The hook's repository is a snapshot of this working tree (the packaging files and the package,
committed in a temporary repository), so uncommitted changes are what is tested and every run
uses one revision. pre-commit installs it into an environment (pip, from the package index):
`pre-commit run` once for the session, in a pre-commit home of the module's; try-repo again at
each run (it keeps its environments in a temporary folder of its own), so it is run once."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.support.builders import REPO, node, tool_edge, workflow
from tests.support.site import copy_site

# On one worker (`make test`: --dist loadgroup): the hook's environment is installed once for
# the module.
pytestmark = pytest.mark.xdist_group("pre-commit")

HOOKS = REPO / ".pre-commit-hooks.yaml"
# What `pip install .` needs, and the hook definition.
SNAPSHOT = ("pyproject.toml", "README.md", "LICENSE", ".pre-commit-hooks.yaml", "flowdrop_lsp")
DRUPAL_WORKFLOW = (
    REPO / "examples/drupal-site/config/sync/flowdrop_workflow.flowdrop_workflow.research_agent.yml"
)
CALLED = "flowdrop_workflow.flowdrop_workflow.aincient_brand_specialist_colour.yml"
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "test",
    "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "test",
    "GIT_COMMITTER_EMAIL": "test@example.invalid",
}


def _hook() -> dict[str, object]:
    hooks = yaml.safe_load(HOOKS.read_text(encoding="utf-8"))
    assert isinstance(hooks, list) and len(hooks) == 1
    hook: dict[str, object] = hooks[0]
    return hook


def test_the_hook_runs_check_on_site_files_and_what_the_staged_changes_touch() -> None:
    hook = _hook()
    assert hook["id"] == "flowdrop-lsp"
    assert hook["entry"] == "flowdrop-lsp check --staged"
    assert hook["language"] == "python"
    # One process for all the files: one summary and one baseline note, not one per batch.
    assert hook["require_serial"] is True
    # A commit staging only a deletion passes no file: the hook must run anyway.
    assert hook["always_run"] is True
    files = re.compile(str(hook["files"]))
    for name in (
        "a.flowdrop.json",
        "flows/research agent.flowdrop.json",
        "config/sync/flowdrop_workflow.flowdrop_workflow.research_agent.yml",
        "flowdrop_workflow.flowdrop_workflow.x.yaml",
        "config/sync/flowdrop_node_type.flowdrop_node_type.agent.yml",
    ):
        assert files.search(name), name
    for name in (
        "package.json",
        "a.flowdrop.json.bak",
        "config/sync/my_flowdrop_workflow.flowdrop_workflow.x.yml",
        "flowdrop_workflow.flowdrop_workflow.x.yml/readme.txt",
    ):
        assert not files.search(name), name


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, env={**os.environ, **GIT_IDENTITY}
    )


@pytest.fixture(scope="module")
def hook_repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    snapshot = tmp_path_factory.mktemp("hook-repo")
    for name in SNAPSHOT:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, snapshot / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copyfile(source, snapshot / name)
    _git(snapshot, "init", "-q")
    _git(snapshot, "add", ".")
    _git(snapshot, "commit", "-q", "-m", "snapshot")
    return snapshot


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git repository holding a collision, a clean workflow, a Drupal workflow and a JSON file
    that is none, all committed (nothing staged: `--files` says what to check)."""
    assert shutil.which("git"), "git is needed by pre-commit"
    project = tmp_path_factory.mktemp("project")
    (project / "collision.flowdrop.json").write_text(
        workflow(
            [node("a", label="Web Search"), node("b", label="web-search"), node("x", "agent")],
            [tool_edge("a", "x"), tool_edge("b", "x")],
        ),
        encoding="utf-8",
    )
    (project / "clean.flowdrop.json").write_text(
        workflow([node("a", label="Web Search"), node("x", "agent")], [tool_edge("a", "x")]),
        encoding="utf-8",
    )
    (project / "config" / "sync").mkdir(parents=True)
    shutil.copyfile(DRUPAL_WORKFLOW, project / "config" / "sync" / DRUPAL_WORKFLOW.name)
    (project / "notes.json").write_text('{"nodes": 1}', encoding="utf-8")
    _git(project, "init", "-q")
    _git(project, "add", ".")
    _git(project, "commit", "-q", "-m", "the project")
    return project


def _pre_commit(
    *args: str, cwd: Path, home: Path, timeout: int = 900
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_IDENTITY, "PRE_COMMIT_HOME": str(home), "NO_COLOR": "1"},
        timeout=timeout,
    )


@pytest.fixture(scope="module")
def run_hook(hook_repository: Path, project: Path, tmp_path_factory: pytest.TempPathFactory):
    """Run the hook as `pre-commit run` with a configuration naming it (the snapshot at its
    commit), from outside the repository checked; its environment is installed at the first
    run and kept in the module's pre-commit home."""
    revision = subprocess.run(
        ["git", "rev-parse", "HEAD"],
        cwd=hook_repository,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    config = tmp_path_factory.mktemp("pre-commit-config") / ".pre-commit-config.yaml"
    config.write_text(
        yaml.safe_dump(
            {
                "repos": [
                    {
                        "repo": str(hook_repository),
                        "rev": revision,
                        "hooks": [{"id": "flowdrop-lsp"}],
                    }
                ]
            }
        ),
        encoding="utf-8",
    )
    home = tmp_path_factory.mktemp("pre-commit-home")

    def run(*files: str, cwd: Path = project) -> subprocess.CompletedProcess[str]:
        """With `files`, as `pre-commit run --files`; without, as a commit (the staged files)."""
        selection = ["--files", *files] if files else []
        return _pre_commit("run", "--config", str(config), *selection, cwd=cwd, home=home)

    return run


def test_try_repo_fails_on_a_collision(
    hook_repository: Path, project: Path, tmp_path: Path
) -> None:
    result = _pre_commit(
        "try-repo",
        str(hook_repository),
        "flowdrop-lsp",
        "--files",
        "collision.flowdrop.json",
        cwd=project,
        home=tmp_path / "pre-commit-home",
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Failed" in result.stdout
    assert 'error CMP-9 [*] tool name "web_search"' in result.stdout


def test_the_hook_fails_on_a_collision(run_hook) -> None:
    result = run_hook("collision.flowdrop.json")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Failed" in result.stdout
    assert 'error CMP-9 [*] tool name "web_search"' in result.stdout


def test_the_hook_passes_on_a_clean_workflow(run_hook) -> None:
    result = run_hook("clean.flowdrop.json")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Passed" in result.stdout


def test_the_hook_checks_drupal_workflow_yaml(run_hook) -> None:
    result = run_hook(f"config/sync/{DRUPAL_WORKFLOW.name}")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "CMP-9" in result.stdout


def test_the_hook_skips_json_that_is_no_workflow_name(run_hook) -> None:
    result = run_hook("notes.json")
    assert result.returncode == 0, result.stdout + result.stderr
    # The hook runs on every commit (always_run); with no site file passed or staged, it
    # checks nothing and passes.
    assert "Passed" in result.stdout


def test_the_hook_fails_a_commit_deleting_a_called_workflow(run_hook, tmp_path: Path) -> None:
    """A commit staging only the deletion of a workflow the site calls: pre-commit passes no
    file, the hook runs anyway and judges the callers."""
    site = tmp_path / "site"
    copy_site(site, "config/sync")
    _git(site, "init", "-q")
    _git(site, "add", ".")
    _git(site, "commit", "-q", "-m", "the site")
    _git(site, "rm", "-q", f"config/sync/{CALLED}")
    result = run_hook(cwd=site)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Failed" in result.stdout
    assert "brand_studio.yml" in result.stdout and "error FD-CALL" in result.stdout
