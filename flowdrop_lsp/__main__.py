"""`python -m flowdrop_lsp` is the same as the `flowdrop-lsp` console script."""

from flowdrop_lsp.entry import command_line

command_line()
