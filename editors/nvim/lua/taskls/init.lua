-- taskls for Neovim: task lists in panes, kept live by the taskls server.
-- `require('taskls').setup{...}` is optional; `:Tasks` works without it.
local config = require('taskls.config')

local M = {}

--- Sets the options (see `:help taskls-options`). Calling it again restarts nothing: a changed
--- `cmd`, `store` or `time_zone` applies the next time the server starts (`:TasksRestart`).
function M.setup(options)
  config.set(options)
  require('taskls.render').define_highlights()
  return M
end

--- Opens the overview (smart groups, smart lists and lists) in the current window.
function M.overview()
  return require('taskls.overview').open()
end

local groups = { today = 'Today', scheduled = 'Scheduled', overdue = 'Overdue', all = 'All', completed = 'Completed' }

--- Opens a list pane: `source` is {list = ID}, {group = NAME} or {smartList = ID} (optionally
--- with `name`), or a string naming a list, a smart group or a smart list (lists first). `opts.new`
--- opens a second pane even if one exists.
function M.open(source, opts)
  local client = require('taskls.client')
  local pane = require('taskls.pane')
  if type(source) == 'table' then
    if source.name == nil and source.smartList ~= nil then
      local smart = require('taskls.smartlists').find(source.smartList)
      source.name = smart and smart.name
    end
    source.name = source.name or (source.group and groups[source.group]) or client.state.list_names[source.list]
    return pane.open(source, opts)
  end
  local text = tostring(source)
  for id, name in pairs(groups) do
    if text:lower() == id or text == name then return pane.open({ group = id, name = name }, opts) end
  end
  local result
  client.request('lists/list', vim.empty_dict(), function(err, data)
    if err ~= nil then return false end
    client.remember_lists(data)
    for _, list in ipairs(data.lists) do
      if list.name == text or list.id == text then
        result = pane.open({ list = list.id, name = list.name }, opts)
        return
      end
    end
    for _, smart in ipairs(client.value(data.smartLists) or {}) do
      if smart.name == text or smart.id == text then
        result = pane.open({ smartList = smart.id, name = smart.name }, opts)
        return
      end
    end
    client.notify('no list or smart list named "' .. text .. '"', vim.log.levels.WARN)
  end)
  return result
end

--- Names for `:Tasks` completion: the smart groups, and the lists and smart lists seen so far.
function M.complete(prefix)
  local names = {}
  for id in pairs(groups) do table.insert(names, id) end
  local state = require('taskls.client').state
  for _, list in ipairs(state.lists) do table.insert(names, list.name) end
  for _, smart in ipairs(state.smart_lists or {}) do table.insert(names, smart.name) end
  table.sort(names)
  return vim.tbl_filter(function(n) return n:sub(1, #prefix) == prefix end, names)
end

--- Stops the server; panes show that it stopped (r restarts it).
function M.stop()
  require('taskls.client').stop()
  for _, pane in pairs(require('taskls.pane').panes) do pane:on_server_exit() end
end

--- Stops the server and reopens every pane on a new one.
function M.restart()
  M.stop()
  for _, pane in pairs(require('taskls.pane').panes) do pane:open_view() end
  if require('taskls.overview').state.buf ~= nil then require('taskls.overview').refresh() end
end

return M
