"""Smoke test of the benchmark harness (bench/): a tiny run, 1k nodes, 2 edits, a few typed
keystrokes and 2 minified label edits, servers `floor` and `ours-incremental` only (no npm). It
must produce numbers, our server must have published diagnostics for exactly the versions the
harness sent, and its open must prove that it validated (the planted schema error and the
planted CMP-9 collisions). It is never skipped: while `flowdrop-lsp serve` does not work, it
fails."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _load_bench_run():
    sys.path.insert(0, str(REPO / "bench"))
    spec = importlib.util.spec_from_file_location("flowdrop_bench_run", REPO / "bench" / "run.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def test_bench_smoke(tmp_path: Path) -> None:
    bench = _load_bench_run()
    out, raw = tmp_path / "RESULTS.md", tmp_path / "raw.json"
    cfg = bench.parse_args(
        [
            "--sizes",
            "1000",
            "--rounds",
            "1",
            "--edits",
            "2",
            "--servers",
            "floor,ours-incremental",
            "--typing-sizes",
            "1000",
            "--typing-rounds",
            "1",
            "--keystrokes",
            "5",
            "--type-think",
            "0.02",
            "--minified-sizes",
            "1000",
            "--export-sizes",
            "1000",
            "--think",
            "0.02",
            "--timeout-scale",
            "0.5",
            "--out",
            str(out),
            "--raw",
            str(raw),
        ]
    )
    t0 = time.perf_counter()
    result = asyncio.run(bench.run_benchmark(cfg))
    elapsed = time.perf_counter() - t0
    errors = [s["error"] for s in result["sessions"] if s["error"]]
    assert not errors, errors

    samples = [s for s in result["samples"] if s["scenario"] == "edits"]
    for server in ("floor", "ours-incremental"):
        got = [s for s in samples if s["server"] == server]
        assert [s["kind"] for s in got] == ["open", "label", "add_edge"], got
        assert all(s["status"] == "ok" and s["ms"] is not None and s["ms"] > 0 for s in got), got

    ours = [s for s in samples if s["server"] == "ours-incremental"]
    # didOpen is version 1, then one version per didChange; each publish carries it.
    assert [s["version_sent"] for s in ours] == [1, 2, 3]
    assert [s["version_got"] for s in ours] == [1, 2, 3]
    # The generated document plants CMP-9 collisions, so diagnostics are never empty.
    assert all(s["n_diags"] >= 1 for s in ours), ours
    rss = [s["rss_open"] for s in result["sessions"] if s["server"] == "ours-incremental"]
    assert rss and rss[0] > 10 * 2**20
    checks = [s["check"] for s in result["sessions"] if s["server"] == "ours-incremental"]
    # the edit cycle, typing, minified (the character, its line, and each one's pretty-printed
    # twin), minified named `.json` (judged by content), its top level typed into, and the open
    # of an export-shaped document
    assert len(checks) == 9 and all(c.startswith("OK: FD-SCHEMA") for c in checks), checks

    typed = [s for s in result["samples"] if s["scenario"] == "typing"]
    assert [s["kind"] for s in typed] == ["open"] + ["keystroke"] * 5, typed
    assert [s["version_got"] for s in typed] == [1, 2, 3, 4, 5, 6]
    assert all(s["status"] == "ok" and s["ms"] > 0 for s in typed), typed
    minified = [s for s in result["samples"] if s["scenario"] == "minified"]
    assert [s["kind"] for s in minified] == ["open", "label", "label"], minified
    assert all(s["status"] == "ok" and s["ms"] > 0 for s in minified), minified
    unnamed = [s for s in result["samples"] if s["scenario"] == "minified-unnamed"]
    assert [s["kind"] for s in unnamed] == ["open", "label", "label"], unnamed
    assert all(s["status"] == "ok" and s["ms"] > 0 for s in unnamed), unnamed
    top_level = [s for s in result["samples"] if s["scenario"] == "minified-header"]
    assert [s["kind"] for s in top_level] == ["open", "top_level", "top_level"], top_level
    assert all(s["status"] == "ok" and s["ms"] > 0 for s in top_level), top_level
    exported = [s for s in result["samples"] if s["scenario"] == "export-open"]
    assert [(s["server"], s["kind"], s["status"]) for s in exported] == [
        ("ours-incremental", "open", "ok")
    ], exported
    # Each minified step published the same findings as its pretty-printed twin's same step.
    for scenario, twin in (
        ("minified", "minified-twin"),
        ("minified-lines", "minified-twin-lines"),
    ):
        mine = [s["content"] for s in result["samples"] if s["scenario"] == scenario]
        other = [s["content"] for s in result["samples"] if s["scenario"] == twin]
        assert len(mine) == 3 and mine == other, (scenario, mine, other)

    report = out.read_text(encoding="utf-8")
    assert "| ours-incremental | 1k |" in report and "| floor | 1k |" in report
    assert "## Typing a node object" in report and "## Minified" in report
    assert "| 3/3 steps |" in report  # the minified section's findings check
    assert "| typing p50, 1k: ours (ms) | ≤ 10 ms |" in report
    assert "| ours-incremental | 1k | the character, at the top level" in report
    assert "## Open of an export-shaped document" in report
    assert raw.exists()
    assert elapsed < 90, f"smoke run took {elapsed:.0f} s"


def test_bench_edit_plan_utf16_ranges() -> None:
    """The harness's incremental ranges (UTF-16, from its own text copy) rebuild the
    same text as pygls' own incremental sync, and every step leaves valid JSON."""
    import json

    from lsprotocol import types as lsp
    from pygls.workspace import TextDocument

    bench = _load_bench_run()
    from harness.client import LspClient, _Doc, offset_to_position

    assert offset_to_position("a📦b\ncd", 3) == {"line": 0, "character": 4}
    assert offset_to_position("a📦b\ncd", 4) == {"line": 1, "character": 0}

    doc = bench.load_document(1000, bench.generate.DEFAULT_SEED)
    assert doc.collisions, "the generator must plant CMP-9 collisions"
    assert any(not ch.isascii() for ch in doc.text[:20000])
    plan = bench.make_plan(doc, 0, 6, bench.generate.DEFAULT_SEED)
    assert [k for k, _ in plan] == ["label", "add_edge", "label", "delete", "label", "paste"]
    client = LspClient(["true"])
    client._docs[doc.uri] = _Doc(doc.uri, doc.text, 1, "json")
    td = TextDocument(doc.uri, doc.text, version=1, sync_kind=lsp.TextDocumentSyncKind.Incremental)
    for kind, edits in plan:
        for ch in client.make_changes(doc.uri, edits):
            r = ch["range"]
            td.apply_change(
                lsp.TextDocumentContentChangePartial(
                    range=lsp.Range(lsp.Position(**r["start"]), lsp.Position(**r["end"])),
                    text=ch["text"],
                )
            )
        assert td.source == client.text(doc.uri), kind
        json.loads(td.source)


def test_bench_typing_and_minified_plans() -> None:
    """The typing plan types the node object one keystroke at a time (UTF-16 ranges that
    pygls applies to the same text) and ends in valid JSON holding it; the minified plan edits
    labels of a one-line document that stays valid JSON; both documents carry the planted
    schema error where the manifest says."""
    import json

    from lsprotocol import types as lsp
    from pygls.workspace import TextDocument

    bench = _load_bench_run()
    from harness.client import LspClient, _Doc
    from scenarios.keystrokes import TYPED_NODE, make_typing_plan
    from scenarios.minified import make_minified_label_plan

    seed = bench.generate.DEFAULT_SEED
    doc = bench.load_document(1000, seed)
    assert doc.text[doc.schema_error_at : doc.schema_error_at + 2] == '""'
    plan = make_typing_plan(doc, 0, seed)
    assert len(plan) == len(TYPED_NODE) + 1 and {k for k, _ in plan} == {"keystroke"}
    client = LspClient(["true"])
    client._docs[doc.uri] = _Doc(doc.uri, doc.text, 1, "json")
    td = TextDocument(doc.uri, doc.text, version=1, sync_kind=lsp.TextDocumentSyncKind.Incremental)
    for _, edits in plan:
        for ch in client.make_changes(doc.uri, edits):
            r = ch["range"]
            td.apply_change(
                lsp.TextDocumentContentChangePartial(
                    range=lsp.Range(lsp.Position(**r["start"]), lsp.Position(**r["end"])),
                    text=ch["text"],
                )
            )
    assert td.source == client.text(doc.uri)
    typed = json.loads(td.source)["nodes"]
    assert len(typed) == 1001 and any(n["id"] == "typed_tool.1" for n in typed)

    mini = bench.load_document(1000, seed, minified=True)
    assert "\n" not in mini.text.rstrip("\n") and mini.schema_error_line == 0
    assert mini.text[mini.schema_error_at : mini.schema_error_at + 2] == '""'
    text = mini.text
    for kind, [(start, end, new)] in make_minified_label_plan(mini, 0, 6, seed):
        assert kind == "label" and start == end and text[start] == '"'
        text = text[:start] + new + text[end:]
    labels = {n["data"]["label"] for n in json.loads(text)["nodes"]}
    assert len(labels - {n["data"]["label"] for n in json.loads(mini.text)["nodes"]}) >= 1
    # The same edits sent as their lines, and in the pretty-printed twin, make the same labels.
    from scenarios.minified import make_label_plan

    for layout in (mini, doc):
        for whole_line in (False, True):
            edited = layout.text
            for _, [(start, end, new)] in make_label_plan(layout, 0, 6, seed, whole_line):
                assert "\n" not in new
                edited = edited[:start] + new + edited[end:]
            assert {n["data"]["label"] for n in json.loads(edited)["nodes"]} == labels


def test_every_scenario_is_run_by_make_bench() -> None:
    """bench/scenarios' registry names a module and an entry script for each scenario; the
    module imports, the script exists, and the Makefile's `bench` target runs it."""
    import importlib
    import re

    _load_bench_run()
    from scenarios import SCENARIOS

    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    target = re.search(r"^bench:.*?(?=^\S|\Z)", makefile, re.M | re.S)
    assert target, "no bench target in the Makefile"
    for scenario in SCENARIOS:
        importlib.import_module(f"scenarios.{scenario.module}")
        assert (REPO / "bench" / scenario.script).is_file(), scenario
        assert f"bench/{scenario.script}" in target.group(0), scenario
