-- Headless Neovim end-to-end check of FlowDrop's launch checks and their fixes' applicability,
-- with the shipped editors/nvim/lsp/flowdrop.lua against the real server. Run by
-- tests/editors/test_neovim_launch.py:
--   FLOWDROP_NVIM_PARAMS=params.json nvim --headless --clean -u flowdrop_launch_e2e.lua FILE
-- FILE is one workflow of a site's config/sync; the workspace root is the site's parent.
-- params.json: rtp, server, timeout_ms, out (the JSON written here), settle_ms, mode, and
--   wait_for = {code = count}: wait until FILE's buffer holds at least that many diagnostics of
--     each code, then `settle_ms` more (a later publish would replace them), and record them;
--   mode = 'diagnostics': only that;
--   mode = 'fixes': then, as a user would,
--     1. the code-action menu (`vim.lsp.buf.code_action()`, `vim.ui.select` answered here) with
--        the cursor at `preferred_at` {line, col} (1-based line, 0-based byte column), leaving it
--        unchosen;
--     2. `source.fixAll.flowdrop` (`vim.lsp.buf.code_action({context = {only = …}, apply =
--        true})`), then wait until no diagnostic of code `fix_all_clears` is left;
--     3. the code-action menu at `pick_at`, choosing the entry titled `pick`, then wait until no
--        diagnostic of code `pick_clears` is left.
--   mode = 'repair': `K` at `hover_at` (the floating window's lines), then the code-action menu
--     at `pick_at`, choosing `pick`, and wait until no diagnostic of code `pick_clears` is left.
--     After each step: the buffer's lines and its diagnostics.
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

-- Every publish the buffer gets: how many, and when the last one came.
local publishes, last_publish = 0, 0
vim.api.nvim_create_autocmd('DiagnosticChanged', {
  callback = function()
    publishes = publishes + 1
    last_publish = elapsed()
  end,
})

--- The buffer's diagnostics as Neovim holds them, with the LSP diagnostic it keeps for each
--- (`user_data.lsp`: its `data`, `code`, and the range in the server's terms).
local function diagnostics(buf)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(found, {
      code = d.code,
      source = d.source,
      severity = d.severity,
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      message = d.message,
      lsp_data = lsp.data,
      lsp_range = lsp.range,
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

--- Wait for the wanted diagnostics, then for `settle_ms` without a new publish.
local function wait_for_diagnostics(buf)
  local t0 = elapsed()
  R.arrived = vim.wait(T, function()
    for code, n in pairs(P.wait_for) do
      if count(buf, code) < n then
        return false
      end
    end
    return true
  end, 50)
  R.waited_s = elapsed() - t0
  local settle = (P.settle_ms or 500) / 1000
  vim.wait(T, function()
    return elapsed() - last_publish >= settle
  end, 50)
  R.publishes = publishes
  out(('%s after %.2fs (%d publishes)'):format(R.arrived and 'diagnostics arrived' or 'gave up waiting', R.waited_s, publishes))
end

local function snapshot(buf, what)
  return {
    what = what,
    lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false),
    diagnostics = diagnostics(buf),
    modified = vim.bo[buf].modified,
  }
end

--- `vim.lsp.buf.code_action(opts)` at `at` {line, col} with the menu (`vim.ui.select`) answered
--- here: what it offered (each entry as shown, and the code action behind it), and the entry
--- titled `choose` chosen (nil: none, the menu dismissed).
local function code_action_menu(buf, at, opts, choose)
  vim.api.nvim_set_current_buf(buf)
  vim.api.nvim_win_set_cursor(0, { at.line, at.col })
  local menu = { at = at, called = false, entries = {} }
  local original = vim.ui.select
  vim.ui.select = function(items, select_opts, on_choice)
    menu.called = true
    menu.prompt = select_opts.prompt
    local chosen
    for _, item in ipairs(items) do
      local action = item.action
      table.insert(menu.entries, {
        shown = select_opts.format_item and select_opts.format_item(item) or action.title,
        title = action.title,
        kind = action.kind,
        isPreferred = action.isPreferred,
        has_edit = action.edit ~= nil,
        diagnostic_codes = vim.tbl_map(function(d)
          return d.code
        end, action.diagnostics or {}),
      })
      if choose ~= nil and action.title == choose and chosen == nil then
        chosen = item
      end
    end
    menu.chose = chosen and chosen.action.title or vim.NIL
    on_choice(chosen)
  end
  local tick = vim.api.nvim_buf_get_changedtick(buf)
  vim.lsp.buf.code_action(opts)
  -- Answered when the menu was shown, or (apply = true, one action) when the buffer changed.
  menu.answered = vim.wait(T, function()
    return menu.called or vim.api.nvim_buf_get_changedtick(buf) ~= tick
  end, 20)
  vim.ui.select = original
  menu.changed = vim.api.nvim_buf_get_changedtick(buf) ~= tick
  return menu
end

local function wait_gone(buf, code)
  local t0 = elapsed()
  local gone = vim.wait(T, function()
    return count(buf, code) == 0
  end, 50)
  -- Then the rest of that publish (and any other) settles.
  vim.wait(T, function()
    return elapsed() - last_publish >= (P.settle_ms or 500) / 1000
  end, 50)
  return { gone = gone, seconds = elapsed() - t0 }
end

local function fixes(buf)
  -- 1. The menu at the safe fix's finding: shown, left unchosen.
  R.preferred_menu = code_action_menu(buf, P.preferred_at, {}, nil)
  out(('menu at %d:%d: %d entries'):format(P.preferred_at.line, P.preferred_at.col, #R.preferred_menu.entries))

  -- 2. Fix all: the one `source.fixAll.flowdrop` action, applied without a menu.
  R.fix_all = code_action_menu(buf, P.preferred_at, { context = { only = { 'source.fixAll.flowdrop' } }, apply = true }, nil)
  R.fix_all.wait = wait_gone(buf, P.fix_all_clears)
  R.after_fix_all = snapshot(buf, 'after fix-all')
  out(('fix-all: buffer %s, %s %s'):format(R.fix_all.changed and 'changed' or 'unchanged', P.fix_all_clears, R.fix_all.wait.gone and 'gone' or 'still there'))

  -- 3. The menu at the unsafe fix's finding: the user picks it.
  R.pick_menu = code_action_menu(buf, P.pick_at, {}, P.pick)
  R.pick_menu.wait = wait_gone(buf, P.pick_clears)
  R.after_pick = snapshot(buf, 'after ' .. P.pick)
  out(('menu at %d:%d: %d entries, chose %s; %s %s'):format(P.pick_at.line, P.pick_at.col, #R.pick_menu.entries, tostring(R.pick_menu.chose), P.pick_clears, R.pick_menu.wait.gone and 'gone' or 'still there'))
end

--- The hover a user gets with `K` (Neovim 0.11 maps it to the server's hover in an attached
--- buffer) at `at` {line, col}: the lines of the floating window it opens.
local function hover(buf, at)
  vim.api.nvim_set_current_buf(buf)
  vim.api.nvim_win_set_cursor(0, { at.line, at.col })
  local home = vim.api.nvim_get_current_win()
  local shown = { at = at, lines = {} }
  vim.api.nvim_feedkeys('K', 'x', false)
  shown.opened = vim.wait(T, function()
    for _, win in ipairs(vim.api.nvim_list_wins()) do
      if win ~= home and vim.api.nvim_win_get_config(win).relative ~= '' then
        shown.lines = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false)
        return #shown.lines > 0
      end
    end
    return false
  end, 20)
  -- Close it as a user would (moving the cursor), so that the menu below opens over the buffer.
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if win ~= home and vim.api.nvim_win_get_config(win).relative ~= '' then
      vim.api.nvim_win_close(win, true)
    end
  end
  vim.api.nvim_set_current_win(home)
  return shown
end

--- A misspelt config key, as a user repairs it: `K` on it shows the node type's parameters,
--- then the code-action menu there, choosing the entry titled `pick` (the rename).
local function repair(buf)
  R.hover = hover(buf, P.hover_at)
  out(('hover at %d:%d: %s, %d lines'):format(P.hover_at.line, P.hover_at.col, R.hover.opened and 'shown' or 'nothing', #R.hover.lines))
  R.pick_menu = code_action_menu(buf, P.pick_at, {}, P.pick)
  R.pick_menu.wait = wait_gone(buf, P.pick_clears)
  R.after_pick = snapshot(buf, 'after ' .. P.pick)
  out(('menu at %d:%d: %d entries, chose %s; %s %s'):format(P.pick_at.line, P.pick_at.col, #R.pick_menu.entries, tostring(R.pick_menu.chose), P.pick_clears, R.pick_menu.wait.gone and 'gone' or 'still there'))
end

local function run()
  local buf = vim.api.nvim_get_current_buf()
  attach(buf)
  wait_for_diagnostics(buf)
  R.opening = snapshot(buf, 'as opened')
  if P.mode == 'fixes' then
    fixes(buf)
  elseif P.mode == 'repair' then
    repair(buf)
  elseif P.mode ~= 'diagnostics' then
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
