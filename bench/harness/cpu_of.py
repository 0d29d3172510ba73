"""Runs `flowdrop-lsp ARGS…` in this process and prints, as the last line of stderr, the CPU
seconds this process spent (user + system; its workers' are its parent's RUSAGE_CHILDREN):
bench/site_budget.py tells the CLI's own work from its workers'."""

from __future__ import annotations

import atexit
import resource
import sys


def _report() -> None:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    sys.stderr.write(f"\n{usage.ru_utime + usage.ru_stime:.3f}\n")


if __name__ == "__main__":
    atexit.register(_report)
    from flowdrop_lsp.entry import main

    sys.argv[0] = "flowdrop-lsp"
    main()
