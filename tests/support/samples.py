"""Small example workflows several suites read: ids with emoji and CJK for navigation, a Drupal
site for insight, an agent loop for tool routes."""

from __future__ import annotations

import json
from typing import Any

import yaml

from tests.support.builders import (
    REPO,
    node,
    tool_edge,
    workflow,
)

AGENT = "agent.🤖1"


SEARCH = "検索.1"


def navigation_workflow() -> dict:
    """An agent (emoji in its id), a toolbox, two tools (one with a CJK id), a chat input."""
    return {
        "nodes": [
            _node("chat_input.1", "chat_input", "Chat 💬"),
            _node(AGENT, "flowdrop_node_processor_reason", "研究エージェント"),
            _node("toolbox.1", "flowdrop_node_processor_toolbox", "Tool Box"),
            _node(SEARCH, "http_request", "Web Search 🔎"),
            _node("calc.1", "calculator", "web-search"),
        ],
        "edges": [
            _edge("chat_input.1", AGENT, "message"),
            _edge(SEARCH, "toolbox.1"),
            _edge("calc.1", "toolbox.1"),
            _edge("toolbox.1", AGENT),
        ],
    }


def json_text() -> str:
    return json.dumps(navigation_workflow(), indent=2, ensure_ascii=False)


def yaml_text() -> str:
    return yaml.safe_dump(navigation_workflow(), allow_unicode=True, sort_keys=False)


SITE_YAML = (
    REPO
    / "examples"
    / "drupal-site"
    / "config"
    / "sync"
    / "flowdrop_workflow.flowdrop_workflow.research_agent.yml"
)


def agent_loop(
    values: list[str], path: str | None = "$[0].name", tools: tuple[str, ...] = ("Web Search",)
) -> str:
    """reason.1 offered `tools`; its tool calls → extractor (`path`) → a switch on `values`."""
    nodes = [node(f"t{i}", label=label) for i, label in enumerate(tools)]
    nodes.append(node("reason.1", "aincient_reason", "Reason"))
    branches = [{"name": f"B{i}", "value": v} for i, v in enumerate(values)]
    branches.append({"name": "Default", "value": "default"})
    nodes.append(
        node(
            "switch.1",
            "switch_gateway",
            "Switch",
            data={"config": {"default_branch": "default", "branches": branches}},
        )
    )
    edges = [tool_edge(f"t{i}", "reason.1") for i in range(len(tools))]
    if path is None:
        edges.append(data_edge("reason.1", "tool_calls", "switch.1", "expression"))
    else:
        nodes.append(node("x.1", "data_extractor", "Extract", data={"config": {"path": path}}))
        edges.append(data_edge("reason.1", "tool_calls", "x.1", "data"))
        edges.append(data_edge("x.1", "data", "switch.1", "expression"))
    return workflow(nodes, edges)


def _node(node_id: str, type_id: str, label: str) -> dict:
    return {"id": node_id, "data": {"label": label, "metadata": {"node_type_id": type_id}}}


def _edge(source: str, target: str, port: str = "tool") -> dict:
    source_handle = f"{source}-output-{port}"
    target_handle = f"{target}-input-{port}"
    return {
        "id": f"xy-edge__{source}{source_handle}-{target}{target_handle}",
        "source": source,
        "target": target,
        "sourceHandle": source_handle,
        "targetHandle": target_handle,
    }


def data_edge(source: str, out: str, target: str, into: str) -> dict[str, Any]:
    return {
        "source": source,
        "target": target,
        "sourceHandle": f"{source}-output-{out}",
        "targetHandle": f"{target}-input-{into}",
    }
