-- Quick entry: what is typed in a pane (add, cc, F) is read by the server's grammar
-- (text/parseItem, text/parseFilter); on a warning or a refusal nothing is stored, and the prompt
-- opens again with the typed text and says why.
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

-- Records every prompt's default (and its text, in `prompts`), answering from h.answers as the
-- helpers' stub does.
local function record_prompts()
  local defaults, prompts = {}, {}
  vim.ui.input = function(opts, on_confirm)
    table.insert(defaults, opts.default or false)
    table.insert(prompts, opts.prompt)
    on_confirm(table.remove(h.answers, 1))
  end
  return defaults, prompts
end

-- Whether this Neovim's own vim.ui.input answers nil for Esc alone (0.9+), '' for an empty line.
local tells_cancel = vim.fn.has('nvim-0.9') == 1

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

  { 'F #home filters by tag; F then an empty answer clears', function()
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
    h.eq(0, #h.notes, 'no notification')
  end },

  { 'F then Esc (no answer): 0.9+ keeps the filter, 0.7 clears it (its prompt cannot tell Esc from empty)', function()
    local pane = pane_on({ { title = 'Milk', tags = { 'home' } }, { title = 'Bread' } })
    h.answers = { '#home' }
    h.keys('F')
    h.wait(function() return pane.count == 1 end, 'filtered by tag')
    local requests = require('taskls.client').stats.requests
    local before = requests['view/filter']
    h.answers = {}
    h.keys('F')
    if tells_cancel then
      -- Requests are answered in order: once the ping is answered, any view/filter would have been.
      h.request('server/ping')
      h.eq(before, requests['view/filter'], 'no view/filter sent')
      h.eq(1, pane.count, 'the filter stays')
      h.truthy(api.nvim_buf_get_name(pane.buf):find('filter "#home"', 1, true), 'the name keeps the filter')
    else
      h.wait(function() return pane.count == 2 end, 'cleared by nil (Neovim 0.7: Esc or an empty answer)')
      h.eq(nil, api.nvim_buf_get_name(pane.buf):find('filter', 1, true), 'the name drops the filter')
    end
  end },

  { 'a filter with a warning changes nothing: the prompt opens again with it and says why', function()
    local pane = pane_on({ { title = 'Milk', priority = 'high' }, { title = 'Bread' } })
    local requests = require('taskls.client').stats.requests
    local defaults, prompts = record_prompts()
    -- The prompt opens again with the text; the user edits it to what was meant.
    h.answers = { '!high @Groceries', '!high' }
    h.keys('F')
    h.wait(function() return pane.count == 1 end, 'filtered once the text reads whole')
    h.eq({ '', '!high @Groceries' }, defaults, 'the typed text is offered again')
    h.truthy(prompts[2]:find('^Filter %(a filter cannot pick a list.*; \\ keeps a word as text%): $'), 'the warning in the prompt: ' .. prompts[2])
    h.eq(1, requests['view/filter'], 'one filter sent: the one without a warning')
    h.eq({ 'Milk' }, h.titles(pane))
    h.eq(0, #h.notes, 'no notification: ' .. vim.inspect(h.notes))
  end },

  { 'a warning stores nothing, even for the same text again; the prompt shows it and keeps the text', function()
    local pane = pane_on({ 'A' })
    local requests = require('taskls.client').stats.requests
    local creates = requests['items/create']
    local defaults, prompts = record_prompts()
    h.answers = { 'Buy bread @Nowhere', 'Buy bread @Nowhere' }
    h.keys('a')
    h.wait(function() return #defaults == 3 end, 'the prompt again, twice')
    h.eq({ false, 'Buy bread @Nowhere', 'Buy bread @Nowhere' }, defaults, 'the typed text is the new default')
    h.eq('Add: ', prompts[1])
    h.eq('Add (no list named Nowhere; \\ keeps a word as text): ', prompts[2], 'the warning in the prompt')
    h.eq(prompts[2], prompts[3], 'the same text: the same warning')
    h.eq(creates, requests['items/create'], 'nothing created')
    h.eq(0, #h.notes, 'no message to dismiss: ' .. vim.inspect(h.notes))
    -- The review's example: two warnings in one prompt; the same text again stores nothing.
    h.answers = { 'Zed !urgent due:blursday', 'Zed !urgent due:blursday' }
    h.keys('a')
    h.wait(function() return #defaults == 6 end, 'the prompt again')
    h.truthy(prompts[5]:find('!urgent is not a priority', 1, true) and prompts[5]:find('blursday', 1, true),
      'both warnings: ' .. prompts[5])
    h.eq(creates, requests['items/create'], 'nothing created from the same text either')
    h.eq(1, pane.count)
    -- The word escaped and the due fixed, it is stored whole.
    h.answers = { 'Zed \\!urgent ^fri' }
    h.keys('a')
    h.wait(function() return pane.count == 2 end, 'created')
    local got = item(row_titled(pane, 'Zed !urgent').id)
    h.truthy(got.due ~= nil and got.due ~= vim.NIL, 'with its due')
  end },

  { 'cc with a warning changes nothing: the prompt opens again with the text and the warning', function()
    local pane = pane_on({ 'A' })
    local requests = require('taskls.client').stats.requests
    api.nvim_win_set_cursor(0, { 1, 0 })
    local defaults, prompts = record_prompts()
    h.answers = { 'A2 !urgent', 'A2 !urgent' }
    h.keys('cc')
    h.wait(function() return #defaults == 3 end, 'the prompt again')
    h.eq({ 'A', 'A2 !urgent', 'A2 !urgent' }, defaults)
    h.eq('Edit: ', prompts[1])
    h.truthy(prompts[2]:find('^Edit %(!urgent is not a priority'), prompts[2])
    h.eq(0, requests['items/update'] or 0, 'nothing updated')
    h.eq('A', item(pane.rows[1].id).title)
  end },

  { 'a warning quoting a stored name shows it escaped in the prompt; so does a message', function()
    local pane = pane_on({ 'A' })
    h.seed('Evil\27]0;pwn\7L', {})
    local _, prompts = record_prompts()
    h.answers = { 'x @Evil' }
    h.keys('a')
    h.wait(function() return #prompts == 2 end, 'the prompt again')
    h.eq(nil, prompts[2]:find('[%z\1-\31\127]'), 'no control character: ' .. prompts[2])
    h.truthy(prompts[2]:find('Evil\\e]0;pwn\\u{7}L', 1, true), 'the REPL\'s escapes: ' .. prompts[2])
    h.eq(1, pane.count)
    require('taskls.client').notify('the list of "Evil\27]0;pwn\7L\nX" was deleted')
    h.eq('taskls: the list of "Evil\\e]0;pwn\\u{7}L\\nX" was deleted', h.notes[#h.notes].message)
  end },

  { 'a task the server refuses (51 tags) is not lost: the prompt opens again with it and says why', function()
    local pane = pane_on({ 'A' })
    local words = { 'Many' }
    for i = 1, 51 do table.insert(words, '#t' .. i) end
    local text = table.concat(words, ' ')
    local defaults, prompts = record_prompts()
    h.answers = { text }
    h.keys('a')
    h.wait(function() return #defaults == 2 end, 'the prompt again')
    h.eq(text, defaults[2], 'the typed text')
    h.truthy(prompts[2]:find('^Add %(.*tags.*%): $'), 'the refusal in the prompt: ' .. prompts[2])
    h.eq(0, #h.notes, 'no message to dismiss: ' .. vim.inspect(h.notes))
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
