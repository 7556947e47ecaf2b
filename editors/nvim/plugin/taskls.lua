-- taskls: the :Tasks commands. Loads nothing else until one is used.
if vim.g.loaded_taskls then return end
vim.g.loaded_taskls = true

local function guard(fn)
  return function(opts)
    local ok, err = xpcall(fn, debug.traceback, opts)
    if not ok then vim.notify('taskls: internal error: ' .. tostring(err):gsub('\n.*', ''), vim.log.levels.ERROR) end
  end
end

local function ensure_highlights() require('taskls.render').define_highlights() end

vim.api.nvim_create_user_command('Tasks', guard(function(opts)
  ensure_highlights()
  if opts.args == '' then
    require('taskls').overview()
  else
    require('taskls').open(opts.args, { new = opts.bang })
  end
end), {
  nargs = '?',
  bang = true,
  complete = function(prefix) return require('taskls').complete(prefix) end,
  desc = 'taskls: the overview, or a list or smart group (! for a second pane)',
})

vim.api.nvim_create_user_command('TasksUndo', guard(function() require('taskls.actions').undo() end), { desc = 'taskls: undo' })
vim.api.nvim_create_user_command('TasksRedo', guard(function() require('taskls.actions').redo() end), { desc = 'taskls: redo' })
vim.api.nvim_create_user_command('TasksRestart', guard(function() require('taskls').restart() end), { desc = 'taskls: restart the server' })
vim.api.nvim_create_user_command('TasksSync', guard(function(opts) require('taskls.overview').sync(opts.bang) end),
  { bang = true, desc = 'taskls: sync the shared lists now (! mirrors a side that looks empty)' })
vim.api.nvim_create_user_command('TasksStop', guard(function() require('taskls').stop() end), { desc = 'taskls: stop the server' })

vim.api.nvim_create_user_command('TasksReminders', guard(function() require('taskls.reminders').list() end),
  { desc = 'taskls: the pending reminders: pick one to snooze, dismiss or mark done' })
vim.api.nvim_create_user_command('TasksSnooze', guard(function(opts) require('taskls.reminders').snooze_picked(opts.args) end),
  { nargs = '?', desc = 'taskls: snooze a pending reminder [minutes, default 10]' })
vim.api.nvim_create_user_command('TasksDismiss', guard(function() require('taskls.reminders').dismiss_picked() end),
  { desc = 'taskls: dismiss a pending reminder' })
vim.api.nvim_create_user_command('TasksSaveFilter', guard(function(opts)
  local pane = require('taskls.pane').get()
  if pane == nil then
    vim.notify('taskls: :TasksSaveFilter saves the filter of a list pane: run it in one', vim.log.levels.WARN)
    return
  end
  require('taskls.smartlists').save(pane, opts.args)
end), { nargs = '?', desc = 'taskls: save the pane\'s filter as a smart list [name]' })

vim.api.nvim_create_autocmd('ColorScheme', { callback = ensure_highlights })
