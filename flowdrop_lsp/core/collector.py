"""The cyclic garbage collector kept out of a large read: the one way the engine and the CLI
pause it (core.engine.document's whole read, core.workspace.checking's site check).

A read allocates millions of objects that it keeps (an analysis, a site's facts) and the
collector would walk them again and again while finding nothing to free: half a large read's
time, measured. What was made is then either frozen (the server's documents: gc.freeze, never
walked again, freed by reference counting) or handed to the oldest generation (freeze then
unfreeze: two list splices), which only a full collection walks, so that whatever cyclic
garbage it holds is still freed."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused(freeze: bool = False) -> Iterator[None]:
    """The collector off for the block (back on after it if it was on); what the block made
    then frozen (`freeze`), or moved to the oldest generation. (Not moved when something is
    frozen already: unfreeze would hand that back to the collector too.)"""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
        if freeze:
            gc.freeze()
        elif gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
