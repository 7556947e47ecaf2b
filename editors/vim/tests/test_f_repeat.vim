vim9script
# Repeating tasks: the ↻ after the due, the repeat and its history in the details, x moving a
# repeating task on (said in one line), X skipping with refusals in words, cr setting and
# stopping a repeat, and quick entry (a and cc) sending the repeat.

import './helpers.vim' as h
import autoload 'taskls/client.vim'
import autoload 'taskls/prompt.vim'
import autoload 'taskls/details.vim'
import autoload 'taskls/render.vim'

# Days on the server's clock: 2026-11-25 (a Wednesday) in UTC.
def OnClock()
  h.Setup(h.store, ['--clock', '2026-11-25T11:00:00Z'])
  g:taskls_time_zone = 'UTC'
enddef

def Cells(text: string, cells: number): string
  return text .. repeat(' ', max([0, cells - strdisplaywidth(text)]))
enddef

# The line of a row in an 80-cell window, written out here: title 34 cells, due 19, priority 3.
def Line(title: string, due = '', priority = '', tags = ''): string
  var line = '  [ ] ' .. Cells(title, 34) .. '  ' .. Cells(due, 19) .. '  ' .. Cells(priority, 3) .. '  ' .. tags
  return substitute(line, ' \+$', '', '')
enddef

# The text each highlight group covers on line `lnum` of `buf`.
def Marks(buf: number, lnum: number): dict<string>
  var text = getbufline(buf, lnum)[0]
  var found: dict<string> = {}
  for prop in prop_list(lnum, {bufnr: buf})
    found[prop.type] = strpart(text, prop.col - 1, prop.length)
  endfor
  return found
enddef

# The lines of the details popup of the task under the cursor.
def DetailsLines(): list<string>
  popup_clear(1)
  details.last_popup = 0
  h.Keys("\<CR>")
  h.Wait(() => details.last_popup != 0 && !empty(popup_getpos(details.last_popup)), 'the details popup')
  var shown = getbufline(winbufnr(details.last_popup), 1, '$')
  popup_clear(1)
  return shown
enddef

const every_3_days = {rule: 'FREQ=DAILY;INTERVAL=3', from: 'due'}

def g:Test_f1_a_repeating_row_shows_a_repeat_mark_after_its_due()
  OnClock()
  var p = h.PaneOn([
    {title: 'Water plants', due: '2026-11-25', repeat: every_3_days},
    {title: 'Plain', due: '2026-11-26'},
    {title: 'Standup', due: '2026-11-26T09:00:00Z', priority: 'high', repeat: {rule: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', from: 'due'}, tags: ['work']},
    {title: 'Far off', due: '2027-01-10T09:30:00Z', repeat: {rule: 'FREQ=YEARLY', from: 'due'}, tags: ['x']},
  ])
  h.Wait(() => client.state.today == '2026-11-25', 'the server''s today')
  h.Wait(() => getline(1) =~ 'today', 'the rows in the server''s day')
  assert_equal(Line('Water plants', 'today ↻'), getline(1))
  assert_equal(Line('Plain', 'tomorrow'), getline(2))
  assert_equal(Line('Standup', 'tomorrow 09:00 ↻', '!!!', '#work'), getline(3))
  # The widest label and its mark fit the due column: the columns after it stay in place.
  assert_equal(Line('Far off', '2027-01-10 09:30 ↻', '', '#x'), getline(4))
  assert_equal(stridx(getline(3), '#work'), stridx(getline(4), '#x'), 'the tags line up')
  # The mark has its own highlight; the due keeps its own.
  assert_equal('↻', Marks(p.buf, 1).TasklsRepeat)
  assert_equal('today', Marks(p.buf, 1).TasklsToday)
  # (A due time far ahead: the pane tells an overdue time by the editor's own clock, not the test server's.)
  assert_equal('2027-01-10 09:30', Marks(p.buf, 4).TasklsDue)
  assert_false(has_key(Marks(p.buf, 2), 'TasklsRepeat'), 'no mark on a task that does not repeat')
  assert_equal('Special', synIDattr(synIDtrans(hlID('TasklsRepeat')), 'name'), 'TasklsRepeat links to Special')
  # Another mark through g:taskls_icons.
  g:taskls_icons = {repeat: '(r)'}
  assert_match('today (r)$', render.Row(p.rows[0], {title_width: 34})[0])
  unlet g:taskls_icons
  h.CheckBuffer(p)
  h.NoInternalErrors()
enddef

def g:Test_f2_x_moves_a_repeating_task_on_and_says_its_next_due()
  OnClock()
  var p = h.PaneOn([
    {title: 'Water plants', due: '2026-11-25', repeat: every_3_days},
    {title: 'Plain'},
  ])
  h.Wait(() => getline(1) =~ 'today ↻$', 'the repeating row')
  cursor(1, 1)
  var v = p.version
  h.Keys('x')
  h.WaitVersion(p, v + 1, 'x on a repeating task')
  h.Wait(() => index(h.Messages(), 'taskls: "Water plants" repeats (every 3 days): next due in 3 days') >= 0, 'the line that says where it moved on')
  assert_false(p.rows[0].done, 'it stays not done')
  assert_equal(Line('Water plants', 'in 3 days ↻'), getline(1))
  # Several at once: the plain task becomes done, the repeating one moves on again; one line for it.
  var said = len(h.Messages())
  v = p.version
  h.Keys('2x')
  h.WaitVersion(p, v + 1, '2x')
  h.Wait(() => len(h.Messages()) > said, 'the line')
  assert_equal(['taskls: "Water plants" repeats (every 3 days): next due in 6 days'], h.Messages()[said :])
  assert_true(p.rows[1].done)
  # The details show the server's words for the repeat and the history.
  cursor(1, 1)
  var shown = DetailsLines()
  assert_true(index(shown, 'Repeats    every 3 days') >= 0, string(shown))
  assert_true(index(shown, 'History    2 done, 0 skipped; last done 2026-11-25 11:00 UTC (due 2026-11-28)') >= 0, string(shown))
  # u undoes the completion: the due and the history come back.
  v = p.version
  h.Keys('u')
  h.WaitVersion(p, v + 1, 'undo')
  h.Wait(() => getline(1) =~ 'in 3 days ↻$', 'the due back')
  h.NoInternalErrors()
enddef

def g:Test_f3_X_skips_and_refusals_are_said_in_words()
  OnClock()
  var p = h.PaneOn([
    {title: 'Water plants', due: '2026-11-25', repeat: every_3_days},
    {title: 'Plain', due: '2026-11-26'},
    {title: 'Once', due: '2026-11-25', repeat: {rule: 'FREQ=DAILY;COUNT=1', from: 'due'}},
  ])
  h.Wait(() => getline(1) =~ 'today ↻$', 'the repeating row')
  cursor(1, 1)
  var v = p.version
  h.Keys('X')
  h.WaitVersion(p, v + 1, 'X')
  h.Wait(() => index(h.Messages(), 'taskls: skipped "Water plants": next due in 3 days') >= 0, 'the skip said')
  assert_equal(Line('Water plants', 'in 3 days ↻'), getline(1))
  var shown = DetailsLines()
  assert_true(index(shown, 'History    0 done, 1 skipped; last skipped 2026-11-25 11:00 UTC (due 2026-11-25)') >= 0, string(shown))
  # A task that does not repeat, and one whose repeat has ended: nothing changes, one warning each.
  v = p.version
  cursor(2, 1)
  h.Keys('X')
  h.Wait(() => h.Messages()[-1] =~ 'does not repeat', 'the refusal')
  assert_equal('taskls: "Plain" does not repeat: give a repeat first (cr, then every week)', h.Messages()[-1])
  cursor(3, 1)
  h.Keys('X')
  h.Wait(() => h.Messages()[-1] =~ 'has ended', 'the refusal')
  assert_equal('taskls: the repeat of "Once" has ended: there is no next due to skip to; x marks it done', h.Messages()[-1])
  # All or none: a range with a task that does not repeat skips nothing, naming that task alone.
  cursor(1, 1)
  h.Keys('2X')
  h.Wait(() => h.Messages()[-1] =~ 'does not repeat', 'the refusal of the range')
  assert_equal('taskls: "Plain" does not repeat: give a repeat first (cr, then every week)', h.Messages()[-1])
  assert_equal(v, p.version, 'nothing changed')
  h.NoInternalErrors()
enddef

def g:Test_f4_cr_sets_and_stops_a_repeat_and_cc_keeps_the_due()
  OnClock()
  var p = h.PaneOn([{title: 'Plain', due: '2026-11-26'}, {title: 'Undated'}])
  cursor(1, 1)
  var v = p.version
  h.Keys("crevery week\<CR>")
  h.WaitVersion(p, v + 1, 'cr')
  h.Wait(() => getline(1) =~ 'tomorrow ↻$', 'the mark')
  assert_equal('Repeat (every week, every mon,wed, every 3 days after done; off stops it): ', prompt.prompts[-1].prompt)
  assert_equal('taskls: repeats every week: "Plain"', h.Messages()[-1])
  var item = h.Result('items/get', {id: p.rows[0].id})
  assert_equal(['2026-11-26', 'FREQ=WEEKLY', 'due'], [item.due, item.repeat.rule, item.repeat.from], 'the due kept')
  # The hint says the current repeat; words that are no repeat open the prompt again with them.
  feedkeys("cr\<C-u>every 3 fortnights\<CR>", 'xt')
  feedkeys("\<C-u>every other week\<CR>", 't')
  h.Wait(() => h.Result('items/get', {id: p.rows[0].id}).repeat.rule == 'FREQ=WEEKLY;INTERVAL=2', 'every other week')
  assert_equal('Repeat (now every week; every week, every mon,wed, every 3 days after done; off stops it): ', prompt.prompts[-2].prompt)
  assert_match('^Repeat (every 3 needs a unit: .*; \\ keeps a word as text): $', prompt.prompts[-1].prompt, 'the warning in the prompt')
  assert_equal('every 3 fortnights', prompt.prompts[-1].default, 'the typed text again')
  # off stops it; the history stays.
  v = p.version
  h.Keys("cr\<C-u>off\<CR>")
  h.WaitVersion(p, v + 1, 'cr off')
  h.Wait(() => getline(1) =~ 'tomorrow$', 'no mark')
  assert_equal('taskls: no longer repeating: "Plain"', h.Messages()[-1])
  assert_equal(null, h.Result('items/get', {id: p.rows[0].id}).repeat)
  # A task without a due takes the rule's first day: every mon is next Monday.
  cursor(2, 1)
  v = p.version
  h.Keys("crevery mon\<CR>")
  h.WaitVersion(p, v + 1, 'cr on an undated task')
  h.Wait(() => getline(2) =~ 'in 5 days ↻$', 'due next Monday')
  assert_equal('2026-11-30', h.Result('items/get', {id: p.rows[1].id}).due)
  # cc with `every …` and no due phrase keeps the task's due; with one, takes it.
  cursor(1, 1)
  v = p.version
  h.Keys("cc\<C-u>Plain every 2 days\<CR>")
  h.WaitVersion(p, v + 1, 'cc every 2 days')
  item = h.Result('items/get', {id: p.rows[0].id})
  assert_equal(['2026-11-26', 'FREQ=DAILY;INTERVAL=2'], [item.due, item.repeat.rule])
  v = p.version
  h.Keys("cc\<C-u>Plain ^fri every week\<CR>")
  h.WaitVersion(p, v + 1, 'cc ^fri every week')
  item = h.Result('items/get', {id: p.rows[0].id})
  assert_equal(['2026-11-27', 'FREQ=WEEKLY'], [item.due, item.repeat.rule])
  # A title whose words read as a repeat is offered escaped, so it reads back as itself.
  var walk = h.Result('items/create', {list: p.source.list, title: 'Walk every day +1w'}).item.id
  h.Wait(() => p.count == 3, 'the third task')
  cursor(3, 1)
  v = p.version
  h.Keys("cc\<End> !high\<CR>")
  h.WaitVersion(p, v + 1, 'cc on the title with every')
  assert_equal('Walk \every day \+1w', prompt.prompts[-1].default)
  item = h.Result('items/get', {id: walk})
  assert_equal(['Walk every day +1w', 'high', null, null], [item.title, item.priority, item.repeat, item.due])
  h.NoInternalErrors()
enddef

def g:Test_f5_a_adds_a_repeating_task_from_the_quick_entry_line()
  OnClock()
  var p = h.PaneOn([])
  h.Keys("aWater plants every 3 days after done\<CR>")
  h.Wait(() => p.count == 1, 'the new task')
  var item = h.Result('items/get', {id: p.rows[0].id})
  assert_equal(['Water plants', '2026-11-25', 'FREQ=DAILY;INTERVAL=3', 'completion', 'every 3 days after done'],
    [item.title, item.due, item.repeat.rule, item.repeat.from, item.repeat.text])
  h.Wait(() => getline(1) =~ 'today ↻$', 'the mark')
  h.Keys("aPay rent ^2026-11-30 every month on the last day\<CR>")
  h.Wait(() => p.count == 2, 'the second task')
  item = h.Result('items/get', {id: p.rows[1].id})
  assert_equal(['2026-11-30', 'FREQ=MONTHLY;BYMONTHDAY=-1'], [item.due, item.repeat.rule])
  cursor(2, 1)
  h.Keys('x')
  h.Wait(() => h.Messages()[-1] =~ 'repeats', 'the line')
  assert_equal('taskls: "Pay rent" repeats (every month on the last day): next due 2026-12-31', h.Messages()[-1])
  h.NoInternalErrors()
enddef

def g:Test_f6_the_form_shows_and_sets_the_repeat()
  OnClock()
  var p = h.PaneOn([{title: 'Water plants', due: '2026-11-25', repeat: every_3_days}, 'Undated'])
  var id = p.rows[0].id
  cursor(1, 1)
  h.Keys('e')
  h.Wait(() => bufname() == 'taskls://form/' .. id, 'the form')
  assert_equal('Repeat: every 3 days', getline(6))
  assert_equal('--- Notes (every line below) ---', getline(7))
  setline(6, 'Repeat: every 2 weeks after done')
  write
  h.Wait(() => !&modified, 'saved')
  var item = h.Result('items/get', {id: id})
  assert_equal(['2026-11-25', 'FREQ=WEEKLY;INTERVAL=2', 'completion'], [item.due, item.repeat.rule, item.repeat.from])
  assert_equal('Repeat: every other week after done', getline(6), 'the server''s words')
  # Words that are no repeat: not saved, the form stays modified.
  setline(6, 'Repeat: every 3 fortnights')
  write
  h.Wait(() => h.Messages()[-1] =~ 'not saved', 'refused')
  assert_match('^taskls: not saved: Repeat: every 3 needs a unit', h.Messages()[-1])
  assert_true(&modified)
  setline(6, 'Repeat: off')
  write
  h.Wait(() => !&modified, 'saved without a repeat')
  assert_equal(null, h.Result('items/get', {id: id}).repeat)
  assert_equal('Repeat: ', getline(6))
  # A task without a due takes the repeat's first day.
  bwipeout!
  var undated = p.rows[1].id
  cursor(2, 1)
  h.Keys('e')
  h.Wait(() => bufname() == 'taskls://form/' .. undated, 'the second form')
  setline(6, 'Repeat: every mon')
  write
  h.Wait(() => !&modified, 'saved with a repeat')
  item = h.Result('items/get', {id: undated})
  assert_equal(['2026-11-30', 'FREQ=WEEKLY;BYDAY=MO'], [item.due, item.repeat.rule])
  h.NoInternalErrors()
enddef
