-- Subtasks (issue 18): rows indented by depth with fold markers and counts, the fold keys (za zo zc
-- zR zM, which the server carries out: view/collapse and view/expand), >> and << (items/indent and
-- items/outdent), go (a subtask below the cursor), J and K carrying subtrees, context rows dimmed.
-- Every change reaches the buffer as ops on the changed lines only (no full redraw), and the
-- tree is checked in the server's store too (items/get), not only on the screen.
local h = require('helpers')
local api = vim.api

--- Makes a list whose items are `spec` in tree order: each `{title, parent = TITLE, ...fields}`
--- (or a bare title, at the top level). Returns the list id and the ids by title.
local function tree(name, spec)
  local list = h.seed(name, {})
  local ids = {}
  for _, entry in ipairs(spec) do
    local fields = type(entry) == 'table' and entry or { entry }
    local params = { list = list, title = fields[1] }
    for key, v in pairs(fields) do
      if key == 'parent' then params.parent = ids[v] elseif type(key) == 'string' then params[key] = v end
    end
    ids[fields[1]] = h.request('items/create', params).item.id
  end
  return list, ids
end

local example = { 'A', { 'A1', parent = 'A' }, { 'A1a', parent = 'A1' }, { 'A2', parent = 'A' }, 'B' }

local function pane_on(spec, name)
  local list, ids = tree(name or 'Trip', spec)
  local pane = h.open({ list = list, name = name or 'Trip' })
  api.nvim_set_current_buf(pane.buf)
  return pane, ids, list
end

local function line_of(pane, title)
  for i, row in ipairs(pane.rows) do
    if row.title == title then return pane.window.start + i, row end
  end
  error('no row titled ' .. title .. ' in ' .. vim.inspect(h.titles(pane)))
end

local function goto_title(pane, title) api.nvim_win_set_cursor(0, { line_of(pane, title), 0 }) end

local function cursor_title(pane)
  local row = pane:row_at_line(api.nvim_win_get_cursor(0)[1])
  return row and row.title
end

-- The titles with their depths, `A1a:2`, in the pane's order.
local function shape(pane)
  local out = {}
  for _, row in ipairs(pane.rows) do table.insert(out, row.title .. ':' .. tostring(row.depth)) end
  return table.concat(out, ' ')
end

-- The highlight groups on a line (1-based), with the text each covers.
local function marks_on(pane, line)
  local text = h.lines(pane.buf, line - 1, line)[1]
  local found = {}
  local marks = api.nvim_buf_get_extmarks(pane.buf, require('taskls.pane').namespace, { line - 1, 0 }, { line - 1, -1 },
    { details = true })
  for _, m in ipairs(marks) do found[m[4].hl_group] = text:sub(m[3] + 1, m[4].end_col) end
  return found
end

-- The parent of an item as the store has it (nil at the top level).
local function parent_of(id)
  local parent = h.request('items/get', { id = id }).parent
  if parent == vim.NIL then return nil end
  return parent
end

-- Waits until `what` in the pane, then checks the buffer is the rows exactly.
local function settle(pane, cond, what)
  h.wait(cond, what)
  h.check_buffer(pane)
end

return {
  { 'rows are indented by depth, with fold markers, subtask counts and aligned columns', function()
    h.setup({ time_zone = 'UTC' })
    local due = h.request('text/parseItem', { text = '^today' }).fields.due
    local pane = pane_on({ 'A', { 'A1', parent = 'A' }, { 'A1a', parent = 'A1', done = true },
      { 'A2', parent = 'A', due = due }, { 'B', due = due } })
    h.eq({
      '▾ [ ] A 0/2',
      '  ▾ [ ] A1 1/1',
      '      [x] A1a',
      ('    [ ] %-72s  today'):format('A2'),
      ('  [ ] %-74s  today'):format('B'),
    }, h.lines(pane.buf), 'the tree')
    h.eq({ TasklsFold = '▾', TasklsCheck = '[ ]', TasklsCount = '0/2' }, marks_on(pane, 1), 'line 1 highlights')
    h.eq('[x]', marks_on(pane, 3).TasklsCheck, 'the check box of a subtask')
    h.eq('A1a', marks_on(pane, 3).TasklsDone, 'a done subtask dimmed')
    h.truthy(vim.fn.execute('highlight TasklsCount'):find('links to Number', 1, true), 'TasklsCount links to Number')
    h.truthy(vim.fn.execute('highlight TasklsFold'):find('links to Special', 1, true), 'TasklsFold links to Special')
    -- A subtask done counts at once, on its parent's line alone.
    local written = pane.stats.lines_written
    goto_title(pane, 'A2')
    h.keys('x')
    settle(pane, function() return h.lines(pane.buf)[1] == '▾ [ ] A 1/2' end, 'the count of A')
    h.eq(2, pane.stats.lines_written - written, 'A2 and its parent A written, nothing else')
    -- The deepest row (15 levels): its indentation comes out of its title's cells.
    local list = h.seed('Deep', {})
    local parent = vim.NIL
    for depth = 0, 15 do
      parent = h.request('items/create', { list = list, title = 'Level ' .. depth, parent = parent, due = due }).item.id
    end
    local deep = h.open({ list = list, name = 'Deep' }, { new = true })
    h.eq(('%s[ ] %-44s  today'):format((' '):rep(32), 'Level 15'), h.lines(deep.buf)[16], 'depth 15')
    h.check_buffer(deep)
    -- In a narrow window it keeps 10 cells at least; the columns after it are pushed right.
    local render = require('taskls.render')
    h.eq(('%s[ ] %-10s  %19s  !!!'):format((' '):rep(32), 'Level 15', ''),
      (render.row({ kind = 'item', title = 'Level 15', depth = 15, priority = 'high' }, { title_width = 20 })))
  end },

  { 'zc zo za zM zR collapse and expand through the server; lines change, the cursor keeps its task', function()
    local pane = pane_on(example)
    local full = pane.stats.full_renders
    goto_title(pane, 'A1')
    local written = pane.stats.lines_written
    h.keys('zc')
    settle(pane, function() return pane.count == 4 end, 'A1 collapsed')
    h.eq('A:0 A1:1 A2:1 B:0', shape(pane))
    h.eq('  ▸ [ ] A1 0/1', h.lines(pane.buf)[2], 'the collapsed marker')
    h.eq(1, pane.stats.lines_written - written, 'one line rewritten (A1), one removed')
    h.eq('A1', cursor_title(pane), 'cursor on A1')
    h.keys('zo')
    settle(pane, function() return pane.count == 5 end, 'A1 expanded')
    h.eq('A1', cursor_title(pane), 'cursor on A1 after zo')
    h.keys('za')
    settle(pane, function() return pane.count == 4 end, 'za collapses')
    h.keys('za')
    settle(pane, function() return pane.count == 5 end, 'za expands')
    -- zc on a leaf closes the fold it is in: its parent's; the cursor goes to the parent.
    goto_title(pane, 'A1a')
    h.keys('zc')
    settle(pane, function() return pane.count == 4 end, 'zc on a leaf')
    h.eq('A1', cursor_title(pane), 'cursor on the closed parent')
    -- zc on a collapsed row closes the fold around it.
    h.keys('zc')
    settle(pane, function() return pane.count == 2 end, 'zc on a collapsed row')
    h.eq('A:0 B:0', shape(pane))
    h.eq('A', cursor_title(pane), 'cursor on A')
    h.keys('zR')
    settle(pane, function() return pane.count == 5 end, 'zR')
    h.eq('A', cursor_title(pane), 'cursor stays on A')
    goto_title(pane, 'A1a')
    h.keys('zM')
    settle(pane, function() return pane.count == 2 end, 'zM')
    h.eq('▸ [ ] A 0/2', h.lines(pane.buf)[1])
    h.eq('A', cursor_title(pane), 'cursor on the row standing for A1a')
    h.keys('zo')
    -- zM collapsed A1 too: zo on A shows A1 collapsed.
    settle(pane, function() return pane.count == 4 end, 'zo after zM')
    h.eq('A:0 A1:1 A2:1 B:0', shape(pane))
    h.keys('zR')
    settle(pane, function() return pane.count == 5 end, 'zR again')
    -- Visual mode: every selected row with subtasks; a count: that many rows.
    goto_title(pane, 'A')
    h.keys('Vjzc')
    settle(pane, function() return pane.count == 2 end, 'visual zc')
    h.keys('zR')
    settle(pane, function() return pane.count == 5 end, 'zR')
    goto_title(pane, 'A1')
    h.keys('2zc')
    settle(pane, function() return pane.count == 4 end, '2zc: A1 (A1a is a leaf)')
    h.eq(full, pane.stats.full_renders, 'no full redraw')
    -- The server keeps it per view: a second pane on the list shows every row.
    local other = h.open({ list = pane.source.list, name = 'Trip' }, { new = true })
    h.eq(5, other.count, 'another view is not collapsed')
  end },

  { '>> and << indent and outdent (counts, visual); the parent\'s count follows; the cursor stays', function()
    local pane, ids = pane_on({ 'A', 'B', 'C', 'D' })
    local full = pane.stats.full_renders
    goto_title(pane, 'B')
    h.keys('>>')
    settle(pane, function() return pane.rows[2].depth == 1 end, 'B indented')
    h.eq({ '▾ [ ] A 0/1', '    [ ] B', '  [ ] C', '  [ ] D' }, h.lines(pane.buf))
    h.eq(ids.A, parent_of(ids.B), 'B under A in the store')
    h.eq('B', cursor_title(pane), 'cursor on B')
    goto_title(pane, 'C')
    h.keys('2>>')
    settle(pane, function() return shape(pane) == 'A:0 B:1 C:1 D:1' end, 'C and D indented')
    h.eq('▾ [ ] A 0/3', h.lines(pane.buf)[1])
    h.eq('C', cursor_title(pane), 'cursor on C')
    h.keys('>>')
    settle(pane, function() return shape(pane) == 'A:0 B:1 C:2 D:1' end, 'C under B')
    h.eq({ '▾ [ ] A 0/2', '  ▾ [ ] B 0/1', '      [ ] C', '    [ ] D' }, h.lines(pane.buf))
    h.keys('<<')
    settle(pane, function() return shape(pane) == 'A:0 B:1 C:1 D:1' end, 'C outdented')
    h.eq('C', cursor_title(pane), 'cursor on C')
    goto_title(pane, 'B')
    h.keys('Vjj<')
    settle(pane, function() return shape(pane) == 'A:0 B:0 C:0 D:0' end, 'visual <')
    h.eq({ '  [ ] A', '  [ ] B', '  [ ] C', '  [ ] D' }, h.lines(pane.buf), 'A lost its marker and count')
    goto_title(pane, 'C')
    h.keys('Vj>')
    settle(pane, function() return shape(pane) == 'A:0 B:0 C:1 D:1' end, 'visual >')
    h.eq(ids.B, parent_of(ids.D), 'D under B in the store')
    h.eq(full, pane.stats.full_renders, 'no full redraw')
    -- One undo step each.
    h.keys('u')
    settle(pane, function() return shape(pane) == 'A:0 B:0 C:0 D:0' end, 'undo')
  end },

  { 'a refused >> or << is one warning in words; nothing changes', function()
    local pane, ids = pane_on({ 'A', { 'A1', parent = 'A' }, 'B' })
    local version = pane.version
    goto_title(pane, 'A')
    h.keys('>>')
    h.wait(function() return #h.notes > 0 end, 'a notification')
    h.eq({ { message = 'taskls: cannot indent "A": no task above it at its level to become a subtask of',
      level = vim.log.levels.WARN } }, h.notes)
    goto_title(pane, 'A1')
    h.keys('>>')
    h.wait(function() return #h.notes > 1 end, 'a second notification')
    h.truthy(h.notes[2].message:find('cannot indent "A1"', 1, true), h.notes[2].message)
    goto_title(pane, 'B')
    h.keys('<<')
    h.wait(function() return #h.notes > 2 end, 'a third notification')
    h.eq('taskls: cannot outdent "B": it is already at the top level', h.notes[3].message)
    goto_title(pane, 'A1')
    h.keys('Vj<')
    h.wait(function() return #h.notes > 3 end, 'a fourth notification')
    h.eq('taskls: cannot outdent these tasks together: they are not subtasks of the same task', h.notes[4].message)
    h.eq(4, #h.notes, 'one notification each')
    h.eq(version, pane.version, 'no change reached the view')
    h.eq(ids.A, parent_of(ids.A1))
    h.check_buffer(pane)
  end },

  { 'go adds a subtask right below the cursor (expanding a collapsed task); o adds a sibling', function()
    local pane, ids = pane_on({ 'A', { 'A1', parent = 'A' }, 'B' })
    local full = pane.stats.full_renders
    goto_title(pane, 'B')
    h.answers = { 'B first' }
    h.keys('go')
    settle(pane, function() return pane.count == 4 end, 'a subtask of B')
    h.eq('A:0 A1:1 B:0 B first:1', shape(pane))
    h.eq('B first', cursor_title(pane), 'cursor on the new task')
    h.eq('▾ [ ] B 0/1', h.lines(pane.buf)[3])
    h.eq(ids.B, parent_of(pane.rows[4].id), 'in the store')
    -- On a task with subtasks: the first of them, right below it.
    goto_title(pane, 'A')
    h.answers = { 'A0 ^tomorrow !high' }
    h.keys('go')
    settle(pane, function() return pane.count == 5 end, 'a first subtask of A')
    h.eq('A:0 A0:1 A1:1 B:0 B first:1', shape(pane))
    h.eq('high', pane.rows[2].priority, 'quick entry read the fields')
    h.eq('A0', cursor_title(pane))
    -- On a collapsed task: expanded first, so the new task is seen.
    goto_title(pane, 'A')
    h.keys('zc')
    settle(pane, function() return pane.count == 3 end, 'A collapsed')
    h.answers = { 'A00' }
    h.keys('go')
    settle(pane, function() return pane.count == 6 end, 'A expanded with its new subtask')
    h.eq('A:0 A00:1 A0:1 A1:1 B:0 B first:1', shape(pane))
    h.eq('A00', cursor_title(pane))
    -- o on the last subtask: a sibling below it (not a top-level task).
    goto_title(pane, 'A1')
    h.answers = { 'A2' }
    h.keys('o')
    settle(pane, function() return pane.count == 7 end, 'o')
    h.eq('A:0 A00:1 A0:1 A1:1 A2:1 B:0 B first:1', shape(pane))
    -- o on a task whose subtasks are shown: the first of them; O: a sibling above.
    goto_title(pane, 'B')
    h.answers = { 'B zero' }
    h.keys('o')
    settle(pane, function() return pane.count == 8 end, 'o on B')
    h.answers = { 'Before B' }
    goto_title(pane, 'B')
    h.keys('O')
    settle(pane, function() return pane.count == 9 end, 'O on B')
    h.eq('A:0 A00:1 A0:1 A1:1 A2:1 Before B:0 B:0 B zero:1 B first:1', shape(pane))
    h.eq(full, pane.stats.full_renders, 'no full redraw')
    -- A subtask in another list is refused: the prompt opens again with the reason.
    h.seed('Elsewhere', {})
    local prompts, input = {}, vim.ui.input
    vim.ui.input = function(opts, on_confirm)
      table.insert(prompts, opts.prompt)
      input(opts, on_confirm)
    end
    goto_title(pane, 'A1')
    h.answers = { 'Stray @Elsewhere' }
    h.keys('go')
    h.wait(function() return #prompts == 2 end, 'the prompt again')
    h.truthy(prompts[2]:find('not in list', 1, true), prompts[2])
    h.eq(9, pane.count, 'nothing added')
    -- go where there is no task says so.
    local empty = h.request('lists/create', { name = 'Empty' }).list.id
    local other = h.open({ list = empty, name = 'Empty' })
    api.nvim_set_current_buf(other.buf)
    h.keys('go')
    h.truthy(h.notified('no task here to add a subtask to', vim.log.levels.WARN), 'a warning')
  end },

  { 'J and K move a task with its subtree, keep its depth where they can, the cursor on it', function()
    local pane, ids = pane_on({ 'A', { 'A1', parent = 'A' }, { 'A2', parent = 'A' }, 'B', 'C' })
    local full = pane.stats.full_renders
    goto_title(pane, 'A')
    h.keys('J')
    settle(pane, function() return shape(pane) == 'B:0 A:0 A1:1 A2:1 C:0' end, 'A and its subtasks below B')
    h.eq('A', cursor_title(pane), 'cursor on A')
    h.eq(2, api.nvim_win_get_cursor(0)[1], 'on its new line')
    h.keys('J')
    settle(pane, function() return shape(pane) == 'B:0 C:0 A:0 A1:1 A2:1' end, 'below C')
    h.keys('K')
    settle(pane, function() return shape(pane) == 'B:0 A:0 A1:1 A2:1 C:0' end, 'K')
    h.eq('A', cursor_title(pane), 'cursor on A')
    -- > after a move: A (with its subtree) becomes B's subtask.
    h.keys('>>')
    settle(pane, function() return shape(pane) == 'B:0 A:1 A1:2 A2:2 C:0' end, '>> after J')
    h.eq(ids.B, parent_of(ids.A), 'A under B')
    -- A subtask keeps its depth: past its sibling, then into the next task's subtasks.
    goto_title(pane, 'A1')
    h.keys('J')
    settle(pane, function() return shape(pane) == 'B:0 A:1 A2:2 A1:2 C:0' end, 'A1 after A2')
    h.eq(ids.A, parent_of(ids.A1), 'still under A')
    h.keys('J')
    -- Past C at depth 0 it can be at most C's subtask (depth 1).
    settle(pane, function() return shape(pane) == 'B:0 A:1 A2:2 C:0 A1:1' end, 'A1 under C')
    h.eq(ids.C, parent_of(ids.A1), 'A1 under C in the store')
    h.eq('A1', cursor_title(pane), 'cursor on A1')
    h.keys('<<')
    settle(pane, function() return shape(pane) == 'B:0 A:1 A2:2 C:0 A1:0' end, '<< after J')
    -- K on a collapsed task moves its hidden subtree too.
    goto_title(pane, 'B')
    h.keys('zc')
    settle(pane, function() return pane.count == 3 end, 'B collapsed')
    goto_title(pane, 'A1')
    h.keys('2K')
    settle(pane, function() return shape(pane) == 'A1:0 B:0 C:0' end, '2K')
    h.keys('zR')
    settle(pane, function() return shape(pane) == 'A1:0 B:0 A:1 A2:2 C:0' end, 'the subtree moved with nothing lost')
    h.eq(full, pane.stats.full_renders, 'no full redraw')
  end },

  { 'a filter shows the ancestors of matches as context rows, dimmed', function()
    local pane = pane_on({ 'Groceries', { 'Buy milk', parent = 'Groceries' }, { 'Eggs', parent = 'Groceries' }, 'Milk run' })
    h.answers = { 'milk' }
    h.keys('F')
    settle(pane, function() return pane.count == 3 end, 'the filter')
    h.eq('Groceries:0 Buy milk:1 Milk run:0', shape(pane))
    h.eq(true, pane.rows[1].context, 'Groceries is a context row')
    h.eq({ '▾ [ ] Groceries 0/2', '    [ ] Buy milk', '  [ ] Milk run' }, h.lines(pane.buf))
    local marks = marks_on(pane, 1)
    h.eq('[ ] Groceries 0/2', marks.TasklsContext, 'the context row dimmed whole')
    h.eq(nil, marks.TasklsCheck, 'with no other highlight but its marker')
    h.eq('▾', marks.TasklsFold)
    h.eq(nil, marks_on(pane, 2).TasklsContext, 'a match is not dimmed')
    h.eq('Comment', vim.fn.synIDattr(vim.fn.synIDtrans(vim.fn.hlID('TasklsContext')), 'name'), 'linked to Comment')
    -- A context row folds like any other.
    goto_title(pane, 'Groceries')
    h.keys('zc')
    settle(pane, function() return pane.count == 2 end, 'the context row collapsed')
    h.eq('▸ [ ] Groceries 0/2', h.lines(pane.buf)[1])
  end },

  { 'collapsing and expanding more rows than the window holds, scrolled or not', function()
    local list, seeded = h.seed('Long', { 'P' })
    local p = seeded[1]
    -- Sent at once (the server answers in order), then waited for.
    local answered = 0
    local function create(params)
      require('taskls.client').request('items/create', params, function(err)
        if err == nil then answered = answered + 1 end
        return true
      end)
    end
    for i = 1, 200 do create({ list = list, title = 'P' .. i, parent = p }) end
    for i = 1, 50 do create({ list = list, title = 'Z' .. i }) end
    h.wait(function() return answered == 250 end, '250 items')
    local pane = h.open({ list = list, name = 'Long' })
    api.nvim_set_current_buf(pane.buf)
    h.truthy(pane.window['end'] < 251, 'the window holds part of the view: ' .. vim.inspect(pane.window))
    local full = pane.stats.full_renders
    api.nvim_win_set_cursor(0, { 1, 0 })
    h.keys('zc')
    settle(pane, function() return pane.count == 51 end, 'P collapsed')
    h.eq('Z1', pane.rows[2].title, 'the rows below moved up into the window')
    h.keys('zo')
    settle(pane, function() return pane.count == 251 end, 'P expanded')
    h.eq('P1', pane.rows[2].title)
    -- Far below the first window: zM takes the task far above the window; the pane finds it.
    vim.cmd('normal! G')
    vim.cmd('doautocmd CursorMoved')
    h.wait(function() return pane.window.start > 0 and pane:row_at_line(251) ~= nil end, 'the window at the bottom')
    api.nvim_win_set_cursor(0, { 226, 0 })
    h.eq('Z25', cursor_title(pane))
    h.keys('zM')
    h.wait(function() return pane.count == 51 and cursor_title(pane) == 'Z25' end, 'the cursor on Z25 after zM')
    h.eq(26, api.nvim_win_get_cursor(0)[1], 'on its new line')
    h.eq(1, pane.stats.located, 'found with one view/locate')
    h.wait(function() return pane.window_request == nil end, 'the window settles')
    h.check_buffer(pane)
    h.keys('zR')
    h.wait(function() return pane.count == 251 and cursor_title(pane) == 'Z25' end, 'the cursor on Z25 after zR')
    h.eq(226, api.nvim_win_get_cursor(0)[1])
    h.eq(2, pane.stats.located, 'found again with one view/locate')
    h.wait(function() return pane.window_request == nil end, 'the window settles')
    h.check_buffer(pane)
    -- A subtask hidden by zM far below: the cursor goes to its top-level ancestor.
    vim.cmd('normal! gg')
    vim.cmd('doautocmd CursorMoved')
    h.wait(function() return pane:row_at_line(1) ~= nil end, 'the window at the top')
    h.keys('zc')
    settle(pane, function() return pane.count == 51 end, 'P collapsed')
    local _, z50 = line_of(pane, 'Z50')
    local child = h.request('items/create', { list = list, title = 'Z50 child', parent = z50.id }).item.id
    h.request('items/create', { list = list, title = 'Z50 grandchild', parent = child })
    h.keys('zR')
    settle(pane, function() return pane.count == 253 end, 'zR')
    vim.cmd('normal! G')
    vim.cmd('doautocmd CursorMoved')
    h.wait(function() return pane:row_at_line(253) ~= nil end, 'the window at the bottom')
    h.eq('Z50 grandchild', cursor_title(pane))
    h.keys('zM')
    h.wait(function() return pane.count == 51 and cursor_title(pane) == 'Z50' end, 'the cursor on Z50 after zM')
    h.eq(51, api.nvim_win_get_cursor(0)[1], 'on its line')
    h.wait(function() return pane.window_request == nil end, 'the window settles')
    h.check_buffer(pane)
    h.eq(full, pane.stats.full_renders, 'no full redraw')
  end },
}
