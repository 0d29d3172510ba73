" FlowDrop workflows (*.flowdrop.json, or JSON holding nodes and edges): diagnostics from
" flowdrop-lsp. See autoload/flowdrop.vim.
call ale#linter#Define('json', flowdrop#Linter())
