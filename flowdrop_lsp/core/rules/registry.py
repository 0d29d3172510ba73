"""The rules: one module each, each with a stable code, a default severity and a check.

`REGISTRY` is the registry: each rule module with its kind, which says the checks it provides;
`RULE_MODULES`, `DOCUMENT_RULES` (syntax, structure, the door: found while reading),
`GRAPH_RULES`, `CONSUMER_RULES`, `EDGE_RULES`, `SITE_RULES`, `NODE_TYPE_RULES` and `ALL_RULES` are
derived from it.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Literal

from flowdrop_lsp.core.rules import (
    branch_names,
    cmp9,
    cmp10_tools_into_non_acceptor,
    compile_requirements,
    condition_operator,
    config_required,
    config_unknown_key,
    config_value,
    confirmation_choice,
    contract_version,
    dangling_endpoint,
    default_branch,
    document,
    duplicate_edge,
    duplicate_node_id,
    dynamic_port_label,
    dynamic_port_name,
    dynamic_port_shadowed,
    dynamic_port_wired,
    edge_condition,
    edge_id,
    edge_vocabulary,
    execution_cycle,
    exposure_hidden,
    exposure_names,
    expression_engine,
    expression_invalid,
    expression_undefined_name,
    llm_tool_name,
    loop_structure,
    node_type_default,
    node_type_entry,
    node_type_key,
    node_type_legacy,
    node_type_shape,
    non_connectable_input,
    path_engine_mismatch,
    port_exposure,
    provider_module,
    secret_reference,
    self_edge,
    shaper_sentinel,
    site_call,
    site_config_name,
    site_contract,
    site_dependency,
    store_door,
    tool_route,
    toolbox_cycle,
    twig_autoescape,
    twig_undefined_name,
    unknown_edge_type,
    unknown_node_type,
    unknown_port,
    visual_type,
    workflow_name,
    workflow_size,
)
from flowdrop_lsp.core.rules.base import (
    ConsumerCheck,
    EdgeCheck,
    Explanation,
    GraphCheck,
    NodeTypeCheck,
    Rule,
    RuleContext,
    SiteCheck,
)
from flowdrop_lsp.core.rules.scoped import Scoped
from flowdrop_lsp.core.rules.standing import render_standing, standing

# What kind of rule a module is says which checks it provides, and when each runs:
# "document": none (found while reading: syntax, structure, the door); "graph": `check(ctx)`, run
# on the tool graph after every change; "consumer": that and `check_consumer(ctx, consumer)`, a
# per-consumer result cached and recomputed only for the consumers an edit reaches (its `check`
# turns the cached results into findings); "edge": `check_edge(edge, settings)`, run on each
# edge when it is read; "site": `check_site(ctx)`, one file of a site checked against the other
# files (core/workspace/site.py); "node_type": `check_node_type(ctx)`, a node-type definition
# judged by itself.
RuleKind = Literal["document", "graph", "consumer", "edge", "site", "node_type"]
CHECKS_OF_KIND: dict[str, tuple[str, ...]] = {
    "document": (),
    "graph": ("check",),
    "consumer": ("check", "check_consumer"),
    "edge": ("check_edge",),
    "site": ("check_site",),
    "node_type": ("check_node_type",),
}
GRAPH_KINDS = ("graph", "consumer")
ENTRY_POINTS = frozenset(name for names in CHECKS_OF_KIND.values() for name in names)


class RegistryError(Exception):
    """A rule module whose checks are not the ones its kind says: run by nobody, or by the
    wrong caller. Raised when the registry is built (importing the package fails loudly)."""


@dataclass(frozen=True)
class Registered:
    """A rule module and the kind it is registered as. Its checks are exactly its kind's: one
    missing, or the entry point of another kind present (a `check_site` in a module registered
    as a graph rule would never run), is a `RegistryError`. A module's other functions (the
    per-node checks it gives `scoped_findings`, such as `check_node`) are its own business."""

    module: ModuleType
    kind: RuleKind

    def __post_init__(self) -> None:
        declared = CHECKS_OF_KIND[self.kind]
        name = self.module.__name__
        missing = [check for check in declared if not callable(getattr(self.module, check, None))]
        if missing:
            raise RegistryError(f"{name} is registered as {self.kind} but has no {missing}")
        stray = sorted(
            check
            for check in ENTRY_POINTS - set(declared)
            if callable(getattr(self.module, check, None))
        )
        if stray:
            raise RegistryError(
                f"{name} is registered as {self.kind} but defines {stray}, which only another "
                "kind of rule provides: it would never run"
            )


# The one registry, in the documented order (rule pages, README, SARIF): each rule module and
# its kind. A module has `RULE` (or `RULES`), the checks of its kind, and `EXPLANATION` (or
# `EXPLANATIONS`, one per rule) for `flowdrop-lsp rule` and the shipped rule pages. Adding a
# rule: one module, one line here (then regenerate the pages: UPDATE_GOLDEN=1 pytest
# tests/core/rules/test_rule_catalogue.py).
REGISTRY: tuple[Registered, ...] = (
    Registered(document, "document"),
    # The door (issue 38): a workflow FlowDrop refuses before reading it, not parsed at all.
    Registered(store_door, "document"),
    Registered(cmp9, "consumer"),
    Registered(cmp10_tools_into_non_acceptor, "consumer"),
    Registered(duplicate_node_id, "graph"),
    Registered(dangling_endpoint, "graph"),
    Registered(unknown_edge_type, "edge"),
    Registered(toolbox_cycle, "graph"),
    Registered(llm_tool_name, "graph"),
    Registered(self_edge, "graph"),
    Registered(duplicate_edge, "graph"),
    Registered(unknown_node_type, "graph"),
    # The launch checks (issue 20): what FlowDrop refuses at save and re-checks at launch.
    Registered(workflow_size, "graph"),
    Registered(edge_id, "graph"),
    Registered(compile_requirements, "graph"),
    Registered(execution_cycle, "graph"),
    Registered(loop_structure, "graph"),
    Registered(edge_condition, "graph"),
    Registered(edge_vocabulary, "graph"),
    Registered(tool_route, "graph"),
    Registered(config_required, "graph"),
    Registered(config_unknown_key, "graph"),
    Registered(config_value, "graph"),
    Registered(secret_reference, "graph"),
    Registered(port_exposure, "graph"),
    Registered(unknown_port, "graph"),
    Registered(non_connectable_input, "graph"),
    Registered(visual_type, "graph"),
    Registered(confirmation_choice, "graph"),
    Registered(exposure_names, "site"),
    Registered(exposure_hidden, "site"),
    # Dynamic ports (issue 26): their definitions, and edges into them.
    Registered(dynamic_port_label, "graph"),
    Registered(dynamic_port_name, "graph"),
    Registered(dynamic_port_shadowed, "graph"),
    Registered(dynamic_port_wired, "graph"),
    # Expressions (issue 26): the engine a node names, a condition's operator and pattern.
    Registered(expression_engine, "graph"),
    Registered(condition_operator, "graph"),
    # What the expressions say (issue 27): refused by their engine, names their context lacks,
    # silent misbehaviour.
    Registered(expression_invalid, "graph"),
    Registered(twig_undefined_name, "graph"),
    Registered(expression_undefined_name, "graph"),
    Registered(twig_autoescape, "graph"),
    Registered(path_engine_mismatch, "graph"),
    Registered(shaper_sentinel, "graph"),
    # The workflow itself (issue 26): its name, its contract version.
    Registered(workflow_name, "graph"),
    Registered(contract_version, "graph"),
    # Gateways (issue 26): branch names, the default branch.
    Registered(branch_names, "graph"),
    Registered(default_branch, "graph"),
    Registered(site_call, "site"),
    Registered(site_contract, "site"),
    Registered(site_dependency, "site"),
    Registered(site_config_name, "site"),
    Registered(provider_module, "site"),
    # Node-type definitions judged by themselves (issue 38): their shape, their entries, their
    # defaults against their schemas, unknown keys, the pre-1.0 format.
    Registered(node_type_shape, "node_type"),
    Registered(node_type_entry, "node_type"),
    Registered(node_type_default, "node_type"),
    Registered(node_type_key, "node_type"),
    Registered(node_type_legacy, "node_type"),
)
RULE_MODULES: tuple[ModuleType, ...] = tuple(entry.module for entry in REGISTRY)


def _rules_of(module: ModuleType) -> tuple[Rule, ...]:
    return tuple(getattr(module, "RULES", None) or (module.RULE,))


# Found while reading: the text's syntax and structure, and STORE-1's door (nothing read).
DOCUMENT_RULES: tuple[Rule, ...] = tuple(
    rule for entry in REGISTRY if entry.kind == "document" for rule in _rules_of(entry.module)
)
ALL_RULES: tuple[Rule, ...] = tuple(rule for m in RULE_MODULES for rule in _rules_of(m))
RULES_BY_CODE: dict[str, Rule] = {rule.code: rule for rule in ALL_RULES}
GRAPH_RULES: tuple[tuple[Rule, GraphCheck], ...] = tuple(
    (entry.module.RULE, entry.module.check) for entry in REGISTRY if entry.kind in GRAPH_KINDS
)
# The graph rules kept per node and per edge (a module's `SCOPED`, core/rules/scoped.py): a whole
# read answers their first question in one walk over the nodes and edges.
SCOPED_RULES: tuple[Scoped, ...] = tuple(
    entry.module.SCOPED
    for entry in REGISTRY
    if entry.kind in GRAPH_KINDS and isinstance(getattr(entry.module, "SCOPED", None), Scoped)
)
CONSUMER_RULES: tuple[tuple[str, ConsumerCheck], ...] = tuple(
    (entry.module.RULE.code, entry.module.check_consumer)
    for entry in REGISTRY
    if entry.kind == "consumer"
)
EDGE_RULES: tuple[tuple[Rule, EdgeCheck], ...] = tuple(
    (entry.module.RULE, entry.module.check_edge) for entry in REGISTRY if entry.kind == "edge"
)
# Cross-file rules: `check_site(ctx)` on one file of a site (core/workspace/site.py).
SITE_RULES: tuple[tuple[Rule, SiteCheck], ...] = tuple(
    (entry.module.RULE, entry.module.check_site) for entry in REGISTRY if entry.kind == "site"
)
# A node-type definition file judged by itself: `check_node_type(ctx)` (core/rules/base.py
# `NodeTypeContext`; run by core/workspace/node_types.py `definition_findings`).
NODE_TYPE_RULES: tuple[tuple[Rule, NodeTypeCheck], ...] = tuple(
    (entry.module.RULE, entry.module.check_node_type)
    for entry in REGISTRY
    if entry.kind == "node_type"
)
EXPLANATIONS: dict[str, Explanation] = {
    explanation.code: explanation
    for m in RULE_MODULES
    for explanation in (getattr(m, "EXPLANATIONS", None) or (m.EXPLANATION,))
}

# Each rule's page, shipped in the package (pyproject.toml's package data), rendered by
# `rule_page` from the same text `flowdrop-lsp rule CODE` prints (`rule_text`, the page without
# its anchor line); a test keeps them equal.
RULE_PAGES = Path(__file__).resolve().parents[2] / "docs" / "rules"
RULE_INDEX = "index.md"


def rule_page_path(code: str) -> Path:
    return RULE_PAGES / f"{code}.md"


def docs_home(docs_url: str) -> str:
    """Where the rules are documented as a whole: `docs_url` without its `{code}`/`{anchor}`
    template part (`https://host/rules/{code}.md` → `https://host/rules/`), else the shipped
    index page's `file:` URI."""
    if not docs_url:
        return (RULE_PAGES / RULE_INDEX).as_uri()
    if "{" not in docs_url:
        return docs_url
    home = docs_url.split("#", 1)[0]
    if "{" in home:  # the template is in the path: its folder
        home = home[: home.rfind("/", 0, home.index("{")) + 1]
    return home


def rule_url(code: str, docs_url: str) -> str | None:
    """Where a rule is documented (`codeDescription.href`, SARIF `helpUri`, json `url`).

    `docs_url` empty (the default): the `file:` URI of the rule's page shipped in the installed
    package (with its `#rule-<code>` anchor), which exists wherever flowdrop-lsp runs, offline included. A `docs-url` with
    `{code}` or `{anchor}` in it is a template (`https://host/rules/{code}.md`); any other
    `docs-url` is a page with one section per rule, and the link is its `#rule-<code>` anchor
    (the README of this repository has them). None for a code that is no rule."""
    rule = RULES_BY_CODE.get(code)
    if rule is None:
        return None
    if not docs_url:
        # With the anchor the page starts with: the same shape as a README link.
        return f"{rule_page_path(code).as_uri()}#{rule.anchor}"
    if "{code}" in docs_url or "{anchor}" in docs_url:
        return docs_url.replace("{code}", rule.code).replace("{anchor}", rule.anchor)
    return f"{docs_url}#{rule.anchor}"


def example_node_type(entry: str) -> tuple[str, str]:
    """One of an explanation's `site_node_types` as (id, definition text): a bare id (a
    definition that says nothing else), or a whole definition's YAML, whose `id:` line names
    it (for a rule that reads a type's parameters)."""
    if "\n" not in entry:
        return entry, f"id: {entry}\n"
    for line in entry.splitlines():
        if line.startswith("id:"):
            return line[len("id:") :].strip(), entry
    raise ValueError(f"an example node type without an 'id:' line: {entry!r}")


def _paragraph(text: str) -> str:
    return textwrap.fill(text, width=92, break_long_words=False, break_on_hyphens=False)


def rule_page(code: str) -> str:
    """A rule's page (shipped, and SARIF's `help.markdown`): its `#rule-<code>` anchor, which
    links land on, then `rule_text`."""
    return f'<a id="{RULES_BY_CODE[code].anchor}"></a>\n' + rule_text(code)


def rule_text(code: str) -> str:
    """A rule's explanation as Markdown without HTML: what `flowdrop-lsp rule CODE` prints in a
    terminal, and its page after the anchor line."""
    rule = RULES_BY_CODE[code]
    explanation = EXPLANATIONS[code]
    node_types = [example_node_type(entry) for entry in explanation.site_node_types]
    site = (
        "\n\n"
        + _paragraph(
            "The examples' site defines the node types "
            + ", ".join(f"`{name}`" for name, _text in node_types)
            + " (`flowdrop_node_type.flowdrop_node_type.<id>.yml` beside the workflow)."
        )
        if node_types
        else ""
    )
    # Definitions that say more than their id are shown: the rule reads what they declare.
    site += "".join(
        f"\n\n`flowdrop_node_type.flowdrop_node_type.{name}.yml`:\n\n```yaml\n{text.rstrip()}\n```"
        for name, text in node_types
        if text != f"id: {name}\n"
    )
    other_severity = "warning" if rule.default_severity.value == "error" else "error"
    language, named, other_files = "json", "", ""
    if explanation.is_site_example and not explanation.site_files:
        # A node-type definition judged by itself: the example is that file alone.
        language, named = "yaml", f"`{explanation.file_name}`:\n\n"
        site = "\n\n" + _paragraph(
            "The examples are a node type's definition file (Drupal config, in a site's "
            "`config/sync` folder), judged by itself."
        )
    elif explanation.is_site_example:
        # A cross-file rule: the example is one file of a site, shown with the site's others.
        language, named = "yaml", f"`{explanation.file_name}`:\n\n"
        site = "\n\n" + _paragraph(
            "The examples are one file of a site (a Drupal `config/sync` folder); the site's "
            "other files are:"
        )
        other_files = "".join(
            f"\n\n`{name}`:\n\n```yaml\n{text.rstrip()}\n```"
            for name, text in explanation.site_files
        )
    return (
        f"# {rule.code} — {rule.title} ({rule.severity_shown})\n\n"
        f"{_paragraph(rule.summary)}\n\n"
        f"{_paragraph(explanation.why)}{site}{other_files}\n\n"
        f"## Fails (`flowdrop-lsp check` reports {rule.code})\n\n"
        f"{named}```{language}\n{explanation.failing.rstrip()}\n```\n\n"
        f"## Passes\n\n"
        f"{named}```{language}\n{explanation.passing.rstrip()}\n```\n\n"
        f"## Configure\n\n"
        + _paragraph(
            f"In `flowdrop-lsp.toml` (or `[tool.flowdrop-lsp]` in `pyproject.toml`): `severity = "
            f'{{ "{rule.code}" = "{other_severity}" }}` changes its severity, `ignore = ["{rule.code}"]` '
            f'turns it off, `per-file-ignores = {{ "legacy/**" = ["{rule.code}"] }}` turns it off '
            f"for some files; `flowdrop-lsp check --ignore {rule.code}` for one run."
        )
        + "\n"
    )


def rule_index_page() -> str:
    """The shipped index: every rule, linking to its page."""
    lines = [
        "# flowdrop-lsp rules",
        "",
        "Each page is also printed, offline, by `flowdrop-lsp rule CODE`.",
        "",
    ]
    for rule in ALL_RULES:
        lines.append(f"- [{rule.code}]({rule.code}.md) — {rule.title} ({rule.severity_shown})")
    return "\n".join(lines) + "\n"


__all__ = [
    "ALL_RULES",
    "RULE_INDEX",
    "RULE_PAGES",
    "docs_home",
    "example_node_type",
    "rule_index_page",
    "EXPLANATIONS",
    "Explanation",
    "rule_page",
    "rule_text",
    "RULE_MODULES",
    "rule_url",
    "CONSUMER_RULES",
    "DOCUMENT_RULES",
    "NODE_TYPE_RULES",
    "EDGE_RULES",
    "GRAPH_RULES",
    "SCOPED_RULES",
    "RULES_BY_CODE",
    "Rule",
    "RuleContext",
]


def standing_markdown() -> str:
    """Where the registry's rules stand against all the FlowDrop spec's rules, as Markdown
    (docs/spec-standing.md, `flowdrop-lsp rule --standing`; core.rules.standing)."""
    return render_standing(standing(ALL_RULES))
