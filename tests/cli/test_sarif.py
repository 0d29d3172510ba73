"""`check --format sarif` against the official SARIF 2.1.0 schema, URI formats included, and
what GitHub code scanning relies on: %SRCROOT%-relative percent-encoded URIs, PascalCase rule
names, fingerprints that survive unrelated edits, failures reported in `invocations`.

Also the `--format github` annotation titles (rule code and title)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin

import pytest
from jsonschema import Draft4Validator, FormatChecker

from flowdrop_lsp.cli.formats import (
    FINGERPRINT_KEY,
    SRCROOT,
    STDIN_URI,
    FileFailure,
    FileResult,
    format_github,
    format_sarif,
    root_uri,
    rule_name,
)
from flowdrop_lsp.core.findings import Finding, Severity
from flowdrop_lsp.core.rules.registry import ALL_RULES
from flowdrop_lsp.core.text.positions import Span
from flowdrop_lsp.entry import main
from tests.support.builders import FIXTURES

SCHEMA = FIXTURES / "sarif" / "sarif-schema-2.1.0.json"
COLLISION = FIXTURES / "collision-golden.flowdrop.json"
# Each needs encoding or is one a naive URI would get wrong: space, fragment, escape, non-ASCII.
AWKWARD_NAMES = [
    "my flow.flowdrop.json",
    "a#b.flowdrop.json",
    "100%.flowdrop.json",
    "流程 天気.flowdrop.json",
    "sub dir/x:y?.flowdrop.json",
]


@pytest.fixture(scope="module")
def validator() -> Draft4Validator:
    checker = FormatChecker()
    # Without rfc3986-validator (or rfc3987) jsonschema silently skips these formats, and every
    # URI would pass: fail instead.
    assert {"uri", "uri-reference"} <= set(checker.checkers), "install the test extra"
    # FormatChecker() rather than the draft-04 one: the schema uses `uri-reference`, which
    # draft 4 does not define and its checker would skip.
    return Draft4Validator(json.loads(SCHEMA.read_text(encoding="utf-8")), format_checker=checker)


def schema_errors(validator: Draft4Validator, log: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in validator.iter_errors(log)
    ]


def run_sarif(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["check", "--format", "sarif", *args])
    return code, json.loads(capsys.readouterr().out)


def set_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def artifact(result: dict[str, Any]) -> dict[str, Any]:
    location: dict[str, Any] = result["locations"][0]["physicalLocation"]["artifactLocation"]
    return location


def resolve(log: dict[str, Any], location: dict[str, Any]) -> str:
    """The file a consumer would open for `location`, as GitHub does: the URI resolved
    against its base, then percent-decoded."""
    base = log["runs"][0]["originalUriBaseIds"][location["uriBaseId"]]["uri"]
    uri = urljoin(base, location["uri"])
    assert uri.startswith("file:///")
    return unquote(uri.removeprefix("file://"))


# ----- schema validity and URIs -----------------------------------------------------------


def test_awkward_file_names_validate_and_resolve_to_the_files(
    validator: Draft4Validator,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in AWKWARD_NAMES:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_bytes(COLLISION.read_bytes())
    monkeypatch.chdir(tmp_path)
    code, log = run_sarif(capsys, *AWKWARD_NAMES)
    assert code == 1
    assert schema_errors(validator, log) == []
    run = log["runs"][0]
    assert run["originalUriBaseIds"] == {SRCROOT: {"uri": tmp_path.as_uri() + "/"}}
    assert run["invocations"] == [{"executionSuccessful": True}]
    seen = set()
    for result in run["results"]:
        location = artifact(result)
        assert location["uriBaseId"] == SRCROOT
        assert not location["uri"].startswith(("/", "file:"))
        assert resolve(log, location) == str(tmp_path / unquote(location["uri"]))
        seen.add(unquote(location["uri"]))
        related = [
            r["physicalLocation"]["artifactLocation"] for r in result.get("relatedLocations", [])
        ]
        changes = [
            c["artifactLocation"] for f in result.get("fixes", []) for c in f["artifactChanges"]
        ]
        assert all(other == location for other in related + changes)
    assert seen == set(AWKWARD_NAMES)
    uris = {artifact(r)["uri"] for r in run["results"]}
    assert "a%23b.flowdrop.json" in uris
    assert "100%25.flowdrop.json" in uris
    assert "sub%20dir/x%3Ay%3F.flowdrop.json" in uris
    assert "%E6%B5%81%E7%A8%8B%20%E5%A4%A9%E6%B0%97.flowdrop.json" in uris


def test_a_file_outside_the_root_gets_an_absolute_file_uri(
    validator: Draft4Validator,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root, elsewhere = tmp_path / "root", tmp_path / "else where"
    root.mkdir()
    elsewhere.mkdir()
    outside = elsewhere / "a#1.flowdrop.json"
    outside.write_bytes(COLLISION.read_bytes())
    monkeypatch.chdir(root)
    _, log = run_sarif(capsys, str(outside))
    assert schema_errors(validator, log) == []
    location = artifact(log["runs"][0]["results"][0])
    assert "uriBaseId" not in location
    assert location["uri"] == outside.as_uri()
    assert "%20" in location["uri"] and "%231" in location["uri"]


def test_stdin_without_a_name_is_a_valid_relative_uri_not_a_file_under_the_root(
    validator: Draft4Validator,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    set_stdin(monkeypatch, COLLISION.read_bytes())
    code, log = run_sarif(capsys, "-")
    assert code == 1
    assert schema_errors(validator, log) == []
    locations = [artifact(r) for r in log["runs"][0]["results"]]
    assert locations and all(loc["uri"] == STDIN_URI for loc in locations)
    assert all("uriBaseId" not in loc for loc in locations)
    assert "<stdin>" not in json.dumps(log)


def test_stdin_with_a_filename_is_reported_like_that_file(
    validator: Draft4Validator,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    set_stdin(monkeypatch, COLLISION.read_bytes())
    _, log = run_sarif(capsys, "--stdin-filename", "flows/my flow#2.flowdrop.json", "-")
    assert schema_errors(validator, log) == []
    location = artifact(log["runs"][0]["results"][0])
    assert location == {"uri": "flows/my%20flow%232.flowdrop.json", "uriBaseId": SRCROOT}
    assert resolve(log, location) == str(tmp_path / "flows" / "my flow#2.flowdrop.json")


def test_a_broken_uri_fails_validation(validator: Draft4Validator) -> None:
    """The format check is real: without it every test above would pass on any string."""
    log = json.loads(format_sarif([FileResult("a.flowdrop.json", "{}", ())]))
    assert schema_errors(validator, log) == []
    log["runs"][0]["originalUriBaseIds"][SRCROOT]["uri"] = "file:///a b/"
    assert [e for e in schema_errors(validator, log) if "uri" in e]
    log = json.loads(
        format_sarif(
            [
                FileResult(
                    "x.flowdrop.json", "{}", (Finding("CMP-9", Severity.ERROR, "m", Span(0, 1)),)
                )
            ]
        )
    )
    assert schema_errors(validator, log) == []
    for broken in ("my flow.json", "<stdin>", "流程.json", "100%.json"):
        artifact(log["runs"][0]["results"][0])["uri"] = broken
        errors = schema_errors(validator, log)
        assert errors and all("is not a 'uri-reference'" in e for e in errors), (broken, errors)


def test_the_root_is_an_absolute_directory_uri(tmp_path: Path) -> None:
    assert root_uri(tmp_path / "a b") == (tmp_path / "a b").as_uri() + "/"
    assert root_uri(Path("/")) == "file:///"
    log = json.loads(format_sarif([], root=tmp_path / "r#1"))
    assert log["runs"][0]["originalUriBaseIds"][SRCROOT]["uri"].endswith("/r%231/")


# ----- rules --------------------------------------------------------------------------------


def test_rule_names_are_pascal_case() -> None:
    assert rule_name("Tool name collision") == "ToolNameCollision"
    assert rule_name("Self-edge") == "SelfEdge"
    assert rule_name("Tool name rejected by LLM APIs") == "ToolNameRejectedByLLMAPIs"
    assert rule_name("JSON syntax error") == "JSONSyntaxError"
    assert rule_name("Tool’s name") == "ToolsName"
    assert rule_name("It's (nearly) done, isn't it?") == "ItsNearlyDoneIsntIt"
    log = json.loads(format_sarif([]))
    names = {r["id"]: r["name"] for r in log["runs"][0]["tool"]["driver"]["rules"]}
    assert names["CMP-9"] == "ToolNameCollision"
    assert all(name.isalnum() and name[0].isupper() for name in names.values()), names
    assert len(set(names.values())) == len(ALL_RULES)


def test_an_unknown_code_gets_no_rule_index(validator: Draft4Validator) -> None:
    finding = Finding("X-1", Severity.WARNING, "from elsewhere", Span(0, 1))
    log = json.loads(format_sarif([FileResult("a.json", "{}", (finding,))]))
    assert schema_errors(validator, log) == []
    result = log["runs"][0]["results"][0]
    assert result["ruleId"] == "X-1" and "ruleIndex" not in result


# ----- fingerprints -------------------------------------------------------------------------


def fingerprints(log: dict[str, Any]) -> list[tuple[str, str]]:
    return [
        (r["ruleId"], r["partialFingerprints"][FINGERPRINT_KEY]) for r in log["runs"][0]["results"]
    ]


def test_fingerprints_survive_unrelated_edits_above(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "flow.flowdrop.json"
    original = COLLISION.read_text(encoding="utf-8")
    path.write_text(original, encoding="utf-8")
    _, before = run_sarif(capsys, path.name)
    edited = original.replace(
        '"id": "golden",',
        '"id": "golden",\n  "description": "moved 3 lines down",\n  "tags": [1, 2],\n',
        1,
    ).replace('"note": "🔎 天気", ', '"note": "changed 42", "extra": 7, ')
    assert edited != original
    path.write_text(edited, encoding="utf-8")
    _, after = run_sarif(capsys, path.name)
    lines = [r["locations"][0]["physicalLocation"]["region"] for r in before["runs"][0]["results"]]
    moved = [r["locations"][0]["physicalLocation"]["region"] for r in after["runs"][0]["results"]]
    assert lines != moved  # the findings did move: the fingerprints below are not positions
    assert fingerprints(after) == fingerprints(before)
    prints = [p for _, p in fingerprints(before)]
    assert len(prints) == 4 and len(set(prints)) == 4


def test_fingerprints_are_stable_across_runs_and_differ_per_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("a.flowdrop.json", "b.flowdrop.json"):
        (tmp_path / name).write_bytes(COLLISION.read_bytes())
    _, first = run_sarif(capsys, "a.flowdrop.json", "b.flowdrop.json")
    _, second = run_sarif(capsys, "a.flowdrop.json", "b.flowdrop.json")
    assert fingerprints(first) == fingerprints(second)
    prints = [p for _, p in fingerprints(first)]
    assert len(set(prints)) == len(prints) == 8


def test_fingerprints_of_the_one_finding_per_label_cmp9_shape(validator: Draft4Validator) -> None:
    """CMP-9 is moving to one finding per colliding label with a list of `consumers`: its
    fingerprint must not depend on that list, nor on the message (which names consumers)."""

    def cmp9(message: str, consumers: tuple[dict[str, Any], ...]) -> Finding:
        return Finding(
            "CMP-9",
            Severity.ERROR,
            message,
            Span(3, 9),
            node="search.1",
            extra=(("tool_name", "web_search"), ("consumers", consumers)),
        )

    one = {"consumer": "agent.1", "colliding_with": ("search.2",), "route": ("box.1",)}
    two = {"consumer": "agent.2", "colliding_with": ("search.3",), "route": ()}
    first = format_sarif([FileResult("a.json", "{" * 20, (cmp9("at agent.1", (one,)),))])
    second = format_sarif([FileResult("a.json", "{" * 20, (cmp9("at 2 consumers", (one, two)),))])
    assert schema_errors(validator, json.loads(first)) == []
    assert fingerprints(json.loads(first)) == fingerprints(json.loads(second))
    # Equal facts twice in one file: told apart by their occurrence, not merged.
    twice = format_sarif([FileResult("a.json", "{" * 20, (cmp9("x", (one,)), cmp9("y", (one,))))])
    prints = [p for _, p in fingerprints(json.loads(twice))]
    assert len(set(prints)) == 2 and prints[0].endswith(":1") and prints[1].endswith(":2")


# ----- failures -----------------------------------------------------------------------------


def test_failures_make_the_invocation_unsuccessful_with_a_notification_each(
    validator: Draft4Validator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # paths as shown are relative to the working directory
    result = FileResult("ok.flowdrop.json", COLLISION.read_text(encoding="utf-8"), ())
    failures = [
        FileFailure(
            "missing dir/gone.flowdrop.json",
            "cannot read missing dir/gone.flowdrop.json: [Errno 2] No such file or directory",
        ),
        FileFailure(
            "ro.flowdrop.json", "cannot write ro.flowdrop.json: [Errno 30] Read-only file system"
        ),
    ]
    log = json.loads(format_sarif([result], failures, root=tmp_path))
    assert schema_errors(validator, log) == []
    (invocation,) = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    notifications = invocation["toolExecutionNotifications"]
    assert [n["level"] for n in notifications] == ["error", "error"]
    assert [n["message"]["text"] for n in notifications] == [f.message for f in failures]
    where = [n["locations"][0]["physicalLocation"]["artifactLocation"] for n in notifications]
    assert where == [
        {"uri": "missing%20dir/gone.flowdrop.json", "uriBaseId": SRCROOT},
        {"uri": "ro.flowdrop.json", "uriBaseId": SRCROOT},
    ]


def test_a_run_with_only_failures_is_valid(validator: Draft4Validator) -> None:
    log = json.loads(format_sarif([], [FileFailure("<stdin>", "cannot read <stdin>: bad UTF-8")]))
    assert schema_errors(validator, log) == []
    assert log["runs"][0]["results"] == []
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False


def test_an_unreadable_file_still_gives_valid_sarif_from_the_cli(
    validator: Draft4Validator,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.flowdrop.json").write_bytes(COLLISION.read_bytes())
    code, log = run_sarif(capsys, "ok.flowdrop.json", "gone.flowdrop.json")
    assert code == 2
    assert schema_errors(validator, log) == []


def test_the_cli_reports_an_unreadable_file_in_the_invocation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.flowdrop.json").write_bytes(COLLISION.read_bytes())
    _, log = run_sarif(capsys, "ok.flowdrop.json", "gone.flowdrop.json")
    (invocation,) = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    (notification,) = invocation["toolExecutionNotifications"]
    assert notification["message"]["text"].startswith("cannot read gone.flowdrop.json")
    assert notification["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "gone.flowdrop.json",
        "uriBaseId": SRCROOT,
    }


# ----- github annotations -------------------------------------------------------------------


def test_github_title_is_the_rule_code_and_title() -> None:
    finding = Finding("CMP-9", Severity.ERROR, "two\nlines, 100%: yes", Span(0, 1))
    out = format_github([FileResult("a,b:c%.json", "{}", (finding,))])
    assert out == (
        "::error file=a%2Cb%3Ac%25.json,line=1,col=1,endLine=1,endColumn=2,"
        "title=CMP-9 Tool name collision::CMP-9 two%0Alines, 100%25: yes\n"
    )


def test_github_title_of_an_unknown_code_is_escaped_and_failures_are_annotated() -> None:
    finding = Finding("X:1,2", Severity.WARNING, "m", Span(0, 1))
    failure = FileFailure("gone, really.json", "cannot read gone, really.json: [Errno 2]\r\n")
    out = format_github([FileResult("a.json", "{}", (finding,))], [failure])
    assert out.splitlines() == [
        "::warning file=a.json,line=1,col=1,endLine=1,endColumn=2,title=X%3A1%2C2::X:1,2 m",
        "::error file=gone%2C really.json,title=flowdrop-lsp::cannot read gone, really.json: [Errno 2]%0D%0A",
    ]


def _reports(tmp_path: Path, settings: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    (tmp_path / "flowdrop-lsp.toml").write_text(settings, encoding="utf-8")
    target = tmp_path / COLLISION.name
    target.write_text(COLLISION.read_text(encoding="utf-8"), encoding="utf-8")
    logs = []
    for fmt in ("sarif", "json"):
        out = io.StringIO()
        saved, sys.stdout = sys.stdout, out
        try:
            main(["check", "--format", fmt, str(target)])
        finally:
            sys.stdout = saved
        logs.append(json.loads(out.getvalue()))
    return logs[0], logs[1]


def test_without_docs_url_no_link_to_the_installed_package(tmp_path: Path) -> None:
    # A file: URI into site-packages is dead once the log is uploaded: left out; SARIF's
    # help.markdown carries the page itself.
    sarif, items = _reports(tmp_path, "")
    driver = sarif["runs"][0]["tool"]["driver"]
    assert "file:" not in json.dumps(sarif["runs"][0]["tool"])
    assert all("helpUri" not in rule and rule["help"]["markdown"] for rule in driver["rules"])
    assert items and all("url" not in item for item in items)


def test_with_docs_url_the_links_are_kept(tmp_path: Path) -> None:
    sarif, items = _reports(tmp_path, 'docs-url = "https://example.com/rules/{code}.md"\n')
    driver = sarif["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == "https://example.com/rules/"
    cmp9 = next(rule for rule in driver["rules"] if rule["id"] == "CMP-9")
    assert cmp9["helpUri"] == "https://example.com/rules/CMP-9.md"
    assert {item["url"] for item in items} == {
        f"https://example.com/rules/{item['code']}.md" for item in items
    }
