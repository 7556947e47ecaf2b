vim9script
# The window of rows the server sends for a pane: it follows what the pane's window shows, plus
# g:taskls_margin rows each side, as the user scrolls (WinScrolled, CursorMoved, VimResized), with
# one view/setWindow in flight at a time.

import autoload 'taskls/client.vim'
import autoload 'taskls/config.vim'
import autoload 'taskls/pane.vim' as listpane
import autoload 'taskls/buffer.vim'

# Checks the window soon (after the current command, from a timer).
export def ScheduleWindowCheck(pane: dict<any>)
  if pane.check_scheduled
    return
  endif
  pane.check_scheduled = true
  var buf = pane.buf
  timer_start(0, (_) => {
    var p = listpane.Get(buf)
    if !empty(p)
      p.check_scheduled = false
      client.Guard(CheckWindow, [p])
    endif
  })
enddef

# Moves the server's window to cover what the display window shows, plus the margin each side;
# nothing while what is shown is covered away from the edges. One request at a time.
export def CheckWindow(pane: dict<any>)
  if pane.mode != 'rows' || pane.view == '' || pane.closed || pane.stopped
    return
  endif
  var win = buffer.DisplayWindow(pane)
  if win == 0
    return
  endif
  var top = line('w0', win)
  var bottom = line('w$', win)
  var first = top - 1
  var last = min([bottom, pane.count])
  var margin: number = config.Get('margin')
  var w = pane.window
  var covered = first >= w.start && last <= w['end']
  var near_top = w.start > 0 && first - w.start < margin / 2
  var near_bottom = w['end'] < pane.count && w['end'] - last < margin / 2
  if covered && !near_top && !near_bottom
    return
  endif
  if !empty(pane.window_request)
    pane.window_again = true
    return
  endif
  var start = max([0, first - margin])
  var finish = min([last + margin, start + 1000])
  if start == w.start && finish == w['end']
    return
  endif
  pane.window_request = {start: start, end: finish}
  pane.stats.window_requests += 1
  var buf = pane.buf
  client.Request('view/setWindow', {view: pane.view, window: pane.window_request}, (snapshot) => {
    var p = listpane.Get(buf)
    if empty(p)
      return
    endif
    p.window_request = {}
    listpane.ApplySnapshot(p, snapshot)
    if p.window_again
      p.window_again = false
      ScheduleWindowCheck(p)
    endif
  }, (error) => {
    var p = listpane.Get(buf)
    if !empty(p)
      p.window_request = {}
    endif
    return false
  })
enddef

# Every pane shown in a window that scrolled or changed size checks its window.
export def OnScrolled()
  for p in values(listpane.panes)
    if !empty(buffer.Windows(p))
      ScheduleWindowCheck(p)
    endif
  endfor
enddef

augroup taskls_scroll
  autocmd!
  autocmd WinScrolled,VimResized * OnScrolled()
augroup END
