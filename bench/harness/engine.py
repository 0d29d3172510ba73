"""The one place the in-process benchmarks (open_profile, typing_engine, pathological) import
flowdrop_lsp's internals: when the engine's modules move, only these imports change."""

from __future__ import annotations

import sys

from harness.paths import REPO

# The scripts run as `python bench/x.py`: the repository itself may not be on sys.path.
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.lsp.convert import to_diagnostic

__all__ = ["WorkflowDocument", "to_diagnostic"]
