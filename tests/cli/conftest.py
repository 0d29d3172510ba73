"""The CLI suites' shared fixtures: a fresh working directory for `check`, and the real site
copied into it (each suite's own layout of a site — `config/sync`, JSON beside it, an aged
cache — starts from the working directory)."""

from __future__ import annotations

from pathlib import Path

import pytest

from flowdrop_lsp.core.config.project import CACHE_DIR_ENV
from tests.support.site import copy_site


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`tmp_path` as the working directory, with no result-cache folder named from outside
    ($FLOWDROP_LSP_CACHE_DIR): `check` keeps its cache where it would by itself."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(CACHE_DIR_ENV, raising=False)
    return tmp_path


@pytest.fixture
def site(workdir: Path) -> Path:
    """The real site in `sync` of the working directory: `check sync` judges it."""
    return copy_site(workdir)
