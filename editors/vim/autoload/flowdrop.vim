" flowdrop-lsp for Vim 9 + ALE: the helpers of ale_linters/{json,yaml}/flowdrop.vim.
"
" The server runs for the json and yaml buffers it could judge a workflow, as `flowdrop-lsp
" check` does: by name (`*.flowdrop.json`, Drupal's `flowdrop_workflow.flowdrop_workflow.<id>.yml`
" or `.yaml`) or by content. The content test here is a cheap superset of the server's: the
" buffer holds the words `nodes` and `edges` anywhere (an export may put `edges` after a huge
" `nodes`); the server decides and says nothing about the rest. For every other buffer the
" project root is '', and ALE then skips the linter. ALE asks again at each lint, so a new file
" becomes a workflow as soon as one is pasted into it.

" Like Neovim's config: the nearest folder holding one of these is the project root.
let s:root_markers = ['flowdrop-lsp.toml', 'pyproject.toml', '.git']
let s:warned = 0

function! flowdrop#IsWorkflow(buffer) abort
    let l:path = fnamemodify(bufname(a:buffer), ':p')

    if getbufvar(a:buffer, '&filetype') is# 'yaml'
        let l:named = fnamemodify(l:path, ':t') =~# '\v^flowdrop_workflow\.flowdrop_workflow\..+\.ya?ml$'
    else
        let l:named = l:path =~# '\v\.flowdrop\.json$'
    endif

    return l:named || flowdrop#MentionsNodesAndEdges(a:buffer)
endfunction

" Whether the buffer holds both words `nodes` and `edges`: every document the server judges a
" workflow by content does (its top-level keys). match() searches the list of lines in C. ALE
" asks several times per lint (root, executable): the answer is kept for the buffer's
" changedtick, and a yes is kept for good (a workflow being edited stays linted).
function! flowdrop#MentionsNodesAndEdges(buffer) abort
    let l:tick = getbufvar(a:buffer, 'changedtick')
    let l:known = getbufvar(a:buffer, 'flowdrop_sniffed', [-1, 0])

    if l:known[1] || l:known[0] == l:tick
        return l:known[1]
    endif

    let l:lines = getbufline(a:buffer, 1, '$')
    let l:verdict = match(l:lines, '\Cnodes') >= 0 && match(l:lines, '\Cedges') >= 0
    call setbufvar(a:buffer, 'flowdrop_sniffed', [l:tick, l:verdict])

    return l:verdict
endfunction

" The nearest folder above a workflow file holding a root marker (else the file's folder);
" '' for any other buffer.
function! flowdrop#ProjectRoot(buffer) abort
    if !flowdrop#IsWorkflow(a:buffer)
        return ''
    endif

    let l:start = fnamemodify(bufname(a:buffer), ':p:h')
    let l:dir = l:start

    while 1
        for l:marker in s:root_markers
            let l:candidate = l:dir . '/' . l:marker

            if filereadable(l:candidate) || isdirectory(l:candidate)
                return l:dir
            endif
        endfor

        let l:parent = fnamemodify(l:dir, ':h')

        if l:parent is# l:dir
            return l:start
        endif

        let l:dir = l:parent
    endwhile
endfunction

" g:flowdrop_lsp_executable when set, else <root>/.venv/bin/flowdrop-lsp when the project has
" one, else flowdrop-lsp from PATH. ALE skips a linter whose executable is missing without a
" word, so the user is told once here.
function! flowdrop#Executable(buffer) abort
    let l:configured = get(g:, 'flowdrop_lsp_executable', '')
    let l:root = flowdrop#ProjectRoot(a:buffer)

    if !empty(l:configured)
        let l:server = l:configured
    elseif !empty(l:root) && executable(l:root . '/.venv/bin/flowdrop-lsp')
        let l:server = l:root . '/.venv/bin/flowdrop-lsp'
    else
        let l:server = 'flowdrop-lsp'
    endif

    if !empty(l:root) && !executable(l:server) && !s:warned
        let s:warned = 1
        echohl WarningMsg
        if !empty(l:configured)
            let l:problem = 'g:flowdrop_lsp_executable ' . l:configured . ' is not executable'
        else
            let l:problem = 'flowdrop-lsp is neither on PATH nor in ' . l:root . '/.venv/bin'
        endif

        echomsg 'flowdrop-lsp: ' . l:problem . ', so FlowDrop workflows get no diagnostics.'
        \   . ' Install it: pipx install /path/to/flowdrop-lsp (or set'
        \   . ' g:flowdrop_lsp_executable), then reopen the file.'
        echohl None
    endif

    return l:server
endfunction

" The linter definition shared by json and yaml (ALE sends the filetype as the languageId,
" which tells the server how to read the buffer).
function! flowdrop#Linter() abort
    return {
    \   'name': 'flowdrop',
    \   'lsp': 'stdio',
    \   'executable': function('flowdrop#Executable'),
    \   'command': '%e serve',
    \   'project_root': function('flowdrop#ProjectRoot'),
    \}
endfunction
