"""The Doctor on the real site (tests/corpus/atelier-cms): drafts made from its JSON exports with
planted mistakes are judged as `check` judges the same workflow in the site, each problem has a
remedy whose operations, applied as the editor applies them, clear it without a new error, a
remedy asked for a problem no longer in the draft is refused (ProblemGone: 409), and problem ids
stay the same across requests and unrelated edits."""

from __future__ import annotations

import copy
import json
import re
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml

from flowdrop_lsp.core.doctor import BadRemedy, DoctorService, ProblemGone
from flowdrop_lsp.entry import main
from tests.support.builders import CORPUS_JSON
from tests.support.doctor_client import apply_remedy
from tests.support.site import copy_site

PREFIX = "flowdrop_workflow.flowdrop_workflow."


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_site(tmp_path_factory.mktemp("site"), "config/sync")


@pytest.fixture
def doctor(site: Path) -> Iterator[DoctorService]:
    service = DoctorService(site.parent.parent)
    yield service
    service.close()


@contextmanager
def another(folder: Path) -> Iterator[DoctorService]:
    """A Doctor of its own (closed after: its drafts' analyses are frozen, as the server's)."""
    service = DoctorService(folder)
    try:
        yield service
    finally:
        service.close()


def export(workflow_id: str) -> dict[str, Any]:
    return json.loads((CORPUS_JSON / f"{workflow_id}.flowdrop.json").read_text("utf-8"))


def node(draft: dict[str, Any], node_id: str) -> dict[str, Any]:
    return next(n for n in draft["nodes"] if n["id"] == node_id)


# ----- the planted mistakes -----------------------------------------------------------------
def collision(draft: dict[str, Any]) -> None:
    # "capability: list-pages" and "Capability: List pages" are both `capability_list_pages`.
    node(draft, "aincient_flows_aincient_capability_preview_page.1")["data"]["label"] = (
        "capability: list-pages"
    )


def misspelt_key(draft: dict[str, Any]) -> None:
    config = node(draft, "http_request.1")["data"]["config"]
    config["timout"] = config.pop("timeout")


def dangling_edge(draft: dict[str, Any]) -> None:
    draft["edges"][3]["target"] = "chat_output.2"


def unknown_type(draft: dict[str, Any]) -> None:
    node(draft, "data_extractor.1")["data"]["metadata"]["node_type_id"] = "data_extracter"


def misspelt_filter(draft: dict[str, Any]) -> None:
    def plant(value: Any) -> Any:
        if isinstance(value, str) and "|lower" in value:
            return value.replace("|lower", "|lowr", 1)
        if isinstance(value, dict):
            for key, item in value.items():
                if (new := plant(item)) is not item:
                    value[key] = new
                    break
        if isinstance(value, list):
            for index, item in enumerate(value):
                if (new := plant(item)) is not item:
                    value[index] = new
                    break
        return value

    for item in draft["nodes"]:
        before = json.dumps(item)
        plant(item["data"].get("config"))
        if json.dumps(item) != before:
            return
    raise AssertionError("no template with |lower")


PLANTS: dict[str, tuple[str, Callable[[dict[str, Any]], None], str]] = {
    "CMP-9": ("aincient_audit_agent", collision, "CMP-9"),
    "R6.c": ("aincient_weather", misspelt_key, "R6.c"),
    "R8": ("aincient_weather", dangling_edge, "R8_EDGE_"),
    "R9": ("aincient_weather", unknown_type, "R9_NODE_TYPE_UNKNOWN"),
    "Twig": ("aincient_weather", misspelt_filter, "R11_EXPRESSION_INVALID"),
}


def planted(name: str) -> tuple[str, dict[str, Any], dict[str, Any]]:
    workflow_id, plant, _code = PLANTS[name]
    clean = export(workflow_id)
    draft = copy.deepcopy(clean)
    plant(draft)
    return workflow_id, clean, draft


def said(problems: list[dict[str, Any]]) -> list[tuple[str, str, str | None]]:
    return sorted((p["code"], _sited(p["message"]), p.get("node")) for p in problems)


def _sited(message: str) -> str:
    """A message with the site's folder left out (the two sites compared are two copies)."""
    return re.sub(r"from /\S+/sync\)", "from SITE)", message)


def checked(site: Path, workflow_id: str, draft: dict[str, Any], tmp: Path) -> list[Any]:
    """What `check` reports on the same workflow in a copy of the site: its config file with
    the draft's nodes and edges."""
    copied = tmp / "sync"
    shutil.copytree(site, copied)
    path = copied / f"{PREFIX}{workflow_id}.yml"
    config = yaml.safe_load(path.read_text("utf-8"))
    config["nodes"], config["edges"] = draft["nodes"], draft["edges"]
    path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True), "utf-8")
    out = tmp / "out.json"
    main(["check", "--no-cache", "--exit-zero", "--format", "json", "-o", str(out), str(path)])
    return json.loads(out.read_text("utf-8"))


@pytest.mark.parametrize("name", sorted(PLANTS))
def test_a_planted_mistake_is_found_as_check_finds_it(
    name: str, doctor: DoctorService, site: Path, tmp_path: Path
) -> None:
    workflow_id, clean, draft = planted(name)
    before = doctor.diagnose(workflow_id, clean)
    problems = doctor.diagnose(workflow_id, draft)
    new = [p for p in problems if p["id"] not in {b["id"] for b in before}]
    assert new, f"{name}: nothing new found"
    assert any(p["code"].startswith(PLANTS[name][2]) for p in new), new
    # The same findings as `check` on the same workflow (FD-DEPENDENCY judges a config file's
    # `dependencies`, which a draft does not carry: Drupal writes them when it saves).
    found = checked(site, workflow_id, draft, tmp_path)
    expected = sorted(
        (f["locator_code"] or f["code"], _sited(f["message"]), f["node"])
        for f in found
        if f["code"] != "FD-DEPENDENCY"
    )
    assert said(problems) == expected


@pytest.mark.parametrize("name", sorted(PLANTS))
def test_each_planted_mistake_has_a_remedy_that_clears_it(name: str, doctor: DoctorService) -> None:
    workflow_id, clean, draft = planted(name)
    before = {p["id"] for p in doctor.diagnose(workflow_id, clean)}
    problems = doctor.diagnose(workflow_id, draft)
    code = PLANTS[name][2]
    planted_problems = [p for p in problems if p["id"] not in before and p["code"].startswith(code)]
    assert planted_problems
    for problem in planted_problems:
        assert problem["remedies"], f"{name}: no remedy for {problem['message']}"
        remedy = problem["remedies"][0]
        params = None
        if "params" in remedy:
            choices = remedy["params"]["choices"]
            params = {"node_type_id": next(iter(choices))}  # as the editor names any pick
        operations = doctor.remedy(workflow_id, draft, problem["id"], remedy["id"], params)
        fixed = apply_remedy(draft, operations)
        after = doctor.diagnose(workflow_id, fixed)
        ids = {p["id"] for p in after}
        assert problem["id"] not in ids, (name, remedy["label"], operations)
        errors_before = {p["id"] for p in problems if p["severity"] == "error"}
        assert {p["id"] for p in after if p["severity"] == "error"} <= errors_before, (
            name,
            remedy["label"],
            [p["message"] for p in after if p["id"] not in errors_before],
        )


def test_a_remedy_for_a_problem_gone_is_refused(doctor: DoctorService) -> None:
    workflow_id, clean, draft = planted("R6.c")
    problem = next(p for p in doctor.diagnose(workflow_id, draft) if p["code"] == "R6.c")
    with pytest.raises(ProblemGone):
        doctor.remedy(workflow_id, clean, problem["id"], problem["remedies"][0]["id"], None)
    with pytest.raises(BadRemedy) as refused:
        doctor.remedy(workflow_id, draft, problem["id"], "no-such-remedy", None)
    assert refused.value.error_code == "UNKNOWN_REMEDY"


def test_problem_ids_are_stable_across_requests_and_unrelated_edits(
    doctor: DoctorService,
) -> None:
    workflow_id, _clean, draft = planted("R6.c")
    first = doctor.diagnose(workflow_id, draft)
    again = doctor.diagnose(workflow_id, copy.deepcopy(draft))
    moved = copy.deepcopy(draft)
    for item in moved["nodes"]:
        item["position"] = {"x": item["position"]["x"] + 40, "y": item["position"]["y"] - 7}
    after_move = doctor.diagnose(workflow_id, moved)
    with another(Path(doctor.folder or ".")) as restarted:
        fresh = restarted.diagnose(workflow_id, moved)
    ids = [p["id"] for p in first]
    assert ids == [p["id"] for p in again] == [p["id"] for p in after_move]
    assert ids == [p["id"] for p in fresh]  # a restarted Doctor names them alike
    assert len(set(ids)) == len(ids)


def test_the_incremental_draft_equals_a_fresh_one(doctor: DoctorService) -> None:
    """A draft fed as the lines that changed is judged as the same draft judged afresh."""
    workflow_id = "aincient_weather"
    draft = export(workflow_id)
    for name in ("R6.c", "R8", "R9", "Twig"):
        _id, _clean, planted_draft = planted(name)
        draft["nodes"] = planted_draft["nodes"]
        draft["edges"] = planted_draft["edges"]
        kept = doctor.diagnose(workflow_id, copy.deepcopy(draft))
        with another(Path(doctor.folder or ".")) as restarted:
            fresh = restarted.diagnose(workflow_id, draft)
        assert kept == fresh, name


def test_a_node_type_changed_on_disk_counts_at_the_next_diagnose(tmp_path: Path) -> None:
    sync = copy_site(tmp_path, "config/sync")
    with another(tmp_path) as doctor:
        _changed_on_disk(doctor, sync)


def _changed_on_disk(doctor: DoctorService, sync: Path) -> None:
    workflow_id, clean, draft = planted("R9")
    assert not any(p["code"] == "R9_NODE_TYPE_UNKNOWN" for p in doctor.diagnose(workflow_id, clean))
    definition = sync / "flowdrop_node_type.flowdrop_node_type.data_extractor.yml"
    renamed = definition.read_text("utf-8").replace("id: data_extractor", "id: data_extracter")
    (sync / "flowdrop_node_type.flowdrop_node_type.data_extracter.yml").write_text(renamed)
    found = doctor.diagnose(workflow_id, draft)
    assert not any(p["code"] == "R9_NODE_TYPE_UNKNOWN" for p in found)
    (sync / "flowdrop_node_type.flowdrop_node_type.data_extracter.yml").unlink()
    found = doctor.diagnose(workflow_id, draft)
    assert any(p["code"] == "R9_NODE_TYPE_UNKNOWN" for p in found)


def test_a_draft_alone_without_a_site(tmp_path: Path) -> None:
    with another(tmp_path) as doctor:  # no config files there
        _alone(doctor)


def _alone(doctor: DoctorService) -> None:
    assert doctor.folder is None
    draft = export("aincient_audit_agent")
    collision(draft)
    problems = doctor.diagnose("../../etc/passwd", draft)  # an id that names no file
    assert any(p["code"] == "CMP-9" for p in problems)
