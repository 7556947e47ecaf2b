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
  TasklsCount: 'Number',
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

# A due (`YYYY-MM-DD`, or an instant with its offset) as [label, group]: the REPL's words, with
# the wall-clock time after the day for an instant ("tomorrow 09:30", as the server wrote it).
# Overdue is only the group (a day before today, an instant before now), never for a done task.
export def Due(due: string, done: bool): list<string>
  var day = DayOf(due)
  if day < 0
    return [Displayed(due), 'TasklsDue']
  endif
  var delta = day - Today()
  var label = Relative(delta, due[0 : 9])
  var overdue = delta < 0
  var time = matchlist(due, '^.\{10}T\(\d\d\):\(\d\d\)[0-9:.]*\(Z\|\([+-]\)\(\d\d\):\(\d\d\)\)\=$')
  if !empty(time)
    label ..= ' ' .. time[1] .. ':' .. time[2]
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

# The line of a row and its highlights: [text, [[group, start byte, end byte], ...]] (0-based,
# end exclusive; -1: to the end of the line). Stored text goes through Displayed. The title
# takes `context.title_width` cells when fields follow it (cut with `…`, or padded), so the due
# column lines up whatever the script. `context.show_list` adds the list's name (smart groups).
export def Row(row: dict<any>, context: dict<any>): list<any>
  var icons = config.Get('icons')
  if get(row, 'kind', 'item') == 'header'
    var count = get(row, 'count', 0)
    var text = printf('%s (%d)', Displayed(get(row, 'title', '')), type(count) == v:t_number ? count : 0)
    return [text, [['TasklsHeader', 0, -1]]]
  endif
  var done = client.IsTrue(get(row, 'done', false))
  var check = done ? icons.done : icons.todo
  var fields: list<list<string>> = []
  if client.IsTrue(get(row, 'hasNotes', false))
    add(fields, [icons.notes, 'TasklsNotes'])
  endif
  var due = get(row, 'due', null)
  if type(due) == v:t_string
    add(fields, Due(due, done))
  endif
  var priority = get(row, 'priority', 'none')
  if type(priority) == v:t_string && has_key(priority_marks, priority)
    add(fields, [priority_marks[priority], 'TasklsPriority'])
  endif
  var tags = get(row, 'tags', [])
  if type(tags) == v:t_list && !empty(tags)
    add(fields, [join(mapnew(tags, (_, t) => '#' .. Displayed(t)), ' '), 'TasklsTag'])
  endif
  if get(context, 'show_list', false)
    var name = get(client.state.list_names, get(row, 'list', ''), '')
    if name != ''
      add(fields, ['(' .. Displayed(name) .. ')', 'TasklsList'])
    endif
  endif
  var width = get(context, 'title_width', config.Get('title_width'))
  var [title, cells] = Truncate(Displayed(get(row, 'title', '')), width)
  var title_end = len(check) + 1 + len(title)
  if !empty(fields) && cells < width
    title ..= repeat(' ', width - cells)
  endif
  var text = check .. ' ' .. title
  var highlights: list<list<any>> = [['TasklsCheck', 0, len(check)]]
  if done
    add(highlights, ['TasklsDone', len(check) + 1, title_end])
  endif
  for [field, group] in fields
    text ..= '  '
    add(highlights, [group, len(text), len(text) + len(field)])
    text ..= field
  endfor
  return [text, highlights]
enddef

# The line that stands for a row outside the fetched window.
export def Placeholder(): string
  return config.Get('icons').placeholder
enddef

# The line shown instead of rows, [text, group], or [] when rows are shown.
export def StateLine(pane: dict<any>): list<string>
  if pane.closed
    return ['This list was deleted — press ' .. KeyName('close', ':bwipeout') .. ' to close', 'TasklsError']
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
