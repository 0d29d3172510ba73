"""RT-GATE-8's fix as operations: the stored choice cleared to `''` (`updateNodeConfig`), written
in place in JSON and Drupal YAML; destructive, as the author's choice is gone."""

from __future__ import annotations

import json

import pytest

from flowdrop_lsp.core.operations import Update
from flowdrop_lsp.core.rules.confirmation_choice import EXAMPLE_HTTP_REQUEST
from tests.support.config_site import site_settings
from tests.support.operation_cases import one_node_yaml, round_trip

CODE = "RT-GATE-8"
TITLE = "Defer to the confirmation policy"


def fetch_json(choice: str) -> str:
    config = {"url": "https://example.com/天気", "requiresConfirmation": choice}
    node = {"id": "fetch", "type": "http_request", "data": {"label": "Fetch", "config": config}}
    return json.dumps({"nodes": [node], "edges": []}, indent=2, ensure_ascii=False)


def fetch_yaml(choice_token: str) -> str:
    return one_node_yaml(
        "fetch",
        "http_request",
        "Fetch",
        f"        url: 'https://example.com/天気'\n        requiresConfirmation: {choice_token}\n",
    )


CASES = {
    "json": (fetch_json("waive"), "json", '"waive"', '""'),
    "yaml": (fetch_yaml("waive"), "yaml", "waive\n", "''\n"),
    "yaml-double-quoted": (fetch_yaml('"waive"'), "yaml", '"waive"', '""'),
}


@pytest.mark.parametrize("case", CASES)
def test_the_choice_is_cleared(case: str) -> None:
    text, syntax, before, after = CASES[case]
    settings = site_settings(http_request=EXAMPLE_HTTP_REQUEST)
    fix, fixed = round_trip(text, syntax, CODE, TITLE, settings)
    assert fix.preferred and fix.is_safe
    assert fix.destructive == "the stored choice 'waive' is cleared"
    (op,) = fix.operations
    assert isinstance(op, Update)
    assert (op.scope, op.patch, op.unset) == ("config", {"requiresConfirmation": ""}, ())
    assert fixed == text.replace(before, after)
