" FlowDrop workflows in JSONC buffers (Vim gives tsconfig.json and the like this filetype):
" diagnostics from flowdrop-lsp, only for workflows. See autoload/flowdrop.vim.
call ale#linter#Define('jsonc', flowdrop#Linter())
