"""`check --unsafe-fixes`: `--fix` and `--diff` apply unsafe fixes only with it (a finding's only
fix, when that one is unsafe); the summary and the fixable counts follow; json and SARIF carry
each fix's applicability and the spec's locator code and locator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft4Validator, FormatChecker

from tests.support.cli import route_copy, run

SCHEMA = Path(__file__).resolve().parents[1] / "fixtures" / "sarif" / "sarif-schema-2.1.0.json"
DANGLING = (
    '{"nodes": [{"id": "a", "type": "http_request", "data": {"label": "Fetch"}}],\n'
    ' "edges": [{"id": "e0", "source": "a", "target": "a"}, {"id": "e1", "source": "a", "target": "ghost"}]}\n'
)


@pytest.fixture
def route(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return route_copy(tmp_path)


def test_fix_leaves_an_unsafe_fix_alone_and_says_so(
    route: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = route.read_text(encoding="utf-8")
    code, out, err = run(capsys, "--no-cache", "--fix", route.name)
    assert code == 0
    assert route.read_text(encoding="utf-8") == before
    assert "FD-TOOL-ROUTE [~] " in out
    assert out.endswith("1 warning in 1 file\n[~] 1 fixable with --fix --unsafe-fixes\n")
    code, out, _ = run(capsys, "--no-cache", "--diff", route.name)
    assert out == ""


def test_unsafe_fixes_applies_the_only_fix(route: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = route.read_text(encoding="utf-8")
    code, diff, _ = run(capsys, "--no-cache", "--diff", "--unsafe-fixes", route.name)
    assert (
        "-            name: 'Pick brand'\n-            value: capability_quick_brand_picker\n"
        in diff
    )
    assert route.read_text(encoding="utf-8") == before  # --diff changes nothing
    code, out, err = run(capsys, "--no-cache", "--fix", "--unsafe-fixes", route.name)
    assert code == 0
    assert "made 1 change in" in err and "fixing 1 finding" in err
    after = route.read_text(encoding="utf-8")
    assert after != before and "capability_quick_brand_picker" not in after
    assert out.endswith("no problems in 1 file\n")
    # --no-unsafe-fixes turns it off again (the last flag wins).
    route.write_text(before, encoding="utf-8")
    run(capsys, "--no-cache", "--fix", "--unsafe-fixes", "--no-unsafe-fixes", route.name)
    assert route.read_text(encoding="utf-8") == before


def test_the_settings_key_turns_unsafe_fixes_on_and_the_flag_wins(
    route: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = route.read_text(encoding="utf-8")
    (route.parent / "flowdrop-lsp.toml").write_text("unsafe-fixes = true\n", encoding="utf-8")
    _, out, _ = run(capsys, "--no-cache", route.name)
    assert "FD-TOOL-ROUTE [*] " in out  # what --fix would do, as the settings say
    run(capsys, "--no-cache", "--fix", "--no-unsafe-fixes", route.name)
    assert route.read_text(encoding="utf-8") == before
    _, _, err = run(capsys, "--no-cache", "--fix", route.name)
    assert "made 1 change in" in err
    assert "capability_quick_brand_picker" not in route.read_text(encoding="utf-8")


def test_fixable_counts_follow_the_flag(route: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "--no-cache", "--statistics", "--format", "json", route.name)
    assert [(s["code"], s["fixable"]) for s in json.loads(out)] == [("FD-TOOL-ROUTE", 0)]
    _, out, _ = run(
        capsys, "--no-cache", "--statistics", "--format", "json", "--unsafe-fixes", route.name
    )
    assert [(s["code"], s["fixable"]) for s in json.loads(out)] == [("FD-TOOL-ROUTE", 1)]
    _, out, _ = run(capsys, "--no-cache", "--unsafe-fixes", route.name)
    assert "FD-TOOL-ROUTE [*] " in out
    assert out.endswith("1 warning in 1 file\n[*] 1 fixable with --fix (see them with --diff)\n")


def test_json_carries_applicability_and_locators(
    route: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(capsys, "--no-cache", "--format", "json", route.name)
    (finding,) = json.loads(out)
    assert (finding["locator_code"], finding["locator"]) == (None, None)
    assert [(f["title"], f["preferred"], f["applicability"]) for f in finding["fixes"]] == [
        ('Remove the branch "Pick brand"', False, "unsafe")
    ]
    (route.parent / "dangling.flowdrop.json").write_text(DANGLING, encoding="utf-8")
    _, out, _ = run(capsys, "--no-cache", "--format", "json", "dangling.flowdrop.json")
    assert [(f["code"], f["locator_code"], f["locator"]) for f in json.loads(out)] == [
        ("R12", "R12_EDGE_SELF", "edge.0"),
        ("R8", "R8_EDGE_TARGET_MISSING", "edge.1"),
    ]


def test_sarif_carries_locators_and_marks_unsafe_fixes_and_validates(
    route: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (route.parent / "dangling.flowdrop.json").write_text(DANGLING, encoding="utf-8")
    _, out, _ = run(capsys, "--no-cache", "--format", "sarif", "dangling.flowdrop.json", route.name)
    log = json.loads(out)
    validator = Draft4Validator(
        json.loads(SCHEMA.read_text(encoding="utf-8")), format_checker=FormatChecker()
    )
    assert [e.message for e in validator.iter_errors(log)] == []
    results = log["runs"][0]["results"]
    assert [
        (
            r["ruleId"],
            r.get("properties", {}).get("locatorCode"),
            r["locations"][0].get("logicalLocations"),
        )
        for r in results
    ] == [
        ("R12", "R12_EDGE_SELF", [{"fullyQualifiedName": "edge.0", "kind": "element"}]),
        ("R8", "R8_EDGE_TARGET_MISSING", [{"fullyQualifiedName": "edge.1", "kind": "element"}]),
        ("FD-TOOL-ROUTE", None, None),
    ]
    (removal,) = results[2]["fixes"]
    assert removal["properties"] == {"applicability": "unsafe"}
