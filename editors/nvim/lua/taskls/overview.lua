-- The overview pane: the smart groups, the smart lists and the lists with live counts
-- (`lists/list` with watch, then `lists/changed`); <CR> opens one in a list pane.
local client = require('taskls.client')
local compat = require('taskls.compat')
local config = require('taskls.config')
local render = require('taskls.render')

local api = vim.api
local levels = vim.log.levels
local value = client.value

local M = {}
local ns = api.nvim_create_namespace('taskls_overview')

--- The overview's state: its buffer, its entries (one per line), the last overview received.
M.state = { buf = nil, entries = {}, data = nil }

local function lines_of(data)
  local lines, entries, marks = {}, {}, {}
  local function add(text, entry, group)
    table.insert(lines, text)
    entries[#lines] = entry
    if group then marks[#lines] = group end
  end
  local store = value(data.store)
  if store ~= nil and store.state == 'loading' then
    add(('Loading… %d%%'):format(math.floor((tonumber(value(store.progress)) or 0) * 100 + 0.5)), nil, 'TasklsState')
  elseif store ~= nil and store.state == 'error' then
    add('Error: ' .. render.displayed(tostring(value(store.message) or 'the store cannot be opened')) .. ' — press r to retry', nil, 'TasklsError')
  end
  add('Smart groups', nil, 'TasklsHeader')
  for _, group in ipairs(value(data.groups) or {}) do
    add(('  %-24s %6d'):format(render.displayed(group.name), group.count), { group = group.id, name = group.name })
  end
  add('', nil)
  if store == nil then
    add('Smart lists', nil, 'TasklsHeader')
    local smart_lists = value(data.smartLists) or {}
    for _, smart in ipairs(smart_lists) do
      local name, cells = render.truncate(render.displayed(smart.name), 24)
      add(('  %s%s %6d'):format(name, (' '):rep(24 - cells), tonumber(value(smart.count)) or 0),
        { smartList = smart.id, name = smart.name })
    end
    if #smart_lists == 0 then
      local key = config.options.keymaps.save_filter or ':TasksSaveFilter'
      add(('  None — in a pane, F filters and %s saves the filter as one'):format(key), nil, 'TasklsState')
    end
    add('', nil)
  end
  add('Lists', nil, 'TasklsHeader')
  local lists = value(data.lists) or {}
  local syncs = {}
  for _, state in ipairs(value(data.sync) or {}) do syncs[state.list] = state end
  for _, list in ipairs(lists) do
    local name, cells = render.truncate(render.displayed(list.name), 24)
    local state = syncs[list.id]
    local words, group = M.sync_words(state)
    add(('  %s%s %6s%s'):format(name, (' '):rep(24 - cells), ('%d/%d'):format(list.open, list.total), words and ('  ' .. words) or ''),
      { list = list.id, name = list.name }, group)
    local message = state and value(state.message)
    if message and state.state ~= 'synced' and state.state ~= 'syncing' then
      add('    ' .. render.displayed(tostring(message)), nil, group)
    end
    for _, notice in ipairs(state and value(state.notices) or {}) do add('    ' .. render.displayed(notice), nil, 'TasklsState') end
  end
  if #lists == 0 and store == nil then add('  No lists — press a to create one', nil, 'TasklsState') end
  return lines, entries, marks
end

--- A list's sync state in a few words (the REPL's), with its highlight: `synced 2026-11-26 10:04 UTC`, `syncing…`,
--- `offline, 3 waiting`, `sync error`, `sync waits for S with confirm`; nil for a list that is not shared.
function M.sync_words(state)
  if state == nil then return nil end
  local kind = state.state
  if kind == 'synced' then
    local at = value(state.syncedAt)
    return 'synced' .. (at and (' ' .. at:sub(1, 16):gsub('T', ' ') .. ' UTC') or ''), 'TasklsState'
  elseif kind == 'syncing' then
    local progress = value(state.progress)
    if type(progress) == 'table' and tonumber(progress.total) then
      return ('syncing, %d of %d sent'):format(tonumber(progress.sent) or 0, tonumber(progress.total)), 'TasklsState'
    end
    return 'syncing…', 'TasklsState'
  elseif kind == 'offline' then
    return ('offline, %d waiting'):format(tonumber(state.waiting) or 0), 'TasklsWarning'
  elseif kind == 'confirm' then
    return 'sync waits for :TasksSync!', 'TasklsWarning'
  end
  return 'sync error', 'TasklsError'
end

--- Syncs the shared lists now (`sync/now`; `confirm` mirrors a side that looks empty), and says how each went.
function M.sync(confirm)
  client.notify(confirm and 'syncing (confirmed)…' or 'syncing…', levels.INFO)
  client.request('sync/now', confirm and { confirm = true } or vim.empty_dict(), function(err, result)
    if err ~= nil then return false end
    local names = {}
    for _, list in ipairs(value(M.state.data and M.state.data.lists) or {}) do names[list.id] = list.name end
    local lines = {}
    for _, synced in ipairs(value(result.lists) or {}) do
      local state = synced.sync
      local line = render.displayed(names[state.list] or state.list) .. ': ' .. (M.sync_words(state))
      if state.state == 'synced' then line = line .. (' (%d sent, %d received)'):format(synced.sent, synced.received) end
      table.insert(lines, line)
    end
    client.notify(#lines > 0 and table.concat(lines, '\n') or 'no list is shared', levels.INFO)
  end)
end

-- Writes only the lines that differ from what the buffer shows.
local function render(data)
  local buf = M.state.buf
  if buf == nil or not api.nvim_buf_is_valid(buf) then return end
  M.state.data = data
  local lines, entries, marks = lines_of(data)
  M.state.entries = entries
  local old = api.nvim_buf_get_lines(buf, 0, -1, false)
  vim.bo[buf].modifiable = true
  if #old ~= #lines then
    api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  else
    for i, line in ipairs(lines) do
      if old[i] ~= line then api.nvim_buf_set_lines(buf, i - 1, i, false, { line }) end
    end
  end
  vim.bo[buf].modifiable = false
  api.nvim_buf_clear_namespace(buf, ns, 0, -1)
  for line, group in pairs(marks) do compat.highlight(buf, ns, group, line - 1, 0, -1) end
end

function M.refresh()
  client.request('lists/list', { watch = true }, function(err, data)
    if err ~= nil then return false end
    client.remember_lists(data)
    render(data)
  end)
end

local function entry_under_cursor()
  return M.state.entries[api.nvim_win_get_cursor(0)[1]]
end

--- Opens the entry under the cursor in a list pane.
function M.open_entry(new)
  local entry = entry_under_cursor()
  if entry == nil then return end
  return require('taskls.pane').open(entry, { new = new })
end

function M.add_list(name)
  local function create(text)
    if text == nil or text:match('^%s*$') then return end
    client.request('lists/create', { name = text })
  end
  if name ~= nil then return create(name) end
  vim.ui.input({ prompt = 'New list: ' }, create)
end

function M.rename_list()
  local entry = entry_under_cursor()
  if entry ~= nil and entry.smartList ~= nil then return require('taskls.smartlists').rename(entry) end
  if entry == nil or entry.list == nil then return end
  vim.ui.input({ prompt = 'Name: ', default = entry.name }, function(text)
    if text == nil or text:match('^%s*$') or text == entry.name then return end
    client.request('lists/update', { id = entry.list, name = text })
  end)
end

function M.delete_list()
  local entry = entry_under_cursor()
  if entry ~= nil and entry.smartList ~= nil then return require('taskls.smartlists').delete(entry) end
  if entry == nil or entry.list == nil then return end
  vim.ui.select({ 'Delete "' .. render.displayed(entry.name) .. '" and its tasks', 'Cancel' }, { prompt = 'Delete the list?' }, function(_, index)
    if index == 1 then client.request('lists/delete', { id = entry.list }) end
  end)
end

--- Moves the smart list or the list under the cursor `delta` places (J: 1, K: -1) among its
--- kind (`smartLists/move`, `lists/move`), stopping at either end; the cursor follows it.
function M.move_entry(delta)
  local entry = entry_under_cursor()
  if entry == nil or (entry.smartList == nil and entry.list == nil) then return end
  local kind = entry.smartList ~= nil and 'smartList' or 'list'
  -- Entries by line: `entries` is keyed by line number, with holes.
  local lines = {}
  for line, other in pairs(M.state.entries) do if other[kind] ~= nil then table.insert(lines, line) end end
  table.sort(lines)
  local order, at = {}, nil
  for i, line in ipairs(lines) do
    order[i] = M.state.entries[line][kind]
    if order[i] == entry[kind] then at = i end
  end
  local target = math.max(1, math.min(#order, at + delta))
  if target == at then return end
  -- Before the entry that will follow it: the next but one going down, the previous going up.
  local before = order[target]
  if delta > 0 then before = order[target + 1] end
  local method = kind == 'smartList' and 'smartLists/move' or 'lists/move'
  client.request(method, { ids = { entry[kind] }, before = before or vim.NIL }, function(err)
    if err ~= nil then return false end
    local buf = M.state.buf
    if buf == nil then return end
    for line, other in pairs(M.state.entries) do
      if other[kind] == entry[kind] then
        for _, win in ipairs(vim.fn.win_findbuf(buf)) do pcall(api.nvim_win_set_cursor, win, { line, 0 }) end
      end
    end
  end)
end

--- Shows the overview in the current window (one overview buffer per Neovim).
function M.open()
  local buf = M.state.buf
  if buf == nil or not api.nvim_buf_is_valid(buf) then
    buf = api.nvim_create_buf(false, true)
    M.state.buf = buf
    vim.bo[buf].bufhidden = 'hide'
    vim.bo[buf].swapfile = false
    vim.bo[buf].filetype = 'taskls'
    pcall(api.nvim_buf_set_name, buf, 'taskls://overview')
    vim.bo[buf].modifiable = false
    local keys = config.options.keymaps
    local function map(name, fn, desc)
      local lhs = keys[name]
      if lhs == nil or lhs == false then return end
      vim.keymap.set('n', lhs, function() client.guard(fn) end, { buffer = buf, nowait = true, silent = true, desc = 'taskls: ' .. desc })
    end
    map('open', function() M.open_entry(false) end, 'open the list')
    map('add', function() M.add_list() end, 'create a list')
    map('edit', M.rename_list, 'rename the list or smart list')
    map('edit_alt', M.rename_list, 'rename the list or smart list')
    map('delete', M.delete_list, 'delete the list or smart list')
    map('move_down', function() M.move_entry(vim.v.count1) end, 'move the smart list or list down')
    map('move_up', function() M.move_entry(-vim.v.count1) end, 'move the smart list or list up')
    map('undo', require('taskls.actions').undo, 'undo')
    map('redo', require('taskls.actions').redo, 'redo')
    map('retry', function()
      client.request('store/retry', vim.NIL, function(err)
        if err ~= nil then return false end
        M.refresh()
      end)
    end, 'retry the store')
    map('refresh', M.refresh, 'refresh')
    map('sync', function() M.sync(false) end, 'sync the shared lists now')
    map('close', function() api.nvim_buf_delete(buf, { force = true }) end, 'close')
    client.add_overview_listener('overview', function(data) render(data) end)
    api.nvim_create_autocmd('BufWipeout', {
      buffer = buf,
      callback = function()
        client.remove_overview_listener('overview')
        M.state.buf = nil
        -- The client keeps watching (client.lua): panes need the server's today at midnight.
      end,
    })
  end
  if config.options.open ~= 'edit' then vim.cmd(config.options.open) end
  api.nvim_win_set_buf(0, buf)
  M.refresh()
  return buf
end

return M
