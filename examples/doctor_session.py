#!/usr/bin/env python3
"""A session with `flowdrop-lsp doctor`, as FlowDrop's visual editor holds one (`make demo`).

It starts the Doctor on a site (a copy of tests/corpus/atelier-cms), takes the site's weather
workflow as the editor would post it (its JSON export) with a setting misspelt (`timeout`
written `timout`), and shows each request and answer: the diagnose, the remedy the editor's
button asks for, the operations applied to the draft as the editor applies them, and the
diagnose after it. Standard library only.

    python examples/doctor_session.py FLOWDROP_LSP SITE DRAFT.json
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import urllib.error
import urllib.request
from typing import Any


def post(url: str, body: Any) -> Any:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def apply(draft: dict[str, Any], operations: list[dict[str, Any]]) -> dict[str, Any]:
    """The editor's way (docs/doctor.md): in order, on a copy; this demo needs the updates and
    removals."""
    draft = copy.deepcopy(draft)
    for op in operations:
        items = draft["edges"] if "edgeId" in op else draft["nodes"]
        item = next(i for i in items if i.get("id") == op.get("edgeId", op.get("nodeId")))
        if op["op"] in ("removeEdge", "removeNode"):
            items.remove(item)
            continue
        target = {
            "updateNodeConfig": lambda: item["data"].setdefault("config", {}),
            "updateNodeData": lambda: item["data"],
            "updateNode": lambda: item,
            "updateEdge": lambda: item,
        }[op["op"]]()
        for key in op.get("unset", []):
            target.pop(key, None)
        target.update(op.get("patch", {}))
    return draft


def shown(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


def main(program: str, site: str, draft_path: str) -> int:
    with open(draft_path, encoding="utf-8") as file:
        draft = json.load(file)
    config = next(n for n in draft["nodes"] if n["id"] == "http_request.1")["data"]["config"]
    config["timout"] = config.pop("timeout")  # the planted mistake
    doctor = subprocess.Popen(
        [program, "doctor", "--port", "0", site], stdout=subprocess.PIPE, text=True
    )
    try:
        assert doctor.stdout is not None
        first = doctor.stdout.readline().strip()
        print(f"$ flowdrop-lsp doctor --port 0 {site}\n{first}")
        base = first.rsplit(" ", 1)[-1] + f"/api/flowdrop/workflow/{draft['id']}"
        print(f"\nPOST {base}/diagnose   (the draft, 'timeout' written 'timout' in http_request.1)")
        problems = post(f"{base}/diagnose", draft)["data"]["problems"]
        planted = next(p for p in problems if "'timout'" in p["message"])
        print(f"-> {len(problems)} problems; the planted one:\n{shown(planted)}")
        remedy = planted["remedies"][0]
        request = {"draft": "…", "code": planted["code"], "target": planted["id"]}
        request["remedy"] = remedy["id"]
        print(f"\nPOST {base}/remedy   (the button '{remedy['label']}')\n{shown(request)}")
        answer = post(f"{base}/remedy", {**request, "draft": draft})
        operations = answer["data"]["operations"]
        print(f"-> {shown(answer)}")
        fixed = apply(draft, operations)
        again = post(f"{base}/diagnose", fixed)["data"]["problems"]
        gone = all(p["id"] != planted["id"] for p in again)
        print(
            f"\nthe operations applied as the editor applies them, diagnose again: "
            f"{len(again)} problems, the planted one {'gone' if gone else 'STILL THERE'}"
        )
        try:
            post(f"{base}/remedy", {**request, "draft": fixed})
            stale = 200
        except urllib.error.HTTPError as refused:
            stale = refused.code
            print(f"the same remedy asked on the fixed draft: HTTP {stale} {refused.read().decode()}")
        return 0 if gone and stale == 409 else 1
    finally:
        doctor.terminate()
        doctor.wait(10)


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:4]))
