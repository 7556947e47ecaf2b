vim9script
# Smart lists: their own section of the overview with live counts, opened like a group, renamed
# and deleted (a pane on a deleted one says so); gF and :TasksSaveFilter save a pane's filter.

import './helpers.vim' as h
import autoload 'taskls/client.vim'
import autoload 'taskls/prompt.vim'
import autoload 'taskls/pane.vim'
import autoload 'taskls/overview.vim'
import autoload 'taskls/smartlists.vim'

# The overview's line of an entry: the name in 24 cells, the count in 6.
def Entry(name: string, count: any): string
  return printf('  %-24s %6s', name, count)
enddef

def OverviewText(buf: number): string
  return join(h.Lines(buf), "\n")
enddef

def g:Test_h1_the_overview_shows_smart_lists_with_live_counts_and_opens_renames_and_deletes_them()
  var home = h.Seed('Home', [{title: 'Buy milk', tags: ['errand']}, 'Read book'])
  var work = h.Seed('Work', [{title: 'Post parcel', tags: ['errand'], due: '2026-12-24'}])
  var errands = h.Result('smartLists/create', {name: 'Errands', filter: {tagsAnyOf: ['errand'], done: 'notDone'}}).smartList.id
  h.Result('smartLists/create', {name: "Odd\tname", filter: {text: 'zzz'}, lists: [home]})
  Tasks
  var buf = bufnr()
  h.Wait(() => OverviewText(buf) =~ 'Errands', 'the smart lists')
  var lines = h.Lines(buf)
  var at = index(lines, 'Smart lists')
  assert_true(at > index(lines, 'Smart groups') && at < index(lines, 'Lists'), 'between the groups and the lists: ' .. string(lines))
  assert_equal(['TasklsHeader'], h.Groups(buf, at + 1))
  assert_equal(Entry('Errands', 2), lines[at + 1])
  assert_equal(Entry('Odd\tname', 0), lines[at + 2], 'a stored name shows escaped')
  assert_equal('', lines[at + 3])
  # Live: a change elsewhere updates the count.
  h.Result('items/create', {list: home, title: 'Stamps', tags: ['errand']})
  h.Wait(() => getbufline(buf, at + 2)[0] == Entry('Errands', 3), 'the new count')
  # <CR> opens it like a group: rows across lists, each with its list.
  cursor(at + 2, 1)
  h.Keys("\<CR>")
  var p = pane.Get()
  assert_false(empty(p), 'a pane opened')
  h.Wait(() => p.state == 'ready' && p.count == 3, 'the smart list''s rows')
  assert_equal({smartList: errands, name: 'Errands'}, p.source)
  assert_equal(['Buy milk', 'Stamps', 'Post parcel'], h.Titles(p))
  assert_match('(Home) \+#errand$', getline(1))
  assert_match('^  \[ \] Post parcel \+2026-12-24 \+(Work) \+#errand$', getline(3))
  assert_match('^taskls://Errands #\d\+$', bufname())
  h.CheckBuffer(p)
  # Done in the pane: it leaves the smart list (notDone), the count follows.
  h.Keys('x')
  h.Wait(() => p.count == 2, 'the done task gone')
  h.Wait(() => getbufline(buf, at + 2)[0] == Entry('Errands', 2), 'the count')
  # Rename and delete from the overview.
  execute 'buffer' buf
  cursor(at + 2, 1)
  h.Keys("cc\<C-u>Shopping\<CR>")
  h.Wait(() => getbufline(buf, at + 2)[0] == Entry('Shopping', 2), 'the renamed smart list')
  assert_equal('Shopping', overview.Entry().name)
  overview.DeleteList(true)
  h.Wait(() => OverviewText(buf) !~ 'Shopping', 'the smart list gone')
  assert_equal(3, h.Result('lists/list', {}).lists[0].total, 'its tasks stay')
  assert_true(p.closed, 'the pane on it closed')
  execute 'buffer' p.buf
  assert_equal(['This smart list was deleted — press q to close'], h.Lines(p.buf))
  execute 'buffer' buf
  assert_true(index(h.Messages(), 'taskls: the smart list "Errands" was deleted') >= 0, string(h.Messages()))
  # u brings it back.
  h.Keys('u')
  h.Wait(() => OverviewText(buf) =~ 'Shopping', 'the smart list back')
  # :Tasks NAME opens one by name; completion offers it.
  assert_equal(['Shopping'], getcompletion('Tasks Sho', 'cmdline'))
  Tasks Shopping
  h.Wait(() => get(pane.Get(), 'state', '') == 'ready', 'the pane by name')
  assert_equal(2, pane.Get().count)
  h.NoInternalErrors()
enddef

def g:Test_h2_gF_saves_the_pane_s_filter_as_a_smart_list()
  var home = h.Seed('Home', [{title: 'Buy milk', tags: ['errand']}, {title: 'Stamps', tags: ['errand'], done: true}, 'Read book'])
  var work = h.Seed('Work', [{title: 'Post parcel', tags: ['errand']}])
  var p = h.Open({list: home, name: 'Home'})
  h.Keys("F#errand\<CR>")
  h.Wait(() => p.count == 2, 'the filter')
  h.Keys("gFErrands\<CR>")
  h.Wait(() => h.Messages()[-1] =~ 'saved', 'the smart list saved')
  assert_equal('Save the filter as the smart list: ', prompt.prompts[-1].prompt)
  assert_equal('taskls: saved the smart list "Errands" (1 task): open it from the overview (-)', h.Messages()[-1])
  var saved = h.Result('lists/list', {}).smartLists
  assert_equal([{name: 'Errands', filter: {tagsAllOf: ['errand'], done: 'notDone'}, lists: [home], count: 1}],
    mapnew(saved, (_, s) => ({name: s.name, filter: s.filter, lists: s.lists, count: s.count})))
  # A name a smart list has: the prompt opens again saying so.
  feedkeys("gFerrands\<CR>", 'xt')
  feedkeys("\<C-u>Home errands\<CR>", 't')
  h.Wait(() => len(h.Result('lists/list', {}).smartLists) == 2, 'the second smart list')
  assert_equal('Save the filter as the smart list (there is already a smart list named errands; pick another name): ', prompt.prompts[-1].prompt)
  # A filter that says done keeps it.
  h.Keys("F\<C-u>#errand done\<CR>")
  h.Wait(() => p.count == 1, 'the done filter')
  TasksSaveFilter Done errands
  h.Wait(() => len(h.Result('lists/list', {}).smartLists) == 3, 'the third smart list')
  assert_equal({tagsAllOf: ['errand'], done: 'done'}, h.Result('lists/list', {}).smartLists[2].filter)
  # From All: every list.
  var all = h.Open({group: 'all', name: 'All'})
  h.Keys("F#errand\<CR>")
  h.Wait(() => all.count == 2, 'All filtered')
  TasksSaveFilter Everywhere
  h.Wait(() => len(h.Result('lists/list', {}).smartLists) == 4, 'the fourth smart list')
  var everywhere = h.Result('lists/list', {}).smartLists[3]
  assert_equal([null, {tagsAllOf: ['errand'], done: 'notDone'}, 2], [everywhere.lists, everywhere.filter, everywhere.count])
  # Today changes with the day; a smart list's pane is one already; outside a pane there is no filter.
  h.Open({group: 'today', name: 'Today'})
  h.Keys('gF')
  assert_equal('taskls: Today changes with the day, and a smart list''s dates are fixed; open All or a list, filter it, then save', h.Messages()[-1])
  h.Open({smartList: everywhere.id, name: 'Everywhere'})
  h.Keys('gF')
  assert_equal('taskls: this is a smart list already; to change what it holds, delete it and save another from a list or All', h.Messages()[-1])
  enew
  TasksSaveFilter X
  assert_equal('taskls: :TasksSaveFilter saves the filter of a list pane: run it in one', h.Messages()[-1])
  assert_equal(4, len(h.Result('lists/list', {}).smartLists), 'nothing more saved')
  h.NoInternalErrors()
enddef
