"""R6.c's repair: a misspelt config key renamed to the key of the derived schema it is close to
(`maxTokes` → `maxTokens`, `maxRetrys` → `maxRetries`, `max_tokens`, `MaxTokens`), its value and
the file's style kept byte for byte — planted in the real site's agent step, YAML and JSON; safe
only when it is the one candidate and no other unknown key of the node wants the same name."""

from __future__ import annotations

import json

import pytest
import yaml

from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.findings import Finding
from flowdrop_lsp.core.fixes import apply_edits
from flowdrop_lsp.core.rules.config_unknown_key import close_config_keys, typo_of
from tests.support.builders import findings, plant
from tests.support.builders import in_syntax as _in
from tests.support.config_site import corpus_workflow, node_type_text, site_settings

CODE = "R6.c"
SYNTAXES = ["yaml", "json"]
REASON = "reason"  # one agent step: config operation_type, model, …, maxTokens, maxRetries
TOKENS = "        maxTokens: 8192\n"
RETRIES = "        maxRetries: 0\n"


def _titles(finding: Finding) -> list[tuple[str, str, bool]]:
    return [(f.title, f.applicability.value, f.preferred) for f in finding.fixes]


def _one(text: str, syntax: str, settings: object = None) -> Finding:
    (finding,) = findings(text, CODE, settings or site_settings(), syntax)  # type: ignore[arg-type]
    return finding


@pytest.mark.parametrize("syntax", SYNTAXES)
@pytest.mark.parametrize(
    ("planted", "original", "meant"),
    [
        ("        maxTokes: 8192\n", TOKENS, "maxTokens"),
        ("        maxRetrys: 0\n", RETRIES, "maxRetries"),  # an editor key (SCH-21)
        ("        max_tokens: 8192\n", TOKENS, "maxTokens"),
        ("        MaxTokens: 8192\n", TOKENS, "maxTokens"),
    ],
)
def test_a_misspelt_key_is_renamed_keeping_its_value_byte_for_byte(
    syntax: str, planted: str, original: str, meant: str
) -> None:
    site = corpus_workflow(REASON)
    wrong = planted.strip().split(":")[0]
    text = _in(syntax, plant(site, original, planted))
    finding = _one(text, syntax)
    assert finding.message.endswith(f"its value is ignored at execution; did you mean '{meant}'?")
    assert _titles(finding) == [
        (f"Rename '{wrong}' to '{meant}'", "safe", True),
        (f"Remove '{wrong}'", "unsafe", False),
    ]
    assert finding.applied_fix() is finding.fixes[0]  # what plain --fix applies
    fixed = apply_edits(text, finding.fixes[0].edits)
    assert fixed == _in(syntax, site)  # only the key's token changed: the site's own file
    assert findings(fixed, CODE, site_settings(), syntax) == []


def test_a_quoted_yaml_key_stays_quoted() -> None:
    site = corpus_workflow(REASON)
    text = plant(site, TOKENS, "        'maxTokes': 8192\n")
    fixed = apply_edits(text, _one(text, "yaml").fixes[0].edits)
    assert fixed == plant(site, TOKENS, "        'maxTokens': 8192\n")
    assert yaml.safe_load(fixed) == yaml.safe_load(site)


def test_an_escaped_json_key_is_written_whole() -> None:
    site = _in("json", corpus_workflow(REASON))
    text = plant(site, '"maxTokens": 8192', '"max\\u0054okes": 8192')
    finding = _one(text, "json")
    assert finding.fixes[0].title == "Rename 'maxTokes' to 'maxTokens'"
    assert apply_edits(text, finding.fixes[0].edits) == site


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_key_the_config_already_holds_is_no_candidate(syntax: str) -> None:
    text = _in(syntax, plant(corpus_workflow(REASON), TOKENS, TOKENS + "        maxTokes: 1\n"))
    finding = _one(text, syntax)
    assert "did you mean" not in finding.message
    assert _titles(finding) == [("Remove 'maxTokes'", "unsafe", False)]


def _with_min_tokens() -> object:
    """The agent step's type with a second close parameter, `minTokens`."""
    reason = node_type_text("aincient_reason")
    extra = "  minTokens:\n    configurable: true\n    connectable: false\n    required: false\n"
    return site_settings(aincient_reason=plant(reason, "  maxTokens:\n", extra + "  maxTokens:\n"))


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_several_candidates_are_each_an_unsafe_rename(syntax: str) -> None:
    settings = _with_min_tokens()
    text = _in(syntax, plant(corpus_workflow(REASON), TOKENS, "        mxTokens: 8192\n"))
    finding = _one(text, syntax, settings)
    assert finding.message.endswith("did you mean 'maxTokens' or 'minTokens'?")
    assert _titles(finding) == [
        ("Rename 'mxTokens' to 'maxTokens'", "unsafe", False),
        ("Rename 'mxTokens' to 'minTokens'", "unsafe", False),
        ("Remove 'mxTokens'", "unsafe", False),
    ]
    assert finding.applied_fix() is None and finding.applied_fix(unsafe=True) is None


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_two_keys_wanting_one_name_are_never_renamed_unreviewed(syntax: str) -> None:
    """Both renamed by one `--fix` run would write `maxTokens` twice: neither is safe."""
    planted = "        maxTokes: 8192\n        max_tokens: 100\n"
    text = _in(syntax, plant(corpus_workflow(REASON), TOKENS, planted))
    reported = findings(text, CODE, site_settings(), syntax)
    assert [_titles(f) for f in reported] == [
        [
            ("Rename 'maxTokes' to 'maxTokens'", "unsafe", False),
            ("Remove 'maxTokes'", "unsafe", False),
        ],
        [
            ("Rename 'max_tokens' to 'maxTokens'", "unsafe", False),
            ("Remove 'max_tokens'", "unsafe", False),
        ],
    ]
    assert [f.applied_fix() for f in reported] == [None, None]
    # One taken in the editor: the other's candidate is held now, only its removal is left.
    fixed = apply_edits(text, reported[0].fixes[0].edits)
    (left,) = findings(fixed, CODE, site_settings(), syntax)
    assert _titles(left) == [("Remove 'max_tokens'", "unsafe", False)]


def test_a_key_close_to_nothing_has_no_candidate() -> None:
    keys = frozenset({"maxTokens", "maxRetries", "model", "temperature"})
    assert close_config_keys("colour", keys) == ()
    assert close_config_keys("max-tokens", keys) == ("maxTokens",)
    assert close_config_keys("temprature", keys) == ("temperature",)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_positions_after_emoji_and_cjk_and_incremental(syntax: str) -> None:
    settings = site_settings()
    site = plant(corpus_workflow(REASON), "label: 'Reason (agent step)'", "label: '推論 🤖 step'")
    text = _in(syntax, plant(site, TOKENS, "        maxTokes: 8192\n"))
    document = WorkflowDocument(text, settings, syntax=syntax)
    (finding,) = [f for f in document.findings() if f.code == CODE]
    (edit,) = finding.fixes[0].edits
    token = "maxTokes" if syntax == "yaml" else '"maxTokes"'
    assert (
        text[edit.span.start : edit.span.end]
        == token
        == text[finding.span.start : finding.span.end]
    )
    document.apply_edit(edit.span.start, edit.span.end, edit.new_text)
    assert document.text == _in(syntax, site)
    assert (
        document.findings() == WorkflowDocument(document.text, settings, syntax=syntax).findings()
    )
    assert [f for f in document.findings() if f.code == CODE] == []
    loaded = yaml.safe_load(document.text) if syntax == "yaml" else json.loads(document.text)
    assert loaded["nodes"][0]["data"]["config"]["maxTokens"] == 8192


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_a_short_key_close_to_a_parameter_is_renamed_only_after_review(syntax: str) -> None:
    """`mode` is one letter off `model`, but may be another word: the rename is offered, not
    applied by --fix; `modle`/`temprature` (a slip in a longer name) are."""
    model = "        model: ''\n"
    text = _in(syntax, plant(corpus_workflow(REASON), model, "        mode: ''\n"))
    finding = _one(text, syntax)
    assert finding.message.endswith("did you mean 'model'?")
    assert _titles(finding) == [
        ("Rename 'mode' to 'model'", "unsafe", False),
        ("Remove 'mode'", "unsafe", False),
    ]
    assert typo_of("temprature", "temperature") and typo_of("max_tokens", "maxTokens")
    assert typo_of("MODEL", "model")  # case alone: sure at any length
    assert not typo_of("mode", "model") and not typo_of("text", "next")
