"""flowdrop-lsp: a language server and CI checker for FlowDrop workflow documents."""

__version__ = "0.1.0"
