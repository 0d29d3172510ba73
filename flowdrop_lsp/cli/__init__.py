"""`flowdrop-lsp check` and the console entry point."""
