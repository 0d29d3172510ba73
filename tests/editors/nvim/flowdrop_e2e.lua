-- Headless Neovim end-to-end check of editors/nvim/lsp/flowdrop.lua against the real server.
-- Run by tests/editors/test_neovim.py as:
--   FLOWDROP_NVIM_PARAMS=params.json nvim --headless --clean -u flowdrop_e2e.lua FILE
-- params.json: rtp, server, encoding, expected = [{lnum, col, end_lnum, end_col, text}],
-- title, node_id, new_label, timeout_ms; optional: settings (the client's `settings`), other (a
-- JSON file that must get no client), also (a file that `settings.flowdrop.files` makes a
-- workflow: the client must attach), filetype (of FILE, default json), yaml (FILE is a YAML
-- workflow: instead of decoding JSON, line `fixed.lnum` must read `fixed.line` after the fix,
-- and the buffer is written for the caller to parse), others (JSON/YAML files, of a filetype the
-- config lists, that must get no client), hover ({lnum, col, end_col, contains = [...]}: the
-- hover at that label token — its range in the negotiated encoding, and Neovim's own hover
-- window showing every `contains` string), pasted ({path, text}: a new file, empty when opened,
-- that must get no client until `text` is put in it and it is written; then the client attaches
-- and CMP-9 errors arrive).
-- Exit code 0 = every check passed; `cquit 1` with a FAIL: line on stderr otherwise.

vim.cmd('filetype plugin indent on') -- first: with -u, filetype detection is off

local START = vim.uv.hrtime() / 1e9

local function out(msg)
  io.stdout:write(('[nvim] %5.2fs %s\n'):format(vim.uv.hrtime() / 1e9 - START, msg))
end

local function fail(msg)
  io.stderr:write('FAIL: ' .. msg .. '\n')
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
  T = P.timeout_ms or 15000

  -- The shipped config, from the runtimepath; only the command is pointed at the venv's server.
  vim.opt.rtp:prepend(P.rtp)
  assert(vim.uv.fs_stat(P.rtp .. '/lsp/flowdrop.lua'), 'no lsp/flowdrop.lua in ' .. P.rtp)
  vim.lsp.config('flowdrop', { cmd = { P.server, 'serve' }, settings = P.settings })
  vim.lsp.enable('flowdrop')
end)
if not setup_ok then
  fail('setup: ' .. tostring(setup_err)) -- never sit in headless nvim waiting for input
end

local function check(cond, msg)
  if not cond then
    error({ flowdrop_fail = msg }, 0)
  end
end

local function cmp9(bufnr)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == 'flowdrop' and d.code == 'CMP-9' then
      table.insert(found, d)
    end
  end
  table.sort(found, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
  end)
  return found
end

local function describe(d)
  return ('%d:%d-%d:%d %s'):format(d.lnum, d.col, d.end_lnum, d.end_col, d.message)
end

local function run()
  local buf = vim.api.nvim_get_current_buf()
  local filetype = P.filetype or 'json'
  check(vim.bo[buf].filetype == filetype, 'filetype is "' .. vim.bo[buf].filetype .. '", expected ' .. filetype)

  -- 1. The shipped config attaches to the workflow file.
  check(vim.lsp.config.flowdrop.init_options.pullDiagnostics == false, 'shipped init_options.pullDiagnostics is not false')
  local attached = vim.wait(T, function()
    local c = vim.lsp.get_clients({ bufnr = buf, name = 'flowdrop' })[1]
    return c ~= nil and c.initialized == true
  end, 20)
  check(attached, 'no initialized flowdrop client attached to ' .. vim.api.nvim_buf_get_name(buf))
  local client = vim.lsp.get_clients({ bufnr = buf, name = 'flowdrop' })[1]
  check(client.config.cmd[1] == P.server, 'client runs ' .. tostring(client.config.cmd[1]))
  check(client.offset_encoding == P.encoding, 'negotiated position encoding ' .. tostring(client.offset_encoding) .. ', expected ' .. P.encoding)
  check(client.server_capabilities.diagnosticProvider == nil, 'server offers pull diagnostics despite pullDiagnostics=false')
  out('attached: encoding ' .. client.offset_encoding .. ', root ' .. tostring(client.config.root_dir))

  -- 2. Exactly the expected CMP-9 errors, on the offending label tokens (0-based, byte columns).
  local got = vim.wait(T, function()
    return #cmp9(buf) >= #P.expected
  end, 20)
  check(got, ('waited %d ms for %d CMP-9 diagnostics, have %d'):format(T, #P.expected, #cmp9(buf)))
  vim.wait(300) -- anything else (e.g. a duplicate pulled set) would arrive by now
  local diags = cmp9(buf)
  for _, d in ipairs(diags) do
    out('diagnostic ' .. describe(d))
  end
  check(#diags == #P.expected, ('%d CMP-9 diagnostics, expected %d'):format(#diags, #P.expected))
  local all = vim.diagnostic.get(buf)
  check(#all == #P.expected, ('%d diagnostics in all namespaces, expected %d (duplicates?)'):format(#all, #P.expected))
  for i, e in ipairs(P.expected) do
    local d = diags[i]
    check(
      d.lnum == e.lnum and d.col == e.col and d.end_lnum == e.end_lnum and d.end_col == e.end_col,
      ('diagnostic %d at %d:%d-%d:%d, expected %d:%d-%d:%d'):format(i, d.lnum, d.col, d.end_lnum, d.end_col, e.lnum, e.col, e.end_lnum, e.end_col)
    )
    check(d.severity == vim.diagnostic.severity.ERROR, 'diagnostic ' .. i .. ' is not an error')
    local text = table.concat(vim.api.nvim_buf_get_text(buf, d.lnum, d.col, d.end_lnum, d.end_col, {}), '\n')
    check(text == e.text, ('diagnostic %d covers %q, expected %q'):format(i, text, e.text))
  end

  -- 2b. Hover on a tool's label: the range of the label token, then Neovim's hover window.
  if P.hover then
    local h = P.hover
    local hover_uri = vim.uri_from_bufnr(buf)
    local resp, err = client:request_sync('textDocument/hover', {
      textDocument = { uri = hover_uri },
      position = { line = h.lnum, character = h.col + 1 },
    }, T, buf)
    check(resp ~= nil and resp.err == nil and resp.result ~= nil, 'hover request failed: ' .. vim.inspect(err or resp))
    local r = resp.result.range
    check(r.start.line == h.lnum and r.start.character == h.col and r['end'].character == h.end_col,
      ('hover range %s, expected %d:%d-%d'):format(vim.inspect(r), h.lnum, h.col, h.end_col))
    vim.api.nvim_win_set_cursor(0, { h.lnum + 1, h.col + 1 }) -- (1-based line, byte column)
    vim.lsp.buf.hover()
    local float
    check(vim.wait(T, function()
      for _, win in ipairs(vim.api.nvim_list_wins()) do
        if vim.api.nvim_win_get_config(win).relative ~= '' then
          float = win
          return true
        end
      end
      return false
    end, 20), 'no hover window opened')
    local shown = table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(float), 0, -1, false), '\n')
    for _, wanted in ipairs(h.contains) do
      check(shown:find(wanted, 1, true) ~= nil, ('hover window lacks %q; it shows:\n%s'):format(wanted, shown))
    end
    out('hover window: ' .. shown:gsub('\n', ' | '))
    vim.api.nvim_win_close(float, true)
  end

  -- 3. Code actions at the first diagnostic, with its LSP form as context.
  local lsp_diag = diags[1].user_data and diags[1].user_data.lsp
  check(lsp_diag ~= nil, 'diagnostic has no user_data.lsp')
  local uri = vim.uri_from_bufnr(buf)
  local function code_actions(only)
    local resp, err = client:request_sync('textDocument/codeAction', {
      textDocument = { uri = uri },
      range = lsp_diag.range,
      context = { diagnostics = { lsp_diag }, only = only, triggerKind = 1 },
    }, T, buf)
    check(resp ~= nil, 'codeAction request failed: ' .. tostring(err))
    check(resp.err == nil, 'codeAction error: ' .. vim.inspect(resp.err))
    return resp.result or {}
  end
  local actions = code_actions({ 'quickfix' })
  local preferred = {}
  for _, a in ipairs(actions) do
    out(('action %q kind=%s preferred=%s'):format(a.title, tostring(a.kind), tostring(a.isPreferred)))
    check(a.kind == 'quickfix', 'non-quickfix action ' .. a.title .. ' for only=quickfix')
    if a.isPreferred then
      table.insert(preferred, a)
    end
  end
  check(#preferred == 1, #preferred .. ' preferred quick fixes, expected 1')
  local fix = preferred[1]
  check(fix.title == P.title, ('preferred fix %q, expected %q'):format(fix.title, P.title))
  check(fix.edit ~= nil, 'preferred fix has no edit')

  local fix_all = code_actions({ 'source.fixAll' })
  check(#fix_all == 1 and fix_all[1].kind == 'source.fixAll.flowdrop' and fix_all[1].edit ~= nil,
    'expected one source.fixAll.flowdrop action with an edit, got ' .. vim.inspect(fix_all))

  -- 4. Apply the preferred fix: both CMP-9 errors go (only two tools collided).
  vim.lsp.util.apply_workspace_edit(fix.edit, client.offset_encoding)
  local cleared = vim.wait(T, function()
    return #cmp9(buf) == 0
  end, 20)
  check(cleared, 'CMP-9 diagnostics remain after the fix: ' .. vim.inspect(vim.tbl_map(describe, cmp9(buf))))

  if P.yaml then
    -- No YAML parser in Neovim: check the rewritten line, write the buffer; the caller parses it.
    local line = vim.api.nvim_buf_get_lines(buf, P.fixed.lnum, P.fixed.lnum + 1, false)[1]
    check(line == P.fixed.line, ('line %d reads %q after the fix, expected %q'):format(P.fixed.lnum, tostring(line), P.fixed.line))
    vim.cmd('silent write')
    check(not vim.bo[buf].modified, 'could not write ' .. vim.api.nvim_buf_get_name(buf))
    out(('fixed: line %d is now %q (written)'):format(P.fixed.lnum, line))
  else
    local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
    local ok, doc = pcall(vim.json.decode, text)
    check(ok, 'buffer is not valid JSON after the fix: ' .. tostring(doc))
    local label
    for _, node in ipairs(doc.nodes or {}) do
      if node.id == P.node_id then
        label = node.data and node.data.label
      end
    end
    check(label == P.new_label, ('node %s is labelled %q, expected %q'):format(P.node_id, tostring(label), P.new_label))
    out('fixed: ' .. P.node_id .. ' is now "' .. label .. '"')
  end

  -- 5. A JSON file that is not a workflow file gets no server.
  if P.other then
    vim.cmd.edit(vim.fn.fnameescape(P.other))
    local other = vim.api.nvim_get_current_buf()
    check(other ~= buf and vim.bo[other].filetype == 'json', 'could not open ' .. P.other .. ' as json')
    vim.wait(500)
    check(#vim.lsp.get_clients({ bufnr = other }) == 0, 'a client attached to ' .. P.other)
    out('not attached to ' .. vim.fs.basename(P.other))
  end
  -- 5b. Nor do other files of a filetype the config lists (docker-compose.yml, ...).
  for _, path in ipairs(P.others or {}) do
    vim.cmd.edit(vim.fn.fnameescape(path))
    local b = vim.api.nvim_get_current_buf()
    local ft = vim.bo[b].filetype
    check(b ~= buf and vim.tbl_contains(vim.lsp.config.flowdrop.filetypes, ft),
      ('%s has filetype %q, which the config does not list: the check would prove nothing'):format(path, ft))
    vim.wait(500)
    check(#vim.lsp.get_clients({ bufnr = b }) == 0, 'a client attached to ' .. path .. ' (filetype ' .. ft .. ')')
    out(('not attached to %s (filetype %s)'):format(vim.fs.basename(path), ft))
  end
  -- 5c. A new, empty JSON file gets no client; once a workflow is pasted in and written, it does.
  if P.pasted then
    vim.cmd.edit(vim.fn.fnameescape(P.pasted.path))
    local b = vim.api.nvim_get_current_buf()
    check(vim.bo[b].filetype == 'json', P.pasted.path .. ' is not json')
    vim.wait(500)
    check(#vim.lsp.get_clients({ bufnr = b }) == 0, 'a client attached to the empty ' .. P.pasted.path)
    vim.api.nvim_buf_set_lines(b, 0, -1, false, vim.split(P.pasted.text, '\n', { plain = true }))
    vim.cmd('silent write')
    check(vim.wait(T, function()
      return vim.lsp.get_clients({ bufnr = b, name = 'flowdrop' })[1] ~= nil
    end, 20), 'no client attached to ' .. P.pasted.path .. ' after a workflow was pasted and written')
    check(vim.wait(T, function()
      return #cmp9(b) == 2
    end, 20), ('%d CMP-9 diagnostics in %s, expected 2'):format(#cmp9(b), P.pasted.path))
    out(('attached to %s once written: %d CMP-9'):format(vim.fs.basename(P.pasted.path), #cmp9(b)))
  end
  if P.also then
    vim.cmd.edit(vim.fn.fnameescape(P.also))
    local also = vim.api.nvim_get_current_buf()
    check(vim.wait(T, function()
      return vim.lsp.get_clients({ bufnr = also, name = 'flowdrop' })[1] ~= nil
    end, 20), 'no client attached to ' .. P.also .. ' (settings.flowdrop.files)')
    check(vim.wait(T, function()
      return #cmp9(also) > 0
    end, 20), 'no CMP-9 diagnostics in ' .. P.also)
    out(('attached to %s (files glob): %d CMP-9'):format(vim.fs.basename(P.also), #cmp9(also)))
  end

  -- 6. Stop the server(s) cleanly before quitting.
  local clients = vim.lsp.get_clients({ name = 'flowdrop' })
  for _, c in ipairs(clients) do
    c:stop()
  end
  check(vim.wait(5000, function()
    return vim.iter(clients):all(function(c)
      return c:is_stopped()
    end)
  end, 20), 'server did not stop within 5 s')
  out('OK')
end

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  callback = function()
    vim.schedule(function()
      local ok, err = xpcall(run, function(e)
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
