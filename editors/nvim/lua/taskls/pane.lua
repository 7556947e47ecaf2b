-- A list pane: one buffer showing one server view. The buffer has one line per row of the whole
-- view (rows outside the fetched window are placeholder lines, so line numbers and the scrollbar
-- are true); changes arrive as ops and are applied to the changed lines only.
local client = require('taskls.client')
local compat = require('taskls.compat')
local config = require('taskls.config')
local render = require('taskls.render')

local api = vim.api
local levels = vim.log.levels
local value = client.value

local M = {}
local Pane = {}
Pane.__index = Pane
M.Pane = Pane

local ns = api.nvim_create_namespace('taskls')
M.namespace = ns

--- Every open pane, by buffer.
M.panes = {}
local serial = 0

local sort_names = { manual = 'manual', title = 'title', due = 'due', priority = 'priority', created = 'created', modified = 'modified' }

-- Buffer writing -----------------------------------------------------------------------------

--- Writes lines of the pane's buffer. Nothing is written once Neovim is exiting or the buffer is
--- unloaded (its text is being freed: writing then fails with "Failed to delete line").
function Pane:set_lines(first, last, lines)
  if client.state.exiting or not api.nvim_buf_is_loaded(self.buf) then return end
  vim.bo[self.buf].modifiable = true
  api.nvim_buf_set_lines(self.buf, first, last, false, lines)
  vim.bo[self.buf].modifiable = false
  self.stats.set_lines = self.stats.set_lines + 1
  self.stats.lines_written = self.stats.lines_written + #lines
end

--- The display cells a title takes in this pane: what the window's text area (its width less
--- the number and sign columns) leaves beside the other columns, at least 20 (`render.title_width`).
function Pane:title_width()
  local cells = 80
  local win = self:display_window()
  if win ~= nil then
    local info = vim.fn.getwininfo(win)[1]
    cells = api.nvim_win_get_width(win) - (info and info.textoff or 0)
  end
  return render.title_width(cells, self:across_lists())
end

--- Whether the pane's rows come from several lists (a smart group or a smart list): each row
--- then shows its list's name.
function Pane:across_lists()
  return self.source.group ~= nil or self.source.smartList ~= nil
end

function Pane:context()
  self.width = self.width or self:title_width()
  return { show_list = self:across_lists(), list_names = client.state.list_names, title_width = self.width }
end

-- Writes `rows` at buffer line `first` (0-based), replacing `replace` lines there.
function Pane:write_rows(first, rows, replace)
  local lines, marks = {}, {}
  local context = self:context()
  for i, row in ipairs(rows) do lines[i], marks[i] = render.row(row, context) end
  self:set_lines(first, first + replace, lines)
  if client.state.exiting or not api.nvim_buf_is_loaded(self.buf) then return end
  api.nvim_buf_clear_namespace(self.buf, ns, first, first + #rows)
  for i, highlights in ipairs(marks) do
    for _, h in ipairs(highlights) do
      compat.highlight(self.buf, ns, h[1], first + i - 1, h[2], h[3])
    end
  end
end

function Pane:placeholders(n)
  local lines, text = {}, render.placeholder()
  for i = 1, n do lines[i] = text end
  return lines
end

--- Draws the whole buffer: the state line, or every row and placeholder. Only on opening, on a
--- change of state, and on a resync.
function Pane:render_full()
  if client.state.exiting or not api.nvim_buf_is_loaded(self.buf) then return end
  self.stats.full_renders = self.stats.full_renders + 1
  self.width = self:title_width()
  local line, group = render.state_line(self)
  if line ~= nil then
    self.mode = 'state'
    self:set_lines(0, -1, { line })
    api.nvim_buf_clear_namespace(self.buf, ns, 0, -1)
    compat.highlight(self.buf, ns, group, 0, 0, -1)
    return
  end
  self.mode = 'rows'
  local start = math.min(self.window.start, self.count)
  local shown = math.min(#self.rows, self.count - start)
  local lines, marks = self:placeholders(start), {}
  local context = self:context()
  for i = 1, shown do lines[start + i], marks[i] = render.row(self.rows[i], context) end
  local placeholder = render.placeholder()
  for i = start + shown + 1, self.count do lines[i] = placeholder end
  self:set_lines(0, -1, lines)
  api.nvim_buf_clear_namespace(self.buf, ns, 0, -1)
  for i, highlights in ipairs(marks) do
    for _, h in ipairs(highlights) do
      compat.highlight(self.buf, ns, h[1], start + i - 1, h[2], h[3])
    end
  end
end

--- Writes the fetched rows again, and only them (after the title width or the day changed): a
--- 100,000-row list rewrites its window's lines, not its placeholders.
function Pane:redraw_rows()
  if self.mode ~= 'rows' then return self:render_full() end
  self.width = self:title_width()
  local start = math.min(self.window.start, self.count)
  local shown = math.min(#self.rows, self.count - start)
  local rows = {}
  for i = 1, shown do rows[i] = self.rows[i] end
  self:write_rows(start, rows, shown)
end

-- Makes the buffer `count` lines long by adding or removing placeholder lines at its end.
function Pane:fix_tail()
  local lines = api.nvim_buf_line_count(self.buf)
  if lines < self.count then
    self:set_lines(lines, lines, self:placeholders(self.count - lines))
  elseif lines > self.count then
    self:set_lines(self.count, lines, {})
  end
end

-- Cursors ------------------------------------------------------------------------------------

function Pane:windows()
  if not api.nvim_buf_is_valid(self.buf) then return {} end
  return vim.fn.win_findbuf(self.buf)
end

function Pane:row_at_line(line)
  if self.mode ~= 'rows' then return nil end
  return self.rows[line - self.window.start]
end

--- The ids of the ancestors of the row at window index `i` that are rows of the window, nearest
--- first (a parent is always a row above its subtasks).
--- - Complexity: O(i).
function Pane:ancestors_of(i)
  local chain = {}
  local row = self.rows[i]
  local parent = row and value(row.parent)
  for j = i - 1, 1, -1 do
    if parent == nil then break end
    local above = self.rows[j]
    if above.id == parent then
      table.insert(chain, above.id)
      parent = value(above.parent)
    end
  end
  return chain
end

--- Where each window on the pane stands: its line and column, the id of the row there and the
--- ids of that row's ancestors (so a row hidden by collapsing hands the cursor to the row that
--- now stands for it).
function Pane:save_cursors()
  local saved = {}
  for _, win in ipairs(self:windows()) do
    local cursor = api.nvim_win_get_cursor(win)
    local row = self:row_at_line(cursor[1])
    saved[win] = { line = cursor[1], col = cursor[2], id = row and row.id,
                   ancestors = row and self:ancestors_of(cursor[1] - self.window.start) }
  end
  return saved
end

function Pane:line_of(id)
  if self.mode ~= 'rows' then return nil end
  for i, row in ipairs(self.rows) do
    if row.id == id then return self.window.start + i end
  end
  return nil
end

-- The line of a saved cursor's task after a change, or nil when it is not among the fetched rows:
-- its row's line, wherever it went; else, when the row was hidden by collapsing (its nearest
-- ancestor still shown is now collapsed), that ancestor's, as Vim puts the cursor on a closed fold.
function Pane:find_line(cursor)
  local line = cursor.id and self:line_of(cursor.id)
  if line ~= nil then return line end
  for _, id in ipairs(cursor.ancestors or {}) do
    local at = self:line_of(id)
    if at ~= nil then
      if self.rows[at - self.window.start].collapsed == true then return at end
      break
    end
  end
  return nil
end

-- The line of a saved cursor after a change: its task's (`find_line`), else the same line number
-- (the row that took its place).
function Pane:line_for(cursor, count)
  return self:find_line(cursor) or math.min(cursor.line, count)
end

function Pane:restore_cursors(saved)
  local count = api.nvim_buf_line_count(self.buf)
  for win, cursor in pairs(saved) do
    if api.nvim_win_is_valid(win) and api.nvim_win_get_buf(win) == self.buf then
      pcall(api.nvim_win_set_cursor, win, { self:line_for(cursor, count), cursor.col })
    end
  end
end

--- After this pane's own collapse or expand (`saved`: `save_cursors()` before it), puts the
--- current window's cursor back on its task when the change took the task out of the fetched
--- rows (a long list collapsed or expanded far from the cursor): `view/locate` says where its row
--- is now, or the row of the collapsed ancestor that hides it (where Vim puts the cursor on a
--- closed fold); the rows there are fetched as for any move of the cursor. Stops when the cursor
--- was moved meanwhile, or when the pane is behind the answer's version (a later change moved
--- the rows again: the answer no longer holds, and the cursor stays where it is).
--- - Complexity: one request, O(depth × log n) on the server.
function Pane:follow_cursor(saved)
  local win = api.nvim_get_current_win()
  local cursor = saved[win]
  if cursor == nil or cursor.id == nil or self.mode ~= 'rows' or self.view == nil then return end
  if api.nvim_win_get_buf(win) ~= self.buf or self:find_line(cursor) ~= nil then return end
  local left_at = api.nvim_win_get_cursor(win)[1]
  local view = self.view
  client.request('view/locate', { view = view, id = cursor.id }, function(err, found)
    if err ~= nil or found == nil or self.view ~= view or self.closed or self.stopped then return end
    if not api.nvim_win_is_valid(win) or api.nvim_win_get_buf(win) ~= self.buf
      or api.nvim_win_get_cursor(win)[1] ~= left_at or found.version ~= self.version then return end
    local index = value(found.index)
    if index == nil then return end
    pcall(api.nvim_win_set_cursor, win, { index + 1, cursor.col })
    self.stats.located = self.stats.located + 1
    self:schedule_window_check()
  end)
end

-- Applying what the server says --------------------------------------------------------------

local function apply_to_rows(rows, op)
  if op.op == 'insert' then
    table.insert(rows, op.index + 1, op.row)
  elseif op.op == 'remove' then
    table.remove(rows, op.index + 1)
  elseif op.op == 'move' then
    local row = table.remove(rows, op.from + 1)
    if value(op.row) ~= nil then row = op.row end
    table.insert(rows, op.to + 1, row)
  elseif op.op == 'update' then
    rows[op.index + 1] = op.row
  elseif op.op == 'reset' then
    return op.rows
  end
  return rows
end

-- Applies the ops to the rows and to exactly the buffer lines they change.
function Pane:apply_ops(ops)
  local start = self.window.start
  for _, op in ipairs(ops) do
    local kind = op.op
    if kind == 'insert' then
      table.insert(self.rows, op.index + 1, op.row)
      self:write_rows(start + op.index, { op.row }, 0)
    elseif kind == 'remove' then
      table.remove(self.rows, op.index + 1)
      self:set_lines(start + op.index, start + op.index + 1, {})
    elseif kind == 'move' then
      local row = table.remove(self.rows, op.from + 1)
      if value(op.row) ~= nil then row = op.row end
      table.insert(self.rows, op.to + 1, row)
      self:set_lines(start + op.from, start + op.from + 1, {})
      self:write_rows(start + op.to, { row }, 0)
    elseif kind == 'update' then
      self.rows[op.index + 1] = op.row
      self:write_rows(start + op.index, { op.row }, 1)
    elseif kind == 'reset' then
      local old = #self.rows
      self.rows = op.rows
      self:write_rows(start, op.rows, old)
    end
    self.stats.ops = self.stats.ops + 1
  end
end

local function read_state(self, p)
  self.state = value(p.state) or self.state
  self.count = tonumber(value(p.count)) or 0
  self.progress = value(p.progress)
  self.error = value(p.error)
  self.empty = value(p.empty)
end

--- A `view/changed` notification for this pane's view.
function Pane:on_changed(p)
  if client.state.exiting or not api.nvim_buf_is_loaded(self.buf) then return end
  if self.resyncing or self.version == nil then return end
  if p.version <= self.version then return end
  if p.version ~= self.version + 1 then
    self.stats.gaps = self.stats.gaps + 1
    self:resync()
    return
  end
  self.version = p.version
  local saved = self:save_cursors()
  local was_rows = self.mode == 'rows'
  local old_window = self.window
  read_state(self, p)
  local window = value(p.window)
  if window ~= nil then self.window = { start = window.start, ['end'] = window['end'] } end
  local ops = value(p.ops) or {}
  local same_window = old_window.start == self.window.start and old_window['end'] == self.window['end']
  if was_rows and same_window and render.state_line(self) == nil then
    self:apply_ops(ops)
    self:fix_tail()
  else
    for _, op in ipairs(ops) do self.rows = apply_to_rows(self.rows, op) end
    self:render_full()
  end
  for _, op in ipairs(ops) do
    if op.op == 'reset' then self.stats.rows_received = self.stats.rows_received + #op.rows
    elseif value(op.row) ~= nil then self.stats.rows_received = self.stats.rows_received + 1 end
  end
  self:restore_cursors(saved)
  self:schedule_window_check()
end

--- A snapshot (from lists/open, view/setWindow or view/snapshot) replaces what the pane holds.
function Pane:apply_snapshot(snapshot)
  if client.state.exiting or not api.nvim_buf_is_loaded(self.buf) then return end
  local saved = self:save_cursors()
  local was_rows, old_count = self.mode == 'rows', self.count
  local old_window, old_shown = self.window, #self.rows
  self.version = snapshot.version
  read_state(self, snapshot)
  self.sort = value(snapshot.sort) or self.sort
  self.filter = value(snapshot.filter) or self.filter
  self.sections = value(snapshot.sections) or self.sections
  local window = value(snapshot.window) or self.window
  self.window = { start = window.start, ['end'] = window['end'] }
  self.rows = value(snapshot.rows) or {}
  self.stats.rows_received = self.stats.rows_received + #self.rows
  if was_rows and old_count == self.count and render.state_line(self) == nil then
    -- Only the old window's lines go back to placeholders, and the new window's get rows.
    local new_first, new_last = self.window.start, self.window.start + #self.rows
    local first, last = old_window.start, math.min(old_window.start + old_shown, self.count)
    if first < new_first then
      local upto = math.min(last, new_first)
      if upto > first then self:set_lines(first, upto, self:placeholders(upto - first)) end
    end
    if last > new_last then
      local from = math.max(first, new_last)
      if last > from then self:set_lines(from, last, self:placeholders(last - from)) end
    end
    api.nvim_buf_clear_namespace(self.buf, ns, first, last)
    self:write_rows(new_first, self.rows, #self.rows)
  else
    self:render_full()
  end
  self:restore_cursors(saved)
  self:update_name()
end

--- Fetches a fresh snapshot after a version gap, silently.
function Pane:resync()
  if self.view == nil or self.resyncing then return end
  self.resyncing = true
  self.stats.resyncs = self.stats.resyncs + 1
  client.request('view/snapshot', { view = self.view }, function(err, snapshot)
    self.resyncing = false
    if err ~= nil then return false end
    self:apply_snapshot(snapshot)
  end)
end

--- A `view/closed`: the pane's list (`listDeleted`) or smart list (`smartListDeleted`) was
--- deleted; the pane says so until it is closed.
function Pane:on_closed(p)
  self.closed = true
  self.closed_reason = value(p.reason)
  client.unregister(self.view)
  self:render_full()
  local name = tostring(self.name)
  if self.closed_reason == 'smartListDeleted' then
    client.notify('the smart list "' .. name .. '" was deleted', levels.INFO)
  else
    client.notify('the list of "' .. name .. '" was deleted', levels.INFO)
  end
end

function Pane:on_server_exit()
  self.stopped = true
  if client.state.exiting then return end
  self:render_full()
end

-- The window of rows the server sends ---------------------------------------------------------

function Pane:display_window()
  local current = api.nvim_get_current_win()
  if api.nvim_win_get_buf(current) == self.buf then return current end
  return self:windows()[1]
end

function Pane:schedule_window_check()
  if self.window_check_scheduled then return end
  self.window_check_scheduled = true
  vim.schedule(function()
    self.window_check_scheduled = false
    client.guard(self.check_window, self)
  end)
end

--- Moves the server's window to cover what a window shows, plus the margin each side.
--- Does nothing while what is shown is covered, away from the edges.
function Pane:check_window()
  if self.mode ~= 'rows' or self.view == nil or self.closed or self.stopped then return end
  local win = self:display_window()
  if win == nil then return end
  local shown = api.nvim_win_call(win, function() return { vim.fn.line('w0'), vim.fn.line('w$') } end)
  local top, bottom = shown[1], shown[2]
  local first, last = top - 1, math.min(bottom, self.count)
  local margin = config.options.margin
  local w = self.window
  local covered = first >= w.start and last <= w['end']
  local near_top = w.start > 0 and first - w.start < margin / 2
  local near_bottom = w['end'] < self.count and w['end'] - last < margin / 2
  if covered and not near_top and not near_bottom then return end
  if self.window_request ~= nil then
    self.window_again = true
    return
  end
  local start = math.max(0, first - margin)
  local finish = math.min(last + margin, start + 1000)
  if start == w.start and finish == w['end'] then return end
  self.window_request = { start = start, ['end'] = finish }
  self.stats.window_requests = self.stats.window_requests + 1
  client.request('view/setWindow', { view = self.view, window = self.window_request }, function(err, snapshot)
    self.window_request = nil
    if err == nil and snapshot ~= nil then self:apply_snapshot(snapshot) end
    if self.window_again then
      self.window_again = false
      self:schedule_window_check()
    end
    return false
  end)
end

-- Opening and closing ---------------------------------------------------------------------------

function Pane:update_name()
  if not api.nvim_buf_is_valid(self.buf) then return end
  local parts = {}
  local sort = self.sort or {}
  if sort.by ~= nil and (sort.by ~= 'manual' or sort.direction == 'descending') then
    table.insert(parts, 'by ' .. sort.by .. (sort.direction == 'descending' and ' desc' or ''))
  end
  local filter_text = self.filter_text
  if filter_text == nil and type(self.filter) == 'table' then filter_text = self.filter.text end
  if filter_text ~= nil then table.insert(parts, 'filter "' .. filter_text .. '"') end
  if self.sections ~= nil and self.sections ~= 'none' then table.insert(parts, 'sections ' .. self.sections) end
  local name = 'taskls://' .. self.name .. ' #' .. self.serial
  if #parts > 0 then name = name .. ' [' .. table.concat(parts, ', ') .. ']' end
  pcall(api.nvim_buf_set_name, self.buf, name)
end

function Pane:open_params()
  local height = 40
  local win = self:display_window()
  if win ~= nil then height = api.nvim_win_get_height(win) end
  local params = { window = { start = 0, ['end'] = math.min(1000, height + config.options.margin) } }
  if self.source.list ~= nil then
    params.list = self.source.list
  elseif self.source.smartList ~= nil then
    params.smartList = self.source.smartList
  else
    params.group = self.source.group
  end
  if self.sort ~= nil then params.sort = self.sort end
  if self.filter ~= nil and next(self.filter) ~= nil then params.filter = self.filter end
  if self.sections ~= nil then params.sections = self.sections end
  return params
end

--- Opens the server view (again, after a restart of the server).
function Pane:open_view()
  self.stopped, self.closed = false, false
  self.version, self.view = nil, nil
  client.request('lists/open', self:open_params(), function(err, snapshot)
    if err ~= nil then
      self.state, self.error = 'error', { message = err.message }
      self:render_full()
      return false
    end
    if not api.nvim_buf_is_valid(self.buf) then
      client.request('view/close', { view = snapshot.view })
      return
    end
    self.view = snapshot.view
    self:apply_snapshot(snapshot)
    client.register(self.view, self)
    if self.on_ready ~= nil then self.on_ready(self) end
  end)
end

--- Closes the view; the buffer goes too unless `keep_buffer`.
function Pane:close(keep_buffer)
  if self.view ~= nil and not self.closed and not self.stopped and client.running() then
    client.request('view/close', { view = self.view }, function(err) return err ~= nil end)
  end
  if self.view ~= nil then client.unregister(self.view) end
  self.closed = true
  M.panes[self.buf] = nil
  if not keep_buffer and api.nvim_buf_is_valid(self.buf) then
    api.nvim_buf_delete(self.buf, { force = true })
  end
end

local function source_equal(a, b)
  return a.list == b.list and a.group == b.group and a.smartList == b.smartList
end

--- Opens a pane on `source` ({list = ID}, {group = NAME} or {smartList = ID}, with `name`) in the
--- current window;
--- an existing pane on the same source is shown instead unless `opts.new`.
function M.open(source, opts)
  opts = opts or {}
  if not opts.new then
    for buf, pane in pairs(M.panes) do
      if source_equal(pane.source, source) and api.nvim_buf_is_valid(buf) then
        api.nvim_win_set_buf(0, buf)
        return pane
      end
    end
  end
  serial = serial + 1
  local pane = setmetatable({
    source = source,
    name = source.name or source.list or source.group or source.smartList,
    serial = serial,
    rows = {},
    count = 0,
    window = { start = 0, ['end'] = 0 },
    sort = opts.sort,
    filter = opts.filter,
    sections = opts.sections,
    on_ready = opts.on_ready,
    stats = { rows_received = 0, window_requests = 0, resyncs = 0, gaps = 0, full_renders = 0,
              set_lines = 0, lines_written = 0, ops = 0, located = 0 },
  }, Pane)
  local buf = api.nvim_create_buf(false, true)
  pane.buf = buf
  M.panes[buf] = pane
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].swapfile = false
  vim.bo[buf].filetype = 'taskls'
  pane:update_name()
  if config.options.open ~= 'edit' then vim.cmd(config.options.open) end
  api.nvim_win_set_buf(0, buf)
  vim.wo.wrap = false
  pane:render_full()
  require('taskls.actions').attach(pane)
  pane:open_view()
  return pane
end

--- The pane of a buffer (the current one by default), or nil.
function M.get(buf)
  if buf == nil or buf == 0 then buf = api.nvim_get_current_buf() end
  return M.panes[buf]
end

--- Closes every pane (when the server stops for good).
function M.close_all()
  for _, pane in pairs(M.panes) do pane:close() end
  M.panes = {}
end

M.sort_names = sort_names
return M
