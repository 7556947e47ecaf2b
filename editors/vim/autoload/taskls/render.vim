vim9script
# Rows as buffer lines: the text of an item or header row and its highlights, relative due
# dates in the server's day, stored text shown escaped, and the line that stands for a state.

import autoload 'taskls/config.vim'
import autoload 'taskls/client.vim'

# Highlight groups, linked by default to standard ones so colour schemes apply.
export const groups: dict<string> = {
  TasklsHeader: 'Title',
  TasklsDone: 'Comment',
  TasklsCheck: 'Special',
  TasklsOverdue: 'ErrorMsg',
  TasklsToday: 'WarningMsg',
  TasklsDue: 'Constant',
  TasklsPriority: 'WarningMsg',
  TasklsTag: 'Identifier',
  TasklsList: 'Directory',
  TasklsNotes: 'Comment',
  TasklsPlaceholder: 'NonText',
  TasklsState: 'Comment',
  TasklsError: 'ErrorMsg',
  TasklsWarning: 'WarningMsg',
  TasklsCount: 'Number',
  TasklsFold: 'Special',
  TasklsContext: 'Comment',
  TasklsRepeat: 'Special',
}

# Links each group by default (again after a colour scheme is loaded).
export def DefineHighlights()
  for [group, link] in items(groups)
    execute 'highlight default link' group link
  endfor
enddef

# Days from 1970-01-01 of a calendar date (proleptic Gregorian), without any time zone.
export def Days(year: number, month: number, day: number): number
  var y = month <= 2 ? year - 1 : year
  var m = month <= 2 ? month + 12 : month
  return 365 * y + y / 4 - y / 100 + y / 400 + (153 * (m - 3) + 2) / 5 + day - 719469
enddef

# The day number of 'YYYY-MM-DD…', or -1 when it is not one.
export def DayOf(text: string): number
  var parts = matchlist(text, '^\(\d\{4}\)-\(\d\d\)-\(\d\d\)')
  if empty(parts)
    return -1
  endif
  return Days(str2nr(parts[1]), str2nr(parts[2], 10), str2nr(parts[3], 10))
enddef

# The server's today as a day number: the `today` of the last `lists/list` or `lists/changed`
# (the client's day in the zone given at initialize); this machine's day only until one came.
export def Today(): number
  var today = DayOf(client.state.today)
  return today >= 0 ? today : DayOf(strftime('%Y-%m-%d'))
enddef

# Days from today as the REPL words them: "today", "tomorrow", "yesterday", "in N days" and
# "N days ago" within two weeks, else the date.
export def Relative(delta: number, date: string): string
  if delta == 0
    return 'today'
  elseif delta == 1
    return 'tomorrow'
  elseif delta == -1
    return 'yesterday'
  elseif delta >= 2 && delta <= 13
    return 'in ' .. delta .. ' days'
  elseif delta <= -2 && delta >= -13
    return -delta .. ' days ago'
  endif
  return date
enddef

# Seconds since 1970, now (an instant: no zone is involved).
export def Now(): number
  return localtime()
enddef

# A due as [label, group]: the REPL's words ("today", "in 3 days", "2 days ago", the date), with
# the wall-clock time after the day for an instant ("tomorrow 09:30"). Day and time are read from
# `due_local` (the row's `dueLocal`: the due's wall-clock reading in the client's zone,
# `YYYY-MM-DDThh:mm`), never from the offset `due` happens to be written in. Overdue is only the
# group (a day before today, an instant before now), never for a done task.
export def Due(due: string, done: bool, due_local: any = null): list<string>
  var day = DayOf(due)
  if day < 0
    return [Displayed(due), 'TasklsDue']
  endif
  var wall = type(due_local) == v:t_string && DayOf(due_local) >= 0 ? due_local : due
  var wall_day = DayOf(wall)
  var delta = wall_day - Today()
  var label = Relative(delta, wall[0 : 9])
  var overdue = delta < 0
  var time = matchlist(due, '^.\{10}T\(\d\d\):\(\d\d\)[0-9:.]*\(Z\|\([+-]\)\(\d\d\):\(\d\d\)\)\=$')
  if !empty(time)
    var clock = matchstr(wall, '^.\{10}T\zs\d\d:\d\d')
    if clock != ''
      label ..= ' ' .. clock
    endif
    var offset = 0
    if time[4] != ''
      offset = (str2nr(time[5], 10) * 60 + str2nr(time[6], 10)) * 60
      offset = time[4] == '-' ? -offset : offset
    endif
    var instant = day * 86400 + str2nr(time[1], 10) * 3600 + str2nr(time[2], 10) * 60 - offset
    overdue = instant < Now()
  endif
  var group = 'TasklsDue'
  if !done
    if overdue
      group = 'TasklsOverdue'
    elseif delta == 0
      group = 'TasklsToday'
    endif
  endif
  return [label, group]
enddef

# A due in words the quick-entry grammar reads back as the same due: the day (`2026-11-27`), or
# the day and the wall-clock time in the client's zone (`2026-11-27 17:30`, from `dueLocal`);
# '' for no due.
export def DuePhrase(due: any, due_local: any): string
  if type(due) != v:t_string
    return ''
  endif
  if type(due_local) == v:t_string
    var parts = matchlist(due_local, '^\(\d\{4}-\d\d-\d\d\)T\(\d\d:\d\d\)')
    if !empty(parts)
      return parts[1] .. ' ' .. parts[2]
    endif
  endif
  return due
enddef

const named = {10: '\n', 9: '\t', 13: '\r', 27: '\e'}

def NeedsEscape(code: number): bool
  return code <= 0x1F || (code >= 0x7F && code <= 0x9F) || (code >= 0x202A && code <= 0x202E)
    || (code >= 0x2066 && code <= 0x2069)
enddef

# Stored text as the pane shows it, exactly as the REPL's `displayed`: the C0 controls, DEL, the
# C1 controls and the bidi overrides and isolates become visible escapes (`\e`, `\n`, `\t`, `\r`,
# else `\u{HEX}`), and a backslash doubles where it would read as the start of one. No stored
# text reaches the screen raw or spreads over two lines.
# - Complexity: O(n); the text itself when it has nothing to escape.
export def Displayed(text: string): string
  if text !~ '[\x01-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\\]'
    return text
  endif
  var codes = str2list(text)
  var out: list<string> = []
  var i = 0
  var n = len(codes)
  while i < n
    var code = codes[i]
    if code == 0x5C
      add(out, '\')
      if i + 1 < n && (index([0x5C, 0x65, 0x6E, 0x72, 0x74, 0x75], codes[i + 1]) >= 0 || NeedsEscape(codes[i + 1]))
        add(out, '\')
      endif
    elseif NeedsEscape(code)
      add(out, has_key(named, code) ? named[code] : printf('\u{%X}', code))
    else
      add(out, nr2char(code))
    endif
    i += 1
  endwhile
  return join(out, '')
enddef

# `text` cut to at most `width` display cells, ending in `…` when cut, and the cells it takes.
export def Truncate(text: string, width: number): list<any>
  var cells = strdisplaywidth(text)
  if cells <= width
    return [text, cells]
  endif
  var out: list<string> = []
  var used = 0
  for char in split(text, '\zs')
    var w = strdisplaywidth(char)
    if used + w > width - 1
      break
    endif
    add(out, char)
    used += w
  endfor
  return [join(out, '') .. '…', used + 1]
enddef

const priority_marks = {low: '!', medium: '!!', high: '!!!'}

# Tags as `#home #work`.
export def TagsText(tags: any): string
  if type(tags) != v:t_list
    return ''
  endif
  return join(mapnew(tags, (_, t) => '#' .. t), ' ')
enddef

# The columns after the title, in display cells: each starts at the same cell on every row,
# whatever the row holds, so a column never pushes the next. `due` fits the widest label a due
# can make ("13 days ago 09:30"; a date and a time, "9999-12-31 23:59", is 16) and the repeat mark
# after it (` ↻`, `icons.repeat`, on a repeating task's row; up to two cells); `list` is a smart
# group's or smart list's list name in parentheses, cut with `…`; the tags come last and take what
# they need, `tags` being the cells kept for them when the title's width is reckoned.
export const columns = {due: 19, priority: 3, list: 14, tags: 12}

# The cells of the check box column: the wider of the two icons.
export def CheckCells(): number
  var icons = config.Get('icons')
  return max([strdisplaywidth(icons.todo), strdisplaywidth(icons.done)])
enddef

# The cells of the fold column: the wider of the two markers (`▸` and `▾` are East Asian
# Ambiguous, two cells with 'ambiwidth' double).
export def FoldCells(): number
  var icons = config.Get('icons')
  return max([strdisplaywidth(icons.collapsed), strdisplaywidth(icons.expanded)])
enddef

# The display cells before the check box of a row at `depth`: two per level, then the fold
# column and a space.
export def GutterCells(depth: number): number
  return 2 * depth + FoldCells() + 1
enddef

# The fewest cells a title keeps however deep its row is: past that, the indentation pushes the
# columns after the title right rather than cutting the title to nothing.
export const min_title_cells = 10

# The display cells a title column takes in a window whose text area is `cells` wide: what the
# fold column, the check box and the columns after the title leave, at least 20, and at most
# g:taskls_title_width when that is set (not 0). `show_list`: the pane shows each row's list. A
# row at depth d gives 2d of them to its indentation (`Row`).
export def TitleWidth(cells: number, show_list: bool): number
  var other = FoldCells() + 1 + CheckCells() + 1 + 2 + columns.due + 2 + columns.priority + 2 + columns.tags
  if show_list
    other += 2 + columns.list
  endif
  var width = max([20, cells - other])
  var most = config.Get('title_width')
  if type(most) == v:t_number && most > 0
    width = min([width, most])
  endif
  return width
enddef

# `text` padded with spaces to `width` display cells (never cut).
def Padded(text: string, width: number): string
  var cells = strdisplaywidth(text)
  return cells >= width ? text : text .. repeat(' ', width - cells)
enddef

# The line of a row and its highlights: [text, [[group, start byte, end byte], ...]] (0-based,
# end exclusive; -1: to the end of the line). Stored text (titles, tags, list names) goes through
# Displayed. An item row starts with its place in the tree: two spaces per level of `depth`, then
# the fold column (`icons.collapsed` or `icons.expanded` when the row `hasChildren`, else blank)
# and a space, then the check box. The title column takes `context.title_width` display cells less
# the indentation (never fewer than `min_title_cells`): the title, then its subtasks done out of
# `children` (`2/5`, when it has any), then the notes mark; a longer title is cut with `…` by
# display cells, a shorter one padded, so the columns after it line up whatever the depth and the
# script (CJK and emoji take two cells). Then the due (with `icons.repeat`, ↻, after it on a
# repeating task's row: its `repeat` is not null), the priority, the list
# (`context.show_list`: smart groups and smart lists) and the tags, each in its column of `columns`; nothing
# trails the last field a row has. A context row (in the view only as an ancestor of a match) is
# dimmed whole (TasklsContext) but for its fold marker, instead of its fields' own highlights.
export def Row(row: dict<any>, context: dict<any>): list<any>
  var icons = config.Get('icons')
  if get(row, 'kind', 'item') == 'header'
    var count = get(row, 'count', 0)
    var text = printf('%s (%d)', Displayed(get(row, 'title', '')), type(count) == v:t_number ? count : 0)
    return [text, [['TasklsHeader', 0, -1]]]
  endif
  var done = client.IsTrue(get(row, 'done', false))
  # [text, group, width] of each column after the title; the due column's repeat mark has its own
  # highlight (`repeat_mark`: its byte offset in the column's text, -1 when none).
  var fields: list<list<any>> = []
  var due = get(row, 'due', null)
  var label = ''
  var due_group = 'TasklsDue'
  if type(due) == v:t_string
    [label, due_group] = Due(due, done, get(row, 'dueLocal', null))
  endif
  var repeat_mark = -1
  if type(get(row, 'repeat', null)) == v:t_dict
    repeat_mark = label == '' ? 0 : len(label) + 1
    label = (label == '' ? '' : label .. ' ') .. icons.repeat
  endif
  add(fields, [label, due_group, columns.due])
  var priority = get(row, 'priority', 'none')
  add(fields, [type(priority) == v:t_string ? get(priority_marks, priority, '') : '', 'TasklsPriority', columns.priority])
  if get(context, 'show_list', false)
    var name = get(client.state.list_names, get(row, 'list', ''), '')
    var shown = ''
    if type(name) == v:t_string && name != ''
      shown = '(' .. Truncate(Displayed(name), columns.list - 2)[0] .. ')'
    endif
    add(fields, [shown, 'TasklsList', columns.list])
  endif
  var tags = get(row, 'tags', [])
  var words = type(tags) == v:t_list ? join(mapnew(tags, (_, t) => '#' .. Displayed(t)), ' ') : ''
  add(fields, [words, 'TasklsTag', 0])
  # The last column with something in it: nothing is padded after it.
  var last = -1
  for i in range(len(fields))
    if fields[i][0] != ''
      last = i
    endif
  endfor

  var depth = get(row, 'depth', 0)
  depth = type(depth) == v:t_number ? max([0, depth]) : 0
  var indent = repeat(' ', 2 * depth)
  var marker = ''
  if client.IsTrue(get(row, 'hasChildren', false))
    marker = client.IsTrue(get(row, 'collapsed', false)) ? icons.collapsed : icons.expanded
  endif
  var text = indent .. Padded(marker, FoldCells()) .. ' '
  var fold_mark = ['TasklsFold', len(indent), len(indent) + len(marker)]
  var highlights: list<list<any>> = marker != '' ? [fold_mark] : []
  var gutter = len(text)
  var check = done ? icons.done : icons.todo
  text ..= Padded(check, CheckCells()) .. ' '
  add(highlights, ['TasklsCheck', gutter, gutter + len(check)])
  var width = max([get(context, 'title_width', TitleWidth(80, get(context, 'show_list', false))) - 2 * depth, min_title_cells])
  var children = get(row, 'children', 0)
  children = type(children) == v:t_number ? children : 0
  var open = get(row, 'openChildren', 0)
  var tally = children > 0 ? printf('%d/%d', children - (type(open) == v:t_number ? open : 0), children) : ''
  var notes = client.IsTrue(get(row, 'hasNotes', false)) ? icons.notes : ''
  var room = width
  if tally != ''
    room -= len(tally) + 1
  endif
  if notes != ''
    room -= strdisplaywidth(notes) + 1
  endif
  var [title, cells] = Truncate(Displayed(get(row, 'title', '')), max([room, 1]))
  if done
    add(highlights, ['TasklsDone', len(text), len(text) + len(title)])
  endif
  text ..= title
  if tally != ''
    text ..= ' '
    add(highlights, ['TasklsCount', len(text), len(text) + len(tally)])
    text ..= tally
    cells += 1 + len(tally)
  endif
  if notes != ''
    text ..= ' '
    add(highlights, ['TasklsNotes', len(text), len(text) + len(notes)])
    text ..= notes
    cells += 1 + strdisplaywidth(notes)
  endif
  if last >= 0 && cells < width
    text ..= repeat(' ', width - cells)
  endif
  for i in range(last + 1)
    var [field, group, cells_wide] = fields[i]
    text ..= '  '
    if i == 0 && repeat_mark >= 0
      if repeat_mark > 0
        add(highlights, [group, len(text), len(text) + repeat_mark - 1])
      endif
      add(highlights, ['TasklsRepeat', len(text) + repeat_mark, len(text) + len(field)])
    elseif field != ''
      add(highlights, [group, len(text), len(text) + len(field)])
    endif
    text ..= i < last ? Padded(field, cells_wide) : field
  endfor
  if client.IsTrue(get(row, 'context', false))
    highlights = [['TasklsContext', gutter, -1]]
    if marker != ''
      insert(highlights, fold_mark)
    endif
  endif
  return [text, highlights]
enddef

# The line that stands for a row outside the fetched window.
export def Placeholder(): string
  return config.Get('icons').placeholder
enddef

# The line shown instead of rows, [text, group], or [] when rows are shown.
export def StateLine(pane: dict<any>): list<string>
  if pane.closed
    var what = get(pane, 'closed_reason', '') == 'smartListDeleted' ? 'smart list' : 'list'
    return ['This ' .. what .. ' was deleted — press ' .. KeyName('close', ':bwipeout') .. ' to close', 'TasklsError']
  endif
  if pane.stopped
    return ['The server stopped — press ' .. KeyName('retry', ':Tasks') .. ' to restart it', 'TasklsError']
  endif
  if pane.state == 'loading'
    var progress = get(pane, 'progress', 0)
    var percent = type(progress) == v:t_float || type(progress) == v:t_number ? float2nr(round(progress * 100.0)) : 0
    return ['Loading… ' .. percent .. '%', 'TasklsState']
  endif
  if pane.state == 'error'
    var error = get(pane, 'error', {})
    var message = type(error) == v:t_dict ? get(error, 'message', 'unknown error') : 'unknown error'
    return ['Error: ' .. Displayed(type(message) == v:t_string ? message : string(message)) .. ' — press ' .. KeyName('retry', ':TasksRestart') .. ' to retry', 'TasklsError']
  endif
  if pane.state == ''
    return ['Opening…', 'TasklsState']
  endif
  if pane.count == 0
    if pane.empty == 'noMatches'
      return ['No matches — clear the filter with ' .. KeyName('filter', ':Tasks'), 'TasklsState']
    endif
    return ['No tasks — press ' .. KeyName('add', ':Tasks') .. ' to add one', 'TasklsState']
  endif
  return []
enddef

# The key of `action` as the user types it, or `fallback` when it is unmapped.
export def KeyName(action: string, fallback: string): string
  if config.Get('no_maps')
    return fallback
  endif
  var key = config.Key(action)
  return key == '' ? fallback : key
enddef

augroup taskls_highlights
  autocmd!
  autocmd ColorScheme * DefineHighlights()
augroup END
DefineHighlights()
