"""Smoke test of the YAML benchmark (bench/yaml_bench.py): 500 nodes, 1 round, 2 label
edits, our server only (no npm). Our server must validate the Drupal-export YAML (CMP-9 on
every planted collision), publish for exactly the versions sent, and the same diagnostics
after each label edit. Never skipped."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]


def _load(name: str):
    sys.path.insert(0, str(REPO / "bench"))
    spec = importlib.util.spec_from_file_location(
        f"flowdrop_bench_{name}", REPO / "bench" / f"{name}.py"
    )
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def test_bench_yaml_smoke(tmp_path: Path) -> None:
    yb = _load("yaml_bench")
    out, raw = tmp_path / "RESULTS.md", tmp_path / "raw.json"
    out.write_text("# JSON part\n", encoding="utf-8")
    cfg = yb.parse_args(
        [
            "--sizes", "500",
            "--rounds", "1",
            "--edits", "2",
            "--servers", "ours-yaml",
            "--push-sizes", "",
            "--think", "0.02",
            "--out", str(out),
            "--raw", str(raw),
        ]
    )  # fmt: skip
    t0 = time.perf_counter()
    result = asyncio.run(yb.run_yaml_benchmark(cfg))
    elapsed = time.perf_counter() - t0
    assert not result["meta"]["failed"], result["meta"]["checks"]
    assert result["meta"]["checks"][0].startswith("ours-yaml 500: OK: CMP-9 on all 4 planted")
    assert not [s["error"] for s in result["sessions"] if s["error"]]

    ours = result["samples"]
    assert [s["kind"] for s in ours] == ["open", "label", "label"], ours
    assert all(s["status"] == "ok" and s["ms"] and s["ms"] > 0 for s in ours), ours
    assert [s["version_got"] for s in ours] == [1, 2, 3]
    # A label edit changes no diagnostic: every publish equals the checked open.
    assert {s["digest"] for s in ours} == {result["meta"]["digests"]["ours-yaml/500"]}

    report = out.read_text(encoding="utf-8")
    assert report.startswith("# JSON part\n")  # the JSON section is kept
    assert "<!-- yaml-bench:begin -->" in report and "| ours-yaml | 500 |" in report
    yb.write_section(out, result["report"])  # replaced, not appended twice
    assert out.read_text(encoding="utf-8").count("<!-- yaml-bench:begin -->") == 1
    assert raw.exists()
    assert elapsed < 60, f"smoke run took {elapsed:.0f} s"


def test_generated_yaml_is_drupal_export_of_the_json_graph() -> None:
    gy = _load("generate_yaml")
    yb = _load("yaml_bench")
    y = gy.build(500)
    data = yaml.safe_load(y.text)
    assert data["nodes"] == y.wf.doc["nodes"]  # same graph as the JSON benchmark's
    bad = [e for e in data["edges"] if e["target"] == ""]
    assert [e["id"] for e in bad] == [y.error_edge]
    assert "\nnodes:\n  -\n    id: " in y.text and "\n      'y': " in y.text
    assert "\n      label: 'Web Search c1'\n" in y.text
    assert gy.scalar("y") == "'y'" and gy.scalar("1.0.0") == "1.0.0" and gy.scalar("12") == "'12'"
    assert gy.scalar("https://x.test/a") == "'https://x.test/a'" and gy.scalar("a-b.c") == "a-b.c"
    assert gy.scalar("it's") == "'it''s'" and gy.scalar("") == "''"
    # Every planned edit lands inside a label scalar and leaves loadable YAML behind.
    doc, _ = yb.load_yaml_document(500, yb.generate.DEFAULT_SEED)
    text = doc.text
    for _, edits in yb.make_plan(doc, 0, 10, yb.generate.DEFAULT_SEED):
        ((s, e, ch),) = edits
        line = text[text.rfind("\n", 0, s) + 1 : text.find("\n", s)]
        assert line.startswith("      label: '") and line.endswith("'"), line
        text = text[:s] + ch + text[e:]
    after = yaml.safe_load(text)
    assert len(after["nodes"]) == 500
