vim9script
# Reminders: the server fires a task's alerts (`reminder/fired`, once across every process on the
# store) to a client that watches them; the plugin watches from the server's start
# (g:taskls_reminders), shows each in a popup notification (a message line where popups are
# missing) and in :messages, and lists, snoozes and dismisses the pending ones (`reminders/list`,
# `reminders/snooze`, `reminders/dismiss`) from a menu.

import autoload 'taskls/client.vim'
import autoload 'taskls/render.vim'
import autoload 'taskls/prompt.vim'

# Every `reminder/fired` shown since the plugin was loaded, oldest first (for tests), and the
# popups that showed them.
export var fired: list<dict<any>> = []
export var popups: list<number> = []

# How long a reminder's popup stays, in milliseconds (a click closes it sooner).
export const popup_time = 10000

def Quoted(title: any): string
  return '"' .. client.Text(title) .. '"'
enddef

def Plural(n: number, word: string): string
  return printf('%d %s%s', n, word, n == 1 ? '' : 's')
enddef

# An instant as the server writes it (`2026-11-22T08:30:00.000Z`) in short words, `2026-11-22
# 08:30 UTC` (UTC as given: the pane has no time zone rules to read it on the client's clock), or
# the text as it is.
export def Instant(text: any): string
  var parts = matchlist(client.Text(text), '^\(\d\{4}-\d\d-\d\d\)T\(\d\d:\d\d\)')
  return empty(parts) ? client.Text(text) : parts[1] .. ' ' .. parts[2] .. ' UTC'
enddef

# An alert in words, as its item's due reads it: `{"offset": -60}` on a due time is `1 hour
# before`, `{"offset": 540}` on a due day `on the day at 09:00`, `-360` `the day before at
# 18:00`; `{"at": …}` is `at 2026-11-22 08:30 UTC`.
export def AlertWords(alert: any, due: any): string
  if type(alert) != v:t_dict
    return '?'
  endif
  if has_key(alert, 'at')
    return 'at ' .. Instant(alert.at)
  endif
  var offset = get(alert, 'offset', 0)
  offset = type(offset) == v:t_number ? offset : 0
  if type(due) == v:t_string && stridx(due, 'T') < 0
    var days = offset >= 0 ? offset / 1440 : -((-offset + 1439) / 1440)
    var minutes = offset - days * 1440
    var at = printf('%02d:%02d', minutes / 60, minutes % 60)
    if days == 0
      return 'on the day at ' .. at
    elseif days == -1
      return 'the day before at ' .. at
    elseif days == 1
      return 'the day after at ' .. at
    endif
    return printf('%d days %s at %s', abs(days), days < 0 ? 'before' : 'after', at)
  endif
  if offset == 0
    return 'at the due'
  endif
  var size = abs(offset)
  var parts: list<string> = []
  if size >= 1440
    add(parts, Plural(size / 1440, 'day'))
  endif
  if size % 1440 >= 60
    add(parts, Plural(size % 1440 / 60, 'hour'))
  endif
  if size % 60 > 0
    add(parts, Plural(size % 60, 'minute'))
  endif
  return join(parts, ' ') .. (offset < 0 ? ' before' : ' after')
enddef

# An item's alerts in words, joined by `, ` (`1 hour before, at 2026-11-22 08:30 UTC`); '' when none.
export def AlertsWords(item: dict<any>): string
  var alerts = get(item, 'alerts', [])
  if type(alerts) != v:t_list || empty(alerts)
    return ''
  endif
  return join(mapnew(copy(alerts), (_, a) => AlertWords(a, get(item, 'due', null))), ', ')
enddef

# The words of a reminder, as stored (the caller escapes them): `"Call Ann", due today 10:00`;
# with `late`, ` (late)` after them.
export def Words(reminder: dict<any>): string
  var item = get(reminder, 'item', {})
  item = type(item) == v:t_dict ? item : {}
  var text = Quoted(get(item, 'title', ''))
  var due = get(item, 'due', null)
  if type(due) == v:t_string
    text ..= ', due ' .. render.Due(due, false, get(item, 'dueLocal', null))[0]
  endif
  if client.IsTrue(get(reminder, 'late', false))
    text ..= ' (late)'
  endif
  return text
enddef

# A `reminder/fired`: one message line, `taskls: reminder: "Call Ann", due today 10:00` (a
# warning when late), and a popup notification with the same words at the top right (in
# WarningMsg when late).
export def OnFired(params: dict<any>)
  if type(get(params, 'item', null)) != v:t_dict
    return
  endif
  add(fired, params)
  var late = client.IsTrue(get(params, 'late', false))
  var words = Words(params)
  if exists('*popup_notification')
    var options: dict<any> = {title: ' taskls ', time: popup_time, close: 'click', tabpage: -1}
    if late
      options.highlight = 'WarningMsg'
    endif
    var id = popup_notification(['reminder: ' .. render.Displayed(words)], options)
    add(popups, id)
    if len(popups) > 50
      remove(popups, 0, 24)
    endif
  endif
  client.Notify('reminder: ' .. words, late ? 'warn' : 'info')
enddef

# Asks for the reminders fired and not yet dismissed nor snoozed; `OnList(reminders)` when there
# are any, else says there are none.
export def Pending(OnList: func(list<any>))
  client.Request('reminders/list', null, (result) => {
    var pending = type(result) == v:t_dict ? get(result, 'reminders', []) : []
    if type(pending) != v:t_list || empty(pending)
      client.Notify('no reminders pending')
      return
    endif
    OnList(pending)
  })
enddef

# How a pending reminder reads in the menu: its words, which alert, and when it fired.
export def Label(reminder: dict<any>): string
  var item = get(reminder, 'item', {})
  return printf('%s — %s, fired %s', render.Displayed(Words(reminder)),
    AlertWords(get(reminder, 'alert', {}), get(item, 'due', null)), Instant(get(reminder, 'firedAt', '')))
enddef

# Lets the user pick one of the pending reminders from a menu, then `Fn(reminder)`.
export def Pick(title: string, Fn: func(dict<any>))
  Pending((pending) => {
    prompt.Menu(title, mapnew(copy(pending), (_, r) => Label(r)), (index) => Fn(pending[index]))
  })
enddef

# Snoozes `reminder` for `minutes`: it fires again then, once across processes.
export def Snooze(reminder: dict<any>, minutes = 10)
  var params = {item: reminder.item.id, fireAt: reminder.fireAt, minutes: minutes}
  client.Request('reminders/snooze', params, (result) => {
    client.Notify(printf('snoozed the reminder of %s for %s', Quoted(reminder.item.title), Plural(minutes, 'minute')))
  })
enddef

# Dismisses `reminder`: it never fires again and leaves the list.
export def Dismiss(reminder: dict<any>)
  client.Request('reminders/dismiss', {item: reminder.item.id, fireAt: reminder.fireAt}, (result) => {
    client.Notify('dismissed the reminder of ' .. Quoted(reminder.item.title))
  })
enddef

# Marks the task of `reminder` done (which dismisses its reminders; a repeating task moves on to
# its next due instead, said in words, and this reminder is dismissed: the server keeps the
# reminder of the occurrence left behind pending, since the task is not done).
export def Done(reminder: dict<any>)
  client.Request('items/update', {id: reminder.item.id, done: true}, (result) => {
    var advanced = type(result) == v:t_dict ? get(result, 'advanced', []) : []
    if type(advanced) == v:t_list && !empty(advanced)
      for line in AdvancedLines(result)
        client.Notify(line)
      endfor
      client.Request('reminders/dismiss', {item: reminder.item.id, fireAt: reminder.fireAt}, null, (e) => true)
      return
    endif
    client.Notify('done: ' .. Quoted(reminder.item.title))
  })
enddef

# The lines that say which tasks of an `items/update` result moved on to their next due
# (`advanced`) instead of becoming done: `"Pay rent" repeats (every month on the 1st): next due
# 2026-12-01`, the due in the pane's words.
export def AdvancedLines(result: any): list<string>
  var lines: list<string> = []
  if type(result) != v:t_dict || type(get(result, 'advanced', null)) != v:t_list || type(get(result, 'items', null)) != v:t_list
    return lines
  endif
  for item in result.items
    if type(item) == v:t_dict && index(result.advanced, get(item, 'id', '')) >= 0
      add(lines, printf('%s repeats (%s): next due %s', Quoted(item.title), RepeatText(item), DueWords(item)))
    endif
  endfor
  return lines
enddef

# An item's repeat in the server's words (`every month on the 1st`); '' when it does not repeat.
export def RepeatText(item: dict<any>): string
  var rule = get(item, 'repeat', null)
  if type(rule) != v:t_dict
    return ''
  endif
  return client.Text(get(rule, 'text', get(rule, 'rule', '')))
enddef

# An item's due in the pane's words ("tomorrow", "in 3 days 09:00", "2026-12-01"); 'none'.
export def DueWords(item: dict<any>): string
  var due = get(item, 'due', null)
  return type(due) == v:t_string ? render.Due(due, false, get(item, 'dueLocal', null))[0] : 'none'
enddef

# What can be done with a pending reminder, as the menu of :TasksReminders offers it.
export const choices = ['Snooze 10 minutes', 'Snooze 1 hour', 'Dismiss', 'Done']

# Does choice `index` of `choices` to `reminder`.
export def Act(reminder: dict<any>, index: number)
  if index == 0
    Snooze(reminder, 10)
  elseif index == 1
    Snooze(reminder, 60)
  elseif index == 2
    Dismiss(reminder)
  elseif index == 3
    Done(reminder)
  endif
enddef

# :TasksReminders: pick a pending reminder, then what to do with it.
export def List()
  Pick('Reminders', (reminder) => {
    prompt.Menu(render.Displayed(Words(reminder)), choices, (index) => Act(reminder, index))
  })
enddef

# :TasksSnooze [minutes]: pick a pending reminder and snooze it (10 minutes by default).
export def SnoozePicked(minutes: string)
  var n = 10
  if trim(minutes) != ''
    n = trim(minutes) =~ '^\d\+$' ? str2nr(trim(minutes)) : -1
    if n < 1 || n > 527040
      client.Notify(printf('snooze for how long? %s is not a number of minutes from 1 to 527040', minutes), 'warn')
      return
    endif
  endif
  Pick('Snooze', (reminder) => Snooze(reminder, n))
enddef

# :TasksDismiss: pick a pending reminder and dismiss it.
export def DismissPicked()
  Pick('Dismiss', (reminder) => Dismiss(reminder))
enddef
