vim9script
# The overview: smart groups and lists with live counts; <CR> opens one.

import './helpers.vim' as h
import autoload 'taskls/overview.vim'
import autoload 'taskls/pane.vim'

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
