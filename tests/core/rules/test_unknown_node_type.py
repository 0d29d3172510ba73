"""FD-UNKNOWN-NODE-TYPE (spec R9) where its cases (tests/cases/FD-UNKNOWN-NODE-TYPE: its
locator, its fixes replacing the type with the closest ones the site defines, every token naming
it replaced together) cannot say it: the incremental engine after edits equals a fresh read."""

from __future__ import annotations

from flowdrop_lsp.core.engine.document import WorkflowDocument
from tests.support.config_site import corpus_workflow, site_settings

CODE = "FD-UNKNOWN-NODE-TYPE"


def test_incremental_equals_from_scratch() -> None:
    settings = site_settings()
    document = WorkflowDocument(corpus_workflow("aincient_weather"), settings, syntax="yaml")
    at_type = document.text.index("node_type_id: http_request") + len("node_type_id: http_")
    document.apply_edit(at_type, at_type + len("request"), "reqest")
    label = document.text.index("Geocode")
    document.apply_edit(label, label + len("Geocode"), "Géo 🌍")
    fresh = WorkflowDocument(document.text, settings, syntax="yaml").findings()
    assert document.findings() == fresh
    assert [f.locator for f in fresh if f.code == CODE] == ["node.http_request.1"]
