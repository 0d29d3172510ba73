"""Smoke test of bench/site_bench.py on a small generated site (30 workflows): the generator's
site is valid (PyYAML loads every file, ids match file names, calls resolve, the CLI reports
what the real site reports plus the planted error), and one run of the scenario produces its
figures, or says n/a and why for what the build lacks. No timing is asserted."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

import site_gen  # noqa: E402
from scenarios import site as site_scenario  # noqa: E402


def test_generated_site_calls_resolve(tmp_path: Path) -> None:
    site = site_gen.generate_site(tmp_path / "s", workflows=40)
    assert len(site.workflows) == 40 and site_gen.verify_yaml(site) == len(site.files)
    docs = {
        p: yaml.load(p.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader) for p in site.files
    }
    workflow_ids = {d["id"] for p, d in docs.items() if p in site.workflows}
    type_ids = {d["id"] for p, d in docs.items() if p in site.node_types}
    assert len(workflow_ids) == 40 and len(type_ids) == len(site.node_types)
    for p, d in docs.items():
        if p in site.node_types and str(d.get("executor_plugin", "")).startswith(
            site_gen.EXECUTOR_PLUGIN
        ):
            assert d["executor_plugin"].removeprefix(site_gen.EXECUTOR_PLUGIN) in workflow_ids, (
                p.name
            )
        if p in site.workflows:
            for node in d["nodes"]:
                assert node["data"]["metadata"]["node_type_id"] in type_ids, (p.name, node["id"])
            config = (d.get("dependencies") or {}).get("config") or []
            assert all(c.removeprefix(site_gen.NODE_TYPE_PREFIX) in type_ids for c in config), (
                p.name
            )
    # The copy of brand_studio calls the copies of the specialists, and the generator knows it.
    studio = site.sync / f"{site_gen.WORKFLOW_PREFIX}brand_studio_c0001.yml"
    callee = site.sync / f"{site_gen.WORKFLOW_PREFIX}aincient_brand_specialist_colour_c0001.yml"
    assert site.callers[callee] == [studio]
    assert "flowdrop_workflow_aincient_brand_specialist_colour_c0001" in studio.read_text("utf-8")
    assert not re.search(
        r"flowdrop_workflow_aincient_brand_specialist_colour(?![_A-Za-z0-9])",
        studio.read_text("utf-8"),
    )
    # Deterministic.
    again = site_gen.generate_site(tmp_path / "t", workflows=40)
    assert [p.read_bytes() for p in site.files] == [p.read_bytes() for p in again.files]


def test_site_bench_smoke(tmp_path: Path) -> None:
    result = asyncio.run(
        site_scenario.run(
            30, rounds=1, compose_repeats=1, out=tmp_path, start_timeout=5, edits=2, edit_timeout=3
        )
    )
    assert result["workflows"] == 30
    figures = result["figures"]
    assert figures["compose"]["values"] and figures["cli_cold"]["values"]
    assert figures["cli_single"]["values"]
    for name, fig in figures.items():
        assert fig["values"] or (fig["na"] or "").startswith("n/a"), name
    assert not site_scenario.failed(result), result["checks"]
    checks = "\n".join(result["checks"])
    assert "every generated file reports what its original reports" in checks
    assert "the planted FD-SCHEMA among them" in checks
    text = site_scenario.report(result)
    assert text.startswith(site_scenario.MARKERS[0]) and text.rstrip().endswith(
        site_scenario.MARKERS[1]
    )
    assert "CLI cold / compose" in text and ("met" in text or "MISSED" in text)
