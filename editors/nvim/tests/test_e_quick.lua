-- Quick entry: what is typed in a pane (add, cc, /) is read by the server's grammar
-- (text/parseItem, text/parseFilter); warnings and refusals keep the typed text.
local h = require('helpers')
local api = vim.api

-- The server runs in UTC, so its days can be computed here: the day `offset` days from today, or
-- the next `wday` (1 Sunday .. 7 Saturday, never today). Both before and after the action, in case
-- midnight passes in between.
local function utc_day(offset, wday)
  local t = os.time()
  if wday ~= nil then
    offset = (wday - os.date('!*t', t).wday) % 7
    if offset == 0 then offset = 7 end
  end
  return os.date('!%Y-%m-%d', t + offset * 86400)
end

local function pane_on(titles)
  h.setup({ time_zone = 'UTC' })
  local list = h.seed('Groceries', titles)
  local pane = h.open({ list = list, name = 'Groceries' })
  api.nvim_set_current_buf(pane.buf)
  return pane, list
end

local function item(id) return h.request('items/get', { id = id }) end

local function row_titled(pane, title)
  for i, row in ipairs(pane.rows) do
    if row.title == title then return row, pane.window.start + i end
  end
end

-- Records every prompt's default, answering from h.answers as the helpers' stub does.
local function record_prompts()
  local defaults = {}
  vim.ui.input = function(opts, on_confirm)
    table.insert(defaults, opts.default or false)
    on_confirm(table.remove(h.answers, 1))
  end
  return defaults
end

return {
  { 'a reads due, priority and tags through the server: Buy milk ^tomorrow !high #home', function()
    local pane = pane_on({ 'A' })
    local before = utc_day(1)
    h.answers = { 'Buy milk ^tomorrow !high #home' }
    h.keys('a')
    h.wait(function() return pane.count == 2 end, 'the new task')
    local got = item(row_titled(pane, 'Buy milk').id)
    h.truthy(got.due == before or got.due == utc_day(1), 'due tomorrow on the server\'s clock: ' .. tostring(got.due))
    h.eq({ 'Buy milk', 'high', { 'home' } }, { got.title, got.priority, got.tags })
    h.eq(0, #h.notes, 'no notification')
    h.check_buffer(pane)
  end },

  { 'cc reads the line: Call Ann due:fri sets the title and the due', function()
    local pane = pane_on({ 'A', 'B' })
    local row, line = row_titled(pane, 'B')
    api.nvim_win_set_cursor(0, { line, 0 })
    local defaults = record_prompts()
    local before = utc_day(nil, 6)
    h.answers = { 'Call Ann due:fri' }
    h.keys('cc')
    h.wait(function() return row_titled(pane, 'Call Ann') ~= nil end, 'the new title')
    h.eq({ 'B' }, defaults, 'the prompt starts with the title')
    local got = item(row.id)
    h.truthy(got.due == before or got.due == utc_day(nil, 6), 'due on Friday: ' .. tostring(got.due))
    h.eq({ 'A', 'Call Ann' }, h.titles(pane))
    h.check_buffer(pane)
  end },

  { 'cc with @List moves the task to that list; a title with markers is offered escaped', function()
    local pane = pane_on({ 'A', { title = 'Fix #42' } })
    local work = h.seed('Work', {})
    local row, line = row_titled(pane, 'Fix #42')
    api.nvim_win_set_cursor(0, { line, 0 })
    local defaults = record_prompts()
    h.answers = { 'Fix \\#42 soon @Work' }
    h.keys('cc')
    h.wait(function() return pane.count == 1 end, 'moved out of the pane')
    h.eq({ 'Fix \\#42' }, defaults, 'the default reads back as the title')
    local got = item(row.id)
    h.eq({ 'Fix #42 soon', work }, { got.title, got.list })
  end },

  { 'F #home filters by tag; F then an empty answer (or none) clears', function()
    local pane = pane_on({ { title = 'Milk', tags = { 'home' } }, { title = 'Bread' }, { title = '#home on the title' } })
    h.answers = { '#home' }
    h.keys('F')
    h.wait(function() return pane.count == 1 end, 'filtered by tag')
    h.eq({ 'Milk' }, h.titles(pane))
    h.truthy(api.nvim_buf_get_name(pane.buf):find('filter "#home"', 1, true), 'the name says the filter')
    local defaults = record_prompts()
    h.answers = { '' }
    h.keys('F')
    h.wait(function() return pane.count == 3 end, 'cleared by an empty answer')
    h.eq({ '#home' }, defaults, 'the prompt offered the typed filter')
    h.answers = { '\\#home' }
    h.keys('F')
    h.wait(function() return pane.count == 1 and pane.rows[1].title == '#home on the title' end, 'an escaped filter is text')
    h.answers = {}
    h.keys('F')
    h.wait(function() return pane.count == 3 end, 'cleared by nil (Neovim 0.7 for an empty answer)')
    h.eq(nil, api.nvim_buf_get_name(pane.buf):find('filter', 1, true), 'the name drops the filter')
    h.eq(0, #h.notes, 'no notification')
  end },

  { 'a filter warning is shown and the rest still filters', function()
    local pane = pane_on({ { title = 'Milk', priority = 'high' }, { title = 'Bread' } })
    h.answers = { '!high @Groceries' }
    h.keys('F')
    h.wait(function() return pane.count == 1 end, 'filtered by priority')
    h.truthy(h.notified('list', vim.log.levels.WARN), 'the @ warning: ' .. vim.inspect(h.notes))
  end },

  { 'a warning (@Nolist) keeps the text: the prompt opens again with it; resubmitted, it is taken', function()
    local pane, list = pane_on({ 'A' })
    local stats = require('taskls.client').stats.requests
    local creates = stats['items/create']
    local defaults = record_prompts()
    h.answers = { 'Buy bread @Nolist' }
    h.keys('a')
    h.wait(function() return #defaults == 2 end, 'the prompt again')
    h.eq({ false, 'Buy bread @Nolist' }, defaults, 'the typed text is the new default')
    h.truthy(h.notified('Nolist', vim.log.levels.WARN), 'the warning: ' .. vim.inspect(h.notes))
    h.eq(creates, stats['items/create'], 'nothing created')
    h.eq(1, pane.count)
    h.answers = { 'Buy bread @Nolist', 'Buy bread @Nolist' }
    h.keys('a')
    h.wait(function() return pane.count == 2 end, 'created once the warning was seen')
    local got = item(row_titled(pane, 'Buy bread').id)
    h.eq(list, got.list, 'in the pane\'s list')
  end },

  { 'a task the server refuses (51 tags) is not lost: the prompt opens again with it', function()
    local pane = pane_on({ 'A' })
    local words = { 'Many' }
    for i = 1, 51 do table.insert(words, '#t' .. i) end
    local text = table.concat(words, ' ')
    local defaults = record_prompts()
    h.answers = { text }
    h.keys('a')
    h.wait(function() return #defaults == 2 end, 'the prompt again')
    h.eq(text, defaults[2], 'the typed text')
    h.truthy(h.notified('tags'), 'the refusal: ' .. vim.inspect(h.notes))
    h.eq(1, pane.count)
  end },

  { 'in the Today group a task without a due is due on the server\'s today', function()
    h.setup({ time_zone = 'UTC' })
    local list = h.seed('Home', {})
    require('taskls.overview').open()
    h.wait(function() return #require('taskls.client').state.lists == 1 end, 'list names')
    local pane = h.open({ group = 'today' })
    api.nvim_set_current_buf(pane.buf)
    local before = utc_day(0)
    h.answers = { 'Water plants #home' }
    h.keys('a')
    h.wait(function() return pane.count == 1 end, 'the new task')
    local got = item(pane.rows[1].id)
    h.truthy(got.due == before or got.due == utc_day(0), 'due today: ' .. tostring(got.due))
    h.eq({ 'Water plants', list, { 'home' } }, { got.title, got.list, got.tags })
  end },
}
