-- Smart lists: the overview's section between the smart groups and the lists (live counts, in
-- their order), opening one in a pane, gF saving a pane's filter as one, renaming and deleting
-- one from the overview, and a pane on a deleted smart list.
local h = require('helpers')
local api = vim.api

local function overview()
  vim.cmd('Tasks')
  return api.nvim_get_current_buf()
end

local function text_of(buf) return table.concat(h.lines(buf), '\n') end

local function goto_line(pattern)
  for i, line in ipairs(h.lines(0)) do
    if line:find(pattern) then
      api.nvim_win_set_cursor(0, { i, 0 })
      return i
    end
  end
  error('no line matching ' .. pattern)
end

local function smart_lists() return h.request('lists/list').smartLists end

return {
  { 'the overview shows the smart lists between the groups and the lists, with live counts; <CR> opens one', function()
    local home = h.seed('Home', { { title = 'Stamps', tags = { 'errand' } }, 'Sweep' })
    h.seed('Work', { { title = 'Toner', tags = { 'errand' } } })
    local buf = overview()
    h.wait(function() return text_of(buf):find('Work') end, 'the lists')
    h.truthy(text_of(buf):find('Smart lists\n  None — in a pane, F filters and gF saves the filter as one\n\nLists', 1, true),
      'the empty section: ' .. text_of(buf))
    h.request('smartLists/create', { name = 'Errands', filter = { tagsAnyOf = { 'errand' }, done = 'notDone' } })
    h.request('smartLists/create', { name = 'Home open', filter = { done = 'notDone' }, lists = { home } })
    h.wait(function() return text_of(buf):find('Errands') end, 'the smart lists')
    local lines = h.lines(buf)
    local at = {}
    for i, line in ipairs(lines) do
      local name = vim.trim(line:gsub('%s+[%d/]+$', ''))
      if name ~= '' then at[name] = at[name] or i end
    end
    h.truthy(at.Completed < at['Smart lists'] and at['Smart lists'] < at.Errands and at.Errands < at['Home open']
      and at['Home open'] < at.Lists, 'the order: ' .. text_of(buf))
    h.eq(at.Completed + 2, at['Smart lists'], 'after the groups and a blank line')
    h.eq(('  %-24s %6d'):format('Errands', 2), lines[at.Errands])
    -- A count follows the items, through lists/changed.
    h.request('items/create', { list = home, title = 'Post', tags = { 'errand' } })
    h.wait(function() return text_of(buf):find('Errands%s+3') end, 'the new count')
    goto_line('^  Errands')
    h.keys('<CR>')
    local pane = require('taskls.pane').get()
    h.wait(function() return pane ~= nil and pane.count == 3 end, 'the smart list\'s rows')
    h.eq('s', pane.source.smartList:sub(1, 1), 'a view on the smart list')
    local line = h.lines(pane.buf)[3]
    h.truthy(line:find('(Work)', 1, true), 'rows across lists show their list: ' .. line)
    h.truthy(api.nvim_buf_get_name(pane.buf):find('taskls://Errands', 1, true), 'the buffer name')
    h.check_buffer(pane)
    -- :Tasks {name} opens it too, and completes its name.
    h.truthy(vim.tbl_contains(require('taskls').complete('Err'), 'Errands'), 'completion')
    vim.cmd('Tasks')
    vim.cmd('Tasks Errands')
    h.wait(function() return api.nvim_get_current_buf() == pane.buf end, ':Tasks Errands shows its pane')
    -- a in an empty smart list over some lists adds to the first of them.
    local work = h.request('lists/list').lists[2].id
    local later = h.request('smartLists/create', { name = 'Later', filter = { text = 'later' }, lists = { work } }).smartList
    local empty = h.open({ smartList = later.id })
    api.nvim_set_current_buf(empty.buf)
    h.eq({ 'No tasks — press a to add one' }, h.lines(empty.buf))
    h.answers = { 'Call later' }
    h.keys('a')
    h.wait(function() return empty.count == 1 end, 'the new task')
    h.eq(work, empty.rows[1].list, 'in Work')
  end },

  { 'gF saves the filter of a list pane (open tasks of that list), of a group (every list) and of a smart list', function()
    local home = h.seed('Home', { { title = 'Stamps', tags = { 'errand' } }, { title = 'Milk', tags = { 'errand', 'shop' }, priority = 'high' } })
    local pane = h.open({ list = home, name = 'Home' })
    api.nvim_set_current_buf(pane.buf)
    h.answers = { '#errand' }
    h.keys('F')
    h.wait(function() return pane.count == 2 and pane.filter.tagsAllOf ~= nil end, 'the filter')
    h.answers = { 'Errands' }
    h.keys('gF')
    h.wait(function() return h.notified('saved smart list') end, 'saved')
    h.eq('taskls: saved smart list "Errands": 2 tasks now; open it from the overview (-) or with :Tasks Errands',
      h.notified('saved smart list').message)
    local saved = smart_lists()[1]
    h.eq({ 'Errands', { done = 'notDone', tagsAllOf = { 'errand' } }, { home } }, { saved.name, saved.filter, saved.lists })
    -- A group's pane: every list (null); the Completed group's keeps done tasks.
    local all = h.open({ group = 'all' })
    api.nvim_set_current_buf(all.buf)
    vim.cmd('TasksSaveFilter Everything open')
    h.wait(function() return #smart_lists() == 2 end, 'the second')
    saved = smart_lists()[2]
    h.eq({ 'Everything open', { done = 'notDone' }, true }, { saved.name, saved.filter, saved.lists == nil or saved.lists == vim.NIL },
      'every list (null)')
    local completed = h.open({ group = 'completed' })
    api.nvim_set_current_buf(completed.buf)
    vim.cmd('TasksSaveFilter Finished')
    h.wait(function() return #smart_lists() == 3 end, 'the third')
    h.eq({ done = 'done' }, smart_lists()[3].filter)
    -- A smart list's pane: its filter joined with the pane's, over its lists.
    local errands = h.open({ smartList = smart_lists()[1].id })
    api.nvim_set_current_buf(errands.buf)
    h.eq('Errands', errands.name)
    vim.cmd('TasksSaveFilter Nothing')
    h.truthy(h.notified('with no filter of its own'), 'nothing to add')
    h.answers = { '#shop !high' }
    h.keys('F')
    h.wait(function() return errands.count == 1 end, 'the narrower filter')
    vim.cmd('TasksSaveFilter Errands to shop')
    h.wait(function() return #smart_lists() == 4 end, 'the fourth')
    saved = smart_lists()[4]
    h.eq({ { done = 'notDone', tagsAllOf = { 'errand', 'shop' }, priorityAtLeast = 'high' }, { home }, 1 },
      { saved.filter, saved.lists, saved.count })
    -- A name taken (ignoring case) opens the prompt again; a group that moves with the day is refused.
    local prompts = {}
    vim.ui.input = function(opts, on_confirm)
      table.insert(prompts, opts.prompt)
      on_confirm(table.remove(h.answers, 1))
    end
    h.answers = { 'errands', 'Errands again' }
    h.keys('gF')
    h.wait(function() return #smart_lists() == 5 end, 'the fifth')
    h.eq({ 'Save the filter as the smart list: ',
      'Save the filter as the smart list (there is already a smart list named errands; pick another name): ' }, prompts)
    h.eq('Errands again', smart_lists()[5].name)
    local today = h.open({ group = 'today' })
    api.nvim_set_current_buf(today.buf)
    vim.cmd('TasksSaveFilter Due today')
    h.eq('taskls: Today changes with the day, and a smart list\'s dates are fixed; open All or a list, filter it, then save',
      h.notified('changes with the day').message)
    h.eq(5, #smart_lists(), 'nothing saved')
    h.eq(0, #h.errors)
  end },

  { 'J and K in the overview reorder the smart lists (and the lists); the cursor follows', function()
    local home = h.seed('Home', { 'Sweep' })
    local work = h.seed('Work', {})
    for _, name in ipairs({ 'One', 'Two', 'Three' }) do h.request('smartLists/create', { name = name }) end
    local buf = overview()
    h.wait(function() return text_of(buf):find('  Three ') end, 'the smart lists')
    local function names()
      local list = {}
      for _, smart in ipairs(smart_lists()) do table.insert(list, smart.name) end
      return list
    end
    goto_line('^  One ')
    h.keys('J')
    h.wait(function() return vim.deep_equal(names(), { 'Two', 'One', 'Three' }) end, 'One moved down')
    h.wait(function() return h.lines(buf)[api.nvim_win_get_cursor(0)[1]]:find('^  One ') end, 'the cursor on One')
    h.keys('J')
    h.wait(function() return vim.deep_equal(names(), { 'Two', 'Three', 'One' }) end, 'One last')
    h.keys('J')
    h.keys('2K')
    h.wait(function() return vim.deep_equal(names(), { 'One', 'Two', 'Three' }) end, 'One first again')
    goto_line('^  Work ')
    h.keys('K')
    h.wait(function()
      local lists = h.request('lists/list').lists
      return lists[1].id == work and lists[2].id == home
    end, 'Work before Home')
  end },

  { 'filters join where they can: tags of both, the stricter bound; another text cannot', function()
    local join = require('taskls.smartlists').join
    h.eq({ text = 'milk', tagsAllOf = { 'a', 'b' }, priorityAtLeast = 'high', dueBefore = '2026-11-20' },
      join({ text = 'milk', tagsAllOf = { 'a' }, priorityAtLeast = 'high', dueBefore = '2026-11-20' },
        { tagsAllOf = { 'b', 'a' }, priorityAtLeast = 'low', dueBefore = '2026-12-01' }))
    h.eq({ dueAfter = '2026-12-01' }, join({ dueAfter = '2026-11-01' }, { dueAfter = '2026-12-01' }))
    local joined, member = join({ text = 'milk' }, { text = 'bread' })
    h.eq({ nil, 'text' }, { joined, member })
    joined, member = join({ done = 'done' }, { done = 'notDone' })
    h.eq({ nil, 'done' }, { joined, member })
  end },

  { 'cc renames and dd deletes a smart list from the overview (asking first); its pane says it was deleted', function()
    h.seed('Home', { 'Sweep' })
    local created = h.request('smartLists/create', { name = 'Open', filter = { done = 'notDone' } })
    local pane = h.open({ smartList = created.smartList.id, name = 'Open' })
    local buf = overview()
    h.wait(function() return text_of(buf):find('  Open ') end, 'the smart list')
    goto_line('^  Open ')
    h.answers = { 'Still open' }
    h.keys('cc')
    h.wait(function() return text_of(buf):find('  Still open ') end, 'renamed')
    h.eq('Still open', smart_lists()[1].name)
    h.wait(function() return api.nvim_buf_get_name(pane.buf):find('taskls://Still open', 1, true) end, 'the pane\'s new name')
    goto_line('^  Still open ')
    h.answers = { 'Cancel' }
    h.keys('dd')
    h.eq(1, #smart_lists(), 'cancel keeps it')
    h.answers = { 1 }
    h.keys('dd')
    h.wait(function() return pane.closed end, 'the pane closed')
    h.eq(0, #smart_lists(), 'deleted')
    h.eq({ 'This smart list was deleted — press q to close' }, h.lines(pane.buf))
    h.truthy(h.notified('the smart list "Still open" was deleted'), 'said, with its new name')
    h.wait(function() return text_of(buf):find('  None — ', 1, true) end, 'the overview follows')
    h.eq(1, h.request('lists/list').lists[1].total, 'its task stays')
  end },
}
