vim9script
# The buffer of a list pane: writing exactly the lines that change (setbufline, appendbufline,
# deletebufline on the loaded buffer, with 'modifiable' on only while writing), their text
# properties, and the windows that show it, whose cursors stay on the same row id.

import autoload 'taskls/client.vim'
import autoload 'taskls/config.vim'
import autoload 'taskls/render.vim'

export def Live(pane: dict<any>): bool
  return !client.state.exiting && bufexists(pane.buf) && bufloaded(pane.buf)
enddef

# Replaces lines [first, last) (0-based) of the pane's buffer with `lines`, touching only
# those: setbufline for the lines replaced, appendbufline / deletebufline for the difference.
export def SetLines(pane: dict<any>, first: number, last: number, lines: list<string>)
  if !Live(pane)
    return
  endif
  var buf = pane.buf
  setbufvar(buf, '&modifiable', 1)
  var old = last - first
  var new = len(lines)
  var same = min([old, new])
  if same > 0
    setbufline(buf, first + 1, lines[0 : same - 1])
  endif
  if new > old
    appendbufline(buf, first + old, lines[same :])
  elseif old > new
    silent deletebufline(buf, first + new + 1, last)
  endif
  setbufvar(buf, '&modifiable', 0)
  setbufvar(buf, '&modified', 0)
  pane.stats.set_lines += 1
  pane.stats.lines_written += new
enddef

# Replaces the whole buffer with `lines`.
export def SetAll(pane: dict<any>, lines: list<string>)
  if !Live(pane)
    return
  endif
  var count = getbufinfo(pane.buf)[0].linecount
  SetLines(pane, 0, count, lines)
  # A buffer has at least one line: an empty list left the old first one.
  if empty(lines) && getbufinfo(pane.buf)[0].linecount == 1
    setbufvar(pane.buf, '&modifiable', 1)
    setbufline(pane.buf, 1, '')
    setbufvar(pane.buf, '&modifiable', 0)
  endif
enddef

export def LineCount(pane: dict<any>): number
  return bufloaded(pane.buf) ? getbufinfo(pane.buf)[0].linecount : 0
enddef

# Adds the highlights of lines starting at buffer line `first` (0-based): one prop_add_list
# per highlight group.
export def AddProps(pane: dict<any>, first: number, texts: list<string>, marks: list<list<any>>)
  var by_group: dict<list<list<number>>> = {}
  for i in range(len(marks))
    var lnum = first + i + 1
    for mark in marks[i]
      var finish = mark[2] < 0 ? len(texts[i]) : mark[2]
      if finish <= mark[1]
        continue
      endif
      if !has_key(by_group, mark[0])
        by_group[mark[0]] = []
      endif
      add(by_group[mark[0]], [lnum, mark[1] + 1, lnum, finish + 1])
    endfor
  endfor
  for [group, spots] in items(by_group)
    prop_add_list({bufnr: pane.buf, type: group}, spots)
  endfor
enddef

export def ClearProps(pane: dict<any>, first: number, last: number)
  if last > first
    prop_clear(first + 1, last, {bufnr: pane.buf})
  endif
enddef

export def Context(pane: dict<any>): dict<any>
  if pane.width == 0
    pane.width = TitleWidth(pane)
  endif
  return {show_list: !has_key(pane.source, 'list'), title_width: pane.width}
enddef

# The display cells a title takes in this pane: what the window's text area (its width less the
# number, sign and fold columns) leaves beside the other columns (render.TitleWidth); 80 cells
# when no window shows the pane.
export def TitleWidth(pane: dict<any>): number
  var cells = 80
  var win = DisplayWindow(pane)
  if win != 0
    var info = getwininfo(win)
    cells = winwidth(win) - (empty(info) ? 0 : info[0].textoff)
  endif
  return render.TitleWidth(cells, !has_key(pane.source, 'list'))
enddef

# Writes `rows` at buffer line `first` (0-based), replacing `replace` lines there.
export def WriteRows(pane: dict<any>, first: number, rows: list<any>, replace: number)
  var texts: list<string> = []
  var marks: list<list<any>> = []
  var context = Context(pane)
  for row in rows
    var [text, highlights] = render.Row(row, context)
    add(texts, text)
    add(marks, highlights)
  endfor
  SetLines(pane, first, first + replace, texts)
  if !Live(pane)
    return
  endif
  ClearProps(pane, first, first + len(rows))
  AddProps(pane, first, texts, marks)
enddef

export def Placeholders(n: number): list<string>
  return n <= 0 ? [] : repeat([render.Placeholder()], n)
enddef

# The windows showing the pane.
export def Windows(pane: dict<any>): list<number>
  return bufexists(pane.buf) ? win_findbuf(pane.buf) : []
enddef

# The row shown at buffer line `line` (1-based), or {} (a placeholder, a state line).
export def RowAt(pane: dict<any>, line: number): dict<any>
  if pane.mode != 'rows'
    return {}
  endif
  var i = line - 1 - pane.window.start
  return i >= 0 && i < len(pane.rows) ? pane.rows[i] : {}
enddef

# The buffer line (1-based) of row `id`, or 0 when it is not in the window.
export def LineOf(pane: dict<any>, id: string): number
  if pane.mode != 'rows'
    return 0
  endif
  var i = 0
  for row in pane.rows
    if row.id == id
      return pane.window.start + i + 1
    endif
    i += 1
  endfor
  return 0
enddef

# The ids of the ancestors of the row at buffer line `line` that are rows of the window, nearest
# first (a parent is always a row above its subtasks).
# - Complexity: O(rows above it in the window).
export def AncestorsOf(pane: dict<any>, line: number): list<string>
  var chain: list<string> = []
  var i = line - 1 - pane.window.start
  if pane.mode != 'rows' || i < 0 || i >= len(pane.rows)
    return chain
  endif
  var parent = get(pane.rows[i], 'parent', null)
  var j = i - 1
  while j >= 0 && type(parent) == v:t_string
    var above = pane.rows[j]
    if get(above, 'id', '') == parent
      add(chain, parent)
      parent = get(above, 'parent', null)
    endif
    j -= 1
  endwhile
  return chain
enddef

# Where each window on the pane stands: its line and column, the id of the row there and the ids
# of that row's ancestors (so a row hidden by collapsing hands the cursor to the row that now
# stands for it).
export def SaveCursors(pane: dict<any>): dict<any>
  var saved = {}
  for win in Windows(pane)
    var position = getcurpos(win)
    var row = RowAt(pane, position[1])
    saved[string(win)] = {line: position[1], col: position[2], id: get(row, 'id', ''),
      ancestors: empty(row) ? [] : AncestorsOf(pane, position[1])}
  endfor
  return saved
enddef

# The line of a saved cursor's task after a change, or 0 when it is not among the fetched rows:
# its row's line, wherever it went; else, when the row was hidden by collapsing (its nearest
# ancestor still shown is now collapsed), that ancestor's, as Vim puts the cursor on a closed
# fold.
export def FindLine(pane: dict<any>, cursor: dict<any>): number
  var line = cursor.id != '' ? LineOf(pane, cursor.id) : 0
  if line > 0
    return line
  endif
  for id in get(cursor, 'ancestors', [])
    var at = LineOf(pane, id)
    if at > 0
      return client.IsTrue(get(RowAt(pane, at), 'collapsed', false)) ? at : 0
    endif
  endfor
  return 0
enddef

# Puts each window's cursor back on its task (FindLine), else on the same line number (the row
# that took its place).
export def RestoreCursors(pane: dict<any>, saved: dict<any>)
  var count = LineCount(pane)
  for [key, cursor] in items(saved)
    var win = str2nr(key)
    if winbufnr(win) != pane.buf
      continue
    endif
    var line = FindLine(pane, cursor)
    if line == 0
      line = min([cursor.line, count])
    endif
    if getcurpos(win)[1] != line
      win_execute(win, printf('call cursor(%d, %d)', line, cursor.col))
    endif
  endfor
enddef

# Puts every window's cursor on row `id` (when it is in the window).
export def MoveCursorTo(pane: dict<any>, id: string)
  var line = LineOf(pane, id)
  if line > 0
    for win in Windows(pane)
      win_execute(win, printf('call cursor(%d, 1)', line))
    endfor
  endif
enddef

# The window whose view the server's window follows: the current one if it shows the pane, else
# the first that does (0: none).
export def DisplayWindow(pane: dict<any>): number
  if winbufnr(0) == pane.buf
    return win_getid()
  endif
  var wins = Windows(pane)
  return empty(wins) ? 0 : wins[0]
enddef
