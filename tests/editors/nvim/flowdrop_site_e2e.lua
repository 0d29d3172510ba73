-- Headless Neovim end-to-end check of the whole site (issue 19) with the shipped
-- editors/nvim/lsp/flowdrop.lua against the real server. Run by tests/editors/test_neovim_site.py:
--   FLOWDROP_NVIM_PARAMS=params.json nvim --headless --clean -u flowdrop_site_e2e.lua FILE
-- FILE is one workflow of a site's config/sync; the workspace root is the site's parent.
-- params.json: rtp, server, timeout_ms, out (the JSON written here), mode, and
--   mode = 'problems': wanted = [{path, code}]: wait until `vim.diagnostic.get()` (all buffers)
--     holds a diagnostic with that code in each of those files (none of them opened), then
--     `vim.diagnostic.setqflist()` as a user would and read the quickfix list back;
--   mode = 'definition': jumps = [{line, col, path, id_line}]: the cursor at (line, col) of FILE
--     (1-based line, 0-based byte column), `gd` (the shipped config's mapping), then wait until the
--     current buffer is `path` and the cursor on `id_line`; back to FILE for the next jump.
-- This script only gathers what Neovim shows and writes it to `out`; the Python test asserts.
-- Exit code 0 with a last line `OK` = the script ran to its end (whatever it saw); `cquit 1`
-- with a FAIL: line on stderr when it could not (no client, a Lua error).

vim.cmd('filetype plugin indent on') -- first: with -u, filetype detection is off

local START = vim.uv.hrtime() / 1e9

local function elapsed()
  return vim.uv.hrtime() / 1e9 - START
end

local function out(msg)
  io.stdout:write(('[nvim] %5.2fs %s\n'):format(elapsed(), msg))
end

local function stop_clients()
  local clients = vim.lsp.get_clients({ name = 'flowdrop' })
  for _, c in ipairs(clients) do
    c:stop()
  end
  return vim.wait(5000, function()
    return vim.iter(clients):all(function(c)
      return c:is_stopped()
    end)
  end, 20)
end

local function fail(msg)
  io.stderr:write('FAIL: ' .. msg .. '\n')
  io.stderr:write('--- :messages\n' .. vim.fn.execute('messages') .. '\n')
  for _, client in ipairs(vim.lsp.get_clients({ name = 'flowdrop' })) do
    client:stop(true)
  end
  vim.wait(2000, function()
    return #vim.lsp.get_clients({ name = 'flowdrop' }) == 0
  end, 20)
  vim.cmd('cquit 1')
end

local P, T
local setup_ok, setup_err = pcall(function()
  local params_file = assert(vim.env.FLOWDROP_NVIM_PARAMS, 'FLOWDROP_NVIM_PARAMS not set')
  local fh = assert(io.open(params_file, 'r'))
  P = vim.json.decode(fh:read('*a'))
  fh:close()
  T = P.timeout_ms or 30000

  -- The shipped config, from the runtimepath; only the command is pointed at the venv's server.
  vim.opt.rtp:prepend(P.rtp)
  assert(vim.uv.fs_stat(P.rtp .. '/lsp/flowdrop.lua'), 'no lsp/flowdrop.lua in ' .. P.rtp)
  vim.lsp.config('flowdrop', { cmd = { P.server, 'serve' } })
  vim.lsp.enable('flowdrop')
end)
if not setup_ok then
  fail('setup: ' .. tostring(setup_err)) -- never sit in headless nvim waiting for input
end

--- A path as the file system has it (symlinks resolved), to compare buffer names with params.
local function real(path)
  if path == nil or path == '' then
    return path
  end
  return vim.uv.fs_realpath(path) or vim.fs.normalize(vim.fn.fnamemodify(path, ':p'))
end

local function buf_path(bufnr)
  return real(vim.api.nvim_buf_get_name(bufnr))
end

--- Every diagnostic Neovim holds (all buffers), as plain data.
local function all_diagnostics()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get()) do
    table.insert(found, {
      file = buf_path(d.bufnr),
      bufnr = d.bufnr,
      code = d.code,
      source = d.source,
      severity = d.severity,
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      message = d.message,
    })
  end
  return found
end

local function has_code(diagnostics, path, code)
  for _, d in ipairs(diagnostics) do
    if d.file == path and d.code == code then
      return true
    end
  end
  return false
end

--- What a buffer is to the user: loaded or not, shown in how many windows.
local function buffer_state(path)
  local bufnr = vim.fn.bufnr(path)
  if bufnr == -1 then
    return { exists = false }
  end
  return {
    exists = true,
    loaded = vim.api.nvim_buf_is_loaded(bufnr),
    listed = vim.bo[bufnr].buflisted,
    windows = #vim.fn.win_findbuf(bufnr),
  }
end

local R = { opened = buf_path(vim.api.nvim_get_current_buf()) }

local function attach(buf)
  local ok = vim.wait(T, function()
    local c = vim.lsp.get_clients({ bufnr = buf, name = 'flowdrop' })[1]
    return c ~= nil and c.initialized == true
  end, 20)
  if not ok then
    error('no initialized flowdrop client attached to ' .. vim.api.nvim_buf_get_name(buf), 0)
  end
  local client = vim.lsp.get_clients({ bufnr = buf, name = 'flowdrop' })[1]
  R.client = {
    cmd = client.config.cmd[1],
    encoding = client.offset_encoding,
    root_dir = real(client.config.root_dir),
    workspace_folders = vim.tbl_map(function(f)
      return real(vim.uri_to_fname(f.uri))
    end, client.workspace_folders or {}),
    filetype = vim.bo[buf].filetype,
  }
  out(('attached: encoding %s, root %s'):format(client.offset_encoding, tostring(client.config.root_dir)))
  return client
end

local function problems()
  local wanted = P.wanted
  local wanted_paths = vim.tbl_map(function(w)
    return real(w.path)
  end, wanted)
  local function all_there(diagnostics)
    for i, w in ipairs(wanted) do
      if not has_code(diagnostics, wanted_paths[i], w.code) then
        return false
      end
    end
    return true
  end
  local t0 = elapsed()
  local arrived = vim.wait(T, function()
    return all_there(all_diagnostics())
  end, 50)
  R.waited_s = elapsed() - t0
  R.arrived = arrived
  -- How each wanted file stood when its diagnostics arrived: the user never opened it.
  R.states = {}
  for i, _ in ipairs(wanted) do
    R.states[wanted_paths[i]] = buffer_state(wanted_paths[i])
  end
  out(('%s after %.2fs'):format(arrived and 'diagnostics arrived' or 'gave up waiting', R.waited_s))
  R.diagnostics = all_diagnostics()

  -- What the user does to see them all: the quickfix list (`:lua vim.diagnostic.setqflist()`).
  vim.diagnostic.setqflist()
  R.quickfix_title = vim.fn.getqflist({ title = 0 }).title
  R.quickfix = {}
  for _, item in ipairs(vim.fn.getqflist()) do
    table.insert(R.quickfix, {
      file = buf_path(item.bufnr),
      lnum = item.lnum,
      col = item.col,
      end_lnum = item.end_lnum,
      end_col = item.end_col,
      type = item.type,
      text = item.text,
    })
  end
  out(('quickfix list %q: %d entries'):format(R.quickfix_title, #R.quickfix))
  R.states_after_quickfix = {}
  for _, path in ipairs(wanted_paths) do
    R.states_after_quickfix[path] = buffer_state(path)
  end
end

local function definition(client, home)
  R.jumps = {}
  for _, jump in ipairs(P.jumps) do
    vim.api.nvim_set_current_buf(home)
    vim.api.nvim_win_set_cursor(0, { jump.line, jump.col })
    local target = real(jump.path)
    local record = { from = { line = jump.line, col = jump.col } }
    table.insert(R.jumps, record)
    -- The server may still be reading the site: ask until it answers with a location (a user
    -- would press `gd` again), then do what the user does.
    local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
    local t0 = elapsed()
    record.attempts = 0
    local located = false
    while true do
      record.attempts = record.attempts + 1
      local resp = client:request_sync('textDocument/definition', params, T, home)
      record.response = resp and (resp.err and { error = resp.err } or { result = resp.result or vim.NIL }) or { error = 'timeout' }
      local result = resp and resp.result
      located = type(result) == 'table' and next(result) ~= nil
      if located or elapsed() - t0 > T / 1000 then
        break
      end
      vim.wait(200)
    end
    record.answered_s = elapsed() - t0
    if not located then
      record.jumped = false
      out(('no location from %d:%d within %d ms: %s'):format(jump.line, jump.col, T, vim.inspect(record.response)))
      break -- the next jumps would wait as long for nothing
    end
    -- What the user presses: `gd`, which the shipped config maps in the buffer (stock Neovim
    -- 0.11 maps no key to go to definition but `<C-]>`).
    record.gd_mapping = vim.fn.maparg('gd', 'n', false, true).desc or vim.NIL
    vim.api.nvim_feedkeys('gd', 'x', false)
    local jumped = vim.wait(T, function()
      return buf_path(vim.api.nvim_get_current_buf()) == target and vim.api.nvim_win_get_cursor(0)[1] == jump.id_line
    end, 20)
    local cursor = vim.api.nvim_win_get_cursor(0)
    record.jumped = jumped
    record.file = buf_path(vim.api.nvim_get_current_buf())
    record.cursor = { line = cursor[1], col = cursor[2] }
    record.line_text = vim.api.nvim_get_current_line()
    record.seconds = elapsed() - t0
    out(('definition from %d:%d -> %s:%d:%d (%s)'):format(jump.line, jump.col, vim.fs.basename(record.file or ''), cursor[1], cursor[2], jumped and 'as expected' or 'not where expected'))
  end
end

local function run()
  local buf = vim.api.nvim_get_current_buf()
  local client = attach(buf)
  if P.mode == 'problems' then
    problems()
  elseif P.mode == 'definition' then
    definition(client, buf)
  else
    error('unknown mode ' .. tostring(P.mode), 0)
  end
  R.messages = vim.fn.execute('messages')
  local fh = assert(io.open(P.out, 'w'))
  fh:write(vim.json.encode(R))
  fh:close()
  if not stop_clients() then
    error('server did not stop within 5 s', 0)
  end
  out('OK')
end

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  callback = function()
    vim.schedule(function()
      local ok, err = xpcall(run, function(e)
        return debug.traceback(tostring(e), 2)
      end)
      if ok then
        vim.cmd('qall!')
      else
        fail(err)
      end
    end)
  end,
})
