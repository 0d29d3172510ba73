"""Where `check` keeps its result cache by default (core/config/project.py): beside the settings
file in force, else at the top of the repository, else in the working directory."""

from __future__ import annotations

from pathlib import Path

from flowdrop_lsp.core.config.project import CACHE_DIR_NAME, check_cache_folder


def test_beside_the_nearest_settings_file(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    project = tmp_path / "site"
    inner = project / "config" / "sync"
    inner.mkdir(parents=True)
    (project / "flowdrop-lsp.toml").write_text("", encoding="utf-8")
    assert check_cache_folder(inner) == project.resolve() / CACHE_DIR_NAME


def test_a_pyproject_counts_only_with_our_table(tmp_path: Path) -> None:
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    (tmp_path / "a" / "pyproject.toml").write_text("[tool.black]\n", encoding="utf-8")
    assert check_cache_folder(inner) == inner / CACHE_DIR_NAME
    (tmp_path / "a" / "pyproject.toml").write_text("[tool.flowdrop-lsp]\n", encoding="utf-8")
    assert check_cache_folder(inner) == (tmp_path / "a").resolve() / CACHE_DIR_NAME


def test_else_the_top_of_the_repository(tmp_path: Path) -> None:
    inner = tmp_path / "config" / "sync"
    inner.mkdir(parents=True)
    (tmp_path / ".git").write_text("gitdir: elsewhere\n", encoding="utf-8")  # a worktree's
    assert check_cache_folder(inner) == tmp_path / CACHE_DIR_NAME


def test_else_the_working_directory(tmp_path: Path) -> None:
    inner = tmp_path / "config" / "sync"
    inner.mkdir(parents=True)
    assert check_cache_folder(inner) == inner / CACHE_DIR_NAME


def test_a_named_settings_file_wins(tmp_path: Path) -> None:
    (tmp_path / "flowdrop-lsp.toml").write_text("", encoding="utf-8")
    elsewhere = tmp_path / "ci" / "settings.toml"
    elsewhere.parent.mkdir()
    elsewhere.write_text("", encoding="utf-8")
    assert check_cache_folder(tmp_path, elsewhere) == elsewhere.parent.resolve() / CACHE_DIR_NAME
