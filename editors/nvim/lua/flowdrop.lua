-- flowdrop-lsp for any Neovim from 0.7.2 (Debian 12's) on: `require('flowdrop').setup()`.
--
-- Neovim 0.11 and later: this is `vim.lsp.config('flowdrop', opts)` and `vim.lsp.enable('flowdrop')`
-- over the shipped lsp/flowdrop.lua, which does the real work there.
--
-- Older Neovim (0.7 to 0.10) has neither `vim.lsp.enable` nor, before 0.8, `vim.lsp.start` and
-- `vim.fs`; so this file starts the server itself, with only what 0.7 has: an autocmd on the
-- JSON/JSONC/YAML buffers, the same test as lsp/flowdrop.lua of what may be a workflow (by name,
-- or the words `nodes` and `edges` in the buffer), one client per project root
-- (`vim.lsp.start_client` and `vim.lsp.buf_attach_client`), and the same server lookup:
-- `settings.flowdrop.server.path`, else `<root>/.venv/bin/flowdrop-lsp`, else PATH; when none
-- is executable, one `vim.notify` saying how to install it.
--
-- opts (all optional): `settings` (`{ flowdrop = { ... } }`, answered on
-- workspace/configuration), `cmd` (a list: the server's command, replacing the lookup).

local M = {}

local ROOT_MARKERS = { 'flowdrop-lsp.toml', 'pyproject.toml', '.git' }
local SERVER = 'flowdrop-lsp'
local VENV_SERVER = '/.venv/bin/flowdrop-lsp'

--- The nearest folder above `path` holding a root marker (`findfile`/`finddir` with `;`: upward),
--- else the file's own folder.
local function root_of(path)
  local folder = vim.fn.fnamemodify(path, ':p:h')
  local best = nil
  for _, marker in ipairs(ROOT_MARKERS) do
    local found = marker == '.git' and vim.fn.finddir(marker, folder .. ';')
      or vim.fn.findfile(marker, folder .. ';')
    if found ~= '' then
      local dir = vim.fn.fnamemodify(found, ':p:h')
      if marker == '.git' then
        dir = vim.fn.fnamemodify(found, ':p:h:h') -- finddir's `:p` ends in the folder itself
      end
      if best == nil or #dir > #best then
        best = dir
      end
    end
  end
  return best or folder
end

local function server_path(settings)
  local server = type(settings) == 'table' and settings.server or nil
  local path = type(server) == 'table' and server.path or nil
  return type(path) == 'string' and path ~= '' and vim.fn.expand(path) or nil
end

--- The executable to start for `root`, else nil and the sentence saying what is missing.
local function find_server(root, settings)
  local configured = server_path(settings)
  if configured then
    if vim.fn.executable(configured) == 1 then
      return configured
    end
    return nil, ('settings.flowdrop.server.path `%s` is not executable'):format(configured)
  end
  if vim.fn.executable(root .. VENV_SERVER) == 1 then
    return root .. VENV_SERVER
  end
  local on_path = vim.fn.exepath(SERVER)
  if on_path ~= '' then
    return on_path
  end
  return nil, ('`%s` is neither on PATH nor in %s/.venv/bin'):format(SERVER, root)
end

local function notify_missing(problem)
  if vim.g.flowdrop_lsp_missing_notified then
    return
  end
  vim.g.flowdrop_lsp_missing_notified = true
  vim.notify(
    ('flowdrop-lsp: %s, so FlowDrop workflows get no diagnostics.\n'
      .. 'Install it: `pipx install /path/to/flowdrop-lsp` (or into the project: '
      .. '`python3 -m venv .venv && .venv/bin/pip install /path/to/flowdrop-lsp`), '
      .. 'then reopen the file.'):format(problem),
    vim.log.levels.WARN
  )
end

--- What lsp/flowdrop.lua judges a possible workflow: by name, or by the words `nodes` and `edges`.
local function may_be_workflow(bufnr, path)
  local base = vim.fn.fnamemodify(path, ':t')
  if vim.bo[bufnr].filetype == 'yaml' then
    if base:match('^flowdrop_workflow%.flowdrop_workflow%..+%.ya?ml$')
      or base:match('^flowdrop_node_type%.flowdrop_node_type%..+%.ya?ml$') then
      return true
    end
  elseif path:match('%.flowdrop%.json$') then
    return true
  end
  return vim.api.nvim_buf_call(bufnr, function()
    return vim.fn.search([[\C\Vnodes]], 'nw') > 0 and vim.fn.search([[\C\Vedges]], 'nw') > 0
  end)
end

local function map_definition(_, bufnr)
  local own = vim.api.nvim_buf_call(bufnr, function()
    return vim.fn.maparg('gd', 'n')
  end)
  if own == '' then
    vim.keymap.set('n', 'gd', vim.lsp.buf.definition, { buffer = bufnr })
  end
end

local clients = {} -- project root -> client id (Neovim before 0.11)

local function attach(bufnr, opts)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' or not may_be_workflow(bufnr, name) then
    return
  end
  local path = vim.fn.fnamemodify(name, ':p')
  local root = root_of(path)
  local id = clients[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client.is_stopped() then
    local settings = opts.settings or { flowdrop = {} }
    local cmd = opts.cmd
    if cmd == nil then
      local server, problem = find_server(root, settings.flowdrop)
      if not server then
        notify_missing(problem)
        return
      end
      cmd = { server, 'serve' }
    end
    id = vim.lsp.start_client({
      name = 'flowdrop',
      cmd = cmd,
      root_dir = root,
      workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
      settings = settings,
      -- Pushed diagnostics only: a client keeping pulled ones apart would show each twice.
      init_options = { pullDiagnostics = false },
      on_attach = map_definition,
    })
    if not id then
      return
    end
    clients[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
end

--- Start flowdrop-lsp for the workflow buffers: `vim.lsp.enable` where Neovim has it (0.11+),
--- else an autocmd of our own. Buffers already open are looked at too.
function M.setup(opts)
  opts = opts or {}
  if vim.lsp.enable then
    if next(opts) ~= nil then
      vim.lsp.config('flowdrop', opts)
    end
    vim.lsp.enable('flowdrop')
    return
  end
  local group = vim.api.nvim_create_augroup('flowdrop.setup', { clear = true })
  local function on_buffer(args)
    attach(args.buf, opts)
  end
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = { 'json', 'jsonc', 'yaml' },
    callback = on_buffer,
  })
  -- A buffer that becomes a workflow later (pasted into, then written) is looked at again.
  vim.api.nvim_create_autocmd('BufWritePost', {
    group = group,
    pattern = { '*.json', '*.jsonc', '*.yml', '*.yaml' },
    callback = function(args)
      for _, client_id in pairs(clients) do
        if vim.lsp.buf_is_attached(args.buf, client_id) then
          return
        end
      end
      attach(args.buf, opts)
    end,
  })
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    local filetype = vim.bo[bufnr].filetype
    if vim.api.nvim_buf_is_loaded(bufnr)
      and (filetype == 'json' or filetype == 'jsonc' or filetype == 'yaml') then
      attach(bufnr, opts)
    end
  end
end

return M
