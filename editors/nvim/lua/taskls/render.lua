-- Rows as buffer lines: the text of an item or header row, its highlights, relative due dates,
-- and the lines that stand for a view's state.
local config = require('taskls.config')

local M = {}

local function nonnil(v)
  if v == vim.NIL then return nil end
  return v
end

--- Highlight groups, linked to standard ones so colour schemes apply.
M.groups = {
  TasklsHeader = 'Title',
  TasklsDone = 'Comment',
  TasklsCheck = 'Special',
  TasklsOverdue = 'ErrorMsg',
  TasklsToday = 'WarningMsg',
  TasklsDue = 'Constant',
  TasklsPriority = 'WarningMsg',
  TasklsTag = 'Identifier',
  TasklsList = 'Directory',
  TasklsNotes = 'Comment',
  TasklsPlaceholder = 'NonText',
  TasklsState = 'Comment',
  TasklsError = 'ErrorMsg',
  TasklsCount = 'Number',
}

function M.define_highlights()
  for group, link in pairs(M.groups) do
    vim.cmd(('highlight default link %s %s'):format(group, link))
  end
end

-- Days from 1970-01-01 of a calendar date (proleptic Gregorian), without the C library's zones.
local function days(y, m, d)
  if m <= 2 then y, m = y - 1, m + 12 end
  return 365 * y + math.floor(y / 4) - math.floor(y / 100) + math.floor(y / 400)
    + math.floor((153 * (m - 3) + 2) / 5) + d - 719469
end
M.days = days

--- Today's day number in the local zone (tests may replace it).
function M.today()
  local t = os.date('*t')
  return days(t.year, t.month, t.day)
end

--- A due (`YYYY-MM-DD` or an instant with an offset) as {label, group}: "today", "tomorrow",
--- "2d overdue", "in 3d", or the date; a time is shown after the day ("today 14:00").
function M.due(due, done)
  local y, m, d, rest = due:match('^(%d%d%d%d)%-(%d%d)%-(%d%d)(.*)$')
  if y == nil then return due, 'TasklsDue' end
  local day = days(tonumber(y), tonumber(m), tonumber(d))
  local time = rest:match('^T(%d%d:%d%d)')
  local delta = day - M.today()
  local label
  if delta == 0 then label = 'today'
  elseif delta == 1 then label = 'tomorrow'
  elseif delta == -1 then label = 'yesterday'
  elseif delta < 0 then label = (-delta) .. 'd overdue'
  elseif delta < 7 then label = 'in ' .. delta .. 'd'
  else label = ('%s-%s-%s'):format(y, m, d) end
  if delta == -1 and not done then label = '1d overdue' end
  if time ~= nil then label = label .. ' ' .. time end
  local group = 'TasklsDue'
  if not done then
    if delta < 0 then group = 'TasklsOverdue' elseif delta == 0 then group = 'TasklsToday' end
  end
  return label, group
end

local priority_marks = { low = '!', medium = '!!', high = '!!!' }

--- The line of a row and its highlights ({group, start column, end column}, end -1: to the end).
--- `context.show_list` adds the list's name (panes on smart groups); `context.list_names` maps ids.
function M.row(row, context)
  context = context or {}
  local icons = config.options.icons
  if row.kind == 'header' then
    local text = ('%s (%d)'):format(row.title or '', tonumber(nonnil(row.count)) or 0)
    return text, { { 'TasklsHeader', 0, -1 } }
  end
  local highlights = {}
  local done = row.done == true
  local check = done and icons.done or icons.todo
  local parts = { check, ' ', row.title or '' }
  local col = #check + 1 + #(row.title or '')
  table.insert(highlights, { 'TasklsCheck', 0, #check })
  if done then table.insert(highlights, { 'TasklsDone', #check + 1, col }) end
  local function add(text, group)
    table.insert(parts, '  ')
    col = col + 2
    table.insert(parts, text)
    table.insert(highlights, { group, col, col + #text })
    col = col + #text
  end
  if row.hasNotes == true then add(icons.notes, 'TasklsNotes') end
  local due = nonnil(row.due)
  if due ~= nil then
    local label, group = M.due(due, done)
    add(label, group)
  end
  local marks = priority_marks[nonnil(row.priority) or 'none']
  if marks ~= nil then add(marks, 'TasklsPriority') end
  local tags = nonnil(row.tags)
  if type(tags) == 'table' and #tags > 0 then
    local words = {}
    for _, tag in ipairs(tags) do table.insert(words, '#' .. tag) end
    add(table.concat(words, ' '), 'TasklsTag')
  end
  if context.show_list and context.list_names ~= nil then
    local name = context.list_names[row.list]
    if name ~= nil then add('(' .. name .. ')', 'TasklsList') end
  end
  return table.concat(parts), highlights
end

--- The line that stands for a row outside the fetched window.
function M.placeholder()
  return config.options.icons.placeholder
end

--- The single line shown instead of rows, or nil when rows are shown.
function M.state_line(pane)
  if pane.closed then
    return 'This list was deleted — press q to close', 'TasklsError'
  end
  if pane.stopped then
    return 'The server stopped — press r to restart it', 'TasklsError'
  end
  if pane.state == 'loading' then
    local progress = tonumber(pane.progress) or 0
    return ('Loading… %d%%'):format(math.floor(progress * 100 + 0.5)), 'TasklsState'
  end
  if pane.state == 'error' then
    local message = type(pane.error) == 'table' and nonnil(pane.error.message) or 'unknown error'
    return 'Error: ' .. tostring(message):gsub('\n', ' ') .. ' — press r to retry', 'TasklsError'
  end
  if pane.state == nil then return 'Opening…', 'TasklsState' end
  if (pane.count or 0) == 0 then
    if pane.empty == 'noMatches' then return 'No matches — press / to change the filter', 'TasklsState' end
    return 'No tasks — press a to add one', 'TasklsState'
  end
  return nil
end

return M
