-- Headless Neovim end-to-end check of the expression checks (a data mapper's Twig value) with the
-- shipped editors/nvim/lsp/flowdrop.lua against the real server. Run by
-- tests/editors/test_neovim.py (test_neovim_misspelt_twig_filter_on_the_real_site):
--   FLOWDROP_NVIM_PARAMS=params.json nvim --headless --clean -u flowdrop_expression_e2e.lua FILE
-- FILE is a workflow of a copy of the real site's config/sync; the workspace root is the site's
-- parent. params.json: rtp, server, timeout_ms, out (the JSON written here), settle_ms, and
--   wait_for: a code: wait until FILE's buffer holds a diagnostic of it, then `settle_ms`
--     without a new publish, and record the buffer's diagnostics (with the text each covers);
--   hover = {line, col}: the hover there (1-based line, 0-based byte column), asked with
--     `textDocument/hover` (the answer and its range as Neovim holds it) and shown as a user
--     sees it (`vim.lsp.buf.hover()`: the floating window's lines);
--   fix_at = {line, col}: there, as a user would,
--     1. the code-action menu (`vim.lsp.buf.code_action()`, `vim.ui.select` answered here),
--        left unchosen: what it offers;
--     2. the preferred fix (`vim.lsp.buf.code_action({filter = isPreferred, apply = true})`),
--        then wait until no `wait_for` diagnostic is left and `settle_ms` more; the buffer's
--        lines and diagnostics then, and the buffer written (`:write`) for the caller to read.
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

local R = { opened = real(vim.api.nvim_buf_get_name(vim.api.nvim_get_current_buf())) }

-- Every publish: how many, and when the last one came.
local publishes, last_publish = 0, 0
vim.api.nvim_create_autocmd('DiagnosticChanged', {
  callback = function()
    publishes = publishes + 1
    last_publish = elapsed()
  end,
})

--- The buffer's diagnostics as Neovim holds them, each with the buffer text it covers.
local function diagnostics(buf)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local ok, covered = pcall(vim.api.nvim_buf_get_text, buf, d.lnum, d.col, d.end_lnum, d.end_col, {})
    table.insert(found, {
      code = d.code,
      source = d.source,
      severity = d.severity,
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      message = d.message,
      text = ok and table.concat(covered, '\n') or vim.NIL,
    })
  end
  table.sort(found, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
  end)
  return found
end

local function count(buf, code)
  local n = 0
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == code then
      n = n + 1
    end
  end
  return n
end

local function settle()
  local wait = (P.settle_ms or 500) / 1000
  vim.wait(T, function()
    return elapsed() - last_publish >= wait
  end, 50)
end

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
    encoding = client.offset_encoding,
    root_dir = real(client.config.root_dir),
    filetype = vim.bo[buf].filetype,
  }
  out(('attached: encoding %s, root %s'):format(client.offset_encoding, tostring(client.config.root_dir)))
  return client
end

local function floating_window()
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      return win
    end
  end
  return nil
end

local function hover(client, buf)
  local at = P.hover
  vim.api.nvim_set_current_buf(buf)
  vim.api.nvim_win_set_cursor(0, { at.line, at.col })
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  local resp = client:request_sync('textDocument/hover', params, T, buf)
  R.hover = {
    at = at,
    position = params.position,
    response = resp and (resp.err and { error = resp.err } or { result = resp.result or vim.NIL }) or { error = 'timeout' },
  }
  local result = resp and resp.result
  if type(result) == 'table' and result.range then
    -- The range as Neovim reads it: in the negotiated encoding, to byte columns of the buffer.
    local r = result.range
    local line = vim.api.nvim_buf_get_lines(buf, r.start.line, r.start.line + 1, false)[1] or ''
    local s = vim.str_byteindex(line, client.offset_encoding, r.start.character, false)
    local e = vim.str_byteindex(line, client.offset_encoding, r['end'].character, false)
    R.hover.range_text = r.start.line == r['end'].line and line:sub(s + 1, e) or vim.NIL
  end
  -- What the user sees: K (vim.lsp.buf.hover()) opens a floating window.
  vim.lsp.buf.hover()
  local float
  R.hover.window = vim.wait(T, function()
    float = floating_window()
    return float ~= nil
  end, 20)
  if float then
    R.hover.shown = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(float), 0, -1, false)
    vim.api.nvim_win_close(float, true)
  end
  out(('hover at %d:%d: %s'):format(at.line, at.col, R.hover.shown and table.concat(R.hover.shown, ' | ') or 'no window'))
end

--- `vim.lsp.buf.code_action(opts)` at the cursor with the menu (`vim.ui.select`) answered here,
--- left unchosen: what it offered (each entry as shown, and the code action behind it).
local function code_action_menu(buf, opts)
  local menu = { called = false, entries = {} }
  local original = vim.ui.select
  vim.ui.select = function(items, select_opts, on_choice)
    menu.called = true
    menu.prompt = select_opts.prompt
    for _, item in ipairs(items) do
      local action = item.action
      table.insert(menu.entries, {
        shown = select_opts.format_item and select_opts.format_item(item) or action.title,
        title = action.title,
        kind = action.kind or vim.NIL,
        isPreferred = action.isPreferred or false,
        has_edit = action.edit ~= nil,
        diagnostic_codes = vim.tbl_map(function(d)
          return d.code
        end, action.diagnostics or {}),
      })
    end
    on_choice(nil)
  end
  local tick = vim.api.nvim_buf_get_changedtick(buf)
  vim.lsp.buf.code_action(opts)
  menu.answered = vim.wait(T, function()
    return menu.called or vim.api.nvim_buf_get_changedtick(buf) ~= tick
  end, 20)
  vim.ui.select = original
  menu.changed = vim.api.nvim_buf_get_changedtick(buf) ~= tick
  return menu
end

local function fix(buf)
  local at = P.fix_at
  vim.api.nvim_set_current_buf(buf)
  vim.api.nvim_win_set_cursor(0, { at.line, at.col })
  R.menu = code_action_menu(buf, {})
  out(('menu at %d:%d: %d entries'):format(at.line, at.col, #R.menu.entries))

  -- The preferred fix, applied without a menu (what a `gra`-style "apply preferred" mapping does).
  vim.api.nvim_win_set_cursor(0, { at.line, at.col })
  local tick = vim.api.nvim_buf_get_changedtick(buf)
  vim.lsp.buf.code_action({
    filter = function(action)
      return action.isPreferred == true
    end,
    apply = true,
  })
  local t0 = elapsed()
  R.applied = vim.wait(T, function()
    return vim.api.nvim_buf_get_changedtick(buf) ~= tick
  end, 20)
  R.gone = vim.wait(T, function()
    return count(buf, P.wait_for) == 0
  end, 50)
  settle()
  R.fix_seconds = elapsed() - t0
  R.after = { lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false), diagnostics = diagnostics(buf) }
  vim.cmd('silent write')
  R.written = not vim.bo[buf].modified
  out(('preferred fix: buffer %s, %s %s'):format(R.applied and 'changed' or 'unchanged', P.wait_for, R.gone and 'gone' or 'still there'))
end

local function run()
  local buf = vim.api.nvim_get_current_buf()
  local client = attach(buf)
  local t0 = elapsed()
  R.arrived = vim.wait(T, function()
    return count(buf, P.wait_for) > 0
  end, 50)
  R.waited_s = elapsed() - t0
  settle()
  R.publishes = publishes
  R.diagnostics = diagnostics(buf)
  out(('%s after %.2fs (%d publishes)'):format(R.arrived and P.wait_for .. ' arrived' or 'gave up waiting', R.waited_s, publishes))
  for _, d in ipairs(R.diagnostics) do
    out(('diagnostic %s %d:%d-%d:%d %q: %s'):format(d.code, d.lnum, d.col, d.end_lnum, d.end_col, tostring(d.text), d.message))
  end
  if R.arrived then
    if P.hover then
      hover(client, buf)
    end
    if P.fix_at then
      fix(buf)
    end
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
