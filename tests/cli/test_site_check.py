"""`check` on a site: the cross-file findings of each file, under the right path, with related
locations in other files; one file of a site checked alone still sees its site. The cross-file
rule here is a stand-in (tests/support/cli.py `fake_site_rule`): what is tested is the plumbing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import FAKE_CODE, finding_lines, run, use_fake_site_rule
from tests.support.site import WORKFLOW_PREFIX

AUDIT = WORKFLOW_PREFIX + "aincient_audit_agent.yml"
NODE_TYPE_PREFIX = "flowdrop_node_type.flowdrop_node_type."


@pytest.fixture
def site(site: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tests/cli/conftest.py's site, its cross-file findings the stand-in rule's."""
    use_fake_site_rule(monkeypatch)
    return site


def _fake(items: list[dict[str, object]]) -> list[dict[str, object]]:
    return [item for item in items if str(item["message"]).startswith("fake: ")]


def test_cross_file_findings_are_reported_with_their_path_and_related_file(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "sync", "--format", "json")
    found = _fake(json.loads(out))
    in_audit = [item for item in found if item["path"] == f"sync/{AUDIT}"]
    assert in_audit, "the workflow's cross-file findings are reported under its path"
    related = in_audit[0]["related"][0]
    assert related["path"].startswith(f"sync/{NODE_TYPE_PREFIX}")
    # The related range is counted in the node type's own text: its `id:` line's value.
    other = (site.parent / related["path"]).read_text(encoding="utf-8").splitlines()
    start = related["range"]["start"]
    assert other[start["line"]][start["character"] :].startswith(
        related["path"][len(f"sync/{NODE_TYPE_PREFIX}") : -len(".yml")]
    )
    # Node types no workflow uses: reported under their own path (they are in the folder checked).
    unused = [item for item in found if str(item["path"]).startswith(f"sync/{NODE_TYPE_PREFIX}")]
    assert unused and all(item["severity"] == "error" for item in unused)
    assert code == 1


def test_one_file_of_a_site_checked_alone_still_sees_the_site(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alone = _fake(json.loads(run(capsys, f"sync/{AUDIT}", "--format", "json")[1]))
    whole = _fake(json.loads(run(capsys, "sync", "--format", "json")[1]))
    assert alone == [item for item in whole if item["path"] == f"sync/{AUDIT}"]
    # The node types were not among the paths checked: none of their findings is reported.
    assert all(item["path"] == f"sync/{AUDIT}" for item in alone)


def test_settings_apply_to_cross_file_findings(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _fake(json.loads(run(capsys, "sync", "--format", "json")[1]))
    _, out, _ = run(capsys, "sync", "--format", "json", "--ignore", FAKE_CODE)
    assert _fake(json.loads(out)) == []


def test_sarif_related_locations_name_the_other_file(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(capsys, f"sync/{AUDIT}", "--format", "sarif")
    results = [
        r
        for r in json.loads(out)["runs"][0]["results"]
        if r["message"]["text"].startswith("fake: ")
    ]
    assert results
    location = results[0]["relatedLocations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"].startswith(f"sync/{NODE_TYPE_PREFIX}")
    assert location["region"]["startColumn"] == len("id: ") + 1


def test_text_output_lists_the_cross_file_findings(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(capsys, f"sync/{AUDIT}")
    assert f"sync/{AUDIT}:" in out and f" hint {FAKE_CODE} fake: node " in out


def test_every_kind_of_file_in_path_order_and_counted_alike(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 29: node types' findings came after all workflows', and the summary counted a node
    type only when it had findings. Now one order (path, then position) and every file judged
    counted: the 15 workflows and the 90 node types of the folder walked."""
    _, out, _ = run(capsys, "sync", "--color", "never")
    paths = [line.split(":")[0] for line in finding_lines(out)]
    assert paths == sorted(paths)
    assert any(NODE_TYPE_PREFIX in path for path in paths)
    assert any(WORKFLOW_PREFIX in path for path in paths)
    with_findings = len(set(paths))
    assert f" in {with_findings} of 105 files\n" in out
    # The same order in json.
    _, out, _ = run(capsys, "sync", "--format", "json")
    items = json.loads(out)
    assert [item["path"] for item in items] == sorted(item["path"] for item in items)
