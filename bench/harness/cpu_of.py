"""Runs `flowdrop-lsp ARGS…` in this process as the console script does (`entry.command_line`:
`main`, then `os._exit` for a check) and prints, as the last line of stderr, the CPU seconds
this process spent (user + system; its workers' are its parent's RUSAGE_CHILDREN):
bench/site_budget.py tells the CLI's own work from its workers'."""

from __future__ import annotations

import os
import resource
import sys

if __name__ == "__main__":
    from flowdrop_lsp.entry import main

    sys.argv[0] = "flowdrop-lsp"
    code = main()
    sys.stdout.flush()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    sys.stderr.write(f"\n{usage.ru_utime + usage.ru_stime:.3f}\n")
    sys.stderr.flush()
    os._exit(code)
