"""A client of the Doctor as FlowDrop's editor is one (docs/doctor.md): it applies a remedy's
operations in order, all or nothing, refusing an unknown or malformed operation, one naming an
element the draft lacks, or a payload key it does not know. Written from the contract, apart
from the project's own `core.operations`, so that the two can be held against each other."""

from __future__ import annotations

import copy
import re
from typing import Any

KNOWN = {
    "removeEdge",
    "removeNode",
    "addNode",
    "addEdge",
    "updateNodeConfig",
    "updateNodeData",
    "updateNode",
    "updateEdge",
    "setInterface",
    "setWorkflowPayload",
}


class Refused(Exception):
    pass


def _find(items: list[dict[str, Any]], address: str) -> int:
    match = re.fullmatch(r"#(\d+)", address)
    if match:
        index = int(match.group(1))
        if index < len(items):
            return index
        raise Refused(f"no item {address}")
    for index, item in enumerate(items):
        if item.get("id") == address:
            return index
    raise Refused(f"no item {address}")


def _patch_of(op: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    patch = op.get("patch", {})
    unset = op.get("unset", [])
    if not isinstance(patch, dict) or not (
        isinstance(unset, list) and all(isinstance(k, str) for k in unset)
    ):
        raise Refused(f"malformed {op.get('op')}")
    return patch, unset


def _assign(target: dict[str, Any], op: dict[str, Any]) -> None:
    patch, unset = _patch_of(op)
    for key in unset:
        target.pop(key, None)
    target.update(copy.deepcopy(patch))


def apply_remedy(draft: dict[str, Any], operations: Any) -> dict[str, Any]:
    """The draft after `operations`, or Refused (nothing applied)."""
    if not isinstance(operations, list):
        raise Refused("not a list")
    for op in operations:
        if not isinstance(op, dict) or op.get("op") not in KNOWN:
            raise Refused(f"unknown operation {op!r}")
        name = op["op"]
        key = {"removeEdge": "edgeId", "updateEdge": "edgeId"}.get(name, "nodeId")
        if name.startswith(("remove", "update")) and not (isinstance(op.get(key), str) and op[key]):
            raise Refused(f"malformed {name}")
        if name.startswith("update"):
            _patch_of(op)
    new = copy.deepcopy(draft)
    nodes, edges = new.setdefault("nodes", []), new.setdefault("edges", [])
    for op in operations:
        name = op["op"]
        if name == "removeEdge":
            del edges[_find(edges, op["edgeId"])]
        elif name == "removeNode":
            del nodes[_find(nodes, op["nodeId"])]
        elif name == "addNode":
            nodes.append(copy.deepcopy(op["node"]))
        elif name == "addEdge":
            edges.append(copy.deepcopy(op["edge"]))
        elif name == "updateNodeConfig":
            node = nodes[_find(nodes, op["nodeId"])]
            data = dict(node.get("data") or {})
            config = dict(data.get("config") or {})
            _assign(config, op)
            data["config"] = config
            node["data"] = data
        elif name == "updateNodeData":
            node = nodes[_find(nodes, op["nodeId"])]
            old = node.get("data") or {}
            data = dict(old)
            _assign(data, op)
            if "config" in old:
                data["config"] = old["config"]
            else:
                data.pop("config", None)
            node["data"] = data
        elif name == "updateNode":
            node = nodes[_find(nodes, op["nodeId"])]
            had, old = "data" in node, node.get("data")
            _assign(node, op)
            if had:
                node["data"] = old
            else:
                node.pop("data", None)
        elif name == "updateEdge":
            _assign(edges[_find(edges, op["edgeId"])], op)
        else:
            raise Refused(f"{name} is not used by these tests")
    return new
