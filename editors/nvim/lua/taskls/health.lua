-- :checkhealth taskls: the Neovim version, the server binary and its version, the store.
local compat = require('taskls.compat')
local config = require('taskls.config')

local M = {}

--- The store the server will open, and why, as the server chooses it: `--store DIR` (or
--- `--store=DIR`) in `cmd`, else $TASKLS_STORE, else setup's `store` (initializationOptions),
--- else $XDG_DATA_HOME/taskls (~/.local/share/taskls).
function M.store(cmd, option)
  for i, word in ipairs(cmd) do
    if word == '--store' and cmd[i + 1] ~= nil then return cmd[i + 1], '--store in cmd' end
    local value = word:match('^%-%-store=(.+)$')
    if value ~= nil then return value, '--store in cmd' end
  end
  local env = vim.env.TASKLS_STORE
  if env ~= nil and env ~= '' then return env, '$TASKLS_STORE' end
  if option ~= nil then return option, 'setup store' end
  local data = vim.env.XDG_DATA_HOME
  if data == nil or data == '' then data = (vim.env.HOME or '~') .. '/.local/share' end
  return data .. '/taskls', 'the default'
end

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
  local store, why = M.store(cmd, config.options.store)
  health.info(('time zone: %s'):format(config.options.time_zone
    or ('the server\'s local zone (%s)'):format(vim.env.TZ ~= nil and vim.env.TZ ~= '' and ('TZ=' .. vim.env.TZ) or '/etc/localtime')))
  if vim.fn.isdirectory(store) == 1 then
    health.ok(('store: %s (%s)'):format(store, why))
    if vim.fn.filewritable(store) ~= 2 then health.warn('the store is not writable: ' .. store) end
  else
    health.info(('store: %s (%s; created on first use)'):format(store, why))
  end
  if config.options.reminders == false then
    health.info('reminders: not shown (the reminders option is false)')
  else
    health.info(('reminders: shown as they fire (%d so far; :TasksReminders lists the pending ones)')
      :format(#require('taskls.reminders').fired))
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
