-- flowdrop-lsp for Neovim >= 0.11: diagnostics and quick fixes for FlowDrop workflows.
--
-- Put `editors/nvim` on 'runtimepath' (or copy this file to ~/.config/nvim/lsp/flowdrop.lua),
-- then `vim.lsp.enable('flowdrop')`. Override any field with `vim.lsp.config('flowdrop', {...})`.
--
-- The server is started for the JSON/JSONC/YAML buffers it could judge a workflow, as
-- `flowdrop-lsp check` does: by name (`*.flowdrop.json`, Drupal's
-- `flowdrop_workflow.flowdrop_workflow.<id>.yml`/`.yaml`, a glob in `settings.flowdrop.files`)
-- or by content. The content test here is a cheap superset of the server's: the buffer holds the
-- words `nodes` and `edges` somewhere (anywhere: an export may put `edges` after a huge `nodes`).
-- The server then decides and stays silent on what is no workflow (a cytoscape graph, ...);
-- package.json, tsconfig.json, docker-compose.yml start nothing. A buffer that becomes a
-- workflow later (pasted into a new file) is looked at again when it is written.
--
-- The server: `settings.flowdrop.server.path` when set (the key VS Code uses; the server ignores
-- it), else `<root>/.venv/bin/flowdrop-lsp` when the project has one (what `make demo` or
-- `python3 -m venv .venv && .venv/bin/pip install …` creates), else `flowdrop-lsp` on PATH
-- (`pipx install …`). When none is executable the client is not started and the user is told
-- once, with `vim.notify`, how to install it: Neovim itself would only write to lsp.log.
-- (A `cmd` table given with `vim.lsp.config` replaces all of this; Neovim then refuses a
-- command that is not executable before this file is asked, and only logs it.)

local root_markers = { 'flowdrop-lsp.toml', 'pyproject.toml', '.git' }
local SERVER = 'flowdrop-lsp'
-- Relative to the project root; the second is a Windows virtual environment.
local PROJECT_VENV_SERVERS = { '.venv/bin/flowdrop-lsp', '.venv/Scripts/flowdrop-lsp.exe' }

--- The user's `settings.flowdrop` table ({} when there is none).
---@param config table? a resolved config; default: `vim.lsp.config.flowdrop`
local function flowdrop_settings(config)
  if config == nil then
    local ok, resolved = pcall(function()
      return vim.lsp.config.flowdrop
    end)
    config = ok and resolved or nil
  end
  local settings = type(config) == 'table' and type(config.settings) == 'table' and config.settings.flowdrop
  return type(settings) == 'table' and settings or {}
end

--- `settings.flowdrop.server.path`, when set.
---@return string?
local function configured_path(settings)
  local server = settings.server
  local path = type(server) == 'table' and server.path or nil
  return type(path) == 'string' and path ~= '' and vim.fs.normalize(path) or nil
end

--- The configured path, else the project's own virtual environment (it matches the checkout
--- being edited), else PATH. nil when none is executable.
---@param root string?
---@param settings table `settings.flowdrop`
---@return string? executable
local function find_server(root, settings)
  local configured = configured_path(settings)
  if configured then
    return vim.fn.executable(configured) == 1 and configured or nil
  end
  if root then
    for _, relative in ipairs(PROJECT_VENV_SERVERS) do
      local candidate = vim.fs.joinpath(root, relative)
      if vim.fn.executable(candidate) == 1 then
        return candidate
      end
    end
  end
  local on_path = vim.fn.exepath(SERVER)
  return on_path ~= '' and on_path or nil
end

--- The checkout this file was loaded from (editors/nvim/lsp/flowdrop.lua inside it), if it still
--- is one: the install hint can then name it. nil when the file was copied elsewhere.
local function checkout_dir()
  local source = debug.getinfo(1, 'S').source
  if source:sub(1, 1) ~= '@' then
    return nil
  end
  local file = vim.fs.normalize(vim.fn.fnamemodify(source:sub(2), ':p'))
  local dir = vim.fs.dirname(vim.fs.dirname(vim.fs.dirname(vim.fs.dirname(file))))
  if vim.uv.fs_stat(vim.fs.joinpath(dir, 'pyproject.toml')) then
    return dir
  end
  return nil
end

--- Tell the user once per session that the server is missing, and how to install it.
---@param problem string what is missing, as a sentence
local function notify_missing(problem)
  if vim.g.flowdrop_lsp_missing_notified then
    return
  end
  vim.g.flowdrop_lsp_missing_notified = true
  local checkout = checkout_dir() or '/path/to/flowdrop-lsp'
  vim.notify(
    ('flowdrop-lsp: %s, so FlowDrop workflows get no diagnostics.\n'
      .. 'Install it: `pipx install %s` (or into the project: '
      .. '`python3 -m venv .venv && .venv/bin/pip install %s`), then reopen the file. '
      .. ':checkhealth vim.lsp shows the client.'):format(problem, checkout, checkout),
    vim.log.levels.WARN
  )
end

--- Whether a server can be started for `root`; tells the user (once) when not.
local function server_available(root)
  local ok, config = pcall(function()
    return vim.lsp.config.flowdrop
  end)
  if ok and type(config) == 'table' and type(config.cmd) == 'table' then
    return true -- the user's own `cmd`: Neovim checks it (see above)
  end
  local settings = flowdrop_settings(ok and config or nil)
  if find_server(root, settings) then
    return true
  end
  local configured = configured_path(settings)
  if configured then
    notify_missing(('settings.flowdrop.server.path `%s` is not executable'):format(configured))
  else
    notify_missing(('`%s` is neither on PATH nor in %s'):format(SERVER, vim.fs.joinpath(root, '.venv/bin')))
  end
  return false
end

--- Extra workflow globs from the user's `settings.flowdrop.files` (like the server's `files`).
--- Globs are matched against the absolute path and against the path relative to the root.
local function matches_user_globs(path, root)
  local files = flowdrop_settings().files
  if type(files) ~= 'table' then
    return false
  end
  local relative = vim.fs.relpath and vim.fs.relpath(root, path) or nil
  for _, glob in ipairs(files) do
    local ok, pattern = pcall(vim.glob.to_lpeg, glob)
    if ok and (pattern:match(path) or (relative and pattern:match(relative))) then
      return true
    end
  end
  return false
end

--- Workflow files by name: `*.flowdrop.json` (JSON/JSONC buffers), and Drupal config
--- workflows `flowdrop_workflow.flowdrop_workflow.<id>.yml`/`.yaml` (YAML buffers); also a
--- site's node types `flowdrop_node_type.flowdrop_node_type.<id>.yml` (their cross-file
--- findings, definition from `executor_plugin`, and the node-type registry kept current).
local function is_workflow_name(path, filetype)
  if filetype == 'yaml' then
    local base = vim.fs.basename(path)
    return base:match('^flowdrop_workflow%.flowdrop_workflow%..+%.ya?ml$') ~= nil
      or base:match('^flowdrop_node_type%.flowdrop_node_type%..+%.ya?ml$') ~= nil
  end
  return path:match('%.flowdrop%.json$') ~= nil
end

--- Whether the buffer holds both words `nodes` and `edges`: every document the server judges a
--- workflow by content does (its top-level keys), so no workflow is missed, and a buffer without
--- them never starts a server. Vim's `search()` in the buffer (flags: no cursor move, wrap
--- around) copies nothing into Lua: the fastest of the ways measured (docs/editors.md).
---@param bufnr integer
local function mentions_nodes_and_edges(bufnr)
  return vim.api.nvim_buf_call(bufnr, function()
    return vim.fn.search([[\C\Vnodes]], 'nw') > 0 and vim.fn.search([[\C\Vedges]], 'nw') > 0
  end)
end

local RECHECK_GROUP = 'flowdrop.recheck'

--- A buffer that is no workflow yet (a new `exported.json`, pasted into) is looked at again each
--- time it is written; once it holds `nodes` and `edges`, Neovim's own `vim.lsp.enable` handler
--- is run for it (as `vim.lsp.enable` does for open buffers), which asks `root_dir` again.
---@param bufnr integer
local function recheck_on_write(bufnr)
  local group = vim.api.nvim_create_augroup(RECHECK_GROUP, { clear = false })
  vim.api.nvim_clear_autocmds({ group = group, buffer = bufnr })
  vim.api.nvim_create_autocmd('BufWritePost', {
    group = group,
    buffer = bufnr,
    callback = function(args)
      if not mentions_nodes_and_edges(args.buf) then
        return false -- keep watching
      end
      pcall(vim.api.nvim_exec_autocmds, 'FileType', { group = 'nvim.lsp.enable', buffer = args.buf })
      return true -- done: delete this autocmd
    end,
  })
end

---@type vim.lsp.Config
return {
  -- A function, so that the executable is looked up in the root of the buffer being opened.
  cmd = function(dispatchers, config)
    local server = find_server(config.root_dir, flowdrop_settings(config)) or SERVER
    return vim.lsp.rpc.start({ server, 'serve' }, dispatchers, {
      cwd = config.cmd_cwd,
      env = config.cmd_env,
      detached = config.detached,
    })
  end,
  filetypes = { 'json', 'jsonc', 'yaml' },
  root_markers = root_markers,
  -- Attach to what may be a workflow only: `on_dir` is called just for those buffers.
  root_dir = function(bufnr, on_dir)
    local name = vim.api.nvim_buf_get_name(bufnr)
    if name == '' then
      return
    end
    local path = vim.fs.normalize(vim.fn.fnamemodify(name, ':p'))
    local root = vim.fs.root(bufnr, root_markers) or vim.fs.dirname(path)
    local candidate = is_workflow_name(path, vim.bo[bufnr].filetype)
      or matches_user_globs(path, root)
      or mentions_nodes_and_edges(bufnr)
    if not candidate then
      recheck_on_write(bufnr)
    elseif server_available(root) then
      on_dir(root)
    end
  end,
  -- Neovim 0.11 maps no key of its own to go to definition (its LSP defaults are `grr`, `grn`,
  -- `gra`, `gri`, `K`, and `<C-]>` through 'tagfunc'; a bare `gd` stays Vim's "local
  -- declaration" search, which finds nothing useful in a workflow): map `gd` in this buffer to
  -- the server's definition, as users expect and docs/editors.md says, unless the user has a
  -- `gd` mapping of their own (global or for this buffer), which is left alone.
  on_attach = function(_, bufnr)
    local own = vim.api.nvim_buf_call(bufnr, function()
      return vim.fn.maparg('gd', 'n')
    end)
    if own == '' then
      vim.keymap.set('n', 'gd', vim.lsp.buf.definition, {
        buffer = bufnr,
        desc = 'flowdrop-lsp: go to definition (called workflow, node type, id)',
      })
    end
  end,
  -- Neovim keeps pulled and pushed diagnostics in separate namespaces, so a server offering
  -- both shows every problem twice: ask for pushed diagnostics only.
  init_options = { pullDiagnostics = false },
}
