-- A list pane: rendering, the editing keys, sorting, filtering, sections, undo and redo.
local h = require('helpers')
local api = vim.api

local function pane_on(titles, opts)
  local list = h.seed('Groceries', titles)
  local pane = h.open({ list = list, name = 'Groceries' }, opts)
  api.nvim_set_current_buf(pane.buf)
  return pane, list
end

local function goto_title(pane, title)
  for i, row in ipairs(pane.rows) do
    if row.title == title then
      api.nvim_win_set_cursor(0, { pane.window.start + i, 0 })
      return
    end
  end
  error('no row ' .. title)
end

return {
  { 'rows render with state, due, priority, tags; done dimmed; headers styled', function()
    local today = os.date('%Y-%m-%d')
    local now = os.date('*t')
    -- Noon of the day before yesterday: a calendar day, whatever the hour (and daylight saving) now.
    local two_days_ago = os.date('%Y-%m-%d', os.time({ year = now.year, month = now.month, day = now.day - 2, hour = 12 }))
    local pane = pane_on({
      { title = 'Milk', due = today, priority = 'high', tags = { 'home' } },
      { title = 'Call Ann', due = two_days_ago },
      { title = 'Done thing', done = true, notes = 'x' },
    })
    local lines = h.lines(pane.buf)
    -- 120 columns: the title column takes what the fold column (2), the check box (4), the due (19),
    -- priority (3) and tags (12) leave.
    h.eq(74, pane.width, 'the title column')
    h.eq(('  [ ] %-74s  %-19s  %-3s  #home'):format('Milk', 'today', '!!!'), lines[1], 'line 1')
    h.eq(('  [ ] %-74s  2 days ago'):format('Call Ann'), lines[2], 'line 2')
    h.eq('  [x] Done thing +', lines[3], 'line 3: the notes mark after the title')
    local marks = api.nvim_buf_get_extmarks(pane.buf, require('taskls.pane').namespace, { 1, 0 }, { 1, -1 }, { details = true })
    local groups = {}
    for _, m in ipairs(marks) do groups[m[4].hl_group] = true end
    h.truthy(groups.TasklsOverdue, 'overdue highlighted')
    marks = api.nvim_buf_get_extmarks(pane.buf, require('taskls.pane').namespace, { 2, 0 }, { 2, -1 }, { details = true })
    groups = {}
    for _, m in ipairs(marks) do groups[m[4].hl_group] = true end
    h.truthy(groups.TasklsDone, 'done dimmed')
    h.eq('Comment', vim.fn.synIDattr(vim.fn.synIDtrans(vim.fn.hlID('TasklsDone')), 'name'), 'TasklsDone links to Comment')
  end },

  { 'an empty list says so; a adds the first task', function()
    local pane = pane_on({})
    h.eq({ 'No tasks — press a to add one' }, h.lines(pane.buf))
    h.answers = { 'Buy milk due:tomorrow !high #home' }
    h.keys('a')
    h.wait(function() return pane.count == 1 end, 'the new row')
    h.eq({ ('  [ ] %-74s  %-19s  !!!  #home'):format('Buy milk', 'tomorrow') }, h.lines(pane.buf))
  end },

  { 'o and O add below and above the cursor; the cursor goes to the new task', function()
    local pane = pane_on({ 'A', 'B', 'C' })
    goto_title(pane, 'B')
    h.answers = { 'after B' }
    h.keys('o')
    h.wait(function() return pane.count == 4 end, 'o')
    h.eq({ 'A', 'B', 'after B', 'C' }, h.titles(pane))
    h.eq(3, api.nvim_win_get_cursor(0)[1], 'cursor on the new task')
    goto_title(pane, 'A')
    h.answers = { 'before A' }
    h.keys('O')
    h.wait(function() return pane.count == 5 end, 'O')
    h.eq({ 'before A', 'A', 'B', 'after B', 'C' }, h.titles(pane))
    h.check_buffer(pane)
  end },

  { 'x toggles, cc and i edit, dd deletes, visual d deletes a block — changed lines only', function()
    local pane = pane_on({ 'A', 'B', 'C', 'D', 'E' })
    local full = pane.stats.full_renders
    goto_title(pane, 'B')
    local written = pane.stats.lines_written
    h.keys('x')
    h.wait(function() return pane.rows[2].done end, 'B done')
    h.eq('  [x] B', h.lines(pane.buf)[2])
    h.eq(1, pane.stats.lines_written - written, 'one line written for a toggle')
    h.keys('x')
    h.wait(function() return not pane.rows[2].done end, 'B not done')
    h.answers = { 'Bee' }
    h.keys('cc')
    h.wait(function() return pane.rows[2].title == 'Bee' end, 'cc')
    h.answers = { 'Bees' }
    h.keys('i')
    h.wait(function() return pane.rows[2].title == 'Bees' end, 'i')
    goto_title(pane, 'C')
    h.keys('dd')
    h.wait(function() return pane.count == 4 end, 'dd')
    h.eq({ 'A', 'Bees', 'D', 'E' }, h.titles(pane))
    api.nvim_win_set_cursor(0, { 2, 0 })
    h.keys('Vjd')
    h.wait(function() return pane.count == 2 end, 'visual d')
    h.eq({ 'A', 'E' }, h.titles(pane))
    h.eq(full, pane.stats.full_renders, 'no full redraw')
    h.check_buffer(pane)
  end },

  { 'J and K move in manual order; the cursor follows; a sorted pane says why not', function()
    local pane = pane_on({ 'A', 'B', 'C' })
    goto_title(pane, 'A')
    h.keys('J')
    h.wait(function() return h.titles(pane)[2] == 'A' end, 'J')
    h.eq({ 'B', 'A', 'C' }, h.titles(pane))
    h.eq(2, api.nvim_win_get_cursor(0)[1], 'cursor follows the item')
    h.keys('J')
    h.wait(function() return h.titles(pane)[3] == 'A' end, 'J again')
    h.keys('K')
    h.wait(function() return h.titles(pane)[2] == 'A' end, 'K')
    h.eq(2, api.nvim_win_get_cursor(0)[1], 'cursor')
    h.check_buffer(pane)
    h.answers = { 'title' }
    h.keys('s')
    h.wait(function() return pane.sort.by == 'title' end, 'sorted by title')
    h.eq({ 'A', 'B', 'C' }, h.titles(pane))
    h.keys('J')
    h.truthy(h.notified('sorted by title', vim.log.levels.WARN), 'a warning')
    h.truthy(api.nvim_buf_get_name(pane.buf):find('by title'), 'the name says the sort')
  end },

  { 's sorts, / filters (No matches), S groups into sections', function()
    local pane = pane_on({ { title = 'Zeta', priority = 'high' }, { title = 'alpha' }, { title = 'Mid', priority = 'low' } })
    h.answers = { 'title' }
    h.keys('s')
    h.wait(function() return pane.sort.by == 'title' end, 'sort')
    h.eq({ 'alpha', 'Mid', 'Zeta' }, h.titles(pane))
    h.answers = { 'zzz' }
    h.keys('F')
    h.wait(function() return pane.count == 0 end, 'filter')
    h.eq({ 'No matches — press F to change the filter' }, h.lines(pane.buf))
    h.answers = { 'a' }
    h.keys('F')
    h.wait(function() return pane.count == 2 end, 'filter a')
    h.eq({ 'alpha', 'Zeta' }, h.titles(pane))
    h.answers = { '' }
    h.keys('F')
    h.wait(function() return pane.count == 3 end, 'no filter')
    h.answers = { 'priority' }
    h.keys('S')
    h.wait(function() return pane.sections == 'priority' end, 'sections')
    h.eq({ '== High', 'Zeta', '== Low', 'Mid', '== No Priority', 'alpha' }, h.titles(pane))
    h.eq('High (1)', h.lines(pane.buf)[1], 'header line')
    local marks = api.nvim_buf_get_extmarks(pane.buf, require('taskls.pane').namespace, { 0, 0 }, { 0, -1 }, { details = true })
    h.eq('TasklsHeader', marks[1][4].hl_group, 'header highlight')
    h.check_buffer(pane)
  end },

  { 'u undoes and <C-r> redoes, through the views, saying what in words', function()
    local pane = pane_on({ 'A', 'B', 'C' })
    goto_title(pane, 'A')
    h.keys('2dd')
    h.wait(function() return pane.count == 1 end, 'dd')
    h.keys('u')
    h.wait(function() return pane.count == 3 end, 'undo')
    h.eq({ 'A', 'B', 'C' }, h.titles(pane))
    h.wait(function() return h.notified('undid') end, 'undo notified')
    h.eq('taskls: undid: delete 2 tasks', h.notes[#h.notes].message, 'undo notified')
    h.keys('<C-r>')
    h.wait(function() return pane.count == 1 end, 'redo')
    h.eq({ 'C' }, h.titles(pane))
    h.wait(function() return h.notified('redid') end, 'redo notified')
    h.eq('taskls: redid: delete 2 tasks', h.notes[#h.notes].message, 'redo notified')
    h.keys('<C-r>')
    h.wait(function() return h.notified('redo', vim.log.levels.WARN) end, 'nothing to redo: a warning')
    h.check_buffer(pane)
  end },

  { 'two panes on one list (manual and by due) stay exact as either is edited', function()
    local list = h.seed('Two', { { title = 'A', due = '2030-01-03' }, { title = 'B', due = '2030-01-01' }, { title = 'C' } })
    local manual = h.open({ list = list, name = 'Two' })
    local by_due = h.open({ list = list, name = 'Two' }, { new = true, sort = { by = 'due' } })
    h.eq({ 'B', 'A', 'C' }, h.titles(by_due))
    api.nvim_set_current_buf(manual.buf)
    goto_title(manual, 'C')
    h.keys('K')
    h.wait(function() return h.titles(manual)[2] == 'C' end, 'move in manual')
    h.eq({ 'B', 'A', 'C' }, h.titles(by_due), 'due order unchanged by a manual move')
    api.nvim_set_current_buf(by_due.buf)
    goto_title(by_due, 'A')
    h.keys('dd')
    h.wait(function() return manual.count == 2 and by_due.count == 2 end, 'both panes see the delete')
    h.eq({ 'C', 'B' }, h.titles(manual))
    h.eq({ 'B', 'C' }, h.titles(by_due))
    h.request('items/update', { id = by_due.rows[2].id, due = '2029-01-01' })
    h.wait(function() return h.titles(by_due)[1] == 'C' end, 'a move in the due pane')
    h.check_buffer(manual)
    h.check_buffer(by_due)
  end },

  { '<CR> shows the item in full in a float', function()
    local pane = pane_on({ { title = 'Milk', notes = '2 litres\nsemi-skimmed', tags = { 'home' } } })
    api.nvim_win_set_cursor(0, { 1, 0 })
    h.keys('<CR>')
    local actions = require('taskls.actions')
    h.wait(function() return actions.last_float ~= nil end, 'the float')
    local text = table.concat(h.lines(actions.last_float.buf), '\n')
    h.truthy(text:find('semi%-skimmed'), 'the notes')
    h.truthy(text:find('#home'), 'the tags')
    h.eq('editor', api.nvim_win_get_config(actions.last_float.win).relative ~= '' and 'editor' or '', 'a float')
    h.keys('q')
    h.eq(false, api.nvim_win_is_valid(actions.last_float.win), 'q closes it')
  end },

  { 'q closes the pane and its view; a deleted list closes its panes', function()
    local pane, list = pane_on({ 'A' })
    h.keys('q')
    h.eq(false, api.nvim_buf_is_valid(pane.buf), 'buffer gone')
    local other = h.open({ list = list, name = 'Groceries' })
    h.request('lists/delete', { id = list })
    h.wait(function() return other.closed end, 'view/closed')
    h.truthy(h.lines(other.buf)[1]:find('deleted'), 'the pane says so')
  end },

  { 'server errors are one notification at the right level', function()
    local pane = pane_on({ 'A' })
    require('taskls.client').request('items/get', { id = 'i999999' })
    h.wait(function() return h.notified('', vim.log.levels.WARN) end, 'a warning for notFound')
    require('taskls.client').request('items/get', { id = 'bogus' })
    h.wait(function() return h.notified('', vim.log.levels.ERROR) end, 'an error for invalid params')
    h.eq(2, #h.notes, 'two notifications: ' .. vim.inspect(h.notes))
    h.check_buffer(pane)
  end },
}
