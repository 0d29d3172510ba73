" ALE runs a fixed list of linters for json and yaml by default (g:ale_linters): add flowdrop
" to it (and to jsonc, which ALE lints with nothing by default), keeping ALE's defaults or the
" user's own list. The linter only starts for what may be a workflow (see autoload/flowdrop.vim).
if exists('g:loaded_flowdrop_lsp')
    finish
endif

let g:loaded_flowdrop_lsp = 1

let s:ale_defaults = {
\   'json': ['jsonlint', 'spectral', 'vscodejson'],
\   'jsonc': [],
\   'yaml': ['spectral', 'yaml-language-server', 'yamllint'],
\}

if type(get(g:, 'ale_linters', {})) is v:t_dict
    let g:ale_linters = get(g:, 'ale_linters', {})

    for [s:filetype, s:defaults] in items(s:ale_defaults)
        let s:linters = get(g:ale_linters, s:filetype, copy(s:defaults))

        if type(s:linters) is v:t_list && index(s:linters, 'flowdrop') < 0
            let g:ale_linters[s:filetype] = s:linters + ['flowdrop']
        endif
    endfor
endif
