-- The one taskls server of this Neovim instance, shared by every pane: starting it, requests
-- with errors turned into one `vim.notify` line, and the routing of its notifications.
local compat = require('taskls.compat')
local config = require('taskls.config')

local M = {}

local state = {
  id = nil, -- the LSP client id
  client = nil,
  initialized = false,
  queue = {}, -- requests made before `initialize` was answered
  views = {}, -- view id -> pane
  early = {}, -- view id -> notifications that arrived before its pane knew the id
  overview_listeners = {},
  server_info = nil,
  exit_code = nil,
  today = nil, -- the server's day ("YYYY-MM-DD", lists/list and lists/changed), when it says
  exiting = false, -- Neovim is quitting: nothing is drawn any more
}
M.state = state

--- Counts for tests and `:checkhealth`: requests by method.
M.stats = { requests = {} }

local levels = vim.log.levels

--- One line at a level, never an error thrown at the user. The message may quote stored names
--- and what was typed: it is shown through `render.displayed`, so no control character reaches
--- the screen raw and a line break shows as `\n`.
function M.notify(message, level)
  vim.notify('taskls: ' .. require('taskls.render').displayed(tostring(message)), level or levels.INFO)
end

--- Runs `fn(...)`; a Lua error in it becomes one notification (its first line, without the
--- traceback).
function M.guard(fn, ...)
  local ok, err = xpcall(fn, debug.traceback, ...)
  if not ok then
    M.notify('internal error: ' .. tostring(err):gsub('\n.*', ''), levels.ERROR)
  end
  return ok
end

-- JSON null arrives as vim.NIL in arrays (and in objects on some versions): read it as nil.
function M.value(v)
  if v == vim.NIL then return nil end
  return v
end

local function dispatch(kind, params)
  if type(params) ~= 'table' or state.exiting then return end
  if kind == 'reminder/fired' then
    M.guard(require('taskls.reminders').on_fired, params)
    return
  end
  if kind == 'lists/changed' then
    M.remember_lists(params)
    for _, listener in pairs(state.overview_listeners) do
      M.guard(listener, params)
    end
    return
  end
  local pane = state.views[params.view]
  if pane == nil then
    local list = state.early[params.view] or {}
    if #list < 1000 then table.insert(list, { kind = kind, params = params }) end
    state.early[params.view] = list
    return
  end
  if kind == 'view/changed' then
    M.guard(pane.on_changed, pane, params)
  else
    M.guard(pane.on_closed, pane, params)
  end
end

local function handler(kind)
  return function(_, params) dispatch(kind, params) end
end

--- Keeps the names of the lists (smart-group panes show which list a row is in).
function M.remember_lists(overview)
  if type(overview) ~= 'table' then return end
  local today = M.value(overview.today)
  if type(today) == 'string' and today ~= state.today then
    local first = state.today == nil
    state.today = today
    -- A new day (midnight in the server's zone): every "tomorrow" is now "today".
    if not first then
      for _, pane in pairs(state.views) do
        M.guard(function()
          local saved = pane:save_cursors()
          pane:redraw_rows()
          pane:restore_cursors(saved)
        end)
      end
    end
  end
  if type(overview.lists) ~= 'table' then return end
  local names, order = {}, {}
  for _, list in ipairs(overview.lists) do
    names[list.id] = list.name
    table.insert(order, list)
  end
  state.list_names, state.lists = names, order
  local smart, smart_names = {}, {}
  for _, smart_list in ipairs(M.value(overview.smartLists) or {}) do
    table.insert(smart, smart_list)
    smart_names[smart_list.id] = smart_list.name
  end
  state.smart_lists = smart
  -- A renamed smart list: its panes take the new name (their buffer names say it).
  for _, pane in pairs(state.views) do
    local name = pane.source.smartList ~= nil and smart_names[pane.source.smartList] or nil
    if name ~= nil and name ~= pane.name then
      pane.name = name
      M.guard(pane.update_name, pane)
    end
  end
end
state.list_names, state.lists, state.smart_lists = {}, {}, {}

--- Registers a pane for a view id, and hands it what arrived for that view before.
function M.register(view, pane)
  state.views[view] = pane
  local early = state.early[view]
  state.early[view] = nil
  for _, message in ipairs(early or {}) do dispatch(message.kind, message.params) end
end

function M.unregister(view)
  state.views[view] = nil
  state.early[view] = nil
end

function M.add_overview_listener(key, fn) state.overview_listeners[key] = fn end
function M.remove_overview_listener(key) state.overview_listeners[key] = nil end

local function describe(err)
  local message = M.value(err.message) or 'request failed'
  return message
end

-- The level of a server error: -32803 (a request that could not be carried out, with a reason
-- a person can act on) is a warning; everything else is an error.
local function level_of(err)
  if err.code == -32803 or err.code == -32801 then return levels.WARN end
  return levels.ERROR
end

--- Whether the server runs.
function M.running()
  return state.client ~= nil and not compat.is_stopped(state.client)
end

local function send(method, params, callback)
  M.stats.requests[method] = (M.stats.requests[method] or 0) + 1
  local ok = compat.request(state.client, method, params, function(err, result)
    if err ~= nil then
      err = type(err) == 'table' and err or { message = tostring(err) }
      err.data = M.value(err.data)
      err.reason = type(err.data) == 'table' and M.value(err.data.reason) or nil
      -- A callback that returns true has handled the error itself.
      if callback == nil or not callback(err, nil) then
        M.notify(describe(err), level_of(err))
      end
      return
    end
    if callback ~= nil then M.guard(callback, nil, M.value(result)) end
  end)
  if not ok then
    M.notify('the server is not running (' .. method .. ')', levels.ERROR)
  end
end

--- Starts the server if it is not running. Returns false (and has said why) when it cannot.
function M.ensure()
  if M.running() then return true end
  local opts = config.options
  local cmd = opts.cmd
  if vim.fn.executable(cmd[1]) ~= 1 then
    M.notify('cannot start the server: ' .. tostring(cmd[1]) .. ' is not executable (set cmd in setup())', levels.ERROR)
    return false
  end
  -- An empty Lua table would be sent as [] (the server wants an object).
  local init_options = vim.empty_dict()
  if opts.store ~= nil then init_options.store = opts.store end
  if opts.time_zone ~= nil then init_options.timeZone = opts.time_zone end
  state.initialized = false
  state.queue = {}
  state.exit_code = nil
  local id, err = compat.start_client({
    name = 'taskls',
    cmd = cmd,
    root_dir = compat.uv.cwd(),
    init_options = init_options,
    handlers = {
      ['view/changed'] = handler('view/changed'),
      ['view/closed'] = handler('view/closed'),
      ['lists/changed'] = handler('lists/changed'),
      ['reminder/fired'] = handler('reminder/fired'),
    },
    on_init = function(_, result)
      state.server_info = type(result) == 'table' and result.serverInfo or nil
      state.initialized = true
      local queue = state.queue
      state.queue = {}
      -- The server's day, for "today"/"tomorrow", watched: `lists/changed` brings the new day at
      -- the client's midnight (and the list names smart-group panes show).
      send('lists/list', { watch = true }, function(err, data)
        if err == nil then M.remember_lists(data) end
        return true
      end)
      -- Reminders fire in this Neovim (option `reminders`): those already due come at once.
      -- A server without reminders (-32601: an older taskls) just has none to show.
      if opts.reminders ~= false then
        send('reminders/watch', { watch = true }, function(err) return err ~= nil and err.code == -32601 end)
      end
      for _, request in ipairs(queue) do send(request[1], request[2], request[3]) end
    end,
    on_exit = function(code, signal, client_id)
      state.exit_code = code
      vim.schedule(function()
        if state.exiting then return end
        -- Only this server's own exit: an old one that stops after a restart started the next must
        -- not forget the new one.
        if state.id == client_id then
          state.client, state.id, state.initialized = nil, nil, false
          if code ~= 0 or (signal or 0) ~= 0 then
            M.notify(('the server exited with code %s%s'):format(tostring(code),
              (signal or 0) ~= 0 and (' (signal ' .. signal .. ')') or ''), levels.ERROR)
          end
          for _, pane in pairs(state.views) do M.guard(pane.on_server_exit, pane) end
        end
      end)
    end,
  })
  if id == nil then
    M.notify('cannot start the server: ' .. tostring(err), levels.ERROR)
    return false
  end
  state.id = id
  state.client = compat.get_client(id)
  return state.client ~= nil
end

--- Sends `method` with `params`; `callback(err, result)`. An error is notified unless the
--- callback returns true for it. Starts the server when needed.
function M.request(method, params, callback)
  if not M.ensure() then
    if callback ~= nil then callback({ message = 'server not running', code = -1 }, nil) end
    return
  end
  if not state.initialized then
    table.insert(state.queue, { method, params, callback })
    return
  end
  send(method, params, callback)
end

-- On quitting (`:q`, `:qa`), before Neovim frees the buffers: stop drawing, then stop the server,
-- so no notification or exit handler writes into a buffer that is going away.
vim.api.nvim_create_autocmd('VimLeavePre', {
  group = vim.api.nvim_create_augroup('taskls_exit', { clear = true }),
  callback = function()
    state.exiting = true
    pcall(M.stop)
  end,
})

--- Stops the server and forgets every view (the panes show the server as stopped).
function M.stop()
  local client = state.client
  state.client, state.id, state.initialized = nil, nil, false
  state.views, state.early, state.queue = {}, {}, {}
  if client ~= nil and not compat.is_stopped(client) then
    compat.stop(client)
    vim.wait(2000, function() return compat.is_stopped(client) end, 10)
    if not compat.is_stopped(client) then compat.stop(client, true) end
  end
end

return M
