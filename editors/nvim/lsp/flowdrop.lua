-- flowdrop-lsp for Neovim >= 0.11: diagnostics and quick fixes for FlowDrop workflows.
--
-- Put `editors/nvim` on 'runtimepath' (or copy this file to ~/.config/nvim/lsp/flowdrop.lua),
-- then `vim.lsp.enable('flowdrop')`. Override any field with `vim.lsp.config('flowdrop', {...})`.
--
-- The server is started only for workflow files: JSON/JSONC buffers whose name ends in
-- `.flowdrop.json`, YAML buffers named like Drupal's config entities
-- (`flowdrop_workflow.flowdrop_workflow.<id>.yml` or `.yaml`, e.g. in config/sync/), or
-- buffers of those filetypes matching a glob in `settings.flowdrop.files`. Other JSON and
-- YAML files (package.json, docker-compose.yml, ...) never see it.

local root_markers = { 'flowdrop-lsp.toml', 'pyproject.toml', '.git' }

--- Extra workflow globs from the user's `settings.flowdrop.files` (like the server's `files`).
--- Globs are matched against the absolute path and against the path relative to the root.
local function matches_user_globs(path, root)
  local ok_cfg, config = pcall(function()
    return vim.lsp.config.flowdrop
  end)
  local files = ok_cfg
    and type(config) == 'table'
    and type(config.settings) == 'table'
    and type(config.settings.flowdrop) == 'table'
    and config.settings.flowdrop.files
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
--- workflows `flowdrop_workflow.flowdrop_workflow.<id>.yml`/`.yaml` (YAML buffers).
local function is_workflow_name(path, filetype)
  if filetype == 'yaml' then
    return vim.fs.basename(path):match('^flowdrop_workflow%.flowdrop_workflow%..+%.ya?ml$') ~= nil
  end
  return path:match('%.flowdrop%.json$') ~= nil
end

---@type vim.lsp.Config
return {
  cmd = { 'flowdrop-lsp', 'serve' },
  filetypes = { 'json', 'jsonc', 'yaml' },
  root_markers = root_markers,
  -- Attach to workflow files only: `on_dir` is called just for them.
  root_dir = function(bufnr, on_dir)
    local name = vim.api.nvim_buf_get_name(bufnr)
    if name == '' then
      return
    end
    local path = vim.fs.normalize(vim.fn.fnamemodify(name, ':p'))
    local root = vim.fs.root(bufnr, root_markers) or vim.fs.dirname(path)
    if is_workflow_name(path, vim.bo[bufnr].filetype) or matches_user_globs(path, root) then
      on_dir(root)
    end
  end,
  -- Neovim keeps pulled and pushed diagnostics in separate namespaces, so a server offering
  -- both shows every problem twice: ask for pushed diagnostics only.
  init_options = { pullDiagnostics = false },
}
