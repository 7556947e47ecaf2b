-- The form of one task: a buffer listing every field (`Title:`, `Due:`, `Priority:`, `Tags:`,
-- `List:`, `Repeat:`, then the notes below a rule). `:w` saves the fields that changed (`items/update`,
-- and `items/move` for the list), reading the due with the server's grammar; `q` closes it, and a
-- changed form is refused closing like any modified buffer (`:q!` or `q` after `u` discards).
local client = require('taskls.client')
local render = require('taskls.render')

local api = vim.api
local levels = vim.log.levels
local value = client.value

local M = {}

--- The line between the fields and the notes.
M.rule = '--- Notes (every line below) ---'

--- Open forms, by buffer: {id, item, buf}.
M.forms = {}

local priorities = {
  none = 'none', low = 'low', medium = 'medium', high = 'high',
  ['!'] = 'low', ['!!'] = 'medium', ['!!!'] = 'high', ['-'] = 'none', [''] = 'none',
  l = 'low', m = 'medium', med = 'medium', h = 'high', n = 'none',
}

local function list_name(id)
  return client.state.list_names[id] or id
end

--- The lines of the form of `item` (stored text as it is: Neovim shows a control as `^[`). The due
--- is in words the grammar reads back as the same due: the day, or the day and the time on the
--- client's wall clock (`2026-11-27 17:30`), never an instant's offset. The repeat is in the
--- server's words (`every month on the 1st`), empty when the task does not repeat.
function M.lines(item)
  local lines = {
    'Title: ' .. item.title:gsub('\n', ' '),
    'Due: ' .. render.due_phrase(item.due, item.dueLocal),
    'Priority: ' .. (item.priority or 'none'),
    'Tags: ' .. require('taskls.actions').tags_text(item.tags),
    'List: ' .. list_name(item.list),
    'Repeat: ' .. require('taskls.repeating').text(item),
    M.rule,
  }
  local notes = value(item.notes) or ''
  if notes ~= '' then
    for line in (notes .. '\n'):gmatch('(.-)\n') do table.insert(lines, line) end
  end
  return lines
end

--- What the buffer says: {title, due, priority, tags, list, repeat, notes} as text, or nil and
--- the problem (a field line missing).
function M.read(lines)
  local fields = {}
  local names = { 'Title', 'Due', 'Priority', 'Tags', 'List', 'Repeat' }
  for i, name in ipairs(names) do
    local line = lines[i] or ''
    local text = line:match('^' .. name .. ':%s?(.*)$')
    if text == nil then return nil, ('line %d must start with "%s:"'):format(i, name) end
    fields[name:lower()] = text
  end
  if lines[7] ~= M.rule then return nil, 'line 7 must be the notes rule: ' .. M.rule end
  fields.notes = table.concat(vim.list_slice(lines, 8), '\n')
  return fields
end

-- Finds a list by name: exactly, else ignoring case.
local function list_named(name)
  for _, list in ipairs(client.state.lists) do
    if list.name == name then return list.id end
  end
  for _, list in ipairs(client.state.lists) do
    if list.name:lower() == name:lower() then return list.id end
  end
  return nil
end

-- Waits for the answer to one request; returns err, result.
local function request(method, params)
  local done, error_, result = false, nil, nil
  client.request(method, params, function(err, res)
    done, error_, result = true, err, res
    return true
  end)
  vim.wait(10000, function() return done end, 5)
  if not done then return { message = method .. ' did not answer' } end
  return error_, result
end

--- Saves the form of `buf`: only the fields that changed. The due is read with the server's
--- grammar (`^PHRASE`). Returns true when saved; otherwise says why (one line) and the form stays
--- modified, so nothing typed is lost.
function M.save(buf)
  local form = M.forms[buf]
  if form == nil then return false end
  local function fail(message)
    client.notify('not saved: ' .. message, levels.ERROR)
    return false
  end
  local fields, problem = M.read(api.nvim_buf_get_lines(buf, 0, -1, false))
  if fields == nil then return fail(problem) end
  local item = form.item
  local update = {}
  if fields.title ~= item.title then
    if vim.trim(fields.title) == '' then return fail('a task needs a title') end
    update.title = fields.title
  end
  local due = vim.trim(fields.due)
  if due ~= render.due_phrase(item.due, item.dueLocal) then
    if due == '' then
      update.due = vim.NIL
    else
      local parsed, message
      require('taskls.actions').read_due(due, function(d) parsed = d end, function(m) message = m end)
      vim.wait(10000, function() return parsed ~= nil or message ~= nil end, 5)
      if message ~= nil then return fail('Due: ' .. message) end
      if parsed == nil then return fail('Due: the server did not answer') end
      update.due = parsed
    end
  end
  local priority = priorities[vim.trim(fields.priority):lower():gsub('^!(%a)', '%1')]
  if priority == nil then
    return fail('Priority: ' .. fields.priority .. ' is not one of none, low, medium, high (or !, !!, !!!)')
  end
  if priority ~= item.priority then update.priority = priority end
  local tags = require('taskls.actions').read_tags(fields.tags)
  if not vim.deep_equal(tags, value(item.tags) or {}) then update.tags = tags end
  if fields.notes ~= (value(item.notes) or '') then update.notes = fields.notes end
  local repeating = require('taskls.repeating')
  local rule = vim.trim(fields['repeat'])
  if rule ~= repeating.text(item) then
    if rule == '' or repeating.is_off(rule) then
      update['repeat'] = vim.NIL
    else
      -- Read by the grammar as quick entry reads `every …`; an undated task takes the rule's first day.
      local err, answer = request('text/parseItem', { text = rule })
      if err ~= nil then return fail('Repeat: ' .. tostring(value(err.message))) end
      local parsed = value(answer.fields['repeat'])
      if #(value(answer.warnings) or {}) > 0 or parsed == nil or answer.fields.title ~= nil then
        local why = answer.warnings[1] and value(answer.warnings[1].message) or (rule .. ' is not a repeat')
        return fail('Repeat: ' .. tostring(why) .. ' — try every week, every mon,wed, every 3 days after done, or off')
      end
      update['repeat'] = parsed
      if update.due == nil and value(item.due) == nil then update.due = answer.fields.due end
    end
  end
  local list = item.list
  local name = vim.trim(fields.list)
  if name ~= list_name(item.list) then
    list = list_named(name)
    if list == nil then return fail('List: no list named ' .. name) end
  end
  if next(update) ~= nil then
    update.id = item.id
    local err = request('items/update', update)
    if err ~= nil then return fail(repeating.refusal(err, { item }) or tostring(value(err.message))) end
  end
  if list ~= item.list then
    local err = request('items/move', { ids = { item.id }, before = vim.NIL, list = list })
    if err ~= nil then return fail(tostring(value(err.message))) end
  end
  local err, fresh = request('items/get', { id = item.id })
  if err == nil then form.item = fresh end
  if api.nvim_buf_is_valid(buf) then
    api.nvim_buf_set_lines(buf, 0, -1, false, M.lines(form.item))
    vim.bo[buf].modified = false
  end
  return true
end

--- Closes the form in the current window, unless it has unsaved changes (then says so).
function M.close(buf)
  if vim.bo[buf].modified then
    client.notify('the form has changes: :w saves them, :q! discards them', levels.WARN)
    return false
  end
  api.nvim_buf_delete(buf, { force = true })
  return true
end

--- Opens the form of item `id` in a split below; returns a function that answers its buffer once
--- the item has arrived (nil before).
function M.open(id)
  local buf
  local function show(item)
    buf = api.nvim_create_buf(false, false)
    M.forms[buf] = { id = id, item = item, buf = buf }
    pcall(api.nvim_buf_set_name, buf, 'taskls://task/' .. id)
    vim.bo[buf].buftype = 'acwrite'
    vim.bo[buf].bufhidden = 'wipe'
    vim.bo[buf].swapfile = false
    vim.bo[buf].filetype = 'taskls-form'
    api.nvim_buf_set_lines(buf, 0, -1, false, M.lines(item))
    vim.bo[buf].modified = false
    vim.cmd('belowright split')
    api.nvim_win_set_buf(0, buf)
    api.nvim_win_set_cursor(0, { 1, #'Title: ' })
    local group = api.nvim_create_augroup('taskls_form_' .. buf, { clear = true })
    api.nvim_create_autocmd('BufWriteCmd', {
      group = group, buffer = buf,
      callback = function() client.guard(M.save, buf) end,
    })
    api.nvim_create_autocmd('BufWipeout', {
      group = group, buffer = buf,
      callback = function() M.forms[buf] = nil end,
    })
    vim.keymap.set('n', 'q', function() client.guard(M.close, buf) end,
      { buffer = buf, nowait = true, desc = 'taskls: close the form (refused while it has changes)' })
  end
  -- The list names first (the form names the list), then the item in full.
  client.request('lists/list', vim.empty_dict(), function(err, data)
    if err ~= nil then return false end
    client.remember_lists(data)
    client.request('items/get', { id = id }, function(err2, item)
      if err2 ~= nil then return false end
      show(item)
    end)
  end)
  return function() return buf end
end

return M
