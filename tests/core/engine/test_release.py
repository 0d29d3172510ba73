"""A discarded analysis is freed by reference counting, without the cyclic collector.

The engine may freeze its analysis out of the collector's way (`freeze_after_read`); frozen
objects are only ever freed by reference counting, so a re-read or a close must leave no cyclic
garbage behind. These tests run with the collector off and look at what it would find.
"""

from __future__ import annotations

import gc
import sys
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flowdrop_lsp.core.domain.model import Edge, Node
from flowdrop_lsp.core.engine.document import WorkflowDocument
from flowdrop_lsp.core.engine.elements import Element, ElementList
from flowdrop_lsp.core.text.positions import Span

if str(Path(__file__).resolve().parents[3] / "bench") not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
from generate import generate_text

ANALYSIS_TYPES = (WorkflowDocument, ElementList, Element, Node, Edge, Span)
TEXT = generate_text(200)


@contextmanager
def collector_off() -> Iterator[None]:
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def cyclic_analysis_garbage() -> list[str]:
    """The analysis objects only the cyclic collector could free (names of their types)."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found = [type(o).__name__ for o in gc.garbage if isinstance(o, ANALYSIS_TYPES)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    return found


def break_and_mend(document: WorkflowDocument) -> None:
    """A structure-breaking edit and its undo: each makes the next findings() re-read all."""
    document.apply_edit(0, 1, "")
    document.findings()
    document.apply_edit(0, 0, "{")
    document.findings()


def test_dropping_an_unclosed_document_needs_the_collector() -> None:
    # The premise of the tests below (so that they can fail): the analysis is cyclic.
    with collector_off():
        document = WorkflowDocument(TEXT)
        document.findings()
        del document
        assert "Element" in cyclic_analysis_garbage()


def test_a_closed_document_is_freed_by_reference_counting() -> None:
    with collector_off():
        document = WorkflowDocument(TEXT)
        assert document.findings()
        document.close()
        del document
        assert cyclic_analysis_garbage() == []


def test_a_reread_frees_the_previous_analysis_by_reference_counting() -> None:
    with collector_off():
        document = WorkflowDocument(TEXT)
        first = document.findings()
        for _ in range(3):
            break_and_mend(document)
        assert document.stats.full_reread
        assert document.findings() == first
        document.close()
        del document
        assert cyclic_analysis_garbage() == []


def test_freezing_documents_opened_reread_and_closed_many_times_hold_no_memory() -> None:
    """Open, re-read and close a freezing document again and again (as the server does): the
    memory held afterwards stays flat, and nothing is left frozen."""
    gc.collect()
    tracemalloc.start()
    try:
        held = []
        for _ in range(12):
            document = WorkflowDocument(TEXT, freeze_after_read=True)
            document.findings()
            break_and_mend(document)
            document.close()
            del document
            held.append(tracemalloc.get_traced_memory()[0])
    finally:
        tracemalloc.stop()
    assert gc.get_freeze_count() == 0
    # One document's analysis is several MiB; 10 leaked ones would be tens of MiB.
    assert held[-1] - held[2] < 512 * 1024, held


def test_closing_one_frozen_document_leaves_the_others_frozen() -> None:
    """gc.freeze has one permanent generation for the process: closing a document must not hand
    another open document's analysis back to the collector (its collections would walk it
    whole again); the last one closing hands everything back."""
    gc.collect()
    first = WorkflowDocument(TEXT, freeze_after_read=True)
    second = WorkflowDocument(TEXT, freeze_after_read=True)
    second.findings()
    frozen = gc.get_freeze_count()
    assert frozen > 0
    first.close()
    assert gc.get_freeze_count() >= frozen // 2  # the second's analysis is still frozen
    assert gc.get_freeze_count() > 0
    second.close()
    assert gc.get_freeze_count() == 0


def test_a_server_document_frees_its_parse_and_indexes_its_lines_when_settled() -> None:
    """What a whole read leaves for after the first publish (`settle`): the parse, kept until
    then and only for an owner that settles (the server's documents), and the line index."""
    gc.collect()
    tracemalloc.start()
    try:
        document = WorkflowDocument(TEXT, freeze_after_read=True)
        findings = document.findings()
        before = tracemalloc.get_traced_memory()[0]
        document.settle()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert before - after > 64 * 1024, (before, after)  # the values models do not keep
    assert document.buffer._lines is not None
    assert document.findings() == findings
    document.settle()  # nothing left: nothing happens
    document.close()
    assert WorkflowDocument(TEXT)._spent is None  # the CLI's: freed with the read
