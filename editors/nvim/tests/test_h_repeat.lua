-- Repeating tasks: the ↻ after the due, x moving a repeating task on (said in one line), X
-- skipping, cr setting and stopping a repeat, cc with a repeat phrase, and the float's repeat,
-- history and alerts. The server runs on a manual clock: Wednesday 2026-11-25 10:00 UTC.
local h = require('helpers')
local api = vim.api

local clock = { '--clock', '2026-11-25T10:00:00Z' }

local function pane_on(fixtures)
  h.setup({ time_zone = 'UTC', args = clock })
  local list = h.seed('Home', fixtures)
  local pane = h.open({ list = list, name = 'Home' })
  api.nvim_set_current_buf(pane.buf)
  return pane, list
end

local function row_titled(pane, title)
  for i, row in ipairs(pane.rows) do
    if row.title == title then return row, pane.window.start + i end
  end
end

local function goto_title(pane, title)
  local _, line = row_titled(pane, title)
  api.nvim_win_set_cursor(0, { h.truthy(line, 'a row titled ' .. title), 0 })
end

local function item(id) return h.request('items/get', { id = id }) end
local function value_of(v) if v == vim.NIL then return nil end return v end

local monthly = { rule = 'FREQ=MONTHLY;BYMONTHDAY=1', from = 'due' }
local after_done = { rule = 'FREQ=DAILY;INTERVAL=3', from = 'completion' }

-- The messages notified since `from` (an index into h.notes), without the `taskls: ` prefix.
local function said(from)
  local lines = {}
  for i = (from or 0) + 1, #h.notes do table.insert(lines, (tostring(h.notes[i].message):gsub('^taskls: ', ''))) end
  return lines
end

return {
  { 'a repeating task shows ↻ after its due; x moves it on and says its next due in the pane\'s words', function()
    local pane = pane_on({
      { title = 'Pay rent', due = '2026-12-01', ['repeat'] = monthly },
      { title = 'Water plants', due = '2026-11-25', ['repeat'] = after_done, priority = 'high' },
      { title = 'Plain', due = '2026-11-26' },
    })
    local lines = h.lines(pane.buf)
    local function pad(text, cells) return text .. (' '):rep(cells - vim.fn.strdisplaywidth(text)) end
    h.eq('  [ ] ' .. pad('Pay rent', 74) .. '  in 6 days ↻', lines[1], 'the mark after the due')
    h.eq('  [ ] ' .. pad('Water plants', 74) .. '  ' .. pad('today ↻', 19) .. '  !!!', lines[2], 'the columns keep their cells')
    h.eq('  [ ] ' .. pad('Plain', 74) .. '  tomorrow', lines[3], 'no mark without a repeat')
    local marks = api.nvim_buf_get_extmarks(pane.buf, require('taskls.pane').namespace, { 0, 0 }, { 0, -1 }, { details = true })
    local marked = {}
    for _, m in ipairs(marks) do marked[m[4].hl_group] = lines[1]:sub(m[3] + 1, m[4].end_col) end
    h.eq('↻', marked.TasklsRepeat, 'the mark has its own highlight')
    h.eq('in 6 days', marked.TasklsDue, 'the due keeps its own')
    goto_title(pane, 'Water plants')
    local before = #h.notes
    h.keys('x')
    h.wait(function() return pane.rows[2].due == '2026-11-28' end, 'the next due of Water plants')
    h.eq({ '"Water plants" repeats (every 3 days after done): next due in 3 days' }, said(before))
    h.eq(false, pane.rows[2].done, 'not done: moved on')
    goto_title(pane, 'Pay rent')
    h.keys('x')
    h.wait(function() return pane.rows[1].due == '2027-01-01' end, 'the next due of Pay rent')
    h.eq('"Pay rent" repeats (every month on the 1st): next due 2027-01-01', said(before)[2])
    -- Several at once: the repeating one moves on, the other one is done; one line for the first.
    api.nvim_win_set_cursor(0, { 2, 0 })
    before = #h.notes
    h.keys('2x')
    h.wait(function() return pane.rows[3].done == true end, 'Plain done')
    h.wait(function() return pane.rows[2].due == '2026-11-28' and #said(before) == 1 end, 'the line')
    h.eq({ '"Water plants" repeats (every 3 days after done): next due in 3 days' }, said(before))
    h.check_buffer(pane)
  end },

  { 'X skips to the next due; a task that does not repeat or whose repeat ended is refused in words', function()
    local pane = pane_on({
      { title = 'Water plants', due = '2026-11-25', ['repeat'] = after_done },
      { title = 'Plain', due = '2026-11-26' },
      { title = 'Once', due = '2026-11-25', ['repeat'] = { rule = 'FREQ=DAILY;COUNT=1', from = 'due' } },
      { title = 'Standup', due = '2026-11-25T09:00:00Z', ['repeat'] = { rule = 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', from = 'due' } },
    })
    goto_title(pane, 'Water plants')
    local before = #h.notes
    h.keys('X')
    h.wait(function() return pane.rows[1].due == '2026-11-28' end, 'skipped')
    h.eq({ 'skipped "Water plants": next due in 3 days' }, said(before))
    h.eq(1, item(pane.rows[1].id).occurrences.skipped, 'recorded as skipped')
    goto_title(pane, 'Standup')
    h.keys('X')
    h.wait(function() return pane.rows[4].due == '2026-11-26T09:00:00Z' end, 'the standup skipped')
    h.eq('skipped "Standup": next due tomorrow 09:00', said(before)[2])
    goto_title(pane, 'Plain')
    h.keys('X')
    h.wait(function() return h.notified('does not repeat') end, 'the refusal')
    h.eq('taskls: "Plain" does not repeat: give a repeat first (cr, then every week)', h.notified('does not repeat').message)
    h.eq(vim.log.levels.WARN, h.notified('does not repeat').level)
    goto_title(pane, 'Once')
    h.keys('X')
    h.wait(function() return h.notified('has ended') end, 'the refusal')
    h.eq('taskls: the repeat of "Once" has ended: there is no next due to skip to; x marks it done',
      h.notified('has ended').message)
    -- A selection: all or nothing, and the words name only the task that does not repeat.
    api.nvim_win_set_cursor(0, { 1, 0 })
    before = #h.notes
    h.keys('Vj')
    h.keys('X')
    h.wait(function() return #said(before) == 1 end, 'one refusal')
    h.eq({ '"Plain" does not repeat: give a repeat first (cr, then every week)' }, said(before))
    h.eq('2026-11-28', pane.rows[1].due, 'nothing skipped')
    h.eq(0, #h.errors)
  end },

  { 'cr sets and stops a repeat; cc with a repeat phrase keeps the due; a adds a repeating task', function()
    local pane = pane_on({ { title = 'Plain', due = '2026-11-26' }, { title = 'Undated' } })
    local prompts = {}
    vim.ui.input = function(opts, on_confirm)
      table.insert(prompts, opts.prompt)
      on_confirm(table.remove(h.answers, 1))
    end
    goto_title(pane, 'Plain')
    h.answers = { 'Plain every week' }
    h.keys('cc')
    h.wait(function() return vim.NIL ~= (pane.rows[1]['repeat'] or vim.NIL) end, 'the repeat')
    h.eq({ 'every week', '2026-11-26' }, { pane.rows[1]['repeat'].text, pane.rows[1].due }, 'the due kept')
    local before = #h.notes
    h.answers = { 'off' }
    h.keys('cr')
    h.wait(function() return pane.rows[1]['repeat'] == vim.NIL or pane.rows[1]['repeat'] == nil end, 'no repeat')
    h.eq({ 'no longer repeating: "Plain"' }, said(before))
    h.truthy(prompts[2]:find('^Repeat %(now every week; '), 'the current repeat in the prompt: ' .. prompts[2])
    -- An undated task takes the rule's first day; words that are no repeat open the prompt again.
    goto_title(pane, 'Undated')
    h.answers = { 'soon', 'every mon' }
    h.keys('cr')
    h.wait(function() return pane.rows[2].due == '2026-11-30' end, 'due next Monday')
    h.eq('every mon', pane.rows[2]['repeat'].text)
    h.truthy(prompts[4]:find('soon is not a repeat', 1, true), 'why, in the prompt: ' .. prompts[4])
    h.eq('repeats every mon: "Undated"', said(before)[2])
    h.answers = { 'Gym ^fri every mon,wed,fri' }
    h.keys('a')
    h.wait(function() return pane.count == 3 end, 'the new task')
    h.eq({ 'Gym', '2026-11-27', 'every mon, wed, fri' }, { pane.rows[3].title, pane.rows[3].due, pane.rows[3]['repeat'].text })
    h.check_buffer(pane)
  end },

  { 'the form\'s Repeat line shows the server\'s words; :w sets, changes or stops the repeat', function()
    local pane = pane_on({ { title = 'Pay rent', due = '2026-12-01', ['repeat'] = monthly }, { title = 'Undated' } })
    local form = require('taskls.form')
    local function open_form(title)
      api.nvim_set_current_buf(pane.buf)
      goto_title(pane, title)
      h.keys('e')
      h.wait(function() return form.forms[api.nvim_get_current_buf()] ~= nil end, 'the form')
      return api.nvim_get_current_buf()
    end
    local buf = open_form('Pay rent')
    h.eq('Repeat: every month on the 1st', h.lines(buf)[6])
    api.nvim_buf_set_lines(buf, 5, 6, false, { 'Repeat: every month on the last day' })
    vim.cmd('write')
    h.eq({ 'FREQ=MONTHLY;BYMONTHDAY=-1', '2026-12-01' }, { item(pane.rows[1].id)['repeat'].rule, item(pane.rows[1].id).due })
    h.eq('Repeat: every month on the last day', h.lines(buf)[6], 'the form shows what is stored')
    api.nvim_buf_set_lines(buf, 5, 6, false, { 'Repeat: every fortnight' })
    vim.cmd('write')
    h.truthy(h.notified('not saved: Repeat: '), 'why: ' .. vim.inspect(h.notes))
    h.eq(true, vim.bo[buf].modified, 'still modified')
    api.nvim_buf_set_lines(buf, 5, 6, false, { 'Repeat: off' })
    vim.cmd('write')
    h.eq(nil, value_of(item(pane.rows[1].id)['repeat']), 'stopped')
    h.eq('Repeat: ', h.lines(buf)[6])
    vim.cmd('bwipeout!')
    buf = open_form('Undated')
    api.nvim_buf_set_lines(buf, 5, 6, false, { 'Repeat: every mon' })
    vim.cmd('write')
    h.eq({ 'FREQ=WEEKLY;BYDAY=MO', '2026-11-30' }, { item(pane.rows[2].id)['repeat'].rule, item(pane.rows[2].id).due },
      'an undated task takes the rule\'s first day')
  end },

  { 'stored text in what repeating tasks and reminders say is escaped once, as the REPL shows it', function()
    h.setup({ time_zone = 'UTC', args = clock })
    local _, ids = h.seed('Home', {
      { title = 'Pay\27[2J\nrent', due = '2026-11-25', ['repeat'] = { rule = 'FREQ=MONTHLY', from = 'due' }, alerts = { { offset = 660 } } },
    })
    local pane = h.open({ list = h.request('lists/list').lists[1].id, name = 'Home' })
    api.nvim_set_current_buf(pane.buf)
    h.truthy(h.lines(pane.buf)[1]:find('Pay\\e[2J\\nrent', 1, true), 'the row: ' .. h.lines(pane.buf)[1])
    h.keys('x')
    h.wait(function() return h.notified('repeats') end, 'the line')
    h.eq('taskls: "Pay\\e[2J\\nrent" repeats (every month): next due 2026-12-25', h.notified('repeats').message)
    h.request('debug/setClock', { now = '2026-12-25T11:00:00Z' })
    h.eq('taskls: reminder: "Pay\\e[2J\\nrent", due today', h.notified('reminder').message)
    local offered
    vim.ui.select = function(items, opts, on_choice) offered = opts.format_item(items[1]) on_choice(nil) end
    vim.cmd('TasksReminders')
    h.wait(function() return offered ~= nil end, 'the picker')
    h.eq('"Pay\\e[2J\\nrent", due today — on the day at 11:00, fired 2026-12-25 11:00 UTC', offered)
    h.eq(ids[1], pane.rows[1].id)
  end },

  { 'the float shows the repeat in the server\'s words, the history and the alerts', function()
    local pane = pane_on({
      { title = 'Pay rent', due = '2026-12-01', ['repeat'] = monthly, alerts = { { offset = 540 }, { offset = -1440 } } },
      { title = 'Call', due = '2026-11-26T15:00:00Z', alerts = { { offset = -90 }, { at = '2026-11-26T08:00:00Z' } } },
    })
    goto_title(pane, 'Pay rent')
    h.keys('x')
    h.wait(function() return pane.rows[1].due == '2027-01-01' end, 'moved on')
    local actions = require('taskls.actions')
    h.keys('<CR>')
    h.wait(function() return actions.last_float ~= nil end, 'the float')
    local text = table.concat(actions.last_float.lines, '\n')
    h.truthy(text:find('Repeats    every month on the 1st', 1, true), text)
    h.truthy(text:find('History    1 done, 0 skipped; last done 2026-11-25 10:00 UTC (due 2026-12-01)', 1, true), text)
    h.truthy(text:find('Alerts     on the day at 09:00, the day before at 00:00', 1, true), text)
    pcall(api.nvim_win_close, actions.last_float.win, true)
    actions.last_float = nil
    api.nvim_set_current_buf(pane.buf)
    goto_title(pane, 'Call')
    h.keys('<CR>')
    h.wait(function() return actions.last_float ~= nil end, 'the float')
    text = table.concat(actions.last_float.lines, '\n')
    h.truthy(text:find('Alerts     1 hour 30 minutes before, at 2026-11-26 08:00 UTC', 1, true), text)
    h.eq(nil, text:find('Repeats', 1, true), 'no repeat line')
  end },
}
