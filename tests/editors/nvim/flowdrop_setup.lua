-- Headless Neovim check of how the shipped editors/nvim/lsp/flowdrop.lua finds the server, with
-- the config exactly as shipped (no `cmd` override). Run by tests/editors/test_neovim_setup.py:
--   FLOWDROP_NVIM_PARAMS=params.json nvim --headless --clean -u flowdrop_setup.lua FILE
-- params.json: rtp, timeout_ms, optional settings (the client's `settings`), expect =
-- 'missing' | 'attach', and
-- - for 'missing': reopen = files (workflows too) opened after FILE; every one must start no
--   client, and vim.notify must have been called exactly once, for all of them together;
-- - for 'attach': lines = the 0-based lines the CMP-9 errors must be on.
-- Every vim.notify call is printed as `notify <level> <message>` (the caller checks the text).
-- Exit code 0 = every check passed; `cquit 1` with a FAIL: line on stderr otherwise.

vim.cmd('filetype plugin indent on') -- first: with -u, filetype detection is off

local P = vim.json.decode(table.concat(vim.fn.readfile(vim.env.FLOWDROP_NVIM_PARAMS), '\n'))
local T = P.timeout_ms

local function out(msg)
  io.stdout:write('[nvim] ' .. msg .. '\n')
end

local notes = {} ---@type { msg: string, level: integer? }[]
vim.notify = function(msg, level)
  table.insert(notes, { msg = msg, level = level })
  out(('notify %s %s'):format(tostring(level), msg:gsub('\n', ' | ')))
end

local function stop_all()
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
  stop_all()
  vim.cmd('cquit 1')
end

local function check(cond, msg)
  if not cond then
    error({ flowdrop_fail = msg }, 0)
  end
end

local setup_ok, setup_err = pcall(function()
  vim.opt.runtimepath:prepend(P.rtp)
  if P.settings then
    vim.lsp.config('flowdrop', { settings = P.settings })
  end
  vim.lsp.enable('flowdrop') -- otherwise the shipped config, nothing overridden
end)
if not setup_ok then
  fail('setup: ' .. tostring(setup_err))
end

local function cmp9_lines(buf)
  local lines = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.source == 'flowdrop' and d.code == 'CMP-9' then
      table.insert(lines, d.lnum)
    end
  end
  table.sort(lines)
  return lines
end

local function expect_missing()
  local first = vim.api.nvim_get_current_buf()
  for _, path in ipairs(P.reopen) do
    vim.cmd.edit(vim.fn.fnameescape(path))
  end
  vim.cmd.buffer(first)
  vim.cmd('edit!') -- FileType again: root_dir runs again
  vim.wait(500) -- a client, had one been started, would be attached by now
  check(#vim.lsp.get_clients({ name = 'flowdrop', _uninitialized = true }) == 0, 'a client was started')
  check(#notes == 1, ('%d vim.notify calls for %d workflow buffers, expected 1'):format(#notes, 1 + #P.reopen))
  check(notes[1].level == vim.log.levels.WARN, 'the notification is not a warning')
end

local function expect_attach()
  local buf = vim.api.nvim_get_current_buf()
  local attached = vim.wait(T, function()
    local c = vim.lsp.get_clients({ bufnr = buf, name = 'flowdrop' })[1]
    return c ~= nil and c.initialized == true
  end, 20)
  check(attached, 'no initialized flowdrop client attached')
  check(vim.wait(T, function()
    return #cmp9_lines(buf) >= #P.lines
  end, 20), ('waited %d ms for %d CMP-9 diagnostics, have %d'):format(T, #P.lines, #cmp9_lines(buf)))
  local lines = cmp9_lines(buf)
  check(vim.deep_equal(lines, P.lines), ('CMP-9 on lines %s, expected %s'):format(vim.inspect(lines), vim.inspect(P.lines)))
  check(#notes == 0, 'vim.notify was called although the server was found')
  out('CMP-9 on lines ' .. table.concat(lines, ','))
end

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  callback = function()
    vim.schedule(function()
      local ok, err = xpcall(function()
        if P.expect == 'missing' then
          expect_missing()
        else
          expect_attach()
        end
        check(stop_all(), 'server did not stop within 5 s')
        out('OK')
      end, function(e)
        if type(e) == 'table' and e.flowdrop_fail then
          return e.flowdrop_fail
        end
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
