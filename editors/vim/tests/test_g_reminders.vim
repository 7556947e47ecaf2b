vim9script
# Reminders: watched from the server's start, each shown once in a popup notification and a
# message line as the clock passes it (late ones said so); :TasksReminders, :TasksSnooze and
# :TasksDismiss pick from the pending ones; g:taskls_reminders = 0 watches none.

import './helpers.vim' as h
import autoload 'taskls/client.vim'
import autoload 'taskls/reminders.vim'
import autoload 'taskls/details.vim'

def OnClock()
  h.Setup(h.store, ['--clock', '2026-11-25T08:00:00Z'])
  g:taskls_time_zone = 'UTC'
enddef

# The text of the popup of the latest reminder, or [] when it is closed.
def PopupText(): list<string>
  if empty(reminders.popups) || empty(popup_getpos(reminders.popups[-1]))
    return []
  endif
  return getbufline(winbufnr(reminders.popups[-1]), 1, '$')
enddef

# Moves the server's clock; what fires comes before the answer.
def SetClock(now: string)
  h.Result('debug/setClock', {now: now})
enddef

# The reminders pending on the server.
def Pending(): list<any>
  return h.Result('reminders/list').reminders
enddef

def g:Test_g1_a_reminder_fires_once_in_a_popup_and_snooze_brings_it_back()
  OnClock()
  var list = h.Seed('Home', [{title: 'Call Ann', due: '2026-11-25T10:00:00Z', alerts: [{offset: -60}]}])
  h.Wait(() => get(client.stats.requests, 'reminders/watch', 0) == 1, 'reminders/watch sent at the start')
  SetClock('2026-11-25T08:59:00Z')
  assert_equal([], reminders.fired, 'not yet')
  SetClock('2026-11-25T09:00:00Z')
  assert_equal(1, len(reminders.fired), 'fired before the answer to setClock')
  assert_equal('taskls: reminder: "Call Ann", due today 10:00', h.Messages()[-1])
  assert_equal('info', client.state.messages[-1].level)
  assert_equal(['reminder: "Call Ann", due today 10:00'], PopupText(), 'the popup notification')
  assert_equal(' taskls ', popup_getoptions(reminders.popups[-1]).title)
  SetClock('2026-11-25T09:05:00Z')
  assert_equal(1, len(reminders.fired), 'once')
  # The details say the alert in words.
  var item = h.Result('items/get', {id: reminders.fired[0].item.id})
  assert_true(index(details.ItemLines(item), 'Alerts     1 hour before') >= 0, string(details.ItemLines(item)))
  # :TasksReminders: pick it, then Snooze 10 minutes.
  TasksReminders
  var menu = h.WaitMenu('Reminders')
  assert_equal(['"Call Ann", due today 10:00 — 1 hour before, fired 2026-11-25 09:00 UTC'], menu.labels)
  h.Keys('1')
  menu = h.WaitMenu('"Call Ann", due today 10:00')
  assert_equal(['Snooze 10 minutes', 'Snooze 1 hour', 'Dismiss', 'Done'], menu.labels)
  h.Keys('1')
  h.Wait(() => h.Messages()[-1] =~ 'snoozed', 'the snooze said')
  assert_equal('taskls: snoozed the reminder of "Call Ann" for 10 minutes', h.Messages()[-1])
  assert_equal([], Pending(), 'a snoozed reminder is not pending')
  # It fires again at the end of the snooze (10 minutes after 09:05), once.
  SetClock('2026-11-25T09:14:00Z')
  assert_equal(1, len(reminders.fired))
  SetClock('2026-11-25T09:15:00Z')
  assert_equal(2, len(reminders.fired), 'fired again after the snooze')
  assert_equal('taskls: reminder: "Call Ann", due today 10:00', h.Messages()[-1])
  # :TasksDismiss: gone from the list, never again.
  TasksDismiss
  h.WaitMenu('Dismiss')
  h.Keys('1')
  h.Wait(() => h.Messages()[-1] =~ 'dismissed', 'the dismiss said')
  assert_equal('taskls: dismissed the reminder of "Call Ann"', h.Messages()[-1])
  assert_equal([], Pending())
  SetClock('2026-11-25T12:00:00Z')
  assert_equal(2, len(reminders.fired), 'a dismissed reminder never fires again')
  TasksReminders
  h.Wait(() => h.Messages()[-1] == 'taskls: no reminders pending', 'none pending said')
  h.NoInternalErrors()
enddef

def g:Test_g2_a_late_reminder_says_so_and_done_moves_a_repeating_task_on()
  OnClock()
  var list = h.Seed('Home', [])
  h.Wait(() => get(client.stats.requests, 'reminders/watch', 0) == 1, 'reminders/watch sent')
  # Alerts that pass while the clock jumps fire late.
  h.Result('items/create', {list: list, title: 'Stretch', due: '2026-11-25', alerts: [{offset: 540}],
    repeat: {rule: 'FREQ=DAILY', from: 'due'}})
  SetClock('2026-11-25T09:30:00Z')
  assert_equal(1, len(reminders.fired))
  assert_equal('taskls: reminder: "Stretch", due today (late)', h.Messages()[-1])
  assert_equal('warn', client.state.messages[-1].level, 'a late reminder is a warning')
  assert_equal(['reminder: "Stretch", due today (late)'], PopupText())
  assert_equal('WarningMsg', popup_getoptions(reminders.popups[-1]).highlight)
  # Done from the menu: a repeating task moves on (said in words), and its reminder is gone.
  TasksReminders
  var menu = h.WaitMenu('Reminders')
  assert_equal(['"Stretch", due today — on the day at 09:00, fired 2026-11-25 09:30 UTC'], menu.labels)
  h.Keys('1')
  h.WaitMenu('"Stretch", due today')
  h.Keys('4')
  h.Wait(() => h.Messages()[-1] =~ 'repeats', 'the done said')
  assert_equal('taskls: "Stretch" repeats (every day): next due tomorrow', h.Messages()[-1])
  # The reminder of the occurrence it left is dismissed with it.
  h.Wait(() => empty(Pending()), 'the reminder dismissed')
  # :TasksSnooze takes minutes; a bad length is said.
  TasksSnooze soon
  assert_equal('taskls: snooze for how long? soon is not a number of minutes from 1 to 527040', h.Messages()[-1])
  # Stored text in a reminder shows escaped.
  h.Result('items/create', {list: list, title: "Bell\e[5m", due: '2026-11-25T11:00:00Z', alerts: [{at: '2026-11-25T09:45:00Z'}]})
  SetClock('2026-11-25T09:45:00Z')
  assert_equal('taskls: reminder: "Bell\e[5m", due today 11:00', h.Messages()[-1])
  assert_equal(['reminder: "Bell\e[5m", due today 11:00'], PopupText())
  TasksSnooze 30
  menu = h.WaitMenu('Snooze')
  assert_equal(['"Bell\e[5m", due today 11:00 — at 2026-11-25 09:45 UTC, fired 2026-11-25 09:45 UTC'], menu.labels)
  h.Keys('1')
  h.Wait(() => h.Messages()[-1] =~ 'snoozed', 'the snooze said')
  assert_equal('taskls: snoozed the reminder of "Bell\e[5m" for 30 minutes', h.Messages()[-1])
  SetClock('2026-11-25T10:15:00Z')
  assert_equal(3, len(reminders.fired), 'again after 30 minutes')
  h.NoInternalErrors()
enddef

def g:Test_g3_with_reminders_off_none_is_watched_or_shown()
  OnClock()
  g:taskls_reminders = 0
  h.Seed('Home', [{title: 'Call Ann', due: '2026-11-25T10:00:00Z', alerts: [{offset: -60}]}])
  SetClock('2026-11-25T09:30:00Z')
  assert_equal(0, get(client.stats.requests, 'reminders/watch', 0))
  assert_equal([], reminders.fired)
  assert_equal([], PopupText())
  h.NoInternalErrors()
enddef

const root = fnamemodify(expand('<sfile>:p:h'), ':h')

def g:Test_g4_with_reminders_2_the_server_starts_with_vim_and_due_reminders_fire()
  var store = h.NewStore()
  var made = h.Drive(store, [
    {method: 'initialize', params: {}},
    {method: 'lists/create', params: {name: 'Home'}},
    {method: 'items/create', params: {list: 'l1', title: 'Standup', due: '2026-11-25T09:30:00Z', alerts: [{at: '2026-11-25T09:00:00Z'}]}},
  ])
  assert_equal('Standup', made[2].result.item.title)
  var out = tempname()
  var script = tempname() .. '.vim'
  writefile([
    'vim9script',
    'set runtimepath^=' .. root,
    'runtime plugin/taskls.vim',
    'g:taskls_cmd = [' .. string(h.bin) .. ', "serve", "--store", ' .. string(store) .. ', "--clock", "2026-11-25T10:00:00Z"]',
    'g:taskls_time_zone = "UTC"',
    'g:taskls_reminders = 2',
    'import autoload "taskls/reminders.vim"',
    # After the plugin's own VimEnter: wait (letting the channel run) for the reminder.
    'def Check()',
    '  for i in range(1000)',
    '    if !empty(reminders.fired) | break | endif',
    '    sleep 10m',
    '  endfor',
    '  writefile([string(len(reminders.fired)), bufname(), join(split(execute("messages"), "\n"), "|")], ' .. string(out) .. ')',
    '  qall!',
    'enddef',
    'autocmd VimEnter * Check()',
  ], script)
  # Ex mode (-es) reaches VimEnter with no terminal; a normal Vim would read the end of /dev/null first.
  var output = system(printf('timeout 30 vim -Nu NONE -U NONE -i NONE -es -S %s </dev/null 2>&1 >/dev/null', shellescape(script)))
  assert_equal(0, v:shell_error, 'Vim exits 0: ' .. output)
  var seen = readfile(out)
  assert_equal('1', seen[0], 'the reminder that came due fired at the start: ' .. string(seen))
  assert_equal('', seen[1], 'no pane or overview was opened')
  assert_match('taskls: reminder: "Standup", due today 09:30 (late)', seen[2])
enddef
