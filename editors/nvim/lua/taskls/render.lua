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

--- A due (`YYYY-MM-DD` or an instant with an offset) as {label, group}: the REPL's words
--- ("today", "in 3 days", "2 days ago", the date), with the wall-clock time after the day for an
--- instant ("tomorrow 09:30", read in the offset the server wrote it in). Overdue is only the
--- highlight (a day before today, an instant before now), and never for a done task.
function M.due(due, done)
  local y, m, d, rest = due:match('^(%d%d%d%d)%-(%d%d)%-(%d%d)(.*)$')
  if y == nil then return M.displayed(due), 'TasklsDue' end
  local day = days(tonumber(y), tonumber(m), tonumber(d))
  local delta = day - M.today()
  local label = M.relative(delta, ('%s-%s-%s'):format(y, m, d))
  local overdue = delta < 0
  local hour, minute, zone = rest:match('^T(%d%d):(%d%d)[%d:.]*(.*)$')
  if hour ~= nil then
    label = label .. ' ' .. hour .. ':' .. minute
    local offset = 0
    local sign, oh, om = zone:match('^([+-])(%d%d):(%d%d)$')
    if sign ~= nil then
      offset = (tonumber(oh) * 60 + tonumber(om)) * 60
      if sign == '-' then offset = -offset end
    end
    local instant = day * 86400 + tonumber(hour) * 3600 + tonumber(minute) * 60 - offset
    overdue = instant < M.now()
  end
  local group = 'TasklsDue'
  if not done then
    if overdue then group = 'TasklsOverdue' elseif delta == 0 then group = 'TasklsToday' end
  end
  return label, group
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

--- The line of a row and its highlights ({group, start column, end column}, end -1: to the end).
--- Stored text (titles, tags, list names) is shown through `displayed`. The title takes
--- `context.title_width` display cells when fields follow it: a longer one is cut with `…`, a
--- shorter one padded, so the due column lines up whatever the script (CJK and emoji take two
--- cells). `context.show_list` adds the list's name (panes on smart groups); `context.list_names`
--- maps ids.
function M.row(row, context)
  context = context or {}
  local icons = config.options.icons
  if row.kind == 'header' then
    local text = ('%s (%d)'):format(M.displayed(row.title or ''), tonumber(nonnil(row.count)) or 0)
    return text, { { 'TasklsHeader', 0, -1 } }
  end
  local done = row.done == true
  local check = done and icons.done or icons.todo
  local fields = {}
  local function add(text, group) table.insert(fields, { text, group }) end
  if row.hasNotes == true then add(icons.notes, 'TasklsNotes') end
  local due = nonnil(row.due)
  if due ~= nil then add(M.due(due, done)) end
  local marks = priority_marks[nonnil(row.priority) or 'none']
  if marks ~= nil then add(marks, 'TasklsPriority') end
  local tags = nonnil(row.tags)
  if type(tags) == 'table' and #tags > 0 then
    local words = {}
    for _, tag in ipairs(tags) do table.insert(words, '#' .. M.displayed(tag)) end
    add(table.concat(words, ' '), 'TasklsTag')
  end
  if context.show_list and context.list_names ~= nil then
    local name = context.list_names[row.list]
    if name ~= nil then add('(' .. M.displayed(name) .. ')', 'TasklsList') end
  end
  local width = context.title_width or config.options.title_width
  local title, cells = M.truncate(M.displayed(row.title or ''), width)
  local title_end = #check + 1 + #title
  if #fields > 0 and cells < width then title = title .. (' '):rep(width - cells) end
  local parts = { check, ' ', title }
  local highlights = { { 'TasklsCheck', 0, #check } }
  if done then table.insert(highlights, { 'TasklsDone', #check + 1, title_end }) end
  local col = #check + 1 + #title
  for _, field in ipairs(fields) do
    table.insert(parts, '  ')
    col = col + 2
    table.insert(parts, field[1])
    table.insert(highlights, { field[2], col, col + #field[1] })
    col = col + #field[1]
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
