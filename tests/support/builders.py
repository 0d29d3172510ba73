"""Small builders for workflow documents in tests, and helpers to look at findings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from flowdrop_lsp.core.analysis import analyze
from flowdrop_lsp.core.config.settings import Settings
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.text.positions import Span

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
# Vendored third-party documents, each folder with its licence notice (the repository stands on
# its own: nothing is read from outside it).
SPEC_EXAMPLES = FIXTURES / "spec"
CORPUS = REPO / "tests" / "corpus" / "atelier-cms"
CORPUS_JSON = CORPUS / "json"
CORPUS_CONFIG = CORPUS / "config" / "sync"
# The real site's only findings: 4 agents route a gateway branch on a tool they are never offered
# (FD-TOOL-ROUTE, a warning); everything else checks clean.
CORPUS_DEAD_ROUTES = frozenset(
    {
        "aincient_pages_agent",
        "aincient_audit_agent",
        "aincient_chrome_agent",
        "aincient_image_agent",
    }
)


# With the site's node types, one more defect shows: the weather workflow's data mappers have
# three edges on ports renamed away (FD-UNKNOWN-PORT, a warning).
CORPUS_UNKNOWN_PORTS = {"aincient_weather": 3}


# Calls of the Twig functions the site's own modules add (`component_catalog()`…), whose code
# is not in the corpus and which no settings declare: an R11 warning each, after the dead route.
CORPUS_SITE_TWIG_CALLS = {"aincient_image_agent": 1, "aincient_pages_agent": 3}


def corpus_codes(workflow_id: str, *, with_site: bool = False) -> list[str]:
    """The finding codes the real workflow `workflow_id` must produce (`with_site`: checked
    with the site's node types)."""
    codes = ["FD-TOOL-ROUTE"] if workflow_id in CORPUS_DEAD_ROUTES else []
    codes += ["R11"] * CORPUS_SITE_TWIG_CALLS.get(workflow_id, 0)
    if with_site:
        codes += ["FD-UNKNOWN-PORT"] * CORPUS_UNKNOWN_PORTS.get(workflow_id, 0)
    return codes


TOOL = {"edgeType": "tool_availability"}


def vendored(path: Path) -> Path:
    """A vendored spec or corpus file; its absence is a failure, never a skip."""
    assert path.exists(), f"{path} is missing from the repository"
    return path


def node(
    node_id: str, node_type: str | None = "http_request", label: Any = None, **extra: Any
) -> dict[str, Any]:
    """A spec-shorthand node; `label=None` leaves the label out."""
    result: dict[str, Any] = {"id": node_id}
    if node_type is not None:
        result["type"] = node_type
    data = dict(extra.pop("data", None) or {})
    if label is not None:
        data["label"] = label
    if data:
        result["data"] = data
    result.update(extra)
    return result


def tool_edge(source: str, target: str, **extra: Any) -> dict[str, Any]:
    return {"source": source, "target": target, "data": dict(TOOL), **extra}


def handle_edge(
    source: str, target: str, target_port: str = "tool", **extra: Any
) -> dict[str, Any]:
    """An editor/Drupal-style edge: no declaration, classified by its handles."""
    return {
        "id": f"{source}->{target}",
        "source": source,
        "target": target,
        "sourceHandle": f"{source}-output-tool",
        "targetHandle": f"{target}-input-{target_port}",
        **extra,
    }


def workflow(
    nodes: list[dict[str, Any]],
    edges: list[dict[str, Any]],
    indent: int | None = 2,
    edge_ids: bool = True,
) -> str:
    """A workflow document. Each edge without an `id` gets one (`e0`, `e1`… by position), as
    a stored workflow has (R3 refuses an edge without one); `edge_ids=False` leaves them out."""
    if edge_ids:
        edges = [
            {"id": f"e{i}", **edge} if isinstance(edge, dict) and "id" not in edge else edge
            for i, edge in enumerate(edges)
        ]
    return json.dumps({"nodes": nodes, "edges": edges}, indent=indent, ensure_ascii=False)


def as_json(yaml_text: str) -> str:
    """The same workflow as a JSON document (what the editor and the API export)."""
    return json.dumps(yaml.safe_load(yaml_text), indent=2, ensure_ascii=False)


def in_syntax(syntax: str, yaml_text: str) -> str:
    """A Drupal YAML workflow as written in `syntax`: itself, or the editor's JSON export."""
    return yaml_text if syntax == "yaml" else as_json(yaml_text)


def token(syntax: str, value: str, yaml_quote: str = "") -> str:
    """How the string `value` is written in `syntax`: a JSON string, or a Drupal YAML scalar,
    plain or in `yaml_quote` (as Drupal's dumper writes it); what a finding's span covers."""
    if syntax == "yaml":
        return f"{yaml_quote}{value}{yaml_quote}"
    return json.dumps(value, ensure_ascii=False)


def member(syntax: str, key: str, value: str, yaml_quote: str = "") -> str:
    """A mapping's member `key: value` as written in `syntax` on one line (without the JSON
    comma that may follow it)."""
    return f"{token(syntax, key)}: {token(syntax, value, yaml_quote)}"


def plant(text: str, old: str, new: str, count: int = 1, *, of: int | None = None) -> str:
    """`text` with the first `count` occurrences of `old` replaced by `new`. `old` occurs exactly
    `count` times, or `of` times when given (the first `count` of them replaced): a substitution
    that silently did nothing, or landed somewhere else than meant, would test nothing."""
    occurs = text.count(old)
    assert occurs == (count if of is None else of), f"{old!r} occurs {occurs} times"
    return text.replace(old, new, count)


def findings(
    text: str, code: str | None = None, settings: Settings | None = None, syntax: str = "json"
) -> list[Finding]:
    """The findings of `text` read as `syntax` (of `code` only, when given), judged with
    `settings` (the defaults when None): what a test of a rule looks at."""
    analysis = analyze(text, settings or Settings(), syntax=syntax)
    return [f for f in analysis.findings if code is None or f.code == code]


def codes(text: str, settings: Settings | None = None) -> list[str]:
    return [f.code for f in findings(text, settings=settings)]


def at(text: str, span: Span) -> str:
    return text[span.start : span.end]


def token_span(text: str, token: str, occurrence: int = 0) -> Span:
    """The span of the `occurrence`-th appearance of `token` in `text` (found independently of
    the code under test)."""
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(token, start + 1)
    return Span(start, start + len(token))


def cmp9_by_node(text: str, settings: Settings | None = None) -> dict[str, list[Finding]]:
    result: dict[str, list[Finding]] = {}
    for finding in findings(text, "CMP-9", settings):
        assert finding.node is not None
        result.setdefault(finding.node, []).append(finding)
    return result
