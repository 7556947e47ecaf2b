-- :checkhealth taskls: the Neovim version, the server binary and its version, the store.
local compat = require('taskls.compat')
local config = require('taskls.config')

local M = {}

function M.check()
  local health = compat.health()
  health.start('taskls')
  local v = vim.version()
  health.info(('Neovim %d.%d.%d; LSP client API: %s'):format(v.major, v.minor, v.patch,
    (vim.lsp.config ~= nil and vim.lsp.start ~= nil) and 'vim.lsp.start (0.11+)' or 'vim.lsp.start_client'))
  if vim.fn.has('nvim-0.7') ~= 1 then health.error('taskls needs Neovim 0.7 or later') end
  local cmd = config.options.cmd
  local path = vim.fn.exepath(cmd[1])
  if path == '' then
    health.error(('the server `%s` is not executable'):format(cmd[1]), {
      'Build it: swift build -c release, then put .build/release/taskls on $PATH',
      "or set its path: require('taskls').setup({ cmd = { '/path/to/taskls' } })",
    })
    return
  end
  local output = vim.fn.system({ path, '--version' })
  if vim.v.shell_error ~= 0 then
    health.error(('`%s --version` failed: %s'):format(path, output))
  else
    health.ok(('server: %s (%s)'):format(vim.trim(output), path))
  end
  local store = config.options.store or vim.env.TASKLS_STORE
  if store == nil or store == '' then
    local data = vim.env.XDG_DATA_HOME
    if data == nil or data == '' then data = (vim.env.HOME or '~') .. '/.local/share' end
    store = data .. '/taskls'
  end
  if vim.fn.isdirectory(store) == 1 then
    health.ok('store: ' .. store)
    if vim.fn.filewritable(store) ~= 2 then health.warn('the store is not writable: ' .. store) end
  else
    health.info('store: ' .. store .. ' (created on first use)')
  end
  local client = require('taskls.client')
  if client.running() then
    local info = client.state.server_info or {}
    health.ok(('the server runs (%s %s)'):format(tostring(info.name), tostring(info.version)))
  else
    health.info('the server is not running (it starts with :Tasks)')
  end
end

return M
