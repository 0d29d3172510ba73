"""Drupal config YAML workflows, written as Drupal's dumper would: tools, tool wires, a toolbox."""

from __future__ import annotations

from tests.support.builders import CORPUS_CONFIG


def tool(node_id: str, label_token: str, type_id: str = "http_request") -> str:
    return (
        "  -\n"
        f"    id: {node_id}\n"
        "    position:\n"
        "      x: 0\n"
        "      'y': 0\n"
        "    data:\n"
        f"      label: {label_token}\n"
        "      metadata:\n"
        f"        node_type_id: {type_id}\n"
    )


def wire(source: str, target: str) -> str:
    return (
        "  -\n"
        f"    id: xy-edge__{source}-{target}\n"
        f"    source: {source}\n"
        f"    target: {target}\n"
        f"    sourceHandle: {source}-output-tool\n"
        f"    targetHandle: {target}-input-tool\n"
        "    data:\n"
        "      metadata:\n"
        "        edgeType: tool\n"
    )


def workflow(*label_tokens: str, box: bool = True) -> str:
    """An agent, a toolbox (or none) and one tool per label token, Drupal-dumper style."""
    nodes = tool("aincient_reason.1", "'Research Agent 🤖'", "aincient_reason")
    if box:
        nodes += tool("toolbox.1", "'Web Tools'", "flowdrop_node_processor_toolbox")
    edges = wire("toolbox.1", "aincient_reason.1") if box else ""
    for index, token in enumerate(label_tokens, 1):
        nodes += tool(f"http_request.{index}", token)
        edges += wire(f"http_request.{index}", "toolbox.1" if box else "aincient_reason.1")
    return (
        "uuid: 00000000-0000-4000-8000-000000000000\n"
        "langcode: en\n"
        "status: true\n"
        "id: research\n"
        "label: 'Research'\n"
        f"nodes:\n{nodes}edges:\n{edges}"
    )


AUDIT_AGENT = "flowdrop_workflow.flowdrop_workflow.aincient_audit_agent.yml"


def audit_agent_with_collision() -> str:
    """The real site's audit agent with a planted collision: two of its Tool Box's tools
    labelled alike (two CMP-9 errors, on lines 383 and 491)."""
    text = (CORPUS_CONFIG / AUDIT_AGENT).read_text(encoding="utf-8")
    planted = text.replace("label: 'Capability: Read meta tags'", "label: 'Capability: List pages'")
    assert planted != text
    return planted
