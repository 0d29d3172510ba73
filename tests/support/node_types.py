"""A node-type definition file's findings as the host answers them (core/workspace/host.py):
its own (the node-type rules') and its site's, settings applied, the way `check` and the server
ask."""

from __future__ import annotations

from pathlib import Path

from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.workspace.host import Host
from flowdrop_lsp.core.workspace.resolver import SettingsResolver


def definition_findings_of(path: Path, host: Host | None = None) -> tuple[Finding, ...]:
    """Every finding of the definition file `path`, its site (its folder) read first."""
    host = host if host is not None else Host(SettingsResolver())
    host.index_for(path)
    return host.findings(path)
