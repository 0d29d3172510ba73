"""Where the language server keeps a project's result cache (core/workspace/cache.py
`editor_cache_folder`): never a new folder inside the project."""

from __future__ import annotations

from pathlib import Path

import pytest

from flowdrop_lsp.core.workspace.cache import CACHE_DIR_ENV, CACHE_DIR_NAME, editor_cache_folder


def test_the_named_folder_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path / "named"))
    (tmp_path / "project" / CACHE_DIR_NAME).mkdir(parents=True)
    assert editor_cache_folder(tmp_path / "project") == tmp_path / "named"


def test_the_cli_s_cache_in_the_project_is_shared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(CACHE_DIR_ENV, raising=False)
    (tmp_path / "project" / CACHE_DIR_NAME).mkdir(parents=True)
    assert editor_cache_folder(tmp_path / "project") == tmp_path / "project" / CACHE_DIR_NAME


def test_else_the_user_s_cache_folder_one_per_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(CACHE_DIR_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    one = editor_cache_folder(tmp_path / "one")
    two = editor_cache_folder(tmp_path / "two")
    assert one.parent == tmp_path / "xdg" / "flowdrop-lsp" / "projects"
    assert one != two and one == editor_cache_folder(tmp_path / "one")
    assert not (tmp_path / "one").exists()  # nothing made in the project


def test_without_a_home_never_a_folder_named_tilde(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(CACHE_DIR_ENV, raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.setattr("os.path.expanduser", lambda path: path)  # as with no home at all
    folder = editor_cache_folder(tmp_path / "one")
    assert folder.is_absolute() and "~" not in folder.parts
