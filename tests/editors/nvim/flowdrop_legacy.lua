-- Headless check of `require('flowdrop').setup()` (editors/nvim/lua/flowdrop.lua) in an old
-- Neovim (Debian 12's 0.7.2), with only the APIs it has. Run by tests/editors/test_neovim_debian.py:
--   FLOWDROP_NVIM_PARAMS=params.json nvim --headless --clean -u flowdrop_legacy.lua FILE
-- params.json: rtp (editors/nvim), timeout_ms, lines (0-based lines the CMP-9 errors must be
-- on), settings (optional, the client's `settings`), out (a JSON file: what was seen).
-- Ends with `OK` on stdout; `cquit 1` with a FAIL: line on stderr otherwise.

vim.cmd('filetype plugin indent on')

local P = vim.json.decode(table.concat(vim.fn.readfile(vim.env.FLOWDROP_NVIM_PARAMS), '\n'))
local T = P.timeout_ms

-- 0.11 renamed it (the old name warns there); 0.7 has only the old one.
local clients_of = vim.lsp.get_clients or vim.lsp.get_active_clients

local function fail(msg)
  io.stderr:write('FAIL: ' .. msg .. '\n')
  for _, client in pairs(clients_of()) do
    vim.lsp.stop_client(client.id)
  end
  vim.cmd('cquit 1')
end

vim.opt.runtimepath:append(P.rtp)
require('flowdrop').setup({ settings = P.settings })

-- `-u` runs this before the file on the command line is read: the checks wait for VimEnter.
local bufnr

local function errors()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.code == 'CMP-9' then
      table.insert(found, d)
    end
  end
  return found
end

local function run()
  bufnr = vim.api.nvim_get_current_buf()
  if not vim.wait(T, function()
    return #errors() >= #P.lines
  end, 50) then
    fail(('expected %d CMP-9 diagnostics, got %d'):format(#P.lines, #errors()))
  end

  local seen = { clients = {}, diagnostics = {}, actions = {} }
  for _, client in pairs(clients_of()) do
    table.insert(seen.clients, { name = client.name, root = client.config.root_dir })
  end
  for _, d in ipairs(errors()) do
    table.insert(seen.diagnostics, { line = d.lnum, col = d.col, message = d.message })
  end

  -- The quick fixes of the first error, as `vim.lsp.buf.code_action()` would list them.
  local first = errors()[1]
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = {
      start = { line = first.lnum, character = first.col },
      ['end'] = { line = first.end_lnum, character = first.end_col },
    },
    -- As vim.lsp.buf.code_action() sends them: 0.7 rebuilds the line's LSP diagnostics (its
    -- user_data.lsp keeps only some fields); 0.11 keeps the diagnostic as the server sent it.
    context = {
      diagnostics = vim.fn.has('nvim-0.11') == 1 and { first.user_data.lsp }
        or vim.lsp.diagnostic.get_line_diagnostics(bufnr, first.lnum),
    },
  }
  local answers = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, T)
  for _, answer in pairs(answers or {}) do
    if answer.err or answer.error then
      seen.action_error = vim.inspect(answer.err or answer.error)
    end
    for _, action in ipairs(answer.result or {}) do
      table.insert(seen.actions, action.title)
    end
  end

  vim.fn.writefile({ vim.json.encode(seen) }, P.out)
  for _, client in pairs(clients_of()) do
    vim.lsp.stop_client(client.id)
  end
  vim.wait(3000, function()
    return #clients_of() == 0
  end, 50)
  io.stdout:write('[nvim] OK\n')
  vim.cmd('qa!')
end

vim.api.nvim_create_autocmd('VimEnter', {
  callback = function()
    local ok, problem = pcall(run)
    if not ok then
      fail(tostring(problem))
    end
  end,
})
