vim9script
# A list pane: rendering, the states, and every editing key against the real server.

import './helpers.vim' as h
import autoload 'taskls/client.vim'
import autoload 'taskls/prompt.vim'
import autoload 'taskls/details.vim'
import autoload 'taskls/view.vim'
import autoload 'taskls/pane.vim'
import autoload 'taskls/buffer.vim'
import autoload 'taskls/actions.vim'
import autoload 'taskls/render.vim'

# Days on the server's clock: 2026-11-25 in UTC.
def OnClock()
  h.Setup(h.store, ['--clock', '2026-11-25T11:00:00Z'])
  g:taskls_time_zone = 'UTC'
enddef

# `text` padded with spaces to `cells` display cells.
def Cells(text: string, cells: number): string
  return text .. repeat(' ', max([0, cells - strdisplaywidth(text)]))
enddef

# The line a row must show in an 80-cell window: the fold column (blank: no subtasks) and a space,
# the check box, the title column (34 cells, the notes mark inside it), then the due (19: the label and a repeat mark), the priority (3) and the tags, two spaces apart,
# nothing after the last field. Written out here, not with the plugin's code.
def Line(title: string, due = '', priority = '', tags = '', done = false): string
  var line = (done ? '  [x] ' : '  [ ] ') .. Cells(title, 34) .. '  ' .. Cells(due, 19) .. '  ' .. Cells(priority, 3) .. '  ' .. tags
  return substitute(line, ' \+$', '', '')
enddef

def g:Test_b01_rows_render_due_words_priority_tags_done_and_overdue()
  OnClock()
  var p = h.PaneOn([
    {title: 'Milk', due: '2026-11-25', priority: 'high', tags: ['home']},
    {title: 'Call Ann', due: '2026-11-23'},
    {title: 'Dentist', due: '2026-11-26T09:30:00Z'},
    {title: 'Trip', due: '2026-11-28', priority: 'low'},
    {title: 'Taxes', due: '2027-01-10'},
    {title: 'Old', due: '2026-11-24', done: true, notes: 'x'},
    {title: 'Yesterday', due: '2026-11-24'},
    {title: 'Long ago', due: '2026-11-11'},
  ])
  h.Wait(() => client.state.today == '2026-11-25', 'the server''s today')
  h.Wait(() => getline(1) =~ 'today', 'a redraw in the server''s day')
  assert_equal(80, winwidth(0))
  assert_equal(34, p.width, 'the title column: what 80 cells leave')
  var lines = h.Lines(p.buf)
  assert_equal(Line('Milk', 'today', '!!!', '#home'), lines[0])
  assert_equal(Line('Call Ann', '2 days ago'), lines[1])
  assert_equal(Line('Dentist', 'tomorrow 09:30'), lines[2])
  assert_equal(Line('Trip', 'in 3 days', '!'), lines[3])
  assert_equal(Line('Taxes', '2027-01-10'), lines[4])
  assert_equal(Line('Old +', 'yesterday', '', '', true), lines[5])
  assert_equal(Line('Yesterday', 'yesterday'), lines[6])
  assert_equal(Line('Long ago', '2026-11-11'), lines[7])
  assert_true(index(h.Groups(p.buf, 1), 'TasklsToday') >= 0, 'today highlighted')
  assert_true(index(h.Groups(p.buf, 2), 'TasklsOverdue') >= 0, 'overdue is a highlight')
  assert_true(index(h.Groups(p.buf, 6), 'TasklsDone') >= 0, 'done dimmed')
  assert_true(index(h.Groups(p.buf, 6), 'TasklsOverdue') < 0, 'a done task is never overdue')
  assert_equal('Comment', synIDattr(synIDtrans(hlID('TasklsDone')), 'name'), 'TasklsDone links to Comment')
  assert_false(&l:wrap)
  assert_false(&modifiable)
  assert_equal('nofile', &buftype)
  assert_equal(-1, &undolevels)
  h.CheckBuffer(p)
enddef

def g:Test_b02_a_new_day_moves_the_words()
  OnClock()
  var p = h.PaneOn([{title: 'Dentist', due: '2026-11-26'}])
  Tasks
  h.Wait(() => client.state.today == '2026-11-25', 'today')
  execute 'buffer' p.buf
  h.Wait(() => getline(1) =~ 'tomorrow$', 'tomorrow')
  h.Result('debug/setClock', {now: '2026-11-26T00:00:01Z'})
  h.Wait(() => getline(1) =~ '  today$', 'today after midnight')
  assert_equal('2026-11-26', client.state.today)
enddef

def g:Test_b03_stored_control_characters_show_escaped()
  var p = h.PaneOn([{title: "Clear\e[2J now", tags: ["x\ty"], notes: "line 1\nline\e2"}, "Back\\slash \\n and \u202Eevil"])
  assert_equal(Line('Clear\e[2J now +', '', '', '#x\ty'), getline(1))
  assert_match('^  \[ \] Back\\slash \\\\n and \\u{202E}evil$', getline(2))
  assert_equal('Back\slash \\n and \u{202E}evil', render.Displayed("Back\\slash \\n and \u202Eevil"))
  assert_equal('a\u{7}b\u{9B}c\r', render.Displayed("a\x07b\u009bc\r"))
  cursor(1, 1)
  h.Keys("\<CR>")
  h.Wait(() => details.last_popup != 0 && !empty(popup_getpos(details.last_popup)), 'the details popup')
  var shown = getbufline(winbufnr(details.last_popup), 1, '$')
  assert_equal('Clear\e[2J now', shown[0])
  assert_equal('line\e2', shown[-1])
  assert_equal('line 1', shown[-2])
  for line in shown
    assert_notmatch("[\x01-\x1f]", line)
  endfor
  var buf = bufnr()
  h.Keys('q')
  assert_true(bufexists(buf), 'q went to the popup, not the pane')
  assert_true(empty(popup_getpos(details.last_popup)), 'q closes the popup')
enddef

def g:Test_b04_empty_list_says_so_and_a_adds_the_first_task()
  OnClock()
  var p = h.PaneOn([])
  assert_equal(['No tasks — press a to add one'], h.Lines(p.buf))
  assert_equal(['TasklsState'], h.Groups(p.buf, 1))
  h.Keys("aBuy milk ^tomorrow !high #home // 2 litres\<CR>")
  h.Wait(() => p.count == 1, 'the new row')
  assert_equal([Line('Buy milk +', 'tomorrow', '!!!', '#home')], h.Lines(p.buf))
  var item = h.Result('items/get', {id: p.rows[0].id})
  assert_equal(['Buy milk', '2026-11-26', 'high', ['home'], '2 litres'], [item.title, item.due, item.priority, item.tags, item.notes])
enddef

def g:Test_b05_o_and_O_add_below_and_above_and_the_cursor_follows()
  var p = h.PaneOn(['A', 'B', 'C'])
  h.Goto(p, 'B')
  h.Keys("oafter B\<CR>")
  h.Wait(() => p.count == 4, 'o')
  assert_equal(['A', 'B', 'after B', 'C'], h.Titles(p))
  h.Wait(() => line('.') == 3, 'the cursor on the new task')
  h.Goto(p, 'A')
  h.Keys("Obefore A\<CR>")
  h.Wait(() => p.count == 5, 'O')
  assert_equal(['before A', 'A', 'B', 'after B', 'C'], h.Titles(p))
  h.Wait(() => line('.') == 1, 'the cursor on the new task')
  h.CheckBuffer(p)
enddef

def g:Test_b06_a_warning_is_never_stored_and_the_prompt_says_it_with_the_text()
  var p = h.PaneOn([])
  # The next answers wait in the typeahead for the prompts that open again: the same text
  # unchanged, then the text without the unknown list.
  feedkeys("aBuy bread @Nolist\<CR>", 'xt')
  feedkeys("\<CR>", 't')
  feedkeys("\<C-u>Buy bread\<CR>", 't')
  h.Wait(() => p.count == 1, 'the corrected text saved')
  assert_equal(3, len(prompt.prompts), string(prompt.prompts))
  assert_equal('New task: ', prompt.prompts[0].prompt)
  for asked in prompt.prompts[1 : 2]
    assert_equal('Buy bread @Nolist', asked.default, 'the typed text again')
    assert_match('^New task (no list named Nolist.*; \\ keeps a word as text): $', asked.prompt, 'the warning in the prompt')
  endfor
  assert_equal(['Buy bread'], h.Titles(p), 'the text with the warning was never stored, even sent again')
  assert_equal(1, h.Result('lists/list', {}).lists[0].total)
  # A warning quoting stored or typed text shows it escaped in the prompt.
  assert_equal("Add (no list named X\\e[2J): ", prompt.Text('Add', 'hint', "no list named X\e[2J"))
enddef

def g:Test_b07_x_toggles_with_counts_and_visual_ranges()
  var p = h.PaneOn(['A', 'B', 'C', 'D', 'E'])
  cursor(1, 1)
  var v = p.version
  h.Keys('x')
  h.WaitVersion(p, v + 1, 'x')
  assert_equal([true, false, false, false, false], mapnew(p.rows, (_, r) => r.done))
  v = p.version
  h.Keys('3x')
  h.WaitVersion(p, v + 1, '3x')
  assert_equal([true, true, true, false, false], mapnew(p.rows, (_, r) => r.done))
  v = p.version
  cursor(2, 1)
  h.Keys('Vjx')
  h.WaitVersion(p, v + 1, 'visual x')
  assert_equal([true, false, false, false, false], mapnew(p.rows, (_, r) => r.done))
  assert_equal('n', mode())
  assert_true(index(h.Groups(p.buf, 1), 'TasklsDone') >= 0)
  h.CheckBuffer(p)
enddef

def g:Test_b08_dd_deletes_with_counts_and_visual_d()
  var p = h.PaneOn(['A', 'B', 'C', 'D', 'E', 'F'])
  cursor(2, 1)
  h.Keys('dd')
  h.Wait(() => p.count == 5, 'dd')
  assert_equal(['A', 'C', 'D', 'E', 'F'], h.Titles(p))
  h.Keys('3dd')
  h.Wait(() => p.count == 2, '3dd')
  assert_equal(['A', 'F'], h.Titles(p))
  cursor(1, 1)
  h.Keys('Vjd')
  h.Wait(() => p.count == 0, 'visual d')
  assert_equal(['No tasks — press a to add one'], h.Lines(p.buf))
  # One undo step each: u brings back the last two.
  h.Keys('u')
  h.Wait(() => p.count == 2, 'u')
  assert_equal(['A', 'F'], h.Titles(p))
  h.CheckBuffer(p)
enddef

def g:Test_b09_cc_edits_with_the_quick_entry_line()
  OnClock()
  var p = h.PaneOn([{title: 'Call #42', priority: 'low'}])
  h.Seed('Work', [])
  cursor(1, 1)
  h.Keys("cc\<C-u>Call Ann ^fri !high #work // bring notes\<CR>")
  assert_equal('Call \#42', prompt.prompts[-1].default, 'the title escaped as the default')
  # The words of repeats and alerts too, so an unchanged line reads back as the same title.
  var title = 'Remind Bob every day +1w .+3d ++2m remind 1h before'
  assert_equal('\Remind Bob \every day \+1w \.+3d \++2m \remind 1h before', actions.Escape(title))
  var back = h.Result('text/parseItem', {text: actions.Escape(title)})
  assert_equal([title, 0, 0], [back.fields.title, has_key(back.fields, 'repeat'), has_key(back.fields, 'alerts')])
  h.Wait(() => p.rows[0].title == 'Call Ann', 'the edit')
  var item = h.Result('items/get', {id: p.rows[0].id})
  assert_equal(['Call Ann', '2026-11-27', 'high', ['work'], 'bring notes'], [item.title, item.due, item.priority, item.tags, item.notes])
  # A line with a warning is not stored, even sent again: the prompt says why, with the text.
  var asked = len(prompt.prompts)
  feedkeys("cc\<C-u>Call Bob !urgent\<CR>", 'xt')
  feedkeys("\<CR>", 't')
  feedkeys("\<C-u>\<CR>", 't')
  h.Wait(() => len(prompt.prompts) == asked + 3, 'asked again twice')
  assert_equal(['Call Bob !urgent', 'Call Bob !urgent'], [prompt.prompts[-2].default, prompt.prompts[-1].default])
  assert_match('^Edit (!urgent is not a priority', prompt.prompts[-1].prompt)
  assert_equal('Call Ann', h.Result('items/get', {id: item.id}).title, 'nothing stored')
  # @List moves the task to that list.
  h.Keys("cc\<C-u>Call Ann @Work\<CR>")
  h.Wait(() => p.count == 0, 'moved out')
  assert_equal(client.state.lists[1].id, h.Result('items/get', {id: item.id}).list)
enddef

def g:Test_b10_cd_cp_ct_set_one_field_with_counts_and_visual()
  OnClock()
  var p = h.PaneOn(['A', 'B', 'C', 'D'])
  cursor(1, 1)
  h.Keys("2cdtomorrow 9:30\<CR>")
  h.Wait(() => type(p.rows[1].due) == v:t_string, 'the dues')
  assert_equal(['2026-11-26T09:30:00Z', '2026-11-26T09:30:00Z'], [p.rows[0].due, p.rows[1].due])
  assert_equal(v:null, p.rows[2].due)
  assert_match('tomorrow 09:30$', getline(1))
  # A phrase that is no date is said, and asked again with it.
  var asked = len(prompt.prompts)
  feedkeys("cd\<C-u>fryday\<CR>", 'xt')
  feedkeys("\<C-u>none\<CR>", 't')
  h.Wait(() => len(prompt.prompts) == asked + 2, 'asked again')
  assert_equal('fryday', prompt.prompts[-1].default)
  assert_match('^Due (fryday is not a date', prompt.prompts[-1].prompt, 'the problem in the prompt')
  h.Wait(() => p.rows[0].due == v:null, 'cleared')
  # cp with a menu: 4 is High.
  cursor(3, 1)
  h.Keys('Vjcp')
  h.Keys('4')
  h.Wait(() => p.rows[2].priority == 'high' && p.rows[3].priority == 'high', 'the priorities')
  assert_equal('none', p.rows[1].priority)
  # ct: tags, with or without #; - clears.
  cursor(2, 1)
  h.Keys("2ct#home work\<CR>")
  h.Wait(() => p.rows[1].tags == ['home', 'work'] && p.rows[2].tags == ['home', 'work'], 'the tags')
  h.Keys("ct\<C-u>-\<CR>")
  h.Wait(() => p.rows[1].tags == [], 'no tags')
  h.CheckBuffer(p)
enddef

def g:Test_b11_the_form_edits_every_field()
  OnClock()
  var p = h.PaneOn([{title: 'Plan', notes: 'old'}])
  h.Seed('Work', [])
  var id = p.rows[0].id
  cursor(1, 1)
  h.Keys('e')
  h.Wait(() => bufname() == 'taskls://form/' .. id, 'the form')
  assert_equal(['Title: Plan', 'Due: ', 'Priority: none', 'Tags: ', 'List: Groceries', 'Repeat: ', '--- Notes (every line below) ---', 'old'], getline(1, '$'))
  setline(1, ['Title: Plan the trip', 'Due: fri 5pm', 'Priority: !!', 'Tags: #travel #fun'])
  setline(8, ['first line', 'second line'])
  write
  h.Wait(() => !&modified, 'saved')
  var item = h.Result('items/get', {id: id})
  assert_equal(['Plan the trip', '2026-11-27T17:00:00Z', 'medium', ['travel', 'fun'], "first line\nsecond line"],
    [item.title, item.due, item.priority, item.tags, item.notes])
  assert_equal('Due: 2026-11-27 17:00', getline(2), 'the form shows what was saved, in grammar words')
  # Saved again unchanged, the due stays as it is.
  setline(1, 'Title: Plan the trip!')
  write
  h.Wait(() => !&modified, 'saved unchanged due')
  assert_equal('2026-11-27T17:00:00Z', h.Result('items/get', {id: id}).due)
  # A due that is no date: not saved, the form stays modified.
  setline(2, 'Due: someday')
  write
  h.Wait(() => h.Messages()[-1] =~ 'not saved', 'refused')
  assert_true(&modified)
  setline(2, 'Due: ')
  setline(5, 'List: Work')
  write
  h.Wait(() => !&modified, 'saved again')
  item = h.Result('items/get', {id: id})
  assert_equal([v:null, client.state.lists[1].id], [item.due, item.list])
  h.Wait(() => p.count == 0, 'the pane lost it')
enddef

def g:Test_b12_J_and_K_move_in_manual_order_with_counts_and_visual()
  var p = h.PaneOn(['A', 'B', 'C', 'D', 'E'])
  cursor(1, 1)
  var v = p.version
  h.Keys('J')
  h.WaitVersion(p, v + 1, 'J')
  assert_equal(['B', 'A', 'C', 'D', 'E'], h.Titles(p))
  assert_equal(2, line('.'), 'the cursor follows its task')
  v = p.version
  h.Keys('2J')
  h.WaitVersion(p, v + 1, '2J')
  assert_equal(['B', 'C', 'D', 'A', 'E'], h.Titles(p))
  assert_equal(4, line('.'))
  v = p.version
  cursor(2, 1)
  h.Keys('VjK')
  h.WaitVersion(p, v + 1, 'visual K')
  assert_equal(['C', 'D', 'B', 'A', 'E'], h.Titles(p))
  h.CheckBuffer(p)
  # In a sorted pane, J says why it does nothing.
  view.SetSort(p, {by: 'title'})
  h.Wait(() => p.rows[0].title == 'A', 'sorted')
  h.Keys('J')
  assert_match('sorted by title: J and K reorder only in manual order', h.Messages()[-1])
enddef

def g:Test_b13_sort_filter_and_sections()
  var p = h.PaneOn([{title: 'Pears', tags: ['fruit']}, {title: 'Apples', tags: ['fruit'], priority: 'high'}, 'Bread'])
  h.Keys('s')
  h.Keys('2')
  h.Wait(() => h.Titles(p) == ['Apples', 'Bread', 'Pears'], 'the title order')
  assert_match('\[by title\]$', bufname())
  h.Keys("F#fruit\<CR>")
  h.Wait(() => p.count == 2, 'the filter')
  assert_equal(['Apples', 'Pears'], h.Titles(p))
  assert_match('\[by title, filter "#fruit"\]$', bufname())
  # A filter with a warning is not applied: the prompt opens again with it (<Esc> then leaves it).
  var asked = len(prompt.prompts)
  var filters = get(client.stats.requests, 'view/filter', 0)
  feedkeys("F\<C-u>apples @Work\<CR>", 'xt')
  feedkeys("\<Esc>", 't')
  h.Wait(() => len(prompt.prompts) == asked + 2, 'the filter prompt again')
  assert_equal('apples @Work', prompt.prompts[-1].default)
  assert_match('^Filter (a filter cannot pick a list.*; \\ keeps a word as text): $', prompt.prompts[-1].prompt)
  assert_equal(filters, get(client.stats.requests, 'view/filter', 0), 'no view/filter sent')
  assert_equal(['Apples', 'Pears'], h.Titles(p))
  assert_equal('#fruit', p.filter_text)
  h.Keys("F\<C-u>bananas\<CR>")
  h.Wait(() => p.count == 0, 'no matches')
  assert_equal(['No matches — clear the filter with F'], h.Lines(p.buf))
  # <Esc> leaves the filter; an empty answer clears it.
  h.Keys("F\<C-u>xyz\<Esc>")
  assert_equal(0, p.count)
  assert_equal('bananas', p.filter_text)
  h.Keys("F\<C-u>\<CR>")
  h.Wait(() => p.count == 3, 'the filter cleared')
  h.Keys('S')
  h.Keys('3')
  h.Wait(() => p.count == 5, 'sections by priority')
  assert_equal('High (1)', getline(1))
  assert_equal(['TasklsHeader'], h.Groups(p.buf, 1))
  assert_equal('No Priority (2)', getline(3))
  assert_match('sections priority', bufname())
  h.CheckBuffer(p)
enddef

def g:Test_b14_u_and_ctrl_r_undo_and_redo_through_the_server()
  var p = h.PaneOn(['A', 'B'])
  cursor(1, 1)
  h.Keys('dd')
  h.Wait(() => p.count == 1, 'dd')
  h.Keys('u')
  h.Wait(() => p.count == 2, 'u')
  h.Wait(() => h.Messages()[-1] =~ 'undid', 'the undo said')
  assert_equal('taskls: undid: delete 1 task', h.Messages()[-1])
  h.Keys("\<C-r>")
  h.Wait(() => p.count == 1, '<C-r>')
  h.Wait(() => h.Messages()[-1] =~ 'redid', 'the redo said')
  assert_equal('taskls: redid: delete 1 task', h.Messages()[-1])
  h.Keys('u')
  h.Wait(() => p.count == 2, 'u again')
  h.Keys('u')
  h.Wait(() => p.count == 1, 'the second creation undone')
  assert_equal(['A'], h.Titles(p))
  h.Wait(() => h.Messages()[-1] =~ 'add', 'the undo said')
  assert_equal('taskls: undid: add 1 task', h.Messages()[-1])
  # Several tasks, in words: never a method name.
  h.Result('items/create', {list: p.source.list, title: 'B'})
  h.Result('items/create', {list: p.source.list, title: 'C'})
  h.Wait(() => p.count == 3, 'B and C')
  cursor(1, 1)
  h.Keys('3x')
  h.Wait(() => p.rows[2].done == true, '3x')
  h.Keys('u')
  h.Wait(() => h.Messages()[-1] =~ 'undid: complete', 'the undo of 3x said')
  assert_equal('taskls: undid: complete 3 tasks', h.Messages()[-1])
  h.Keys('3dd')
  h.Wait(() => p.count == 0, '3dd')
  h.Keys('u')
  h.Wait(() => h.Messages()[-1] =~ 'undid: delete', 'the undo of 3dd said')
  assert_equal('taskls: undid: delete 3 tasks', h.Messages()[-1])
  h.Keys("\<C-r>")
  h.Wait(() => h.Messages()[-1] =~ 'redid: delete', 'the redo of 3dd said')
  assert_equal('taskls: redid: delete 3 tasks', h.Messages()[-1])
  for m in h.Messages()
    assert_notmatch('items/', m)
  endfor
  h.Keys('u')
  h.Wait(() => p.count == 3, 'the three back')
  h.CheckBuffer(p)
enddef

def g:Test_b14b_nothing_to_undo_is_one_warning()
  TasksUndo
  h.Wait(() => !empty(h.Messages()), 'the warning')
  assert_equal('warn', client.state.messages[-1].level)
  assert_match('^taskls: .*undo', h.Messages()[-1])
enddef

def g:Test_b15_two_panes_on_one_list_stay_in_sync()
  var p = h.PaneOn(['A', 'B'])
  new
  execute 'Tasks! Groceries'
  h.Wait(() => len(pane.panes) == 2, 'the second pane')
  var q = pane.Get()
  h.Wait(() => q.state == 'ready', 'the second pane ready')
  assert_notequal(p.buf, q.buf)
  h.Keys("aC\<CR>")
  h.Wait(() => p.count == 3 && q.count == 3, 'both panes')
  assert_equal(h.Lines(q.buf), h.Lines(p.buf))
  view.SetSort(q, {by: 'title', direction: 'descending'})
  h.Wait(() => h.Titles(q) == ['C', 'B', 'A'], 'the second pane sorted')
  assert_equal(['A', 'B', 'C'], h.Titles(p), 'each pane its own sort')
  h.CheckBuffer(p)
  h.CheckBuffer(q)
enddef

def g:Test_b16_a_deleted_list_and_a_stopped_server_say_so()
  var p = h.PaneOn(['A'])
  TasksStop
  h.Wait(() => !!p.stopped, 'stopped')
  assert_equal(['The server stopped — press r to restart it'], h.Lines(p.buf))
  h.Keys('r')
  h.Wait(() => p.state == 'ready' && !p.stopped && p.count == 1, 'the pane back on a new server')
  h.Result('lists/delete', {id: p.source.list})
  h.Wait(() => !!p.closed, 'closed')
  assert_equal(['This list was deleted — press q to close'], h.Lines(p.buf))
  var buf = p.buf
  h.Keys('q')
  assert_false(bufexists(buf), 'q wipes the pane')
enddef

def g:Test_b17_in_the_today_group_a_new_task_is_due_today_in_the_row_s_list()
  OnClock()
  h.Seed('Home', ['Sweep'])
  var work = h.Seed('Work', [{title: 'Report', due: '2026-11-25'}])
  var p = h.Open({group: 'today', name: 'Today'})
  h.Wait(() => p.count == 1, 'the Today group')
  # A smart group shows the list in its own column: the title takes what 80 - 46 - 16 cells leave, at least 20.
  assert_equal('  [ ] ' .. Cells('Report', 20) .. '  ' .. Cells('today', 19) .. '  ' .. Cells('', 3) .. '  (Work)', getline(1))
  cursor(1, 1)
  h.Keys("aCall the bank\<CR>")
  h.Wait(() => p.count == 2, 'the new task in Today')
  var item = h.Result('items/get', {id: p.rows[1].id})
  assert_equal(['Call the bank', '2026-11-25', work], [item.title, item.due, item.list])
enddef

def g:Test_b18_a_modified_form_refuses_to_close()
  var p = h.PaneOn(['Plan'])
  cursor(1, 1)
  h.Keys('e')
  h.Wait(() => bufname() =~ '^taskls://form/', 'the form')
  setline(1, 'Title: Plan more')
  new
  wincmd p
  assert_fails('quit', 'E37:')
  assert_match('^taskls://form/', bufname())
  bwipeout!
  assert_equal('Plan', p.rows[0].title, 'nothing saved')
enddef

def g:Test_b19_restart_reopens_every_pane_on_a_new_server()
  var p = h.PaneOn(['A', 'B'])
  g:taskls_open = 'split'
  var q = h.Open({group: 'all', name: 'All'})
  assert_equal(2, winnr('$'), 'g:taskls_open split the window')
  var job = client.state.job
  TasksRestart
  h.Wait(() => client.state.job != job && p.state == 'ready' && q.state == 'ready' && p.count == 2 && q.count == 2 && !p.stopped,
    'both panes on the new server')
  h.Keys("aC\<CR>")
  h.Wait(() => p.count == 3 && q.count == 3, 'live again')
  h.CheckBuffer(p)
  h.CheckBuffer(q)
enddef

def g:Test_b20_bdelete_closes_the_view()
  var p = h.PaneOn(['A'])
  var view_id = p.view
  var buf = p.buf
  assert_true(has_key(client.state.views, view_id))
  execute 'bdelete' buf
  assert_false(has_key(client.state.views, view_id), 'the view is forgotten')
  assert_true(empty(pane.Get(buf)), 'the pane is gone')
  h.Wait(() => !bufexists(buf), 'the buffer wiped')
  var answer = h.Ask('view/snapshot', {view: view_id})
  assert_equal('unknownView', get(get(answer, 'error', {}), 'reason', ''), 'the server closed the view')
enddef

def g:Test_b21_a_hidden_pane_is_drawn_when_shown_again_with_its_cursor()
  var p = h.PaneOn(['A', 'B', 'C'])
  cursor(2, 1)
  var writes = p.stats.set_lines
  var first = p.rows[0].id
  var third = p.rows[2].id
  enew
  h.Result('items/create', {list: p.source.list, title: 'Z', before: first})
  h.Result('items/update', {id: third, title: 'C2'})
  h.Wait(() => p.count == 4 && p.rows[3].title == 'C2', 'the model follows while hidden')
  assert_equal(writes, p.stats.set_lines, 'nothing written while hidden')
  execute 'buffer' p.buf
  assert_equal(['  [ ] Z', '  [ ] A', '  [ ] B', '  [ ] C2'], h.Lines(p.buf))
  assert_equal('B', buffer.RowAt(p, line('.')).title, 'the cursor back on its row')
  h.CheckBuffer(p)
enddef

def g:Test_b22_messages_quoting_stored_names_show_them_escaped()
  var p = h.PaneOn(['A'], "Evil\e[2J\nlist")
  assert_match('^taskls://Evil\\e\[2J\\nlist #', bufname())
  h.Result('lists/delete', {id: p.source.list})
  h.Wait(() => !!p.closed, 'closed')
  h.Wait(() => !empty(h.Messages()) && h.Messages()[-1] =~ 'was deleted', 'said')
  assert_equal('taskls: the list of "Evil\e[2J\nlist" was deleted', h.Messages()[-1])
  # What the server says quoting a typed name, too (:Tasks NAME with no such list).
  execute "Tasks No\tsuch"
  h.Wait(() => h.Messages()[-1] =~ 'no list named', 'the warning')
  assert_equal('taskls: no list named "No\tsuch"', h.Messages()[-1])
  for m in h.Messages()
    assert_notmatch("[\x01-\x1f]", m)
  endfor
enddef

def g:Test_b23_a_due_shows_the_client_s_wall_clock_from_dueLocal()
  # 11:00 UTC is 01:00 on the 26th in Kiritimati (UTC+14): the client's day is the 26th.
  h.Setup(h.store, ['--clock', '2026-11-25T11:00:00Z'])
  g:taskls_time_zone = 'Pacific/Kiritimati'
  var p = h.PaneOn([{title: 'Call', due: '2026-11-27T17:00:00Z'}, {title: 'Day', due: '2026-11-26'}])
  h.Wait(() => client.state.today == '2026-11-26', 'the client''s today')
  assert_equal('2026-11-28T07:00', p.rows[0].dueLocal)
  h.Wait(() => getline(2) =~ 'today$', 'a redraw in the client''s day')
  # 17:00Z on the 27th reads 07:00 on the 28th there: in 2 days, never "tomorrow 17:00".
  assert_equal(Line('Call', 'in 2 days 07:00'), getline(1))
  assert_equal(Line('Day', 'today'), getline(2))
  # The details popup: the words, then the due as the grammar reads it back.
  cursor(1, 1)
  h.Keys("\<CR>")
  h.Wait(() => details.last_popup != 0 && !empty(popup_getpos(details.last_popup)), 'the details popup')
  var shown = getbufline(winbufnr(details.last_popup), 1, '$')
  assert_true(index(shown, printf('%-10s %s', 'Due', 'in 2 days 07:00 (2026-11-28 07:00)')) >= 0, string(shown))
  popup_clear(1)
  # cd starts with the local phrase; submitted unchanged it is the same instant.
  h.Keys("cd\<CR>")
  assert_equal('2026-11-28 07:00', prompt.prompts[-1].default)
  h.Wait(() => p.rows[0].due == '2026-11-28T07:00:00+14:00', 'the due set again')
  var item = h.Result('items/get', {id: p.rows[0].id})
  assert_equal('2026-11-28T07:00', item.dueLocal)
  assert_equal(['2026-11-28T07:00:00+14:00'], [item.due])
  assert_equal(Line('Call', 'in 2 days 07:00'), getline(1))
  # The form shows it in the same words and reads it back unchanged.
  h.Keys('e')
  h.Wait(() => bufname() =~ '^taskls://form/', 'the form')
  assert_equal('Due: 2026-11-28 07:00', getline(2))
  setline(1, 'Title: Call back')
  write
  h.Wait(() => !&modified, 'saved')
  item = h.Result('items/get', {id: item.id})
  assert_equal(['Call back', '2026-11-28T07:00'], [item.title, item.dueLocal])
  assert_equal('Due: 2026-11-28 07:00', getline(2))
enddef

def g:Test_b24_columns_line_up_whatever_the_title_and_titles_cut_by_cells()
  OnClock()
  var p = h.PaneOn([
    {title: 'Short', due: '2026-11-12T09:30:00Z', priority: 'high', tags: ['a']},
    {title: '日本語のタイトルはとても長いのでこの列には入りきらないかもしれません', due: '2026-11-26', priority: 'low', tags: ['b']},
    {title: 'Emoji 👍🏽 party', notes: 'n', priority: 'medium', tags: ['c']},
    {title: repeat('x', 60), notes: 'n', due: '2026-11-25', tags: ['d']},
    {title: "Tab\there", tags: ['e']},
  ])
  h.Wait(() => client.state.today == '2026-11-25', 'today')
  h.Wait(() => getline(1) =~ '13 days ago 09:30', 'the widest due label')
  var Starts = (lnum: number) => {
    var line = getline(lnum)
    return strdisplaywidth(strpart(line, 0, stridx(line, '#')))
  }
  # The tags column starts at the same cell on every row: fold column 1 + 1, check box 3 + 1,
  # title 34, then
  # 2 + 19 + 2 + 3 + 2.
  for lnum in range(1, 5)
    assert_equal(2 + 4 + 34 + 2 + 19 + 2 + 3 + 2, Starts(lnum), 'the tags of line ' .. lnum .. ': ' .. getline(lnum))
  endfor
  assert_equal(Line('Short', '13 days ago 09:30', '!!!', '#a'), getline(1))
  # A wide title is cut with … by display cells; the notes mark stays inside the title column.
  assert_match('^  \[ \] 日本語.*… \+tomorrow ', getline(2))
  assert_equal(2 + 4 + 33, strdisplaywidth(matchstr(getline(2), '^.*…')), 'cut to 33 cells and …: a wide character does not fit the last cell')
  assert_equal(Line(repeat('x', 31) .. '… +', 'today', '', '#d'), getline(4))
  assert_equal(Line('Emoji 👍🏽 party +', '', '!!', '#c'), getline(3))
  assert_equal(Line('Tab\there', '', '', '#e'), getline(5))
  # A narrower window: the title column takes what it leaves (at least 20), the rows drawn again.
  vnew
  wincmd p
  execute 'vertical resize 70'
  # Vim says WinResized from its main loop, which a test waiting in :sleep never reaches.
  doautocmd <nomodeline> WinResized
  h.Wait(() => p.width == 70 - 46, 'the rows drawn for 70 cells')
  assert_equal('  [ ] ' .. Cells('Short', 24) .. '  ' .. Cells('13 days ago 09:30', 19) .. '  !!!  #a', getline(1))
  assert_equal('  [ ] ' .. repeat('x', 21) .. '… +  ' .. Cells('today', 19) .. '  ' .. Cells('', 3) .. '  #d', getline(4))
  for lnum in range(1, 5)
    assert_equal(2 + 4 + 24 + 2 + 19 + 2 + 3 + 2, Starts(lnum), 'narrow, line ' .. lnum .. ': ' .. getline(lnum))
  endfor
  # g:taskls_title_width caps it.
  only
  g:taskls_title_width = 24
  h.AfterEach()
  g:taskls_title_width = 24
  OnClock()
  p = h.PaneOn([{title: 'A rather long title for this', priority: 'low'}], 'Other')
  assert_equal('  [ ] ' .. 'A rather long title for…' .. '  ' .. Cells('', 19) .. '  !', getline(1))
  unlet g:taskls_title_width
  h.CheckBuffer(p)
enddef
