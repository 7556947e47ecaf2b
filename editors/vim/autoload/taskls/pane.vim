vim9script
# A list pane: one buffer showing one server view. The buffer has one line per row of the whole
# view (rows outside the fetched window are placeholder lines, so line numbers, `G` and `50%`
# are true); changes arrive as ops and are applied to the changed lines only, and every window
# on the buffer keeps its cursor on the same row id.

import autoload 'taskls/client.vim'
import autoload 'taskls/config.vim'
import autoload 'taskls/render.vim'
import autoload 'taskls/buffer.vim'
import autoload 'taskls/scroll.vim'
import autoload 'taskls/keys.vim'

# Every open pane, by buffer number (as a string key).
export var panes: dict<dict<any>> = {}
var serial = 0

const prop_types = ['TasklsHeader', 'TasklsDone', 'TasklsCheck', 'TasklsOverdue', 'TasklsToday', 'TasklsDue',
  'TasklsPriority', 'TasklsTag', 'TasklsList', 'TasklsNotes', 'TasklsPlaceholder', 'TasklsState',
  'TasklsError', 'TasklsCount', 'TasklsFold', 'TasklsContext', 'TasklsRepeat']

# The pane of buffer `buf` (0: the current one), or {}.
export def Get(buf = 0): dict<any>
  return get(panes, string(buf == 0 ? bufnr() : buf), {})
enddef

# Draws the whole buffer: the state line, or every row and placeholder. Only on opening, on a
# change of state, on a new day and on a resync that changed the count.
export def RenderFull(pane: dict<any>)
  if !buffer.Live(pane)
    return
  endif
  # A pane no window shows is drawn when it is shown again (BufWinEnter).
  if empty(buffer.Windows(pane))
    pane.dirty = true
    return
  endif
  pane.dirty = false
  pane.stats.full_renders += 1
  pane.width = buffer.TitleWidth(pane)
  var state_line = render.StateLine(pane)
  if !empty(state_line)
    pane.mode = 'state'
    buffer.SetAll(pane, [state_line[0]])
    buffer.ClearProps(pane, 0, 1)
    buffer.AddProps(pane, 0, [state_line[0]], [[[state_line[1], 0, -1]]])
    return
  endif
  pane.mode = 'rows'
  var start = min([pane.window.start, pane.count])
  var shown = min([len(pane.rows), pane.count - start])
  var context = buffer.Context(pane)
  var texts: list<string> = []
  var marks: list<list<any>> = []
  for row in pane.rows[0 : shown - 1]
    var [text, highlights] = render.Row(row, context)
    add(texts, text)
    add(marks, highlights)
  endfor
  if shown == 0
    texts = []
    marks = []
  endif
  buffer.SetAll(pane, buffer.Placeholders(start) + texts + buffer.Placeholders(pane.count - start - shown))
  buffer.ClearProps(pane, 0, buffer.LineCount(pane))
  buffer.AddProps(pane, start, texts, marks)
enddef

# Makes the buffer `count` lines long with placeholder lines at its end.
def FixTail(pane: dict<any>)
  var lines = buffer.LineCount(pane)
  if lines < pane.count
    buffer.SetLines(pane, lines, lines, buffer.Placeholders(pane.count - lines))
  elseif lines > pane.count && pane.count > 0
    buffer.SetLines(pane, pane.count, lines, [])
  endif
enddef

# After this pane's own collapse or expand (`saved`: buffer.SaveCursors() before it), puts the
# current window's cursor back on its task when the change took the task out of the fetched rows
# (a long list collapsed or expanded far from the cursor): `view/locate` says where its row is now,
# or the row of the collapsed ancestor that hides it (where Vim puts the cursor on a closed fold);
# the rows there are fetched as for any move of the cursor. Stops when the cursor was moved
# meanwhile, or when the pane is behind the answer's version (a later change moved the rows again).
# - Complexity: one request, O(depth × log n) on the server.
export def FollowCursor(pane: dict<any>, saved: dict<any>)
  var win = win_getid()
  var cursor = get(saved, string(win), {})
  if empty(cursor) || cursor.id == '' || pane.mode != 'rows' || pane.view == ''
    return
  endif
  if winbufnr(win) != pane.buf || buffer.FindLine(pane, cursor) > 0
    return
  endif
  var follow = {buf: pane.buf, win: win, col: cursor.col, view: pane.view, left_at: line('.', win)}
  client.Request('view/locate', {view: pane.view, id: cursor.id}, (found) => {
    var p = Get(follow.buf)
    if empty(p) || p.closed || p.stopped || p.view != follow.view || winbufnr(follow.win) != follow.buf
        || line('.', follow.win) != follow.left_at || type(found) != v:t_dict || get(found, 'version', -1) != p.version
      return
    endif
    var index = get(found, 'index', null)
    if type(index) != v:t_number
      return
    endif
    win_execute(follow.win, printf('call cursor(%d, %d)', index + 1, follow.col))
    p.stats.located += 1
    scroll.ScheduleWindowCheck(p)
  }, (error) => true)
enddef

# Applying what the server says ---------------------------------------------------------------

def ApplyToRows(rows: list<any>, op: dict<any>): list<any>
  var kind = op.op
  if kind == 'insert'
    insert(rows, op.row, op.index)
  elseif kind == 'remove'
    remove(rows, op.index)
  elseif kind == 'move'
    var row = remove(rows, op.from)
    if type(get(op, 'row', null)) == v:t_dict
      row = op.row
    endif
    insert(rows, row, op.to)
  elseif kind == 'update'
    rows[op.index] = op.row
  elseif kind == 'reset'
    return copy(op.rows)
  endif
  return rows
enddef

# Applies the ops to the rows and to exactly the buffer lines they change.
def ApplyOps(pane: dict<any>, ops: list<any>)
  var start = pane.window.start
  for op in ops
    var kind = op.op
    if kind == 'insert'
      insert(pane.rows, op.row, op.index)
      buffer.WriteRows(pane, start + op.index, [op.row], 0)
    elseif kind == 'remove'
      remove(pane.rows, op.index)
      buffer.SetLines(pane, start + op.index, start + op.index + 1, [])
    elseif kind == 'move'
      var row = remove(pane.rows, op.from)
      if type(get(op, 'row', null)) == v:t_dict
        row = op.row
      endif
      insert(pane.rows, row, op.to)
      buffer.SetLines(pane, start + op.from, start + op.from + 1, [])
      buffer.WriteRows(pane, start + op.to, [row], 0)
    elseif kind == 'update'
      pane.rows[op.index] = op.row
      buffer.WriteRows(pane, start + op.index, [op.row], 1)
    elseif kind == 'reset'
      var old = len(pane.rows)
      pane.rows = copy(op.rows)
      buffer.WriteRows(pane, start, pane.rows, old)
    endif
    pane.stats.ops += 1
  endfor
enddef

def ReadState(pane: dict<any>, p: dict<any>)
  var state = get(p, 'state', pane.state)
  pane.state = type(state) == v:t_string ? state : pane.state
  var count = get(p, 'count', 0)
  pane.count = type(count) == v:t_number ? count : 0
  pane.progress = get(p, 'progress', 0)
  pane.error = get(p, 'error', {})
  var empty = get(p, 'empty', '')
  pane.empty = type(empty) == v:t_string ? empty : ''
enddef

def Window(value: any, fallback: dict<any>): dict<any>
  if type(value) != v:t_dict
    return fallback
  endif
  return {start: value.start, end: value['end']}
enddef

# A `view/changed` for this pane's view: applied when it is the next version; a gap fetches a
# snapshot instead, silently.
def OnChanged(buf: number, p: dict<any>)
  var pane = Get(buf)
  if empty(pane) || !buffer.Live(pane) || pane.resyncing || pane.version < 0
    return
  endif
  if p.version <= pane.version
    return
  endif
  if p.version != pane.version + 1
    pane.stats.gaps += 1
    Resync(pane)
    return
  endif
  pane.version = p.version
  var saved = buffer.SaveCursors(pane)
  var was_rows = pane.mode == 'rows'
  var old_window = pane.window
  ReadState(pane, p)
  pane.window = Window(get(p, 'window', null), pane.window)
  var ops = get(p, 'ops', [])
  ops = type(ops) == v:t_list ? ops : []
  var same_window = old_window.start == pane.window.start && old_window['end'] == pane.window['end']
  if was_rows && same_window && !pane.dirty && !empty(buffer.Windows(pane)) && empty(render.StateLine(pane))
    ApplyOps(pane, ops)
    FixTail(pane)
  else
    for op in ops
      pane.rows = ApplyToRows(pane.rows, op)
    endfor
    RenderFull(pane)
  endif
  for op in ops
    if op.op == 'reset'
      pane.stats.rows_received += len(op.rows)
    elseif type(get(op, 'row', null)) == v:t_dict
      pane.stats.rows_received += 1
    endif
  endfor
  buffer.RestoreCursors(pane, saved)
  scroll.ScheduleWindowCheck(pane)
enddef

# A snapshot (from lists/open, view/setWindow or view/snapshot) replaces what the pane holds;
# with the count unchanged only the lines of the old and new windows are written.
export def ApplySnapshot(pane: dict<any>, snapshot: dict<any>)
  if !buffer.Live(pane)
    return
  endif
  var saved = buffer.SaveCursors(pane)
  var was_rows = pane.mode == 'rows'
  var old_count = pane.count
  var old_window = pane.window
  var old_shown = len(pane.rows)
  pane.version = snapshot.version
  ReadState(pane, snapshot)
  for name in ['sort', 'filter', 'sections']
    if has_key(snapshot, name) && type(snapshot[name]) != v:t_none
      pane[name] = snapshot[name]
    endif
  endfor
  pane.window = Window(get(snapshot, 'window', null), pane.window)
  var rows = get(snapshot, 'rows', [])
  pane.rows = type(rows) == v:t_list ? rows : []
  pane.stats.rows_received += len(pane.rows)
  if was_rows && old_count == pane.count && !pane.dirty && !empty(buffer.Windows(pane)) && empty(render.StateLine(pane))
    var new_first = pane.window.start
    var new_last = pane.window.start + len(pane.rows)
    var first = old_window.start
    var last = min([old_window.start + old_shown, pane.count])
    if first < new_first
      var upto = min([last, new_first])
      if upto > first
        buffer.SetLines(pane, first, upto, buffer.Placeholders(upto - first))
        buffer.ClearProps(pane, first, upto)
      endif
    endif
    if last > new_last
      var from = max([first, new_last])
      if last > from
        buffer.SetLines(pane, from, last, buffer.Placeholders(last - from))
        buffer.ClearProps(pane, from, last)
      endif
    endif
    buffer.WriteRows(pane, new_first, pane.rows, len(pane.rows))
  else
    RenderFull(pane)
  endif
  buffer.RestoreCursors(pane, saved)
  UpdateName(pane)
enddef

# Fetches a fresh snapshot after a version gap, silently.
export def Resync(pane: dict<any>)
  if pane.view == '' || pane.resyncing
    return
  endif
  pane.resyncing = true
  pane.stats.resyncs += 1
  var buf = pane.buf
  client.Request('view/snapshot', {view: pane.view}, (snapshot) => {
    var p = Get(buf)
    if !empty(p)
      p.resyncing = false
      ApplySnapshot(p, snapshot)
    endif
  }, (error) => {
    var p = Get(buf)
    if !empty(p)
      p.resyncing = false
    endif
    return false
  })
enddef

# The view is gone: its list (or smart list: `reason` smartListDeleted) was deleted. The pane says
# so in its state line until it is closed.
def OnClosed(buf: number, p: dict<any>)
  var pane = Get(buf)
  if empty(pane)
    return
  endif
  pane.closed = true
  pane.closed_reason = type(get(p, 'reason', '')) == v:t_string ? get(p, 'reason', '') : ''
  client.Unregister(pane.view)
  RenderFull(pane)
  if pane.closed_reason == 'smartListDeleted'
    client.Notify('the smart list "' .. pane.name .. '" was deleted')
  else
    client.Notify('the list of "' .. pane.name .. '" was deleted')
  endif
enddef

def OnServerExit(buf: number)
  var pane = Get(buf)
  if empty(pane)
    return
  endif
  pane.stopped = true
  RenderFull(pane)
enddef

def Redraw(buf: number)
  var pane = Get(buf)
  if !empty(pane)
    var saved = buffer.SaveCursors(pane)
    RenderFull(pane)
    buffer.RestoreCursors(pane, saved)
  endif
enddef

# Opening and closing ---------------------------------------------------------------------------

# The pane's title: `taskls://NAME #N`, with the sort, filter and sections when they are not the
# defaults (`taskls://Groceries #2 [by due, filter "milk"]`).
export def Title(pane: dict<any>): string
  var parts: list<string> = []
  var sort = type(pane.sort) == v:t_dict ? pane.sort : {}
  var by = get(sort, 'by', 'manual')
  var descending = get(sort, 'direction', 'ascending') == 'descending'
  if by != 'manual' || descending
    add(parts, 'by ' .. by .. (descending ? ' desc' : ''))
  endif
  var text = pane.filter_text
  if text == '' && type(pane.filter) == v:t_dict && type(get(pane.filter, 'text', 0)) == v:t_string
    text = pane.filter.text
  endif
  if text != ''
    add(parts, 'filter "' .. render.Displayed(text) .. '"')
  endif
  if type(pane.sections) == v:t_string && pane.sections != 'none'
    add(parts, 'sections ' .. pane.sections)
  endif
  var name = 'taskls://' .. render.Displayed(pane.name) .. ' #' .. pane.serial
  return empty(parts) ? name : name .. ' [' .. join(parts, ', ') .. ']'
enddef

# Shows the title in the buffer name (when a window shows the buffer; else when one does).
export def UpdateName(pane: dict<any>)
  var title = Title(pane)
  if bufname(pane.buf) == title || !buffer.Live(pane)
    return
  endif
  var wins = buffer.Windows(pane)
  if empty(wins)
    return
  endif
  var old = bufname(pane.buf)
  win_execute(wins[0], 'silent keepalt file ' .. fnameescape(title))
  # `:file` leaves the old name behind as an unlisted buffer: wipe it.
  var stale = bufnr('^' .. escape(old, '^$.*~[]\') .. '$')
  if stale > 0 && stale != pane.buf && !buflisted(stale) && !bufloaded(stale)
    execute 'silent! bwipeout' stale
  endif
enddef

def OpenParams(pane: dict<any>): dict<any>
  var height = 40
  var win = buffer.DisplayWindow(pane)
  if win != 0
    height = winheight(win)
  endif
  var params: dict<any> = {window: {start: 0, end: min([1000, height + config.Get('margin')])}}
  if has_key(pane.source, 'list')
    params.list = pane.source.list
  elseif has_key(pane.source, 'smartList')
    params.smartList = pane.source.smartList
  else
    params.group = pane.source.group
  endif
  if type(pane.sort) == v:t_dict && !empty(pane.sort)
    params.sort = pane.sort
  endif
  if type(pane.filter) == v:t_dict && !empty(pane.filter)
    params.filter = pane.filter
  endif
  if type(pane.sections) == v:t_string && pane.sections != ''
    params.sections = pane.sections
  endif
  return params
enddef

# Opens the pane's server view (again, after the server restarted).
export def OpenView(pane: dict<any>)
  pane.stopped = false
  pane.closed = false
  pane.closed_reason = ''
  pane.version = -1
  pane.view = ''
  var buf = pane.buf
  client.Request('lists/open', OpenParams(pane), (snapshot) => {
    var p = Get(buf)
    if empty(p)
      client.Request('view/close', {view: snapshot.view}, null, (e) => true)
      return
    endif
    p.view = snapshot.view
    ApplySnapshot(p, snapshot)
    client.Register(p.view, Handlers(buf))
    scroll.ScheduleWindowCheck(p)
  }, (error) => {
    var p = Get(buf)
    if !empty(p)
      p.state = 'error'
      p.error = {message: get(error, 'message', 'lists/open failed')}
      RenderFull(p)
    endif
    return false
  })
enddef

# What the client calls for the pane's view: {changed, closed, exit, redraw}.
def Handlers(buf: number): dict<any>
  var handlers: dict<any> = {}
  handlers.changed = (n) => OnChanged(buf, n)
  handlers.closed = (n) => OnClosed(buf, n)
  handlers.exit = () => OnServerExit(buf)
  handlers.redraw = () => Redraw(buf)
  return handlers
enddef

# Closes the view; the buffer is wiped too unless `keep_buffer`.
export def Close(pane: dict<any>, keep_buffer = false)
  if pane.view != '' && !pane.closed && !pane.stopped && client.Running()
    client.Request('view/close', {view: pane.view}, null, (e) => true)
  endif
  if pane.view != ''
    client.Unregister(pane.view)
  endif
  pane.closed = true
  var key = string(pane.buf)
  if has_key(panes, key)
    remove(panes, key)
  endif
  if !keep_buffer && bufexists(pane.buf)
    execute 'silent! bwipeout!' pane.buf
  endif
enddef

def SameSource(a: dict<any>, b: dict<any>): bool
  return get(a, 'list', '') == get(b, 'list', '') && get(a, 'group', '') == get(b, 'group', '')
    && get(a, 'smartList', '') == get(b, 'smartList', '')
enddef

# Opens a pane on `source` ({list: ID}, {group: NAME} or {smartList: ID}, with `name`) in the current window (after
# g:taskls_open); a pane already on that source is shown instead unless `options.new`.
# `options` may set `sort`, `filter` and `sections`. Returns the pane.
export def Open(source: dict<any>, options: dict<any> = {}): dict<any>
  if !get(options, 'new', false)
    for pane in values(panes)
      if SameSource(pane.source, source) && bufexists(pane.buf)
        execute 'buffer' pane.buf
        return pane
      endif
    endfor
  endif
  serial += 1
  var name = get(source, 'name', get(source, 'list', get(source, 'group', '?')))
  var open = config.Get('open')
  if open != 'edit' && open != ''
    execute open
  endif
  var buf = bufadd('taskls://' .. render.Displayed(name) .. ' #' .. serial)
  setbufvar(buf, '&buftype', 'nofile')
  bufload(buf)
  var pane: dict<any> = {
    buf: buf, source: source, name: name, serial: serial,
    rows: [], count: 0, window: {start: 0, end: 0}, version: -1, view: '',
    state: '', progress: 0, error: {}, empty: '', mode: '', closed_reason: '',
    sort: get(options, 'sort', {}), filter: get(options, 'filter', {}), filter_text: '',
    sections: get(options, 'sections', ''),
    resyncing: false, closed: false, stopped: false, check_scheduled: false,
    window_request: {}, window_again: false, width: 0, dirty: false, left_on: '',
    stats: {rows_received: 0, window_requests: 0, resyncs: 0, gaps: 0, full_renders: 0, located: 0,
      set_lines: 0, lines_written: 0, ops: 0},
  }
  panes[string(buf)] = pane
  for [key, value] in items({buftype: 'nofile', bufhidden: 'hide', swapfile: 0, buflisted: 1, undolevels: -1, modeline: 0})
    setbufvar(buf, '&' .. key, value)
  endfor
  for type in prop_types
    prop_type_add(type, {bufnr: buf, highlight: type})
  endfor
  execute 'silent keepalt buffer' buf
  setlocal nowrap nolist nospell nonumber norelativenumber nofoldenable
  setbufvar(buf, '&filetype', 'taskls')
  setbufvar(buf, '&modifiable', 0)
  RenderFull(pane)
  Attach(pane)
  OpenView(pane)
  return pane
enddef

# Watches the pane's windows: scrolling and moving the cursor move the server's window; wiping
# the buffer closes the view.
def Attach(pane: dict<any>)
  var buf = pane.buf
  execute printf('augroup taskls_pane_%d', buf)
  autocmd!
  execute printf('autocmd CursorMoved,BufWinEnter <buffer=%d> ScheduleCheck(%d)', buf, buf)
  execute printf('autocmd BufWinEnter <buffer=%d> Shown(%d)', buf, buf)
  execute printf('autocmd WinEnter <buffer=%d> CheckWidth(%d)', buf, buf)
  execute printf('autocmd VimResized * CheckWidth(%d)', buf)
  if exists('##WinResized')
    execute printf('autocmd WinResized * CheckWidth(%d)', buf)
  endif
  execute printf('autocmd BufLeave <buffer=%d> Left(%d)', buf, buf)
  execute printf('autocmd BufWipeout <buffer=%d> Wiped(%d)', buf, buf)
  execute printf('autocmd BufUnload <buffer=%d> Unloaded(%d)', buf, buf)
  augroup END
  if !config.Get('no_maps')
    keys.MapKeys()
  endif
  if exists('#User#TasklsPane')
    doautocmd <nomodeline> User TasklsPane
  endif
enddef

def ScheduleCheck(buf: number)
  var pane = Get(buf)
  if !empty(pane)
    scroll.ScheduleWindowCheck(pane)
  endif
enddef

# A window shows the pane again: what changed while no window showed it is drawn now, and the
# cursor goes back to the row it was on.
def Shown(buf: number)
  var pane = Get(buf)
  if empty(pane)
    return
  endif
  if pane.dirty
    RenderFull(pane)
    if pane.left_on != ''
      buffer.MoveCursorTo(pane, pane.left_on)
    endif
  else
    CheckWidth(buf)
  endif
  UpdateName(pane)
enddef

# A window of another width shows the pane: titles take another number of cells, so the rows of
# the window are drawn again (placeholders do not change).
def CheckWidth(buf: number)
  var pane = Get(buf)
  if empty(pane) || pane.mode != 'rows' || !buffer.Live(pane) || empty(buffer.Windows(pane))
    return
  endif
  var width = buffer.TitleWidth(pane)
  if width == pane.width
    return
  endif
  pane.width = width
  var saved = buffer.SaveCursors(pane)
  var start = min([pane.window.start, pane.count])
  var shown = min([len(pane.rows), pane.count - start])
  if shown > 0
    buffer.WriteRows(pane, start, pane.rows[0 : shown - 1], shown)
  endif
  buffer.RestoreCursors(pane, saved)
enddef

# The current window leaves the pane: the row under its cursor is remembered.
def Left(buf: number)
  var pane = Get(buf)
  if !empty(pane)
    pane.left_on = get(buffer.RowAt(pane, line('.')), 'id', '')
  endif
enddef

# `:bdelete` or `:bunload` throws the lines away: the view is closed and the buffer wiped, as
# if it had been (reopen it with :Tasks).
def Unloaded(buf: number)
  if client.state.exiting || empty(Get(buf))
    return
  endif
  Close(Get(buf), true)
  timer_start(0, (_) => {
    if bufexists(buf) && !bufloaded(buf)
      execute 'silent! bwipeout' buf
    endif
  })
enddef

def Wiped(buf: number)
  var pane = Get(buf)
  if !empty(pane)
    Close(pane, true)
  endif
  execute printf('silent! autocmd! taskls_pane_%d', buf)
  execute printf('silent! augroup! taskls_pane_%d', buf)
enddef

# Closes every pane.
export def CloseAll()
  for pane in values(panes)
    Close(pane)
  endfor
  panes = {}
enddef

# Reopens every pane on a (new) server.
export def ReopenAll()
  for pane in values(panes)
    OpenView(pane)
  endfor
enddef
