vim9script
# The overview: smart groups and lists with live counts; <CR> opens one.

import './helpers.vim' as h
import autoload 'taskls/overview.vim'
import autoload 'taskls/pane.vim'
import autoload 'taskls/client.vim'

def g:Test_a1_overview_lists_groups_and_lists_with_live_counts()
  var list = h.Seed('Groceries', ['Milk', {title: 'Eggs', done: true}])
  Tasks
  var buf = bufnr()
  h.Wait(() => join(h.Lines(buf), "\n") =~ 'Groceries', 'the overview')
  var lines = h.Lines(buf)
  assert_equal('Smart groups', lines[0])
  assert_match('^  Today \+0$', lines[1])
  assert_match('^  All \+1$', lines[4])
  assert_match('^  Completed \+1$', lines[5])
  assert_equal('Smart lists', lines[7])
  assert_equal('  None — in a pane, F filters and gF saves the filter as one', lines[8])
  assert_equal('Lists', lines[10])
  assert_match('^  Groceries \+1/2$', lines[11])
  assert_equal(['TasklsHeader'], h.Groups(buf, 1))
  assert_equal('taskls', &filetype)
  assert_false(&modifiable)
  # Live: a change made elsewhere updates the counts by itself.
  h.Result('items/create', {list: list, title: 'Bread'})
  h.Wait(() => getbufline(buf, 12)[0] =~ '2/3$', 'the new count')
  h.Wait(() => getbufline(buf, 5)[0] =~ ' 2$', 'All counts 2')
  h.NoInternalErrors()
enddef

def g:Test_a15_a_shared_list_shows_its_sync_state_S_syncs_and_a_refusal_says_why()
  var list = h.Seed('Groceries', ['Milk'])
  Tasks
  var buf = bufnr()
  h.Wait(() => join(h.Lines(buf), "\n") =~ 'Groceries', 'the overview')
  # What taskls-sync leaves beside the store after a sync that found the server down (replaced
  # whole with a rename, as it does).
  var sync_state = {lists: [{list: list, account: 'home', calendar: '/ann/groceries/', state: 'offline', syncedAt: null,
    message: 'dav.example.com cannot be reached: timed out', waiting: 2, notices: ['Milk: the title here won over Oat milk']}]}
  writefile([json_encode(sync_state)], h.store .. '/sync-state.json.tmp')
  assert_equal(0, rename(h.store .. '/sync-state.json.tmp', h.store .. '/sync-state.json'))
  h.Wait(() => join(h.Lines(buf), "\n") =~ 'Groceries \+1/1  offline, 2 waiting', 'the offline state')
  var lines = h.Lines(buf)
  var at = index(lines, '    dav.example.com cannot be reached: timed out')
  assert_true(at > 0, 'why, under the list: ' .. string(lines))
  assert_match('^  Groceries \+1/1  offline, 2 waiting$', lines[at - 1])
  assert_equal('    Milk: the title here won over Oat milk', lines[at + 1])
  assert_equal(['TasklsWarning'], h.Groups(buf, at))
  assert_equal(['TasklsWarning'], h.Groups(buf, at + 1))
  assert_equal(['TasklsState'], h.Groups(buf, at + 2))
  # The words of every state.
  assert_equal(['synced 2026-11-26 10:04 UTC', 'TasklsState'], overview.SyncWords({state: 'synced', syncedAt: '2026-11-26T10:04:31Z'}))
  assert_equal(['syncing…', 'TasklsState'], overview.SyncWords({state: 'syncing'}))
  assert_equal(['syncing, 3 of 10 sent', 'TasklsState'], overview.SyncWords({state: 'syncing', progress: {sent: 3, total: 10}}))
  assert_equal(['sync error', 'TasklsError'], overview.SyncWords({state: 'error'}))
  assert_equal(['sync waits for :TasksSync!', 'TasklsWarning'], overview.SyncWords({state: 'confirm'}))
  assert_equal(['', ''], overview.SyncWords({}))
  # S asks the server to sync: the sync program finds no account, and the pane says so; so does
  # :TasksSync!.
  h.Keys('S')
  h.Wait(() => join(h.Messages(), "\n") =~ 'no account', 'the refusal')
  client.state.messages = []
  TasksSync!
  h.Wait(() => join(h.Messages(), "\n") =~ 'no account', 'the refusal of :TasksSync!')
  assert_match('syncing (confirmed)…', join(h.Messages(), "\n"))
  h.NoInternalErrors()
enddef

def g:Test_a16_a_sync_is_told_list_by_list()
  var overview_data = {lists: [{id: 'list-1', name: 'Groceries', open: 1, total: 1}]}
  var result = {lists: [
    {sync: {list: 'list-1', state: 'synced', syncedAt: '2026-11-26T10:04:31Z', waiting: 0, notices: []}, sent: 2, received: 1},
    {sync: {list: 'list-2', state: 'offline', syncedAt: null, waiting: 3, notices: []}, sent: 0, received: 0}]}
  assert_equal('Groceries: synced 2026-11-26 10:04 UTC (2 sent, 1 received); list-2: offline, 3 waiting',
    overview.Told(result, overview_data))
  assert_equal('no list is shared', overview.Told({lists: []}, overview_data))
enddef

def g:Test_a2_enter_opens_the_list_under_the_cursor()
  h.Seed('Groceries', ['Milk', 'Eggs'])
  Tasks
  var buf = bufnr()
  h.Wait(() => join(h.Lines(buf), "\n") =~ 'Groceries', 'the overview')
  search('Groceries')
  h.Keys("\<CR>")
  var p = pane.Get()
  assert_false(empty(p), 'a pane opened')
  h.Wait(() => p.state == 'ready', 'the pane')
  assert_equal(['  [ ] Milk', '  [ ] Eggs'], h.Lines(p.buf))
  assert_match('^taskls://Groceries #\d\+$', bufname())
  # - goes back to the overview, <CR> on a smart group opens it.
  h.Keys('-')
  assert_equal(buf, bufnr())
  search('^  All')
  h.Keys("\<CR>")
  var all = pane.Get()
  h.Wait(() => all.state == 'ready' && all.count == 2, 'the All group')
  assert_match('(Groceries)$', getline(1))
enddef

def g:Test_a3_overview_creates_renames_and_deletes_lists()
  Tasks
  var buf = bufnr()
  h.Wait(() => getline(1) == 'Smart groups', 'the overview')
  h.Keys("aInbox\<CR>")
  h.Wait(() => join(h.Lines(buf), "\n") =~ 'Inbox', 'the new list')
  search('Inbox')
  h.Keys("cc\<C-u>Work\<CR>")
  h.Wait(() => join(h.Lines(buf), "\n") =~ 'Work', 'the renamed list')
  search('Work')
  assert_equal('Work', overview.Entry().name)
  overview.DeleteList(true)
  h.Wait(() => join(h.Lines(buf), "\n") =~ 'No lists', 'no list left')
  h.Keys('u')
  h.Wait(() => join(h.Lines(buf), "\n") =~ 'Work', 'the list back after u')
enddef
