"""The pygls language server: a thin layer over flowdrop_lsp.core."""
