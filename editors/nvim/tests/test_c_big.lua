-- Virtualization on a 100,000-item list, the loading and error states, and the resync after a
-- version gap.
local h = require('helpers')
local api = vim.api

local function open_big(args, copy)
  local store, list = h.big_store(100000)
  if copy then store = h.copy_store(store) end
  h.setup({ store = store, args = args })
  return list
end

local function cursor_row(pane)
  return pane:row_at_line(api.nvim_win_get_cursor(0)[1])
end

return {
  { 'a 100,000-item list opens and scrolls without fetching it: placeholders, true line numbers', function()
    local list = open_big()
    local pane = require('taskls').open({ list = list, name = 'Big' })
    h.wait(function() return pane.state == 'ready' and pane.count == 100000 end, 'the big list', 20000)
    api.nvim_set_current_buf(pane.buf)
    h.eq(100000, api.nvim_buf_line_count(pane.buf), 'one line per row')
    h.eq('  [ ] Task 1', h.lines(pane.buf, 0, 1)[1])
    h.truthy(pane.stats.rows_received <= 100, 'rows fetched on open: ' .. pane.stats.rows_received)
    h.eq(require('taskls.render').placeholder(), h.lines(pane.buf, 50000, 50001)[1], 'a placeholder far below')
    vim.cmd('normal! 50000Gzz')
    vim.cmd('doautocmd CursorMoved')
    h.wait(function() return h.lines(pane.buf, 49999, 50000)[1] == '  [ ] Task 50000' end, 'the rows around line 50000')
    h.eq(1, pane.stats.window_requests, 'one window move')
    h.check_buffer(pane)
    vim.cmd('normal! G')
    vim.cmd('doautocmd CursorMoved')
    h.wait(function() return h.lines(pane.buf, 99999, 100000)[1] == '  [ ] Task 100000' end, 'the last row')
    h.truthy(pane.stats.rows_received < 400, 'rows fetched in all: ' .. pane.stats.rows_received)
    h.truthy(require('taskls.client').stats.requests['view/setWindow'] <= 2, 'setWindow requests')
    h.check_buffer(pane)
  end },

  { 'the cursor stays on its item when rows above it change (inside and above the window)', function()
    local list = open_big(nil, true)
    local pane = h.open({ list = list, name = 'Big' })
    h.wait(function() return pane.state == 'ready' end, 'ready', 20000)
    api.nvim_set_current_buf(pane.buf)
    local full_renders = pane.stats.full_renders
    vim.cmd('normal! 30000Gzz')
    pane:check_window()
    h.wait(function() return pane.window.start > 29000 and pane.window_request == nil end, 'the window near 30000')
    local item = cursor_row(pane)
    h.eq('Task 30000', item.title)
    -- A row above the cursor, inside the window, is deleted.
    local version = pane.version
    h.request('items/delete', { ids = { pane.rows[2].id } })
    h.wait(function() return pane.version == version + 1 end, 'the delete')
    h.eq(item.id, cursor_row(pane).id, 'same item after a delete above it')
    h.eq(29999, api.nvim_win_get_cursor(0)[1], 'its new line')
    -- The last row moves to the top of the list: above the window.
    version = pane.version
    h.request('items/move', { view = pane.view, version = pane.version, from = pane.count - 1, to = 0 })
    h.wait(function() return pane.version == version + 1 end, 'the move')
    h.eq(item.id, cursor_row(pane).id, 'same item after a move above the window')
    h.eq(30000, api.nvim_win_get_cursor(0)[1], 'its new line')
    h.check_buffer(pane)
    h.eq(full_renders, pane.stats.full_renders, 'no full redraw once ready')
  end },

  { 'sorting the big list indexes it (loading) then shows the new order', function()
    local list = open_big()
    local pane = h.open({ list = list, name = 'Big' })
    h.wait(function() return pane.state == 'ready' end, 'ready', 20000)
    api.nvim_set_current_buf(pane.buf)
    h.answers = { 'title' }
    h.keys('s')
    h.wait(function() return pane.state == 'ready' and pane.sort.by == 'title' and pane.rows[2] and pane.rows[2].title == 'Task 10' end,
      'the title order', 20000)
    h.eq({ 'Task 1', 'Task 10', 'Task 100' }, { pane.rows[1].title, pane.rows[2].title, pane.rows[3].title })
    h.check_buffer(pane)
  end },

  { 'a loading store shows Loading… in the overview and the pane, then the rows', function()
    local list = open_big({ '--hold-load' })
    vim.cmd('Tasks')
    local overview = api.nvim_get_current_buf()
    h.wait(function() return h.lines(overview)[1] == 'Loading… 0%' end, 'the overview loading')
    local pane = h.open({ list = list, name = 'Big' })
    h.eq('loading', pane.state)
    h.eq({ 'Loading… 0%' }, h.lines(pane.buf))
    h.request('debug/continueLoading')
    h.wait(function() return pane.state == 'ready' end, 'the rows', 20000)
    h.eq('  [ ] Task 1', h.lines(pane.buf, 0, 1)[1])
    h.eq(100000, api.nvim_buf_line_count(pane.buf))
    h.wait(function() return table.concat(h.lines(overview), '\n'):find('Big%s+100000/100000') end, 'the overview ready')
  end },

  { 'a store that cannot be opened shows Error: … — press r to retry', function()
    h.setup({ store = '/dev/null/taskls' })
    vim.cmd('Tasks')
    local overview = api.nvim_get_current_buf()
    h.wait(function() return h.lines(overview)[1]:find('^Error: .* — press r to retry$') end, 'the overview error')
    local pane = h.open({ group = 'today' })
    h.eq('error', pane.state)
    h.truthy(h.lines(pane.buf)[1]:find('^Error: .*/dev/null/taskls.* — press r to retry$'), h.lines(pane.buf)[1])
    api.nvim_set_current_buf(pane.buf)
    local version = pane.version
    h.keys('r')
    h.wait(function() return pane.version == version + 2 end, 'retried (loading, then error again)')
    h.eq('error', pane.state)
    h.eq(0, #h.errors)
  end },

  { 'a damaged store (a flipped byte in an earlier journal record) shows the error', function()
    local store, list = h.damaged_store()
    h.setup({ store = store })
    local pane = h.open({ list = list, name = 'Inbox' })
    h.eq('error', pane.state)
    h.truthy(h.lines(pane.buf)[1]:find('^Error: .*journal'), h.lines(pane.buf)[1])
  end },

  { 'a version gap resyncs the window silently', function()
    local list = h.seed('Gap', { 'A', 'B', 'C' })
    local pane = h.open({ list = list, name = 'Gap' })
    pane.version = pane.version - 1 -- as if a notification had been missed
    h.request('items/create', { list = list, title = 'D' })
    h.wait(function() return pane.stats.resyncs == 1 and not pane.resyncing end, 'the resync')
    h.eq({ 'A', 'B', 'C', 'D' }, h.titles(pane))
    h.check_buffer(pane)
    h.eq(0, #h.notes, 'nothing said to the user')
    h.request('items/create', { list = list, title = 'E' })
    h.wait(function() return pane.count == 5 end, 'later changes apply as ops')
    h.eq(1, pane.stats.resyncs)
    h.check_buffer(pane)
  end },
}
