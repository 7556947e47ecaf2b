vim9script
# Virtualization on a 100,000-item list, the cursor staying on its item, loading, errors, and the
# silent resync after a version gap.

import './helpers.vim' as h
import autoload 'taskls/client.vim'
import autoload 'taskls/pane.vim'
import autoload 'taskls/buffer.vim'
import autoload 'taskls/scroll.vim'
import autoload 'taskls/render.vim'

def Big(copy = false, args: list<string> = []): string
  var [dir, list] = h.BigStore(100000, copy)
  h.Setup(dir, args)
  return list
enddef

def CursorRow(p: dict<any>): dict<any>
  return buffer.RowAt(p, line('.'))
enddef

def g:Test_c1_a_100k_list_opens_and_scrolls_fetching_only_what_is_shown()
  var list = Big()
  var p = pane.Open({list: list, name: 'Big'})
  h.Wait(() => p.state == 'ready' && p.count == 100000, 'the big list', 60000)
  assert_equal(100000, line('$'), 'one line per row')
  assert_equal('  [ ] Task 1', getline(1))
  assert_true(p.stats.rows_received <= 100, 'rows fetched on open: ' .. p.stats.rows_received)
  assert_equal(render.Placeholder(), getline(50000), 'a placeholder far below')
  normal! 50000Gzz
  doautocmd CursorMoved
  h.Wait(() => getline(50000) == '  [ ] Task 50000', 'the rows around line 50000')
  assert_equal(1, p.stats.window_requests, 'one window move')
  h.CheckBuffer(p)
  normal! G
  doautocmd CursorMoved
  h.Wait(() => getline(100000) == '  [ ] Task 100000', 'the last row')
  assert_true(p.stats.rows_received < 400, 'rows fetched in all: ' .. p.stats.rows_received)
  assert_true(client.stats.requests['view/setWindow'] <= 2, 'setWindow requests: ' .. client.stats.requests['view/setWindow'])
  assert_true(p.stats.lines_written < 1000 + 100000, 'lines written: ' .. p.stats.lines_written)
  h.CheckBuffer(p)
  # Scrolling without moving the cursor (WinScrolled) moves the window too.
  normal! gg
  doautocmd CursorMoved
  h.Wait(() => getline(1) == '  [ ] Task 1', 'back at the top')
  execute "normal! 300\<C-e>"
  doautocmd WinScrolled
  h.Wait(() => p.window.start <= line('w0') - 1 && p.window['end'] >= line('w$'), 'the window follows the scroll')
  h.CheckBuffer(p)
enddef

def g:Test_c2_the_cursor_stays_on_its_item_when_rows_above_change()
  var list = Big(true)
  var p = h.Open({list: list, name: 'Big'})
  h.Wait(() => p.state == 'ready', 'ready', 60000)
  var full_renders = p.stats.full_renders
  normal! 30000Gzz
  scroll.CheckWindow(p)
  h.Wait(() => p.window.start > 29000 && empty(p.window_request), 'the window near 30000')
  var item = CursorRow(p)
  assert_equal('Task 30000', item.title)
  # A row above the cursor, inside the window, is deleted.
  var v = p.version
  h.Result('items/delete', {ids: [p.rows[1].id]})
  h.WaitVersion(p, v + 1, 'the delete')
  assert_equal(item.id, CursorRow(p).id, 'same item after a delete above it')
  assert_equal(29999, line('.'), 'its new line')
  # The last row moves to the top: above the window.
  v = p.version
  h.Result('items/move', {view: p.view, version: p.version, from: p.count - 1, to: 0})
  h.WaitVersion(p, v + 1, 'the move')
  assert_equal(item.id, CursorRow(p).id, 'same item after a move above the window')
  assert_equal(30000, line('.'), 'its new line')
  # An insertion just above it, in the window.
  v = p.version
  h.Result('items/create', {list: list, title: 'New', before: item.id})
  h.WaitVersion(p, v + 1, 'the insertion')
  assert_equal(item.id, CursorRow(p).id, 'same item after an insertion above it')
  assert_equal(30001, line('.'))
  h.CheckBuffer(p)
  assert_equal(full_renders, p.stats.full_renders, 'no full redraw once ready')
enddef

def g:Test_c3_a_second_window_keeps_its_cursor_too()
  var p = h.PaneOn(['A', 'B', 'C', 'D'])
  split
  var other = win_getid()
  cursor(4, 1)
  wincmd p
  cursor(3, 1)
  var v = p.version
  h.Result('items/delete', {ids: [p.rows[0].id]})
  h.WaitVersion(p, v + 1, 'the delete')
  assert_equal('C', CursorRow(p).title)
  assert_equal(4, getcurpos(other)[1] + 1, 'the other window stays on D (line 3 now)')
  assert_equal('D', buffer.RowAt(p, getcurpos(other)[1]).title)
enddef

def g:Test_c4_sorting_the_big_list_loads_then_shows_the_new_order()
  var list = Big()
  var p = h.Open({list: list, name: 'Big'})
  h.Wait(() => p.state == 'ready', 'ready', 60000)
  h.Keys('s2')
  h.Wait(() => p.state == 'ready' && get(p.sort, 'by', '') == 'title' && len(p.rows) > 2 && p.rows[1].title == 'Task 10',
    'the title order', 60000)
  assert_equal(['Task 1', 'Task 10', 'Task 100'], h.Titles(p)[0 : 2])
  h.CheckBuffer(p)
enddef

def g:Test_c5_a_loading_store_shows_loading_then_the_rows()
  var list = Big(false, ['--hold-load'])
  Tasks
  var overview = bufnr()
  h.Wait(() => getbufline(overview, 1)[0] == 'Loading… 0%', 'the overview loading')
  var p = pane.Open({list: list, name: 'Big'})
  h.Wait(() => p.state == 'loading', 'the pane loading')
  assert_equal(['Loading… 0%'], h.Lines(p.buf))
  h.Result('debug/continueLoading')
  h.Wait(() => p.state == 'ready', 'the rows', 60000)
  assert_equal('  [ ] Task 1', getline(1))
  assert_equal(100000, line('$'))
  h.Wait(() => join(h.Lines(overview), "\n") =~ 'Big \+100000/100000', 'the overview ready', 60000)
enddef

def g:Test_c6_a_store_that_cannot_be_opened_shows_the_error_and_r_retries()
  h.Setup('/dev/null/taskls')
  Tasks
  var overview = bufnr()
  h.Wait(() => getbufline(overview, 1)[0] =~ '^Error: .* — press r to retry$', 'the overview error')
  var p = h.Open({group: 'today', name: 'Today'})
  assert_equal('error', p.state)
  assert_match('^Error: .*/dev/null/taskls.* — press r to retry$', getline(1))
  assert_equal(['TasklsError'], h.Groups(p.buf, 1))
  var v = p.version
  h.Keys('r')
  h.Wait(() => p.version == v + 2, 'retried (loading, then error again)')
  assert_equal('error', p.state)
  h.NoInternalErrors()
enddef

def g:Test_c7_a_version_gap_resyncs_silently()
  var p = h.PaneOn(['A', 'B', 'C'])
  p.version -= 1
  h.Result('items/create', {list: p.source.list, title: 'D'})
  h.Wait(() => p.stats.resyncs == 1 && !p.resyncing && p.count == 4, 'the resync')
  assert_equal(['A', 'B', 'C', 'D'], h.Titles(p))
  h.CheckBuffer(p)
  assert_equal([], h.Messages(), 'nothing said')
  h.Result('items/create', {list: p.source.list, title: 'E'})
  h.Wait(() => p.count == 5, 'later changes apply as ops')
  assert_equal(1, p.stats.resyncs)
  h.CheckBuffer(p)
enddef

def g:Test_c8_notifications_before_the_pane_knows_its_view_are_kept()
  var list = h.Seed('Early', ['A'])
  var p = pane.Open({list: list, name: 'Early'})
  # Before lists/open is answered, a change is requested: its notification may reach the client
  # before the pane registered the view; it must still apply, in order.
  client.Request('items/create', {list: list, title: 'B'})
  h.Wait(() => p.count == 2, 'both rows')
  assert_equal(['A', 'B'], h.Titles(p))
  h.CheckBuffer(p)
enddef

def g:Test_c9_a_server_that_dies_is_said_once_and_r_brings_the_pane_back()
  var p = h.PaneOn(['A'])
  job_stop(client.state.job, 'kill')
  h.Wait(() => !!p.stopped, 'the pane told')
  assert_equal(['The server stopped — press r to restart it'], h.Lines(p.buf))
  var said = filter(h.Messages(), (_, m) => m =~ 'exited')
  assert_equal(1, len(said), string(h.Messages()))
  assert_match('^taskls: the server exited with code ', said[0])
  h.Keys('r')
  h.Wait(() => p.state == 'ready' && !p.stopped && p.count == 1, 'the pane on a new server')
  h.NoInternalErrors()
enddef
