"""The result cache: a hit skips the analysis; the file's bytes, its settings, the node-type
registry and the tool's version each make a miss; a corrupt entry is recomputed; `--no-cache`
writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from flowdrop_lsp.core.workspace import batch, cache
from tests.support.cli import run, use_fake_site_rule
from tests.support.site import WORKFLOW_PREFIX

AUDIT = WORKFLOW_PREFIX + "aincient_audit_agent.yml"
WORKFLOWS = 15


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the engine analysed (in this process: the runs use --jobs 1)."""
    seen: list[str] = []
    real = batch.analyse_file

    def counting(job: batch.AnalysisJob) -> batch.FileAnalysis:
        seen.append(job.text)
        return real(job)

    monkeypatch.setattr(batch, "analyse_file", counting)
    return seen


@pytest.fixture
def site(site: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tests/cli/conftest.py's site, its cross-file findings the stand-in rule's."""
    use_fake_site_rule(monkeypatch)
    return site


def check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code, out, _ = run(capsys, "sync", "--jobs", "1", "--format", "json", *args)
    return code, out


def test_an_unchanged_run_analyses_nothing_and_reports_the_same(
    site: Path, calls: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    first = check(capsys)
    assert len(calls) == WORKFLOWS
    folder = site.parent / ".flowdrop_lsp_cache"
    assert (folder / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f")
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    calls.clear()
    assert check(capsys) == first
    assert calls == []


def test_changed_bytes_miss_for_that_file_alone(
    site: Path, calls: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    check(capsys)
    calls.clear()
    target = site / AUDIT
    target.write_text(target.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    check(capsys)
    assert len(calls) == 1


def test_changed_settings_node_types_or_version_miss(
    site: Path,
    calls: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    check(capsys)
    calls.clear()
    (site.parent / "flowdrop-lsp.toml").write_text('ignore = ["R8"]\n', encoding="utf-8")
    check(capsys)
    assert len(calls) == WORKFLOWS, "other settings: every file again"
    calls.clear()
    check(capsys)
    assert calls == []
    # A node type that becomes a toolbox changes what every workflow's analysis sees.
    node_type = next(site.glob("flowdrop_node_type.flowdrop_node_type.*.yml"))
    text = node_type.read_text(encoding="utf-8")
    node_type.write_text(text.replace("executor_plugin: ", "executor_plugin: x:toolbox\nx: ", 1))
    check(capsys)
    assert len(calls) == WORKFLOWS
    calls.clear()
    monkeypatch.setattr(cache, "__version__", "99.0.0")
    check(capsys)
    assert len(calls) == WORKFLOWS


def test_a_corrupt_entry_is_recomputed(
    site: Path, calls: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    first = check(capsys)
    entries = [p for p in (site.parent / ".flowdrop_lsp_cache").rglob("*") if p.is_file()]
    for entry in entries:
        if entry.name not in ("CACHEDIR.TAG", ".gitignore"):
            entry.write_bytes(b"\x80\x05garbage")
    calls.clear()
    assert check(capsys) == first
    assert len(calls) == WORKFLOWS


def test_no_cache_writes_nothing_and_cache_dir_is_honoured(
    site: Path,
    calls: list[str],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = check(capsys, "--no-cache")
    assert not (site.parent / ".flowdrop_lsp_cache").exists()
    assert check(capsys, "--cache-dir", str(tmp_path / "elsewhere")) == first
    assert (tmp_path / "elsewhere" / "CACHEDIR.TAG").exists()
    monkeypatch.setenv("FLOWDROP_LSP_CACHE_DIR", str(tmp_path / "from-env"))
    assert check(capsys) == first
    assert (tmp_path / "from-env" / "CACHEDIR.TAG").exists()
    assert not (site.parent / ".flowdrop_lsp_cache").exists()


def test_fixes_survive_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.support.cli import COLLISION, copy

    monkeypatch.chdir(tmp_path)
    target = copy(tmp_path, COLLISION)
    first = run(capsys, target.name, "--format", "json")
    assert '"preferred": true' in first[1]
    assert run(capsys, target.name, "--format", "json") == first
    run(capsys, target.name, "--fix")
    code, out, _ = run(capsys, target.name, "--format", "json")
    assert '"preferred": true' not in out
