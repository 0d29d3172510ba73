"""`flowdrop-lsp doctor`: the HTTP front FlowDrop's visual editor asks (docs/doctor.md).

A translator, as `lsp/` is for editors: requests in, `flowdrop_lsp.core.doctor.DoctorService`
asked on one worker thread, its plain data answered as the editor's JSON contract. It never
imports `cli/` or `lsp/`, and neither imports it; only `entry.py` knows all three.

`options.py` (the subcommand's options, no aiohttp) is what `entry.py` imports to build its
parser; everything else is imported only when `doctor` runs (`serve.py`)."""
