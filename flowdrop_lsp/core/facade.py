"""The core as the CLI and the server reach it: every name of the core they use, save a buffer's
editor features (core/ide/service.py, the server's other facade). The host first
(core/workspace/host.py: the findings of every file, the sites, a run's files checked), then
the vocabulary the two fronts share with it: settings and their resolver, findings and fixes,
positions, the rule catalogue, the baseline, which files are workflows and which a site's.

`__all__` is the list of what the fronts may use, and tests/test_architecture.py holds them to
it by name: every name cli/ and lsp/ import from the core is in it (or in core/ide/service.py's
`__all__`, for the server; the CLI's replay of an unchanged run takes its two names from
core/config/project.py, so as not to import the checker), and every name in it is used."""

from flowdrop_lsp.core.config.baseline import Baseline, BaselineError, baseline_json, fingerprints
from flowdrop_lsp.core.config.project import CACHE_DIR_ENV, CACHE_DIR_NAME
from flowdrop_lsp.core.config.selection import Candidate, Skipped, syntax_of, syntax_of_text, walk
from flowdrop_lsp.core.config.settings import DEFAULT_DOCS_URL, Settings, SettingsError, near_code
from flowdrop_lsp.core.config.site_files import (
    WATCH_GLOBS,
    is_node_type_file,
    is_project_settings_file,
    is_services_file,
    is_site_file,
)
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Edit, Finding, Fix, RelatedLocation, Severity
from flowdrop_lsp.core.fixes import apply_edits, preferred_edits
from flowdrop_lsp.core.rules.registry import (
    ALL_RULES,
    RULE_MODULES,
    RULES_BY_CODE,
    docs_home,
    rule_page,
    rule_text,
    rule_url,
    standing_markdown,
)
from flowdrop_lsp.core.text.positions import (
    EditableText,
    Encoding,
    LineIndex,
    Positions,
    Span,
    units_in,
)
from flowdrop_lsp.core.workspace.checking import CheckedFile
from flowdrop_lsp.core.workspace.host import Changes, Host, find_site_folders
from flowdrop_lsp.core.workspace.node_types import NodeTypeLocator
from flowdrop_lsp.core.workspace.reading import ReadOnce
from flowdrop_lsp.core.workspace.resolver import (
    SettingsResolver,
    current_rule_codes,
    unknown_rule_codes,
)

__all__ = [
    # The host, its changes, and what a run or a server asks of it
    "Candidate",
    "Changes",
    "CheckedFile",
    "Host",
    "ReadOnce",
    "Skipped",
    "find_site_folders",
    "walk",
    # A text analysed once, its graph kept (`check --verbose` shows what each consumer sees)
    "WorkflowDocument",
    # Settings, their resolver, the node types it keeps current, the rule codes it knows
    "DEFAULT_DOCS_URL",
    "NodeTypeLocator",
    "Settings",
    "SettingsError",
    "SettingsResolver",
    "current_rule_codes",
    "near_code",
    "unknown_rule_codes",
    # Which files are workflows, which are a site's, what an editor watches, where the cache is
    "CACHE_DIR_ENV",
    "CACHE_DIR_NAME",
    "WATCH_GLOBS",
    "is_node_type_file",
    "is_project_settings_file",
    "is_services_file",
    "is_site_file",
    "syntax_of",
    "syntax_of_text",
    # Findings, their fixes, the baseline
    "Baseline",
    "BaselineError",
    "Edit",
    "Finding",
    "Fix",
    "RelatedLocation",
    "Severity",
    "apply_edits",
    "baseline_json",
    "fingerprints",
    "preferred_edits",
    # Positions
    "EditableText",
    "Encoding",
    "LineIndex",
    "Positions",
    "Span",
    "units_in",
    # The rule catalogue
    "ALL_RULES",
    "RULES_BY_CODE",
    "RULE_MODULES",
    "docs_home",
    "rule_page",
    "rule_text",
    "rule_url",
    "standing_markdown",
]
