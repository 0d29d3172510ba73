" Drupal config workflows (flowdrop_workflow.flowdrop_workflow.*.yml): diagnostics from
" flowdrop-lsp. See autoload/flowdrop.vim.
call ale#linter#Define('yaml', flowdrop#Linter())
