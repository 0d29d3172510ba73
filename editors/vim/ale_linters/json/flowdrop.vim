" FlowDrop workflows (*.flowdrop.json): diagnostics from flowdrop-lsp. See autoload/flowdrop.vim.
call ale#linter#Define('json', flowdrop#Linter())
