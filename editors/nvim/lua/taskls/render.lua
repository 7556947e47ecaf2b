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
  TasklsWarning = 'WarningMsg',
  TasklsCount = 'Number',
  TasklsFold = 'Special',
  TasklsContext = 'Comment',
  TasklsRepeat = 'Special',
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

--- The server's today as a day number: the `today` ("YYYY-MM-DD") of the last `lists/list` or
--- `lists/changed`, in the time zone `initialize` gave; before one arrived (or from a server that
--- does not send it), this machine's day (UTC when the configured zone is UTC).
function M.today()
  local today = require('taskls.client').state.today
  if type(today) == 'string' then
    local y, m, d = today:match('^(%d%d%d%d)%-(%d%d)%-(%d%d)$')
    if y ~= nil then return days(tonumber(y), tonumber(m), tonumber(d)) end
  end
  local t = os.date(config.options.time_zone == 'UTC' and '!*t' or '*t')
  return days(t.year, t.month, t.day)
end

--- Seconds since 1970 now (tests may replace it).
function M.now() return os.time() end

--- Days from today as the REPL words them (`relative(days:date:)`): "today", "tomorrow",
--- "yesterday", "in N days" and "N days ago" within two weeks, else the date.
function M.relative(delta, date)
  if delta == 0 then return 'today' end
  if delta == 1 then return 'tomorrow' end
  if delta == -1 then return 'yesterday' end
  if delta >= 2 and delta <= 13 then return 'in ' .. delta .. ' days' end
  if delta <= -2 and delta >= -13 then return (-delta) .. ' days ago' end
  return date
end

--- A due as {label, group}: the REPL's words ("today", "in 3 days", "2 days ago", the date),
--- with the wall-clock time after the day for a date-time ("tomorrow 09:30"). Day and time are
--- read from `due_local` (the row's `dueLocal`: the due's wall-clock reading in the client's
--- zone, `YYYY-MM-DDThh:mm`), never from the offset `due` happens to be written in. Overdue is
--- only the highlight (a day before today, an instant before now), and never for a done task.
function M.due(due, done, due_local)
  local y, m, d, rest = due:match('^(%d%d%d%d)%-(%d%d)%-(%d%d)(.*)$')
  if y == nil then return M.displayed(due), 'TasklsDue' end
  local wall = type(due_local) == 'string' and due_local or due
  local wy, wm, wd = wall:match('^(%d%d%d%d)%-(%d%d)%-(%d%d)')
  if wy == nil then wy, wm, wd = y, m, d end
  local clock = wall:match('^%d%d%d%d%-%d%d%-%d%dT(%d%d:%d%d)')
  local delta = days(tonumber(wy), tonumber(wm), tonumber(wd)) - M.today()
  local label = M.relative(delta, ('%s-%s-%s'):format(wy, wm, wd))
  local overdue = delta < 0
  local hour, minute, zone = rest:match('^T(%d%d):(%d%d)[%d:.]*(.*)$')
  if hour ~= nil then
    if clock ~= nil then label = label .. ' ' .. clock end
    local offset = 0
    local sign, oh, om = zone:match('^([+-])(%d%d):(%d%d)$')
    if sign ~= nil then
      offset = (tonumber(oh) * 60 + tonumber(om)) * 60
      if sign == '-' then offset = -offset end
    end
    local day = days(tonumber(y), tonumber(m), tonumber(d))
    local instant = day * 86400 + tonumber(hour) * 3600 + tonumber(minute) * 60 - offset
    overdue = instant < M.now()
  end
  local group = 'TasklsDue'
  if not done then
    if overdue then group = 'TasklsOverdue' elseif delta == 0 then group = 'TasklsToday' end
  end
  return label, group
end

--- A due in words the quick-entry grammar reads back as the same due: the day (`2026-11-27`),
--- or the day and the wall-clock time in the client's zone (`2026-11-27 17:30`, from `dueLocal`);
--- '' for no due.
function M.due_phrase(due, due_local)
  due, due_local = nonnil(due), nonnil(due_local)
  if type(due) ~= 'string' then return '' end
  if type(due_local) == 'string' then
    local day, clock = due_local:match('^(%d%d%d%d%-%d%d%-%d%d)T(%d%d:%d%d)')
    if day ~= nil then return day .. ' ' .. clock end
  end
  return due
end

-- Stored text, shown ----------------------------------------------------------------------------

local named_escapes = { [10] = '\\n', [9] = '\\t', [13] = '\\r', [27] = '\\e' }

local function needs_escape(code)
  return code <= 0x1F or (code >= 0x7F and code <= 0x9F) or (code >= 0x202A and code <= 0x202E)
    or (code >= 0x2066 and code <= 0x2069)
end

-- The code point of one UTF-8 character (a stray byte stands for itself).
local function code_of(char)
  local b = char:byte(1)
  if #char == 1 then return b end
  if #char == 2 then return (b % 32) * 64 + char:byte(2) % 64 end
  if #char == 3 then return (b % 16) * 4096 + (char:byte(2) % 64) * 64 + char:byte(3) % 64 end
  return (b % 8) * 262144 + (char:byte(2) % 64) * 4096 + (char:byte(3) % 64) * 64 + char:byte(4) % 64
end

--- Stored text as the pane shows it, exactly as the REPL's `displayed`: the C0 controls, DEL, the
--- C1 controls and the bidi overrides and isolates become visible escapes (`\e`, `\n`, `\t`, `\r`,
--- else `\u{HEX}`), and a backslash doubles where it would read as the start of one, so no stored
--- text can reach the terminal raw or spread over two lines.
--- - Complexity: O(n); the text itself when it has nothing to escape.
function M.displayed(text)
  if not text:find('[%z\1-\31\127\\\194\226]') then return text end
  local chars = {}
  for char in text:gmatch('[%z\1-\127\192-\255][\128-\191]*') do table.insert(chars, char) end
  local out = {}
  for i, char in ipairs(chars) do
    local code = code_of(char)
    if char == '\\' then
      table.insert(out, '\\')
      local next_char = chars[i + 1]
      if next_char ~= nil and (next_char:match('^[\\enrtu]$') or needs_escape(code_of(next_char))) then
        table.insert(out, '\\')
      end
    elseif needs_escape(code) then
      table.insert(out, named_escapes[code] or ('\\u{%X}'):format(code))
    else
      table.insert(out, char)
    end
  end
  return table.concat(out)
end

--- `text` cut to at most `width` display cells, ending in `…` when it was cut (by cells:
--- `strdisplaywidth`, so CJK and emoji count two), and the cells it then takes.
function M.truncate(text, width)
  local cells = vim.fn.strdisplaywidth(text)
  if cells <= width then return text, cells end
  local chars = vim.fn.split(text, '\\zs')
  local out, used = {}, 0
  for _, char in ipairs(chars) do
    local w = vim.fn.strdisplaywidth(char)
    if used + w > width - 1 then break end
    table.insert(out, char)
    used = used + w
  end
  return table.concat(out) .. '…', used + 1
end

local priority_marks = { low = '!', medium = '!!', high = '!!!' }

--- The columns after the title, in display cells: each starts at the same cell on every row,
--- whatever the row holds, so a column never pushes the next. `due` fits the widest label
--- `due` can make ("13 days ago 09:30"; a date-time's date, "9999-12-31 23:59", is 16) and the
--- repeat mark after it (` ↻`, `M.repeat_mark`, on a repeating task's row); `list`
--- is a smart group's list name in parentheses, cut with `…`; the tags come last and take what
--- they need, `tags` being the cells kept for them when the title's width is reckoned.
M.columns = { due = 19, priority = 3, list = 14, tags = 12 }

--- What follows the due of a repeating task (a row whose `repeat` is not null).
M.repeat_mark = '↻'

local function check_cells()
  local icons = config.options.icons
  return math.max(vim.fn.strdisplaywidth(icons.todo), vim.fn.strdisplaywidth(icons.done))
end

--- The display cells of the fold column: the wider of the two markers (`▸` and `▾` are
--- East Asian Ambiguous, two cells with 'ambiwidth' double).
local function fold_cells()
  local icons = config.options.icons
  return math.max(vim.fn.strdisplaywidth(icons.collapsed), vim.fn.strdisplaywidth(icons.expanded))
end

--- The display cells before the check box of a row at `depth`: two per level, then the fold
--- column and a space.
function M.gutter_cells(depth)
  return 2 * (depth or 0) + fold_cells() + 1
end

--- The fewest cells a title keeps however deep its row is: past that, the indentation pushes
--- the columns after the title right rather than cutting the title to nothing.
M.min_title_cells = 10

--- The display cells a title column takes in a window whose text area is `cells` wide: what the
--- fold column, the check box and the columns after the title leave, at least 20. `show_list`:
--- the pane shows each row's list (a smart group). A row at depth d gives 2d of them to its
--- indentation (`M.row`).
function M.title_width(cells, show_list)
  local c = M.columns
  local other = fold_cells() + 1 + check_cells() + 1 + 2 + c.due + 2 + c.priority + 2 + c.tags
  if show_list then other = other + 2 + c.list end
  return math.max(20, cells - other)
end

--- `text` padded with spaces to `width` display cells (never cut).
local function padded(text, width)
  local cells = vim.fn.strdisplaywidth(text)
  if cells >= width then return text end
  return text .. (' '):rep(width - cells)
end

--- The line of a row and its highlights ({group, start column, end column}, end -1: to the end).
--- Stored text (titles, tags, list names) is shown through `displayed`. An item row starts with
--- its place in the tree: two spaces per level of `depth`, then the fold column (`icons.collapsed`
--- or `icons.expanded` when the row `hasChildren`, else blank) and a space, then the check box. The
--- title column takes `context.title_width` display cells less the indentation (never fewer than
--- `M.min_title_cells`): the title, then its subtasks done out of `children` (`2/5`, when it has
--- any), then the notes mark; a longer title is cut with `…`, a shorter one padded, so the
--- columns after it line up whatever the depth and the script (CJK and emoji take two cells).
--- Then the due (followed by ` ↻` when the task repeats: the row's `repeat` is not null), the
--- priority, the list (`context.show_list`, with `context.list_names` mapping
--- ids; smart groups) and the tags, each in its column of `M.columns`; nothing trails the last
--- field a row has. A context row (in the view only as an ancestor of a match) is dimmed whole
--- (TasklsContext) instead of its fields' own highlights.
function M.row(row, context)
  context = context or {}
  local icons = config.options.icons
  if row.kind == 'header' then
    local text = ('%s (%d)'):format(M.displayed(row.title or ''), tonumber(nonnil(row.count)) or 0)
    return text, { { 'TasklsHeader', 0, -1 } }
  end
  local done = row.done == true
  local columns = {}
  local function add(text, group, width, extra)
    table.insert(columns, { text = text, group = group, width = width, extra = extra })
  end
  local due, due_group = nonnil(row.due), nil
  if due ~= nil then due, due_group = M.due(due, done, nonnil(row.dueLocal)) end
  if nonnil(row['repeat']) ~= nil then
    -- The mark has its own highlight: {group, first byte, byte after it} within the column's text.
    local first = due ~= nil and #due + 1 or 0
    local text = (due ~= nil and (due .. ' ') or '') .. M.repeat_mark
    add(text, due_group, M.columns.due, { 'TasklsRepeat', first, first + #M.repeat_mark })
  else
    add(due or '', due_group, M.columns.due)
  end
  add(priority_marks[nonnil(row.priority) or 'none'] or '', 'TasklsPriority', M.columns.priority)
  if context.show_list then
    local name = context.list_names ~= nil and context.list_names[row.list] or nil
    local text = ''
    if name ~= nil then text = '(' .. M.truncate(M.displayed(name), M.columns.list - 2) .. ')' end
    add(text, 'TasklsList', M.columns.list)
  end
  local tags = nonnil(row.tags)
  local words = {}
  if type(tags) == 'table' then
    for _, tag in ipairs(tags) do table.insert(words, '#' .. M.displayed(tag)) end
  end
  add(table.concat(words, ' '), 'TasklsTag', 0)
  -- The last column with something in it: nothing is padded after it.
  local last = 0
  for i, column in ipairs(columns) do if column.text ~= '' then last = i end end

  local depth = math.max(0, tonumber(nonnil(row.depth)) or 0)
  local indent = (' '):rep(2 * depth)
  local marker = ''
  if row.hasChildren == true then marker = row.collapsed == true and icons.collapsed or icons.expanded end
  local parts = { indent, padded(marker, fold_cells()), ' ' }
  local highlights = {}
  if marker ~= '' then table.insert(highlights, { 'TasklsFold', #indent, #indent + #marker }) end
  local gutter = #table.concat(parts)
  local check = done and icons.done or icons.todo
  table.insert(parts, padded(check, check_cells()) .. ' ')
  table.insert(highlights, { 'TasklsCheck', gutter, gutter + #check })
  local col = #table.concat(parts)
  local width = math.max((context.title_width or M.title_width(80, context.show_list)) - 2 * depth, M.min_title_cells)
  local children = tonumber(nonnil(row.children)) or 0
  local tally = nil
  if children > 0 then tally = ('%d/%d'):format(children - (tonumber(nonnil(row.openChildren)) or 0), children) end
  local notes = row.hasNotes == true and icons.notes or nil
  local room = width
  if tally ~= nil then room = room - #tally - 1 end
  if notes ~= nil then room = room - vim.fn.strdisplaywidth(notes) - 1 end
  local title = M.truncate(M.displayed(row.title or ''), math.max(room, 1))
  table.insert(parts, title)
  if done then table.insert(highlights, { 'TasklsDone', col, col + #title }) end
  col = col + #title
  local cells = vim.fn.strdisplaywidth(title)
  if tally ~= nil then
    table.insert(parts, ' ' .. tally)
    table.insert(highlights, { 'TasklsCount', col + 1, col + 1 + #tally })
    col = col + 1 + #tally
    cells = cells + 1 + #tally
  end
  if notes ~= nil then
    table.insert(parts, ' ' .. notes)
    table.insert(highlights, { 'TasklsNotes', col + 1, col + 1 + #notes })
    col = col + 1 + #notes
    cells = cells + 1 + vim.fn.strdisplaywidth(notes)
  end
  if last > 0 and cells < width then
    table.insert(parts, (' '):rep(width - cells))
    col = col + width - cells
  end
  for i = 1, last do
    local column = columns[i]
    local text = i < last and padded(column.text, column.width) or column.text
    table.insert(parts, '  ' .. text)
    col = col + 2
    if column.extra ~= nil then
      local first = column.extra[2]
      if first > 0 and column.group ~= nil then table.insert(highlights, { column.group, col, col + first - 1 }) end
      table.insert(highlights, { column.extra[1], col + first, col + column.extra[3] })
    elseif column.text ~= '' and column.group ~= nil then
      table.insert(highlights, { column.group, col, col + #column.text })
    end
    col = col + #text
  end
  if row.context == true then
    highlights = { { 'TasklsContext', gutter, -1 } }
    if marker ~= '' then table.insert(highlights, 1, { 'TasklsFold', #indent, #indent + #marker }) end
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
    if pane.closed_reason == 'smartListDeleted' then
      return 'This smart list was deleted — press q to close', 'TasklsError'
    end
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
    return 'Error: ' .. M.displayed(tostring(message)) .. ' — press r to retry', 'TasklsError'
  end
  if pane.state == nil then return 'Opening…', 'TasklsState' end
  if (pane.count or 0) == 0 then
    if pane.empty == 'noMatches' then
      return ('No matches — press %s to change the filter'):format(config.options.keymaps.filter or ':Tasks'), 'TasklsState'
    end
    return 'No tasks — press a to add one', 'TasklsState'
  end
  return nil
end

return M
