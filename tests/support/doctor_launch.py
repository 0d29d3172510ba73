"""`python -m tests.support.doctor_launch doctor …`: the real `flowdrop-lsp` entry point (options,
binding, the lines printed, signals) with the tests' FakeDoctor in place of the core's service."""

from __future__ import annotations

import sys

from flowdrop_lsp import entry
from flowdrop_lsp.doctor import serve
from tests.support.doctor_front import FakeDoctor

if __name__ == "__main__":
    serve.DoctorService = FakeDoctor  # type: ignore[assignment, misc]
    sys.exit(entry.main(sys.argv[1:]))
