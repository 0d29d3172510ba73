"""The registry states each rule module's kind, and a module's checks must be its kind's
(core/rules/registry.py `Registered`): nothing is found by `hasattr`, and a check no caller
would run fails loudly when the registry is built."""

from __future__ import annotations

from types import ModuleType

import pytest

from flowdrop_lsp.core.rules import registry
from flowdrop_lsp.core.rules.registry import CHECKS_OF_KIND, REGISTRY, Registered, RegistryError


def _module(name: str, *checks: str) -> ModuleType:
    module = ModuleType(f"flowdrop_lsp.core.rules.{name}")
    for check in checks:
        setattr(module, check, lambda *args: ())
    return module


def test_a_check_another_kind_provides_fails_loudly() -> None:
    with pytest.raises(RegistryError, match=r"registered as graph but defines \['check_site'\]"):
        Registered(_module("stray", "check", "check_site"), "graph")


def test_a_check_its_kind_needs_missing_fails_loudly() -> None:
    with pytest.raises(
        RegistryError, match=r"registered as consumer but has no \['check_consumer'\]"
    ):
        Registered(_module("half", "check"), "consumer")


def test_a_document_rule_provides_no_check() -> None:
    with pytest.raises(RegistryError, match="registered as document"):
        Registered(_module("reader", "check_edge"), "document")


def test_a_modules_own_helpers_are_its_business() -> None:
    # A per-node check given to `scoped_findings` is no entry point of any kind.
    assert Registered(_module("scoped", "check", "check_node"), "graph").kind == "graph"


def test_each_kind_list_is_made_from_the_declared_kinds() -> None:
    kinds = {entry.module.__name__.rsplit(".", 1)[1]: entry.kind for entry in REGISTRY}
    assert kinds["cmp9"] == "consumer"
    assert kinds["unknown_edge_type"] == "edge"
    assert kinds["site_call"] == "site"
    assert kinds["node_type_key"] == "node_type"
    assert kinds["document"] == kinds["store_door"] == "document"
    for entry in REGISTRY:
        for check in CHECKS_OF_KIND[entry.kind]:
            assert callable(getattr(entry.module, check))
    graph = {rule.code for rule, _check in registry.GRAPH_RULES}
    consumer = {code for code, _check in registry.CONSUMER_RULES}
    assert consumer <= graph
    assert {rule.code for rule, _check in registry.EDGE_RULES} == {"EDGE-5"}
