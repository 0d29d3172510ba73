"""Settings problems in the server: an unknown key or rule code is shown once as a warning
(`window/showMessage`) and the rest of that source still applies; the keys editors send for
themselves are accepted without a word."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from flowdrop_lsp.core.config.settings import MAX_UNKNOWN_REPORTED
from flowdrop_lsp.core.findings import Severity
from flowdrop_lsp.lsp.configuration import SettingsManager
from tests.support.lsp import CLIENTS, REPO, WAIT, position, server_command, start_session

EXAMPLE = (REPO / "examples" / "research-agent.flowdrop.json").read_text(encoding="utf-8")
URI = "file:///workspace/research.flowdrop.json"
EDITOR_KEYS = {"server": {"path": "/x", "args": []}, "trace": {"server": "off"}}
# Long enough for a warning sent after `initialized` to have arrived, were there one.
QUIET = 1.0


# ----- SettingsManager, in process -----------------------------------------------------------
def test_unknown_key_is_a_problem_once_and_the_rest_applies() -> None:
    manager = SettingsManager()
    manager.set_initialization_options(
        {"ignroe": ["CMP-9"], "severity": {"CMP-9": "warning"}, **EDITOR_KEYS}
    )
    assert manager.drain_new_problems() == [
        "flowdrop: initializationOptions: unknown setting 'ignroe' (did you mean 'ignore'?)"
    ]
    settings = manager.for_uri(URI)
    assert settings.severity_of("CMP-9", Severity.ERROR) == Severity.WARNING
    manager.invalidate()
    manager.for_uri(URI)
    manager.set_initialization_options({"ignroe": ["CMP-9"]})
    assert manager.drain_new_problems() == []


def test_wrong_value_ignores_the_source_and_is_a_problem() -> None:
    manager = SettingsManager()
    manager.set_client_settings({"flowdrop": {"ignore": "CMP-9", "useInstanceTitle": True}})
    problems = manager.drain_new_problems()
    assert len(problems) == 1
    assert "workspace/configuration" in problems[0] and "'ignore'" in problems[0]
    assert not manager.for_uri(URI).use_instance_title


@pytest.mark.parametrize(
    "options",
    [
        {**EDITOR_KEYS, "pullDiagnostics": False},
        {"flowdrop": {**EDITOR_KEYS, "files": ["*.wf.json"]}},
        {"server.path": "/x", "trace.server": "verbose"},
    ],
)
def test_editor_keys_are_no_problem(options: dict[str, object]) -> None:
    manager = SettingsManager()
    manager.set_initialization_options(options)
    manager.set_client_settings(options)
    manager.for_uri(URI)
    assert manager.drain_new_problems() == []


def test_project_file_problem_names_the_file_and_sets_config_dir(tmp_path: Path) -> None:
    project = tmp_path / "flowdrop-lsp.toml"
    project.write_text('ignore = ["CMP9", "R8"]\nexclude = ["out/**"]\n', encoding="utf-8")
    manager = SettingsManager()
    settings = manager.for_uri((tmp_path / "a.flowdrop.json").as_uri())
    assert settings.config_dir == tmp_path
    assert settings.ignore == frozenset({"R8"})
    assert settings.exclude == ("out/**",)
    assert manager.drain_new_problems() == [
        f"flowdrop: {project}: unknown rule code 'CMP9' in 'ignore' (did you mean 'CMP-9'?)"
    ]


def test_a_new_problem_is_recorded_without_scanning_the_problems_so_far() -> None:
    # Each problem is shown once: looking it up among the ones before must not cost their
    # number (a list scan made thousands of problems quadratic).
    class Scanned(list):
        scans = 0

        def __contains__(self, item: object) -> bool:
            Scanned.scans += 1
            return super().__contains__(item)

    manager = SettingsManager()
    manager.problems = Scanned()
    for i in range(200):
        manager.set_client_settings({f"unknownKey{i}": 1})
        manager.set_client_settings({f"unknownKey{i}": 1})  # the same problem again
    assert len(manager.drain_new_problems()) == 200
    assert Scanned.scans == 0


# ----- the real server --------------------------------------------------------------------------
@pytest_lsp.fixture(params=CLIENTS, config=ClientServerConfig(server_command=server_command()))
async def fresh_client(request: pytest.FixtureRequest, lsp_client: LanguageClient):
    """A started server not yet initialized: each test sends its own initializationOptions."""
    lsp_client.flowdrop_kind = request.param  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def wait_for_messages(client: LanguageClient, count: int) -> list[types.ShowMessageParams]:
    async def until() -> None:
        while len(client.messages) < count:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(until(), WAIT)
    return list(client.messages)


async def open_and_check(client: LanguageClient, options: dict[str, object]):
    session = await start_session(client, client.flowdrop_kind, options)  # type: ignore[attr-defined]
    session.open(URI, EXAMPLE)
    diagnostics = await session.publishes.wait_for(URI, 1)
    return session, [d for d in diagnostics if d.code == "CMP-9"]


async def test_typo_in_a_key_warns_once_and_the_rest_applies(fresh_client: LanguageClient) -> None:
    session, cmp9 = await open_and_check(
        fresh_client, {"ignroe": ["CMP-9"], "severity": {"CMP-9": "warning"}}
    )
    messages = await wait_for_messages(fresh_client, 1)
    assert messages[0].type == types.MessageType.Warning
    assert "'ignroe'" in messages[0].message and "did you mean 'ignore'?" in messages[0].message
    # Published all the same, under the valid rest of the options.
    assert cmp9
    while {d.severity for d in cmp9} != {types.DiagnosticSeverity.Warning}:
        latest = await session.publishes.wait_for_new(URI, session.publishes.count(URI))
        cmp9 = [d for d in latest.diagnostics if d.code == "CMP-9"]
    # A settings change re-publishes; the same problem is not shown again.
    count = session.publishes.count(URI)
    fresh_client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"flowdrop": {"useInstanceTitle": False}})
    )
    await session.publishes.wait_for_new(URI, count)
    await asyncio.sleep(QUIET)
    assert len(fresh_client.messages) == 1


async def test_unknown_rule_code_warns_with_the_code_it_resembles(
    fresh_client: LanguageClient,
) -> None:
    _, cmp9 = await open_and_check(fresh_client, {"ignore": ["CMP9"]})
    messages = await wait_for_messages(fresh_client, 1)
    assert messages[0].type == types.MessageType.Warning
    assert "'CMP9'" in messages[0].message and "did you mean 'CMP-9'?" in messages[0].message
    assert cmp9  # not ignored: CMP9 is not CMP-9
    await asyncio.sleep(QUIET)
    assert len(fresh_client.messages) == 1


async def test_editor_keys_do_not_warn(fresh_client: LanguageClient) -> None:
    _, cmp9 = await open_and_check(fresh_client, {**EDITOR_KEYS, "pullDiagnostics": False})
    assert cmp9
    await asyncio.sleep(QUIET)
    assert fresh_client.messages == []


async def test_a_new_problem_from_did_change_configuration_is_shown(
    fresh_client: LanguageClient,
) -> None:
    session, _ = await open_and_check(fresh_client, {})
    fresh_client.set_configuration({"severty": {"CMP-9": "hint"}}, section="flowdrop")
    fresh_client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"flowdrop": {"severty": {"CMP-9": "hint"}}})
    )
    messages = await wait_for_messages(fresh_client, 1)
    assert "'severty'" in messages[0].message and "did you mean 'severity'?" in messages[0].message
    assert len(messages) == 1


async def test_forty_thousand_ignore_codes_still_publish_and_answer_a_hover(
    fresh_client: LanguageClient,
) -> None:
    # Settings cost is linear and their problems are capped: tens of thousands of unknown codes
    # are a few warnings, and the re-publish and a hover follow (no timing asserted here: the
    # counting proofs are tests/core/config/test_settings_cost.py; numbers in performance.md).
    session, cmp9 = await open_and_check(fresh_client, {})
    assert cmp9
    codes = [f"X-{i}" for i in range(40_000)] + ["CMP-9"]
    fresh_client.set_configuration({"ignore": codes}, section="flowdrop")
    count = session.publishes.count(URI)
    started = time.perf_counter()
    fresh_client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"flowdrop": {"ignore": codes}})
    )
    # (A publish of the settings before may still arrive: wait for one with the code applied.)
    while "CMP-9" in {
        d.code for d in (await session.publishes.wait_for_new(URI, count)).diagnostics
    }:
        count += 1
    republished = time.perf_counter() - started
    node = EXAMPLE.index('"reason.1"') + 2
    started = time.perf_counter()
    hover = await fresh_client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            position=position(EXAMPLE, node, session.encoding),
        )
    )
    hovered = time.perf_counter() - started
    assert hover is not None
    await asyncio.sleep(QUIET)
    warnings = [m for m in fresh_client.messages if m.type == types.MessageType.Warning]
    assert 1 <= len(warnings) <= MAX_UNKNOWN_REPORTED + 1
    assert "more" in warnings[-1].message  # the rest summed up in one
    print(f"40k ignore codes: re-publish {republished:.2f} s, hover {hovered:.3f} s")
