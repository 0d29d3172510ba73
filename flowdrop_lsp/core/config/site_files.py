"""The one place that names a site's files.

A FlowDrop site keeps its config as Drupal does, one file per config entity in one folder
(`config/sync`): workflows as `flowdrop_workflow.flowdrop_workflow.<id>.yml`, node types as
`flowdrop_node_type.flowdrop_node_type.<id>.yml`, beside every other config file of the site
(which a workflow's `dependencies.config` may name). Everything that asks "is this a site file,
which kind, which config does it hold, how large may it be, which globs watch it" asks here,
so that the CLI, the server and the site index can never disagree on it.
"""

from __future__ import annotations

import os

from flowdrop_lsp.core.syntax.door import MAX_WORKFLOW_BYTES

WORKFLOW_CONFIG_PREFIX = "flowdrop_workflow.flowdrop_workflow."
NODE_TYPE_CONFIG_PREFIX = "flowdrop_node_type.flowdrop_node_type."
CONFIG_SUFFIXES = (".yml", ".yaml")

# A site file larger than this is not read into its site, nor as a node-type definition (a
# workflow file is still checked on its own: STORE-1's one finding). One limit for every reader
# of site files: FlowDrop's own, STORE-1's 8 MiB (core/syntax/door.py).
MAX_SITE_FILE_BYTES = MAX_WORKFLOW_BYTES

# Folders never walked for sites: dependencies and caches (hidden folders are skipped too).
SKIPPED_FOLDERS = frozenset({"node_modules", "vendor", "__pycache__"})

# What an editor is asked to watch: every config file (a workflow's dependencies name any
# config, so any `*.yml` appearing or going may change a finding), which covers the workflows
# and the node types; and the project settings files, which change how every file is judged.
PROJECT_SETTINGS_FILES = ("flowdrop-lsp.toml", "pyproject.toml")
# The config that lists the site's enabled modules (`module:`): whether a node type's
# providing module is installed (R1.a).
EXTENSION_CONFIG = "core.extension"
# Where a Drupal site keeps its code beside its config (core/workspace/twig_extensions.py reads
# its modules' Twig extensions): `modules/` and `profiles/` at its root or in its web root.
# Themes are not among them: Drupal loads no services from a theme.
WEB_ROOTS = ("", "web", "docroot", "html")
CODE_FOLDERS = ("modules", "profiles")
# A module's services file: which of its classes are Twig extensions.
SERVICES_SUFFIX = ".services.yml"
WATCH_GLOBS = (
    "**/*.{yml,yaml}",
    *(f"**/{name}" for name in PROJECT_SETTINGS_FILES),
)


def _name(path: os.PathLike[str] | str) -> str:
    return os.path.basename(os.fspath(path))


def is_config_file(path: os.PathLike[str] | str) -> bool:
    """Whether `path` is named like a config file (`<name>.yml`)."""
    return _name(path).endswith(CONFIG_SUFFIXES)


def is_workflow_config_file(path: os.PathLike[str] | str) -> bool:
    """Whether `path` is named like a Drupal workflow config file."""
    name = _name(path)
    return name.startswith(WORKFLOW_CONFIG_PREFIX) and name.endswith(CONFIG_SUFFIXES)


def is_node_type_file(path: os.PathLike[str] | str) -> bool:
    """Whether `path` is named like a node-type definition."""
    name = _name(path)
    return name.startswith(NODE_TYPE_CONFIG_PREFIX) and name.endswith(CONFIG_SUFFIXES)


def is_site_file(path: os.PathLike[str] | str) -> bool:
    """Whether `path` is named like a file a site reads (a workflow or a node type)."""
    return is_workflow_config_file(path) or is_node_type_file(path)


def is_project_settings_file(path: os.PathLike[str] | str) -> bool:
    """Whether `path` is named like a project settings file (it may hold the tool's settings)."""
    return _name(path) in PROJECT_SETTINGS_FILES


def config_name(path: os.PathLike[str] | str) -> str | None:
    """The config name a file holds (`<name>.yml` → `<name>`), else None."""
    name = _name(path)
    for suffix in CONFIG_SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return None


def config_kind(name: str) -> str:
    """The kind of a config name: all but its last segment (`flowdrop_node_type.
    flowdrop_node_type.chat_input` → `flowdrop_node_type.flowdrop_node_type`)."""
    return name.rpartition(".")[0]


def skipped_folder(name: str) -> bool:
    """Whether a folder of this name is never walked for sites."""
    return name.startswith(".") or name in SKIPPED_FOLDERS


def code_folder_candidates(root: os.PathLike[str] | str) -> list[str]:
    """The folders that hold a site's module code if `root` is the site's root (see
    CODE_FOLDERS), whether or not they exist."""
    return [
        os.path.join(root, web, name) if web else os.path.join(root, name)
        for web in WEB_ROOTS
        for name in CODE_FOLDERS
    ]


def is_services_file(path: os.PathLike[str] | str) -> bool:
    """Whether `path` is named like a Drupal module's services file."""
    return _name(path).endswith(SERVICES_SUFFIX)
